"""`/encounter undo` and `/encounter log` through the real bot (aphex: Ethan runs past an archer)."""

from __future__ import annotations

from rules.encounter_file import to_data
from tests.cogs.flow_support import install, last_prompt, stored
from tests.conftest import ephemeral_text, user_errors


def field(alice_id: int, bob_id: int, timeout: int = 120, weapon: str = "missile") -> dict:
    return {
        "ruleset": "aphex",
        "map": {"width": 20, "height": 12},
        "settings": {"prompt_timeout": timeout},
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "A6", "ap": 4, "stride": 2},
            {"name": "Archer", "side": "foes", "player": bob_id, "at": "D1", "weapon": weapon, "range": 30},
        ],
    }


async def _snapshot(env, channel):
    s = await env.bot.storage.load_encounter(channel.id)
    return s.version, to_data(s.encounter)


async def _run(world, path: str, *, shoot: bool):
    """Ethan runs; the archer (bob) either shoots after AP 1 and misses, or declines."""
    env, guild, channel, gm, alice, bob = world
    await alice.slash(channel, "move", who="Ethan", path=path)
    if shoot:
        await bob.click(last_prompt(channel), label="Archer: Attack now")
        await bob.click(last_prompt(channel), label="Archer: Miss")
    else:
        await bob.click(last_prompt(channel), label="Archer: Decline")
    assert await env.bot.storage.load_pending(channel.id) is None


async def test_undo_restores_the_state_before_the_last_completed_move(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    start = to_data(await stored(env, channel))
    await _run(world, "I6", shoot=True)
    moved = await stored(env, channel)
    assert moved.get("Ethan").at == "I6" and not moved.get("Archer").loaded

    result = await gm.slash(channel, "encounter undo")
    assert (
        not result.ephemeral
        and "Undone" in result.response.content
        and "**Ethan**" in result.response.content
    )
    assert result.response.attachments[0].filename == "map.png"
    assert to_data(await stored(env, channel)) == start  # position and the archer's shot both back
    kinds = [e.kind for e in await env.bot.storage.recent_events(channel.id)]
    assert kinds[:2] == ["undo", "action"]


async def test_repeated_undo_walks_back_further_then_says_nothing_is_left(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    start = to_data(await stored(env, channel))
    await _run(world, "E6", shoot=False)
    middle = to_data(await stored(env, channel))
    await _run(world, "I6", shoot=False)
    assert (await stored(env, channel)).get("Ethan").at == "I6"

    await gm.slash(channel, "encounter undo")
    assert to_data(await stored(env, channel)) == middle
    await gm.slash(channel, "encounter undo")
    assert to_data(await stored(env, channel)) == start
    before = await _snapshot(env, channel)
    text = ephemeral_text(await gm.slash(channel, "encounter undo"))
    assert "no completed action left to undo" in text
    user_errors(env)
    assert await _snapshot(env, channel) == before


async def test_undo_is_for_the_gm_and_waits_for_the_action_in_flight(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    await _run(world, "E6", shoot=False)
    before = await _snapshot(env, channel)
    assert "Only the GM" in ephemeral_text(await alice.slash(channel, "encounter undo"))
    await alice.slash(channel, "move", who="Ethan", path="I6")
    text = ephemeral_text(await gm.slash(channel, "encounter undo"))
    assert "waiting on **Archer**" in text
    assert len(user_errors(env)) == 2
    assert await _snapshot(env, channel) == before


async def test_log_shows_rulings_newest_first_with_answers_and_timeouts(world):
    env, guild, channel, gm, alice, bob = world
    # 000_700d95b3c74e1117.txt: wands "can be used ... without restriction of using the item again", so
    # the archer (with a wand here) can interrupt every run.
    await install(env, channel, gm, field(alice.id, bob.id, timeout=60, weapon="wand"))
    await _run(world, "E6", shoot=True)  # answered: Attack now, then Miss
    await alice.slash(channel, "move", who="Ethan", path="E11")  # bob never answers
    await env.advance_time(61)
    assert await env.bot.storage.load_pending(channel.id) is None
    await alice.slash(channel, "move", who="Ethan", path="I11")  # still waiting

    result = await bob.slash(channel, "encounter log")
    text = result.response.content
    assert not result.ephemeral
    lines = text.splitlines()
    waiting = next(i for i, line in enumerate(lines) if line.startswith("⏳"))
    second = next(i for i, line in enumerate(lines) if "E6 → " in line and "E11" in line)
    first = next(i for i, line in enumerate(lines) if "A6 → " in line)
    assert waiting < second < first  # newest first
    block_first = "\n".join(lines[first:])
    assert f"Attack now by {bob.mention}" in block_first
    assert f"Miss by {bob.mention}" in block_first
    block_second = "\n".join(lines[second:first])
    assert "timed out → Decline" in block_second
    assert "**Archer** (interrupt" in "\n".join(lines[waiting:second]) and "waiting" in lines[waiting + 1]
    # The log names people without pinging them.
    assert env.backend.get_message(channel.id, result.response.id).ping_user_ids == []

    await bob.click(last_prompt(channel), label="Archer: Decline")
    await gm.slash(channel, "encounter undo")
    text = (await bob.slash(channel, "encounter log")).response.content
    assert "*(undone)*" in text and "↩ undo of #" in text


async def test_log_of_a_fresh_encounter(started):
    env, guild, channel, gm, alice, bob = started
    text = (await alice.slash(channel, "encounter log")).response.content
    assert "Encounter started (dnd35)" in text


async def test_undo_stops_at_an_import_and_the_log_shows_gm_edits(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    await _run(world, "E6", shoot=False)
    exported = await (await gm.slash(channel, "encounter export")).response.attachments[0].read()
    await gm.click(
        (await gm.slash(channel, "encounter import", file=("e.yaml", exported))).response, label="Import"
    )
    text = ephemeral_text(await gm.slash(channel, "encounter undo"))
    assert "no completed action left to undo" in text  # the move belonged to the replaced encounter
    user_errors(env)
    await gm.slash(channel, "combatant place", name="Archer", at="D2")
    log = (await bob.slash(channel, "encounter log")).response.content
    assert (
        log.index("GM: placed **Archer**")
        < log.index("Encounter file imported (aphex, 2 combatant(s))")
        < log.index("A6 → ")
    )
