"""Concurrency through the real bot: bursts of /move and of button presses arriving at the same instant.

SimCord refuses overlapping actor operations, so `support.burst` emits every interaction on the
simulated gateway first and settles once: the bot gets N INTERACTION_CREATE events together and
discord.py runs each in its own task, as with N real users. The checks are on the database and the
event log: exactly one action in flight per channel, each prompt resolved exactly once, and a state
that replays from the log.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.play._cog import flow_of
from cogs.play._flow import Flow
from rules.encounter_file import load_data, to_data
from tests.cogs.flow_support import install
from tests.conftest import user_errors
from tests.reliability.support import burst, mention_problems

N = 50
COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture
def overlap(monkeypatch, world):
    """Record how many /move and button handlers were inside the flow at the same time (proof that a
    burst really overlaps; the flow's per-channel lock then serialises them)."""
    seen = {"now": 0, "max": 0}

    def counting(method: Any) -> Any:
        async def wrapper(self: Flow, *args: Any, **kwargs: Any) -> Any:
            seen["now"] += 1
            seen["max"] = max(seen["max"], seen["now"])
            try:
                return await method(self, *args, **kwargs)
            finally:
                seen["now"] -= 1

        return wrapper

    # Patch the class of the bot's own Flow: when an earlier test's bot closed, discord.py purged the
    # extension modules, so the `Flow` imported at the top of this file may be a different class object.
    flow_class = type(flow_of(world.env.bot))
    monkeypatch.setattr(flow_class, "begin_action", counting(flow_class.begin_action))
    monkeypatch.setattr(flow_class, "press", counting(flow_class.press))
    return seen


def crowd(n: int) -> dict[str, Any]:
    """n party members in row 1 (GM-run) and, far away, one Ogre: nobody threatens anybody."""
    return {
        "ruleset": "dnd35",
        "map": {"width": 100, "height": 100},
        "combatants": [
            *({"name": f"P{i}", "side": "party", "at": f"{COLS[i % 26]}{1 + i // 26}"} for i in range(n)),
            {"name": "Ogre", "side": "foes", "at": "CV100"},
        ],
    }


def duel(alice: int) -> dict[str, Any]:
    """Ethan (alice) beside a GM-run Orc: any move of Ethan away provokes the Orc."""
    return {
        "ruleset": "dnd35",
        "map": {"width": 12, "height": 10},
        "combatants": [
            {"name": "Ethan", "side": "party", "player": alice, "at": "B2"},
            {"name": "Orc", "side": "foes", "at": "C2"},
        ],
    }


def replay(initial: dict[str, Any], events: list[Any]) -> dict[str, str]:
    """Positions after applying the logged actions in order, each checked against the state it saw."""
    at = {c["name"]: c["at"] for c in initial["combatants"]}
    for e in events:
        ruling = e.data["ruling"]
        before = {c["name"]: c["at"] for c in e.data["before"]["combatants"]}
        assert before == at, f"action {e.id} was ruled on a state the log does not lead to"
        assert ruling["path"][0] == at[ruling["who"]]
        at[ruling["who"]] = ruling["path"][-1 if e.data["stop_step"] is None else e.data["stop_step"]]
    return at


async def test_fifty_moves_in_one_channel_run_one_at_a_time(world, overlap):
    env, guild, channel, gm, alice, bob = world
    data = crowd(N)
    await install(env, channel, gm, data)
    targets = {f"P{i}": f"{COLS[i % 26]}{6 + i // 26}" for i in range(N)}  # 5 squares down, 25 ft

    results = await burst(
        env,
        [lambda who=who, to=to: gm.slash(channel, "move", who=who, path=to) for who, to in targets.items()],
    )
    assert user_errors(env) == []
    assert overlap["max"] == N  # all fifty were in flight together
    assert all(not r.ephemeral for r in results)
    stored = await env.bot.storage.load_encounter(channel.id)
    events = list(
        reversed([e for e in await env.bot.storage.recent_events(channel.id, 1000) if e.kind == "action"])
    )
    assert len(events) == N and stored.version == 1 + N
    final = replay(data, events)
    assert final == {c.name: c.at for c in stored.encounter.combatants}
    assert all(final[who] == to for who, to in targets.items())
    assert await env.bot.storage.load_pending(channel.id) is None


async def test_fifty_provoking_moves_in_one_channel_one_waits_on_its_prompt(world, overlap):
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, duel(alice.id))
    movers = [alice if i % 2 else gm for i in range(N)]
    results = await burst(env, [lambda m=m: m.slash(channel, "move", who="Ethan", path="A1") for m in movers])
    errors = user_errors(env)
    assert overlap["max"] == N
    public = [r for r in results if not r.ephemeral]
    waiting = [r for r in results if r.ephemeral]
    assert len(public) == 1 and len(waiting) == N - 1 and len(errors) == N - 1
    for r in waiting:
        text = r.response.content if r.response is not None else r.followups[-1].content
        assert "waiting on **Orc**" in text
    pending = await env.bot.storage.load_pending(channel.id)
    prompts = await env.bot.storage.open_prompts(channel.id)
    assert pending is not None and [p.combatant for p in prompts] == ["Orc"]
    assert (await env.bot.storage.load_encounter(channel.id)).version == 1  # nothing committed yet
    prompt_messages = [m for m in channel.history() if m.components]
    assert len(prompt_messages) == 1


async def test_fifty_channels_fifty_moves_then_fifty_presses(world, overlap):
    env, guild, channel, gm, alice, bob = world
    channels = [guild.create_text_channel(f"arena-{i}") for i in range(N)]
    for ch in channels:
        await install(env, ch, gm, duel(alice.id))
    since = len(env.http_requests)
    results = await burst(
        env, [lambda ch=ch: alice.slash(ch, "move", who="Ethan", path="A1") for ch in channels]
    )
    assert user_errors(env) == [] and all(not r.ephemeral for r in results)
    assert overlap["max"] == N
    overlap["max"] = 0
    prompts = []
    for ch in channels:
        open_prompts = await env.bot.storage.open_prompts(ch.id)
        assert [p.combatant for p in open_prompts] == ["Orc"]
        prompts.append(next(m for m in ch.history() if m.components))
    await burst(env, [lambda m=m: gm.click(m, label="Orc: Decline") for m in prompts])
    assert user_errors(env) == []
    assert overlap["max"] == N
    for ch in channels:
        stored = await env.bot.storage.load_encounter(ch.id)
        assert stored.version == 2 and stored.encounter.get("Ethan").at == "A1"
        assert await env.bot.storage.load_pending(ch.id) is None
        events = [e for e in await env.bot.storage.recent_events(ch.id) if e.kind == "action"]
        assert len(events) == 1 and [a["choice"] for a in events[0].data["answers"]] == ["decline"]
    assert mention_problems(env, {gm.id, alice.id}, since) == []


async def test_twenty_users_press_the_same_button_once(world, overlap):
    env, guild, channel, gm, alice, bob = world
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    # Everyone here may answer for the GM-run Orc: the GM and 19 members with Manage Channels.
    pressers = [gm, *(guild.add_member(env.create_user(f"mod{i}"), roles=[mods]) for i in range(19))]
    await install(env, channel, gm, duel(alice.id))
    await alice.slash(channel, "move", who="Ethan", path="A1")
    message = next(m for m in channel.history() if m.components)
    labels = ["Orc: Take AoO" if i % 2 else "Orc: Decline" for i in range(len(pressers))]

    overlap["max"] = 0
    results = await burst(
        env, [lambda p=p, lb=lb: p.click(message, label=lb) for p, lb in zip(pressers, labels, strict=True)]
    )
    assert overlap["max"] == len(pressers)
    accepted = [r for r in results if not r.ephemeral]
    refused = [r for r in results if r.ephemeral]
    assert len(accepted) == 1 and len(refused) == len(pressers) - 1
    for r in refused:
        text = r.response.content if r.response is not None else r.followups[-1].content
        assert "Already answered" in text or "no longer" in text, text
    rows = await env.bot.storage.recent_prompts(channel.id)
    first = rows[-1]
    assert first.combatant == "Orc" and first.status == "answered" and first.choice in ("take", "decline")
    pending = await env.bot.storage.load_pending(channel.id)
    if first.choice == "take":  # the outcome question is next: exactly one, still open
        assert pending is not None and [
            p.question["kind"] for p in await env.bot.storage.open_prompts(channel.id)
        ] == ["outcome"]
        answers = [a for a in pending.data["answers"] if a["question"]["kind"] == "aoo"]
        assert len(answers) == 1
    else:  # declined: the move completed exactly once
        assert pending is None
        events = [e for e in await env.bot.storage.recent_events(channel.id) if e.kind == "action"]
        assert len(events) == 1 and len(events[0].data["answers"]) == 1
        stored = await env.bot.storage.load_encounter(channel.id)
        assert stored.version == 2 and to_data(stored.encounter) != to_data(load_data(duel(alice.id)))
