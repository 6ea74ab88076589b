"""The reaction flow's promises (SPEC §6, §8), through the real bot: who may press, spent buttons,
one action per channel, restarts, deadlines, standing orders, and pings that reach only the intended."""

from __future__ import annotations

import pytest

from tests.cogs.flow_support import install, labels, last_prompt, mentioned_ids, prompts, stored
from tests.conftest import ephemeral_text, user_errors


def field(
    alice_id: int,
    bob_id: int,
    *,
    timeout: int = 120,
    on_timeout: str = "decline",
    archer_name: str = "Archer",
):
    """Ethan (alice's) runs past one archer (bob's) and a GM-run slinger."""
    return {
        "ruleset": "aphex",
        "map": {"width": 20, "height": 12},
        "settings": {"prompt_timeout": timeout, "on_timeout": on_timeout},
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice_id, "at": "A6", "ap": 4, "stride": 2},
            {
                "name": archer_name,
                "side": "foes",
                "player": bob_id,
                "at": "D1",
                "weapon": "missile",
                "range": 30,
            },
        ],
    }


async def start_run(world, **kwargs):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id, **kwargs))
    await alice.slash(channel, "move", who="Ethan", path="I6")
    return last_prompt(channel)


async def test_only_the_controller_or_gm_may_press(world):
    env, guild, channel, gm, alice, bob = world
    prompt = await start_run(world)
    refused = await alice.click(prompt, label="Archer: Attack now")
    assert "Only **Archer**'s controller" in ephemeral_text(refused)
    user_errors(env)
    pending = await env.bot.storage.load_pending(channel.id)
    assert pending is not None and len(pending.data["answers"]) == 0  # nothing changed
    assert "Archer: Attack now" in labels(last_prompt(channel))
    # The GM may answer for anyone.
    await gm.click(prompt, label="Archer: Decline")
    assert prompts(channel) == []  # the answered prompt lost its buttons
    assert "Archer** — Decline (GM)" in channel.last_message.content


async def test_a_spent_button_changes_nothing(world):
    env, guild, channel, gm, alice, bob = world
    prompt = await start_run(world, on_timeout="gm", timeout=60)
    await env.advance_time(61)  # bob never answers: the GM is asked in a new message
    escalated = last_prompt(channel)
    assert escalated.id != prompt.id and mentioned_ids(escalated) == {gm.id}
    await gm.click(escalated, label="Archer: Decline")
    # The first message still shows the (now spent) buttons to bob's client: pressing changes nothing.
    again = await gm.click(prompt, label="Archer: Attack now")
    assert "Already answered: **Decline**" in ephemeral_text(again)
    user_errors(env)
    assert (await stored(env, channel)).get("Ethan").at == "I6"
    assert (await stored(env, channel)).get("Archer").loaded  # the refused attack never happened


async def test_a_second_action_waits_for_the_first(world):
    env, guild, channel, gm, alice, bob = world
    await start_run(world)
    result = await alice.slash(channel, "move", who="Ethan", path="B6")
    text = ephemeral_text(result)
    assert "waiting on **Archer**" in text and "interrupt" in text
    user_errors(env)
    assert (await stored(env, channel)).get("Ethan").at == "A6"


async def test_a_prompt_survives_a_restart(world, bot_factory):
    env, guild, channel, gm, alice, bob = world
    prompt = await start_run(world)
    old = env.bot
    new = bot_factory()
    await env.restart_bot(new)
    await old.close()
    await bob.click(prompt, label="Archer: Attack now")
    await bob.click(last_prompt(channel), label="Archer: Hit")
    after = (await new.storage.load_encounter(channel.id)).encounter
    assert after.get("Ethan").at == "I6" and not after.get("Archer").loaded


async def test_a_deadline_that_passed_while_the_bot_was_down_resolves_at_start_up(world, bot_factory):
    env, guild, channel, gm, alice, bob = world
    await start_run(world, timeout=60)
    old = env.bot
    await old.close()  # the bot is down ...
    await env.advance_time(3600)  # ... for an hour, long past the 60 s deadline
    new = bot_factory()
    await env.restart_bot(new)
    await env.settle()
    after = (await new.storage.load_encounter(channel.id)).encounter
    assert after.get("Ethan").at == "I6"  # declined by timeout, the move went ahead
    assert after.get("Archer").loaded
    [prompt_row] = await new.storage.recent_prompts(channel.id)
    assert (prompt_row.status, prompt_row.choice) == ("timeout", "decline")


async def test_deadline_declines_and_the_log_says_so(world):
    env, guild, channel, gm, alice, bob = world
    await start_run(world, timeout=30)
    await env.advance_time(31)
    assert (await stored(env, channel)).get("Ethan").at == "I6"
    assert "(timed out)" in channel.last_message.content


async def test_long_timeouts_remind_once_at_half_time(world):
    env, guild, channel, gm, alice, bob = world
    await start_run(world, timeout=3600)
    before = len(channel.history())
    await env.advance_time(1799)
    assert len(channel.history()) == before
    await env.advance_time(2)
    reminder = channel.last_message
    assert "reminder" in reminder.content and mentioned_ids(reminder) == {bob.id}
    await env.advance_time(1000)
    assert len(channel.history()) == before + 1  # only once


async def test_standing_order_answers_without_a_ping(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    result = await bob.slash(channel, "orders", who="Archer", policy="decline", trigger="movement")
    assert "never reacts" in ephemeral_text(result)
    await alice.slash(channel, "move", who="Ethan", path="I6")
    assert prompts(channel) == []  # nobody was pinged
    assert (await stored(env, channel)).get("Ethan").at == "I6"
    assert "(standing order)" in channel.last_message.content


async def test_orders_for_someone_elses_combatant_are_refused(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    result = await alice.slash(channel, "orders", who="Archer", policy="decline")
    assert "don't control **Archer**" in ephemeral_text(result)
    user_errors(env)
    assert await env.bot.storage.orders(channel.id) == {}


@pytest.mark.parametrize("name", ["everyone", "here"])
async def test_names_cannot_ping_anyone(world, name):
    env, guild, channel, gm, alice, bob = world
    # SPEC §3 names can't contain @ or <>, and every message limits its mentions to the users it means.
    prompt = await start_run(world, archer_name=name)
    assert mentioned_ids(prompt) == {bob.id}
    assert not prompt.mention_everyone and not prompt.role_mentions
    for request in env.http_requests:
        body = request.json if isinstance(request.json, dict) else {}
        if "content" in body or "data" in body:
            allowed = body.get("allowed_mentions") or (body.get("data") or {}).get("allowed_mentions")
            assert allowed is not None, f"a message without allowed_mentions: {request.path}"
            assert "everyone" not in allowed.get("parse", []) and "roles" not in allowed.get("parse", [])


async def test_preview_is_ephemeral_and_changes_nothing(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    result = await alice.slash(channel, "move", who="Ethan", path="I6", preview=True)
    text = ephemeral_text(result)
    assert "Preview" in text and "**Archer** after AP 1, 2, 3" in text
    assert result.response.attachments  # the map with the path
    assert await env.bot.storage.load_pending(channel.id) is None
    assert (await stored(env, channel)).get("Ethan").at == "A6"
    assert prompts(channel) == []


async def test_players_move_only_their_own_combatants(world):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, field(alice.id, bob.id))
    result = await bob.slash(channel, "move", who="Ethan", path="B6")
    assert "don't control **Ethan**" in ephemeral_text(result)
    user_errors(env)
    assert (await env.bot.storage.load_encounter(channel.id)).version == 1


async def test_act_works_for_every_ruleset_without_a_move_mode(world):
    env, guild, channel, gm, alice, bob = world
    data = field(alice.id, bob.id)
    data["combatants"][1]["loaded"] = False
    await install(env, channel, gm, data)
    # 000_700d95b3c74e1117.txt: "must therefore load or draw a new weapon to take its place."
    await bob.slash(channel, "act", who="Archer", action="reload")
    assert "goes ahead" in channel.last_message.content
    assert prompts(channel) == []
    assert (await stored(env, channel)).get("Archer").loaded
