"""`/combatant add|set|remove|place|condition` through the real bot."""

from __future__ import annotations

import pytest

from rules.encounter_file import to_data
from tests.cogs.flow_support import install, last_prompt, stored
from tests.conftest import ephemeral_text, user_errors


async def _snapshot(env, channel):
    s = await env.bot.storage.load_encounter(channel.id)
    return s.version, to_data(s.encounter)


async def test_add_with_player_and_stats(started):
    env, guild, channel, gm, alice, bob = started
    result = await gm.slash(
        channel,
        "combatant add",
        name="Ogre",
        at="d4",
        side="monsters",
        stats="size=large reach_weapon=yes feats=combat_reflexes dex=3",
    )
    assert not result.ephemeral
    assert "Added **Ogre** (monsters) at **D4**" in result.response.content
    await gm.slash(channel, "combatant add", name="Ethan", at="B2", side="party", player=alice)
    enc = await stored(env, channel)
    ogre = enc.get("Ogre")
    assert (ogre.size, ogre.reach_weapon, ogre.feats, ogre.dex, ogre.player) == (
        "large",
        True,
        ["combat_reflexes"],
        3,
        None,
    )
    assert enc.get("Ethan").player == alice.id
    kinds = [e.kind for e in await env.bot.storage.recent_events(channel.id)]
    assert kinds[:2] == ["combatant_added", "combatant_added"]


@pytest.mark.parametrize(
    ("stats", "named"),
    [
        ("size=enormous", "size=enormous"),  # a bad value: the key and the value are named
        ("dex=lots", "dex=lots"),
        ("speed=33", "speed=33"),
        ("feats=combat_reflexes,flying", "flying"),
        ("wings=2", "`wings`"),  # an unknown key is named, with the known ones
        ("size", "`size` is not `key=value`"),
    ],
)
async def test_bad_stats_name_the_key_and_value_and_change_nothing(started, stats, named):
    env, guild, channel, gm, alice, bob = started
    before = await _snapshot(env, channel)
    result = await gm.slash(channel, "combatant add", name="Ogre", at="D4", side="monsters", stats=stats)
    text = ephemeral_text(result)
    assert named in text, text
    assert len(user_errors(env)) == 1
    assert await _snapshot(env, channel) == before


async def test_unknown_stat_lists_the_known_ones(started):
    env, guild, channel, gm, alice, bob = started
    text = ephemeral_text(
        await gm.slash(channel, "combatant add", name="Ogre", at="D4", side="m", stats="wings=2")
    )
    assert "size" in text and "reach_weapon" in text
    user_errors(env)


@pytest.mark.parametrize(
    ("name", "at", "complaint"),
    [
        ("Ogre", "M4", "off the map"),  # 12 columns: A..L
        ("Ogre", "D11", "off the map"),
        ("Ogre", "4D", "square"),
        ("Ethan", "E5", "already a combatant called"),
        ("ethan", "E5", "already a combatant called"),  # names are unique case-insensitively
        ("Bad@Name", "E5", "name"),
        ("x" * 33, "E5", "32"),
        ("Ogre", "C3", "blocked"),
        ("Ogre", "B2", "already stands there"),
    ],
)
async def test_bad_positions_and_names_are_refused(world, name, at, complaint):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "dnd35",
            "map": {"width": 12, "height": 10, "blocked": ["C3"]},
            "combatants": [{"name": "Ethan", "side": "party", "at": "B2"}],
        },
    )
    before = await _snapshot(env, channel)
    text = ephemeral_text(await gm.slash(channel, "combatant add", name=name, at=at, side="monsters"))
    assert complaint in text, text
    user_errors(env)
    assert await _snapshot(env, channel) == before


async def test_a_large_creature_must_fit_on_the_map(started):
    env, guild, channel, gm, alice, bob = started
    text = ephemeral_text(
        await gm.slash(channel, "combatant add", name="Ogre", at="L10", side="m", stats="size=large")
    )
    assert "would not fit on the map" in text
    user_errors(env)
    assert (await stored(env, channel)).combatants == []


async def test_set_changes_stats_ephemerally_and_reports_bad_ones(started):
    env, guild, channel, gm, alice, bob = started
    await gm.slash(channel, "combatant add", name="Ogre", at="D4", side="monsters")
    result = await gm.slash(channel, "combatant set", name="ogre", stats="speed=20 feats=mobility")
    assert "Updated **Ogre**" in ephemeral_text(result)
    ogre = (await stored(env, channel)).get("Ogre")
    assert (ogre.speed, ogre.feats) == (20, ["mobility"])

    before = await _snapshot(env, channel)
    text = ephemeral_text(await gm.slash(channel, "combatant set", name="Ogre", stats="speed=fast"))
    assert "speed=fast" in text
    text = ephemeral_text(await gm.slash(channel, "combatant set", name="Nobody", stats="speed=20"))
    assert "No combatant called `Nobody`" in text
    assert len(user_errors(env)) == 2
    assert await _snapshot(env, channel) == before


async def test_remove_drops_it_from_initiative_turn_and_orders(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "aphex",
            "map": {"width": 10, "height": 10},
            "initiative": ["Ethan", "Orc", "Troll"],
            "turn": "Orc",
            "combatants": [
                {"name": "Ethan", "side": "party", "at": "A1"},
                {"name": "Orc", "side": "foes", "at": "E5"},
                {"name": "Troll", "side": "foes", "at": "F5"},
            ],
        },
    )
    await gm.slash(channel, "orders", who="Orc", policy="take")
    assert await env.bot.storage.orders(channel.id) == {("Orc", "any"): "take"}
    result = await gm.slash(channel, "combatant remove", name="Orc")
    assert "Removed **Orc**" in result.response.content and "**Troll**'s turn" in result.response.content
    enc = await stored(env, channel)
    assert [c.name for c in enc.combatants] == ["Ethan", "Troll"]
    assert (enc.initiative, enc.turn) == (["Ethan", "Troll"], "Troll")
    assert await env.bot.storage.orders(channel.id) == {}

    result = await gm.slash(channel, "combatant add", name="Ogre", at="H8", side="foes")
    assert "joins the initiative last" in result.response.content
    assert (await stored(env, channel)).initiative == ["Ethan", "Troll", "Ogre"]


async def test_place_moves_without_provoking(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "dnd35",
            "map": {"width": 12, "height": 10},
            "combatants": [
                {"name": "Ethan", "side": "party", "player": alice.id, "at": "B2"},
                {"name": "Ogre", "side": "monsters", "at": "C3"},
            ],
        },
    )
    messages_before = len(channel.history())
    result = await gm.slash(channel, "combatant place", name="Ethan", at="H8")
    assert "Placed **Ethan** at **H8** (from B2)" in result.response.content
    enc = await stored(env, channel)
    assert enc.get("Ethan").at == "H8"
    # Leaving the Ogre's reach by placing: no prompt, nothing in flight, the Ogre's AoO unspent.
    assert await env.bot.storage.load_pending(channel.id) is None
    assert await env.bot.storage.open_prompts(channel.id) == []
    assert enc.get("Ogre").aoo_used == 0
    assert len(channel.history()) == messages_before + 1  # only the reply
    assert not any(m.components for m in channel.history())


async def test_conditions_add_and_remove(started):
    env, guild, channel, gm, alice, bob = started
    await gm.slash(channel, "combatant add", name="Ogre", at="D4", side="monsters")
    result = await gm.slash(channel, "combatant condition", name="Ogre", add="prone, flat-footed")
    assert "prone, flat_footed" in result.response.content
    await gm.slash(channel, "combatant condition", name="Ogre", remove="prone")
    assert (await stored(env, channel)).get("Ogre").conditions == ["flat_footed"]

    before = await _snapshot(env, channel)
    text = ephemeral_text(await gm.slash(channel, "combatant condition", name="Ogre", add="sleepy"))
    assert "`sleepy` is not a condition in dnd35" in text and "prone" in text
    text = ephemeral_text(await gm.slash(channel, "combatant condition", name="Ogre", remove="prone"))
    assert "is not `prone`" in text
    text = ephemeral_text(await gm.slash(channel, "combatant condition", name="Ogre"))
    assert "add" in text
    assert len(user_errors(env)) == 3
    assert await _snapshot(env, channel) == before


async def test_edits_wait_while_an_action_is_in_flight(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "dnd35",
            "map": {"width": 12, "height": 10},
            "combatants": [
                {"name": "Ethan", "side": "party", "player": alice.id, "at": "B2"},
                {"name": "Ogre", "side": "monsters", "at": "C3"},
            ],
        },
    )
    await alice.slash(channel, "move", who="Ethan", path="A2 A3")
    assert await env.bot.storage.load_pending(channel.id) is not None
    before = await _snapshot(env, channel)
    for command, options in (
        ("combatant add", {"name": "Orc", "at": "H8", "side": "monsters"}),
        ("combatant set", {"name": "Ogre", "stats": "speed=20"}),
        ("combatant remove", {"name": "Ogre"}),
        ("combatant place", {"name": "Ethan", "at": "H8"}),
        ("combatant condition", {"name": "Ogre", "add": "prone"}),
    ):
        text = ephemeral_text(await gm.slash(channel, command, **options))
        assert "waiting on" in text and "Ogre" in text, (command, text)
    assert len(user_errors(env)) == 5
    assert await _snapshot(env, channel) == before
    await gm.click(last_prompt(channel), label="Ogre: Decline")
    assert await env.bot.storage.load_pending(channel.id) is None
    await gm.slash(channel, "combatant place", name="Ethan", at="H8")
    assert (await stored(env, channel)).get("Ethan").at == "H8"


async def test_mentions_in_sides_ping_nobody(started):
    env, guild, channel, gm, alice, bob = started
    result = await gm.slash(channel, "combatant add", name="Ogre", at="D4", side="@everyone")
    sent = env.backend.get_message(channel.id, result.response.id)
    assert sent.ping_user_ids == [] and sent.ping_role_ids == [] and not sent.mention_everyone
    assert "@everyone" not in result.response.content  # escaped, so it reads but cannot ping


async def test_autocomplete_squares_conditions_and_names(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "dnd35",
            "map": {"width": 12, "height": 10, "blocked": ["C3"]},
            "combatants": [
                {"name": "Ethan", "side": "party", "player": alice.id, "at": "B2"},
                {"name": "Ogre", "side": "monsters", "at": "D4", "conditions": ["prone", "blinded"]},
            ],
        },
    )
    squares = await gm.autocomplete(channel, "combatant place", "at", "c", name="Ethan")
    assert [c["value"] for c in squares] == [f"C{r}" for r in range(1, 11) if r != 3]  # C3 is blocked
    assert [c["value"] for c in await gm.autocomplete(channel, "combatant place", "at", "d1", name="E")] == [
        "D1",
        "D10",
    ]
    named = await gm.autocomplete(channel, "combatant add", "at", "", name="X", side="y")
    assert [c["name"] for c in named] == ["B2 (Ethan)", "D4 (Ogre)"]

    removable = await gm.autocomplete(channel, "combatant condition", "remove", "", name="Ogre")
    assert [c["value"] for c in removable] == ["prone", "blinded"]
    addable = await gm.autocomplete(channel, "combatant condition", "add", "st", name="Ogre")
    assert [c["value"] for c in addable] == ["stunned"]

    # /threatens is for everyone: a player is offered every combatant, not only its own.
    names = await bob.autocomplete(channel, "threatens", "who", "")
    assert [c["value"] for c in names] == ["Ethan", "Ogre"]
