"""The flow's tables on a real database: the action in flight, prompts, deadlines, standing orders."""

from __future__ import annotations

import pytest

from rules.encounter_file import load_data
from storage import StaleVersionError, Storage
from storage.flow import NewPrompt

CHANNEL = 42


@pytest.fixture
async def storage(tmp_path):
    clock = {"now": 1000.0}
    s = await Storage.open(tmp_path / "flow.sqlite3", clock=lambda: clock["now"])
    s.test_clock = clock  # type: ignore[attr-defined]
    await s.create_encounter(
        CHANNEL, load_data({"ruleset": "dnd35", "map": {"width": 5, "height": 5}}), gm_id=7, guild_id=1
    )
    yield s
    await s.close()


def prompt(qid: str, deadline: float | None = None, remind_at: float | None = None) -> NewPrompt:
    return NewPrompt(
        question_id=qid,
        question={"id": qid},
        combatant="Ogre",
        ping_user=7,
        deadline=deadline,
        remind_at=remind_at,
    )


async def test_only_one_action_in_flight_and_stale_updates_lose(storage):
    pid = await storage.put_pending(CHANNEL, {"n": 1}, base_version=1, started_by=5)
    with pytest.raises(StaleVersionError):  # a second action while one is in flight
        await storage.put_pending(CHANNEL, {"n": 2}, base_version=1, started_by=6)
    pending = await storage.load_pending(CHANNEL)
    assert (pending.id, pending.data, pending.version) == (pid, {"n": 1}, 1)
    # Two processes both loaded version 1: the first update wins, the second is refused.
    await storage.put_pending(CHANNEL, {"n": 1, "a": 1}, base_version=1, started_by=5, expected_version=1)
    with pytest.raises(StaleVersionError):
        await storage.put_pending(CHANNEL, {"n": 1, "b": 1}, base_version=1, started_by=5, expected_version=1)
    with pytest.raises(StaleVersionError):
        await storage.clear_pending(CHANNEL, expected_version=1)
    assert (await storage.load_pending(CHANNEL)).data == {"n": 1, "a": 1}
    await storage.clear_pending(CHANNEL, expected_version=2)
    assert await storage.load_pending(CHANNEL) is None


async def test_a_prompt_closes_once_and_clearing_makes_the_rest_moot(storage):
    pid = await storage.put_pending(CHANNEL, {}, base_version=1, started_by=5)
    first, second = await storage.add_prompts(CHANNEL, pid, [prompt("a"), prompt("b")])
    assert await storage.close_prompt(first, "answered", choice="take", by="user", user_id=9)
    assert not await storage.close_prompt(first, "answered", choice="decline", by="user", user_id=9)
    assert (await storage.get_prompt(first)).choice == "take"
    await storage.clear_pending(CHANNEL)
    assert (await storage.get_prompt(second)).status == "moot"
    assert await storage.open_prompts(CHANNEL) == []


async def test_deadlines_and_reminders_come_due_in_order(storage):
    pid = await storage.put_pending(CHANNEL, {}, base_version=1, started_by=5)
    late, early, never = await storage.add_prompts(
        CHANNEL, pid, [prompt("late", 2000.0, 1500.0), prompt("early", 1200.0), prompt("never")]
    )
    assert await storage.next_wake() == 1200.0
    assert [p.id for p in await storage.due_prompts(1199.0)] == []
    assert [p.id for p in await storage.due_prompts(2000.0)] == [early, late]
    assert [p.id for p in await storage.due_reminders(1600.0)] == [late]
    await storage.mark_reminded(late)
    assert await storage.due_reminders(1600.0) == []
    await storage.escalate_prompt(early, gm_id=99, deadline=None)
    escalated = await storage.get_prompt(early)
    assert (escalated.status, escalated.ping_user, escalated.deadline) == ("escalated", 99, None)
    assert never not in [p.id for p in await storage.due_prompts(10**9)]


async def test_standing_orders_set_replace_and_ask_removes(storage):
    await storage.set_order(CHANNEL, "Ogre", "movement", "take", set_by=7)
    await storage.set_order(CHANNEL, "Ogre", "movement", "decline", set_by=7)
    await storage.set_order(CHANNEL, "Ogre", "any", "take", set_by=7)
    assert await storage.orders(CHANNEL) == {("Ogre", "movement"): "decline", ("Ogre", "any"): "take"}
    await storage.set_order(CHANNEL, "Ogre", "any", "ask", set_by=7)
    assert await storage.orders(CHANNEL) == {("Ogre", "movement"): "decline"}


async def test_ending_the_encounter_removes_its_flow_rows(storage):
    pid = await storage.put_pending(CHANNEL, {}, base_version=1, started_by=5)
    [p] = await storage.add_prompts(CHANNEL, pid, [prompt("a")])
    await storage.set_order(CHANNEL, "Ogre", "any", "take", set_by=7)
    await storage.delete_encounter(CHANNEL)
    assert await storage.get_prompt(p) is None
    assert await storage.load_pending(CHANNEL) is None
