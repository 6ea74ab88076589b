"""The repository on a real SQLite file in tmp_path."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from rules.encounter_file import load_data
from storage import EncounterExistsError, NoEncounterError, StaleVersionError, Storage
from storage.schema import available


def _encounter(width: int = 12, **extra):
    return load_data(
        {
            "ruleset": "dnd35",
            "map": {"width": width, "height": 10, "blocked": ["E5"]},
            "combatants": [
                {"name": "Ethan", "side": "party", "player": 42, "at": "B2"},
                {"name": "Ogre", "side": "monsters", "at": "C3", "size": "large"},
            ],
            **extra,
        }
    )


@pytest.fixture
async def store(tmp_path):
    storage = await Storage.open(tmp_path / "t.sqlite3")
    yield storage
    await storage.close()


async def test_migrations_from_empty_reach_latest_version(tmp_path):
    path = tmp_path / "fresh.sqlite3"
    storage = await Storage.open(path)
    await storage.close()
    with sqlite3.connect(path) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert version == len(available()) >= 1
    assert {"encounters", "events", "meta"} <= tables


async def test_reopening_does_not_rerun_migrations(tmp_path):
    path = tmp_path / "again.sqlite3"
    storage = await Storage.open(path)
    await storage.create_encounter(1, _encounter(), gm_id=7, guild_id=3)
    await storage.close()
    storage = await Storage.open(path)  # would fail on CREATE TABLE if 0001 ran twice
    assert (await storage.load_encounter(1)) is not None
    await storage.close()


async def test_newer_schema_than_program_is_refused(tmp_path):
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 999")
    with pytest.raises(RuntimeError, match="newer"):
        await Storage.open(path)


async def test_pragmas_wal_foreign_keys_full_sync(store):
    assert (await store.pragma("journal_mode")).lower() == "wal"
    assert await store.pragma("foreign_keys") == 1
    assert await store.pragma("synchronous") == 2  # FULL


async def test_create_load_round_trip(store):
    enc = _encounter()
    created = await store.create_encounter(10, enc, gm_id=7, guild_id=3)
    loaded = await store.load_encounter(10)
    assert loaded is not None
    assert loaded.id == created.id
    assert (loaded.gm_id, loaded.guild_id, loaded.version) == (7, 3, 1)
    assert loaded.encounter == enc
    assert type(loaded.encounter).__name__ == type(enc).__name__
    assert await store.load_encounter(11) is None


async def test_second_encounter_in_channel_is_refused(store):
    await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    with pytest.raises(EncounterExistsError, match="/encounter end"):
        await store.create_encounter(10, _encounter(width=5), gm_id=8, guild_id=3)
    assert (await store.require_encounter(10)).encounter.map.width == 12


async def test_save_bumps_version_and_stale_save_is_refused(store):
    await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    assert await store.save_encounter(10, _encounter(round=2), expected_version=1) == 2
    with pytest.raises(StaleVersionError) as excinfo:
        await store.save_encounter(10, _encounter(round=5), expected_version=1)
    assert "Nothing was changed" in excinfo.value.message
    loaded = await store.require_encounter(10)
    assert (loaded.version, loaded.encounter.round) == (2, 2)


async def test_concurrent_saves_from_one_version_only_one_wins(store):
    await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    results = await asyncio.gather(
        *(store.save_encounter(10, _encounter(round=r), expected_version=1) for r in (2, 3, 4)),
        return_exceptions=True,
    )
    assert sum(1 for r in results if r == 2) == 1
    assert sum(1 for r in results if isinstance(r, StaleVersionError)) == 2


async def test_two_connections_cannot_both_win(tmp_path):
    path = tmp_path / "two.sqlite3"
    a = await Storage.open(path)
    b = await Storage.open(path)
    try:
        await a.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
        assert await a.save_encounter(10, _encounter(round=2), expected_version=1) == 2
        with pytest.raises(StaleVersionError):
            await b.save_encounter(10, _encounter(round=3), expected_version=1)
        assert (await b.require_encounter(10)).encounter.round == 2
    finally:
        await a.close()
        await b.close()


async def test_save_or_event_without_encounter(store):
    with pytest.raises(NoEncounterError):
        await store.save_encounter(10, _encounter(), expected_version=1)
    with pytest.raises(NoEncounterError):
        await store.append_event(10, "ruling", {})
    with pytest.raises(NoEncounterError, match="/encounter start"):
        await store.require_encounter(10)


async def test_event_log_newest_first_and_limited(store):
    await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    await store.create_encounter(20, _encounter(), gm_id=7, guild_id=3)
    for i in range(5):
        await store.append_event(10, "ruling", {"n": i, "path": ["B2", "C3"]})
    await store.append_event(20, "other", {})
    events = await store.recent_events(10, limit=3)
    assert [e.data["n"] for e in events] == [4, 3, 2]
    assert events[0].kind == "ruling" and events[0].data["path"] == ["B2", "C3"]
    assert len(await store.recent_events(20)) == 1


async def test_delete_cascades_to_events_and_frees_channel(store):
    first = await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    await store.append_event(10, "ruling", {})
    assert await store.delete_encounter(10, encounter_id=first.id + 1) is False  # not that encounter
    assert await store.delete_encounter(10, encounter_id=first.id) is True
    assert await store.load_encounter(10) is None
    assert await store.recent_events(10) == []
    second = await store.create_encounter(10, _encounter(), gm_id=8, guild_id=3)
    assert second.id != first.id  # ids are never reused, so old confirm buttons cannot match
    assert await store.recent_events(10) == []
    assert await store.delete_encounter(99) is False


async def test_transaction_is_atomic(store):
    await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    with pytest.raises(ZeroDivisionError):
        async with store.transaction():
            await store.save_encounter(10, _encounter(round=9), expected_version=1)
            await store.append_event(10, "ruling", {"x": 1})
            1 / 0  # noqa: B018 - the failure under test
    loaded = await store.require_encounter(10)
    assert (loaded.version, loaded.encounter.round) == (1, 1)
    assert await store.recent_events(10) == []

    async with store.transaction():
        version = await store.save_encounter(10, _encounter(round=9), expected_version=1)
        await store.append_event(10, "ruling", {"x": 2})
    assert version == 2
    assert [e.data for e in await store.recent_events(10)] == [{"x": 2}]


async def test_meta_get_set(store):
    assert await store.get_meta("tree") is None
    await store.set_meta("tree", "abc")
    await store.set_meta("tree", "def")
    assert await store.get_meta("tree") == "def"


async def test_committed_save_is_on_disk_for_another_reader(tmp_path):
    path = tmp_path / "durable.sqlite3"
    store = await Storage.open(path)
    await store.create_encounter(10, _encounter(), gm_id=7, guild_id=3)
    await store.save_encounter(10, _encounter(round=3), expected_version=1)
    # A plain sqlite3 reader (another process in real life) sees the committed state at once.
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT version, data FROM encounters WHERE channel_id = 10").fetchone()
    assert row[0] == 2 and '"round":3' in row[1]
    await store.close()
    await store.close()  # idempotent
    assert store.closed
