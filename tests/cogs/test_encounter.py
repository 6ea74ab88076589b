"""`/encounter start|show|end` end to end: the real bot, SimCord, a real database file."""

from __future__ import annotations

import pytest

from storage import Storage
from tests.conftest import button_labels, ephemeral_text, user_errors


async def _stored(bot, channel):
    return await bot.storage.load_encounter(channel.id)


async def test_start_creates_encounter_and_makes_caller_gm(world):
    env, guild, channel, gm, alice, bob = world
    result = await gm.slash(channel, "encounter start", ruleset="aphex", width=20, height=15)
    assert not result.ephemeral
    assert "aphex" in result.response.content and "20×15" in result.response.content
    assert gm.mention in result.response.content
    stored = await _stored(env.bot, channel)
    assert stored.gm_id == gm.id and stored.guild_id == guild.id
    assert (stored.encounter.ruleset, stored.encounter.map.width, stored.encounter.map.height) == (
        "aphex",
        20,
        15,
    )
    assert [e.kind for e in await env.bot.storage.recent_events(channel.id)] == ["started"]


async def test_start_offers_every_ruleset_and_bounds_the_map(world):
    env, guild, channel, gm, alice, bob = world
    command = env.bot.tree.get_command("encounter").get_command("start")
    params = {p.name: p for p in command.parameters}
    assert [c.value for c in params["ruleset"].choices] == ["dnd35", "aphex", "dragonquest"]
    assert (params["width"].min_value, params["width"].max_value) == (1, 100)
    assert (params["height"].min_value, params["height"].max_value) == (1, 100)


async def test_second_start_is_refused_ephemerally_and_changes_nothing(started):
    env, guild, channel, gm, alice, bob = started
    result = await alice.slash(channel, "encounter start", ruleset="dragonquest", width=5, height=5)
    assert "/encounter end" in ephemeral_text(result)
    assert len(user_errors(env)) == 1
    stored = await _stored(env.bot, channel)
    assert (stored.gm_id, stored.encounter.ruleset, stored.version) == (gm.id, "dnd35", 1)


async def test_show_lists_ruleset_map_round_and_gm(started):
    env, guild, channel, gm, alice, bob = started
    result = await bob.slash(channel, "encounter show")
    text = result.response.content
    assert not result.ephemeral
    assert "**dnd35**" in text and "12×10" in text and "round 1" in text
    assert f"GM: {gm.mention}" in text
    assert "No combatants yet" in text


async def test_show_lists_combatants_with_positions(started):
    env, guild, channel, gm, alice, bob = started
    from rules.encounter_file import load_data

    stored = await _stored(env.bot, channel)
    encounter = load_data(
        {
            "ruleset": "dnd35",
            "map": {"width": 12, "height": 10},
            "round": 3,
            "initiative": ["Ethan", "Ogre"],
            "turn": "Ogre",
            "combatants": [
                {"name": "Ethan", "side": "party", "player": alice.id, "at": "B2"},
                {"name": "Ogre", "side": "monsters", "at": "d4", "conditions": ["prone"]},
            ],
        }
    )
    await env.bot.storage.save_encounter(channel.id, encounter, stored.version)
    text = (await bob.slash(channel, "encounter show")).response.content
    assert "round 3" in text and "turn: Ogre" in text and "Ethan → Ogre" in text
    assert f"**Ethan** (party) at B2, {alice.mention}" in text
    assert "**Ogre** (monsters) at D4, GM [prone]" in text


async def test_show_without_encounter_says_how_to_start(world):
    env, guild, channel, gm, alice, bob = world
    result = await alice.slash(channel, "encounter show")
    assert "/encounter start" in ephemeral_text(result)
    user_errors(env)


async def test_end_asks_to_confirm_then_gm_confirms(started):
    env, guild, channel, gm, alice, bob = started
    result = await gm.slash(channel, "encounter end")
    prompt = result.response
    assert not result.ephemeral
    assert button_labels(prompt) == ["End encounter", "Keep it"]
    assert await _stored(env.bot, channel) is not None  # nothing ends before the confirm

    click = await gm.click(prompt, label="End encounter")
    assert not click.ephemeral
    assert await _stored(env.bot, channel) is None
    last = channel.last_message  # the prompt, edited in place
    assert last.id == prompt.id
    assert "ended the **dnd35** encounter" in last.content
    assert button_labels(last) == []


async def test_end_by_another_user_is_refused(started):
    env, guild, channel, gm, alice, bob = started
    result = await alice.slash(channel, "encounter end")
    assert "Only the GM" in ephemeral_text(result)
    user_errors(env)
    assert await _stored(env.bot, channel) is not None


async def test_confirm_button_pressed_by_another_user_is_refused(started):
    env, guild, channel, gm, alice, bob = started
    prompt = (await gm.slash(channel, "encounter end")).response
    click = await bob.click(prompt, label="End encounter")
    assert "Only the GM" in ephemeral_text(click)
    stored = await _stored(env.bot, channel)
    assert stored is not None and stored.version == 1
    assert button_labels(channel.last_message) == ["End encounter", "Keep it"]  # still there for the GM


async def test_keep_it_leaves_the_encounter(started):
    env, guild, channel, gm, alice, bob = started
    prompt = (await gm.slash(channel, "encounter end")).response
    await gm.click(prompt, label="Keep it")
    assert await _stored(env.bot, channel) is not None
    assert button_labels(channel.last_message) == []


async def test_manage_channels_may_end_someone_elses_encounter(started):
    env, guild, channel, gm, alice, bob = started
    import discord

    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    prompt = (await mod.slash(channel, "encounter end")).response
    await mod.click(prompt, label="End encounter")
    assert await _stored(env.bot, channel) is None


async def test_old_confirm_button_cannot_end_a_newer_encounter(started):
    env, guild, channel, gm, alice, bob = started
    old_prompt = (await gm.slash(channel, "encounter end")).response
    await gm.click((await gm.slash(channel, "encounter end")).response, label="End encounter")
    await alice.slash(channel, "encounter start", ruleset="aphex", width=8, height=8)
    await alice.click(old_prompt, label="End encounter")
    stored = await _stored(env.bot, channel)
    assert stored is not None and stored.encounter.ruleset == "aphex"


async def test_encounter_survives_restart_on_same_database(world, bot_factory):
    env, guild, channel, gm, alice, bob = world
    await gm.slash(channel, "encounter start", ruleset="dragonquest", width=9, height=7)
    prompt = (await gm.slash(channel, "encounter end")).response
    old_bot = env.bot

    new_bot = bot_factory()
    await env.restart_bot(new_bot)
    await old_bot.close()  # what `opportunist run` does on SIGTERM: the database is closed
    assert new_bot is not old_bot and env.bot is new_bot
    assert new_bot.synced is False  # same commands, same database: no sync on restart

    text = (await bob.slash(channel, "encounter show")).response.content
    assert "**dragonquest**" in text and "9×7" in text and f"GM: {gm.mention}" in text
    # The confirm button posted before the restart still works (DynamicItem + stored state).
    refused = await bob.click(prompt, label="End encounter")
    assert "Only the GM" in ephemeral_text(refused)
    await gm.click(prompt, label="End encounter")
    assert await new_bot.storage.load_encounter(channel.id) is None


async def test_closed_bot_leaves_data_on_disk(world, db_path):
    env, guild, channel, gm, alice, bob = world
    await gm.slash(channel, "encounter start", ruleset="dnd35", width=4, height=4)
    await env.bot.close()
    assert env.bot.storage.closed
    storage = await Storage.open(db_path)
    try:
        stored = await storage.load_encounter(channel.id)
        assert stored is not None and stored.gm_id == gm.id
    finally:
        await storage.close()


@pytest.mark.parametrize("ruleset", ["dnd35", "aphex", "dragonquest"])
async def test_start_each_ruleset(world, ruleset):
    env, guild, channel, gm, alice, bob = world
    await gm.slash(channel, "encounter start", ruleset=ruleset, width=100, height=1)
    assert (await _stored(env.bot, channel)).encounter.ruleset == ruleset
