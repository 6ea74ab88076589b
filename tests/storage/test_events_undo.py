"""Finding the action `/encounter undo` reverts, and imports waiting for their confirm button."""

from __future__ import annotations

import pytest

from rules.encounter_file import load_data, to_data
from storage import Storage


def _encounter():
    return load_data(
        {
            "ruleset": "aphex",
            "map": {"width": 8, "height": 8},
            "combatants": [{"name": "Ethan", "side": "party", "at": "A1"}],
        }
    )


@pytest.fixture
async def store(tmp_path):
    storage = await Storage.open(tmp_path / "t.sqlite3")
    await storage.create_encounter(1, _encounter(), gm_id=7, guild_id=None)
    yield storage
    await storage.close()


async def test_no_action_means_nothing_to_undo(store):
    await store.append_event(1, "started", {})
    await store.append_event(1, "turn", {"turn": "Ethan"})
    assert await store.last_undoable_action(1) is None
    assert await store.last_undoable_action(999) is None


async def test_undo_walks_back_through_actions_newest_first(store):
    first = await store.append_event(1, "action", {"n": 1})
    await store.append_event(1, "turn", {})
    second = await store.append_event(1, "action", {"n": 2})
    found = await store.last_undoable_action(1)
    assert found is not None and (found.id, found.data) == (second, {"n": 2})

    await store.append_event(1, "undo", {"undid": second})
    found = await store.last_undoable_action(1)
    assert found is not None and found.id == first

    await store.append_event(1, "undo", {"undid": first})
    assert await store.last_undoable_action(1) is None


async def test_a_new_action_after_an_undo_is_undone_first(store):
    first = await store.append_event(1, "action", {"n": 1})
    await store.append_event(1, "undo", {"undid": first})
    third = await store.append_event(1, "action", {"n": 3})
    found = await store.last_undoable_action(1)
    assert found is not None and found.id == third


async def test_events_of_an_ended_encounter_are_not_undoable(store):
    await store.append_event(1, "action", {"n": 1})
    await store.delete_encounter(1)
    await store.create_encounter(1, _encounter(), gm_id=7, guild_id=None)
    assert await store.last_undoable_action(1) is None


async def test_import_is_kept_until_dropped_and_survives_reopening(tmp_path):
    path = tmp_path / "i.sqlite3"
    storage = await Storage.open(path)
    data = to_data(_encounter())
    await storage.put_import("abc123", 5, 42, data)
    await storage.close()

    storage = await Storage.open(path)
    try:
        pending = await storage.get_import("abc123")
        assert pending is not None
        assert (pending.channel_id, pending.user_id, pending.data) == (5, 42, data)
        assert await storage.drop_import("abc123") is True
        assert await storage.get_import("abc123") is None
        assert await storage.drop_import("abc123") is False
    finally:
        await storage.close()


async def test_stale_imports_are_pruned_when_a_new_one_is_stored(tmp_path):
    now = [1_000_000.0]
    storage = await Storage.open(tmp_path / "p.sqlite3", clock=lambda: now[0])
    try:
        await storage.put_import("old", 1, 1, {"x": 1})
        now[0] += 8 * 24 * 3600
        await storage.put_import("new", 1, 1, {"x": 2})
        assert await storage.get_import("old") is None
        assert await storage.get_import("new") is not None
    finally:
        await storage.close()


async def test_actions_before_an_import_are_not_undoable(store):
    await store.append_event(1, "action", {"n": 1})
    await store.append_event(1, "imported", {})
    assert await store.last_undoable_action(1) is None
    after = await store.append_event(1, "action", {"n": 2})
    found = await store.last_undoable_action(1)
    assert found is not None and found.id == after
