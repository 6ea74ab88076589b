"""`/turn next` (initiative, rounds, per-turn resets, dragonquest order) and the autocompletes."""

from __future__ import annotations

from tests.cogs.flow_support import install, stored
from tests.conftest import ephemeral_text, user_errors


def dnd(alice_id: int, bob_id: int) -> dict:
    return {
        "ruleset": "dnd35",
        "map": {"width": 12, "height": 12},
        "initiative": ["Ethan", "Orc", "Mira"],
        "turn": "Ethan",
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "B2"},
            {"name": "Mira", "side": "party", "player": bob_id, "at": "B4", "conditions": ["flat_footed"]},
            {"name": "Orc", "side": "monsters", "at": "F6", "aoo_used": 1, "aoo_against": ["Ethan"]},
        ],
    }


async def test_turn_next_walks_initiative_resets_budgets_and_counts_rounds(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, dnd(alice.id, bob.id))
    # Only the GM or the controller of the combatant whose turn it is may end the turn.
    refused = await bob.slash(channel, "turn next")
    assert "Only the GM" in ephemeral_text(refused)
    user_errors(env)
    result = await alice.slash(channel, "turn next")
    assert "Round 1: **Orc**'s turn." in result.response.content
    enc = await stored(env, channel)
    # SPEC §7.1 `aoo_reset: turn`: budgets reset at the start of the combatant's own turn.
    assert (enc.turn, enc.get("Orc").aoo_used, enc.get("Orc").aoo_against) == ("Orc", 0, [])
    result = await gm.slash(channel, "turn next")
    assert f"**Mira**'s turn. {bob.mention}" in result.response.content  # the player is pinged
    assert bob.id in {u.id for u in channel.last_message.mentions}
    # SRD: a combatant is flat-footed until its first turn.
    assert "flat_footed" not in (await stored(env, channel)).get("Mira").conditions
    await bob.slash(channel, "turn next")
    enc = await stored(env, channel)
    assert (enc.round, enc.turn) == (2, "Ethan")


async def test_dragonquest_turn_order_puts_engaged_figures_first(world):
    env, guild, channel, gm, alice, bob = world
    await install(
        env,
        channel,
        gm,
        {
            "ruleset": "dragonquest",
            "map": {"width": 10, "height": 10},
            "initiative": ["Far", "Close", "Troll"],
            "combatants": [
                {"name": "Far", "side": "party", "at": "A1"},
                {"name": "Close", "side": "party", "at": "E5"},
                {"name": "Troll", "side": "monsters", "at": "E6"},
            ],
        },
    )
    # 003_3defe2e1570abee3.txt: "all actions of non-engaged figures occur after all the actions of
    # engaged figures have been resolved."
    seen = []
    for _ in range(3):
        await gm.slash(channel, "turn next")
        seen.append((await stored(env, channel)).turn)
    assert seen == ["Close", "Troll", "Far"]


async def test_combatant_autocomplete_offers_only_what_the_user_may_act_for(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, dnd(alice.id, bob.id))
    mine = await alice.autocomplete(channel, "move", "who", "")
    assert [c["value"] for c in mine] == ["Ethan"]
    everyone = await gm.autocomplete(channel, "move", "who", "")
    assert {c["value"] for c in everyone} == {"Ethan", "Mira", "Orc"}
    typed = await gm.autocomplete(channel, "move", "who", "mi")
    assert [c["value"] for c in typed] == ["Mira"]


async def test_action_autocomplete_comes_from_the_rulings_catalogue(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, dnd(alice.id, bob.id))
    offered = [c["value"] for c in await alice.autocomplete(channel, "act", "action", "stand")]
    assert "stand-up" in offered
    modes = [c["value"] for c in await alice.autocomplete(channel, "move", "mode", "")]
    assert modes[:3] == ["normal", "run", "charge"] and "tumble-through" in modes


async def test_path_autocomplete_offers_the_open_squares_next_to_the_last_one(world):
    env, guild, channel, gm, alice, bob = world
    data = dnd(alice.id, bob.id)
    data["map"]["blocked"] = ["C3"]
    await install(env, channel, gm, data)
    start = [c["value"] for c in await alice.autocomplete(channel, "move", "path", "", who="Ethan")]
    assert sorted(start) == sorted(["A1", "B1", "C1", "A2", "C2", "A3", "B3"])  # C3 is blocked
    more = [c["value"] for c in await alice.autocomplete(channel, "move", "path", "c2", who="Ethan")]
    assert "c2 D3" in more and "c2 C3" not in more and len(more) == 7
