"""The aiosqlite repository: every SQL statement of Opportunist lives in this package.

One connection per process, serialised by an asyncio lock: SQLite allows one writer at a time
anyway, and a single connection means a reader never sees another task's half-done transaction.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import BaseModel, ConfigDict

from rules.encounter_file import load_data, to_data
from rules.model import Encounter
from storage.errors import EncounterExistsError, NoEncounterError, StaleVersionError
from storage.flow import FlowRepository
from storage.schema import migrate

Clock = Callable[[], float]


class StoredEncounter(BaseModel):
    """A channel's encounter as stored: the model plus who runs it and its optimistic version."""

    model_config = ConfigDict(frozen=True)

    id: int
    channel_id: int
    guild_id: int | None
    gm_id: int
    version: int
    encounter: Encounter
    created_at: float
    updated_at: float


class StoredEvent(BaseModel):
    """One entry of an encounter's event log."""

    model_config = ConfigDict(frozen=True)

    id: int
    encounter_id: int
    kind: str
    data: dict[str, Any]
    created_at: float


class PendingImport(BaseModel):
    """An uploaded encounter file waiting for its confirm button: canonical data, who, where."""

    model_config = ConfigDict(frozen=True)

    token: str
    channel_id: int
    user_id: int
    data: dict[str, Any]
    created_at: float


IMPORT_TTL = 7 * 24 * 3600.0
"""Seconds an unconfirmed import is kept."""


def _dump(encounter: Encounter) -> str:
    # Canonical JSON (the encounter file's own form) so the stored text is stable and diffable.
    return json.dumps(to_data(encounter), separators=(",", ":"), ensure_ascii=False)


class Storage(FlowRepository):
    """Async repository over one SQLite file. Create with `await Storage.open(path)`."""

    def __init__(self, db: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False

    # -- lifecycle -----------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, clock: Clock = time.time) -> Storage:
        """Open (creating if needed) the database file, set its pragmas and run pending migrations."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; `transaction()` issues BEGIN/COMMIT itself.
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await _set_journal_mode(db)
            # FULL fsyncs the WAL on every commit. The product promises that an action the bot
            # has confirmed survives a crash or power cut (issue 8 kills the process 200 times);
            # NORMAL would keep the file consistent but could lose the last commits.
            await _set(db, "PRAGMA synchronous = FULL")
            await _set(db, "PRAGMA foreign_keys = ON")
            # Another process (a second bot, `opportunist offline`) may hold the write lock briefly.
            await _set(db, "PRAGMA busy_timeout = 5000")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, path, clock)

    async def close(self) -> None:
        """Close the connection; idempotent. Waits for a transaction in progress to finish."""
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            await self._db.close()

    @property
    def closed(self) -> bool:
        """True once `close` ran."""
        return self._closed

    async def pragma(self, name: str) -> Any:
        """Read one PRAGMA (for diagnostics and tests), e.g. ``journal_mode``."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        async with self._use(), self._db.execute(f"PRAGMA {name}") as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    # -- transactions --------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """Run the enclosed calls as one atomic write (``BEGIN IMMEDIATE`` ... ``COMMIT``).

        Nested use in the same task joins the outer transaction. Any exception rolls everything back.
        """
        if self._owner is asyncio.current_task():
            yield
            return
        async with self._lock:
            self._check_open()
            self._owner = asyncio.current_task()
            try:
                # IMMEDIATE takes the write lock now, so a version check and its update cannot be
                # interleaved with another process's write.
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise
                await self._db.execute("COMMIT")
            finally:
                self._owner = None

    @asynccontextmanager
    async def _use(self) -> AsyncIterator[None]:
        """Exclusive use of the connection for a read (joins the current task's transaction)."""
        if self._owner is asyncio.current_task():
            yield
            return
        async with self._lock:
            self._check_open()
            yield

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("storage is closed")

    async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        async with self._db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    # -- encounters ----------------------------------------------------------------------------

    async def load_encounter(self, channel_id: int) -> StoredEncounter | None:
        """The channel's encounter, or None."""
        async with self._use():
            row = await self._one(
                "SELECT id, channel_id, guild_id, gm_id, version, data, created_at, updated_at "
                "FROM encounters WHERE channel_id = ?",
                (channel_id,),
            )
        return None if row is None else _stored(row)

    async def require_encounter(self, channel_id: int) -> StoredEncounter:
        """The channel's encounter, or `NoEncounterError` (user-safe) if there is none."""
        stored = await self.load_encounter(channel_id)
        if stored is None:
            raise NoEncounterError()
        return stored

    async def create_encounter(
        self, channel_id: int, encounter: Encounter, *, gm_id: int, guild_id: int | None
    ) -> StoredEncounter:
        """Store a new encounter at version 1; `EncounterExistsError` if the channel has one."""
        now = self._clock()
        async with self.transaction():
            try:
                cursor = await self._db.execute(
                    "INSERT INTO encounters (channel_id, guild_id, gm_id, ruleset, data, version, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                    (channel_id, guild_id, gm_id, encounter.ruleset, _dump(encounter), now, now),
                )
            except aiosqlite.IntegrityError:
                raise EncounterExistsError() from None
            row_id = _row_id(cursor)
        return StoredEncounter(
            id=row_id,
            channel_id=channel_id,
            guild_id=guild_id,
            gm_id=gm_id,
            version=1,
            encounter=encounter,
            created_at=now,
            updated_at=now,
        )

    async def save_encounter(self, channel_id: int, encounter: Encounter, expected_version: int) -> int:
        """Replace the encounter if it is still at ``expected_version``; return the new version.

        Raises `StaleVersionError` if someone saved in between, `NoEncounterError` if it was ended.
        """
        async with self.transaction():
            cursor = await self._db.execute(
                "UPDATE encounters SET data = ?, ruleset = ?, version = version + 1, updated_at = ? "
                "WHERE channel_id = ? AND version = ?",
                (_dump(encounter), encounter.ruleset, self._clock(), channel_id, expected_version),
            )
            if cursor.rowcount != 1:
                exists = await self._one("SELECT version FROM encounters WHERE channel_id = ?", (channel_id,))
                if exists is None:
                    raise NoEncounterError()
                raise StaleVersionError()
        return expected_version + 1

    async def set_gm(self, channel_id: int, gm_id: int) -> None:
        """Hand the encounter to another GM."""
        async with self.transaction():
            cursor = await self._db.execute(
                "UPDATE encounters SET gm_id = ?, updated_at = ? WHERE channel_id = ?",
                (gm_id, self._clock(), channel_id),
            )
            if cursor.rowcount != 1:
                raise NoEncounterError()

    async def delete_encounter(self, channel_id: int, *, encounter_id: int | None = None) -> bool:
        """Delete the channel's encounter and everything hanging off it; False if there was none.

        With ``encounter_id`` only that encounter is deleted (not a newer one in the same channel).
        """
        async with self.transaction():
            if encounter_id is None:
                cursor = await self._db.execute("DELETE FROM encounters WHERE channel_id = ?", (channel_id,))
            else:
                cursor = await self._db.execute(
                    "DELETE FROM encounters WHERE channel_id = ? AND id = ?", (channel_id, encounter_id)
                )
            return cursor.rowcount == 1

    # -- event log -----------------------------------------------------------------------------

    async def append_event(self, channel_id: int, kind: str, data: dict[str, Any] | None = None) -> int:
        """Append an event to the channel's encounter log; return its id. `NoEncounterError` if none."""
        payload = json.dumps(data or {}, separators=(",", ":"), ensure_ascii=False)
        async with self.transaction():
            row = await self._one("SELECT id FROM encounters WHERE channel_id = ?", (channel_id,))
            if row is None:
                raise NoEncounterError()
            cursor = await self._db.execute(
                "INSERT INTO events (encounter_id, kind, data, created_at) VALUES (?, ?, ?, ?)",
                (row[0], kind, payload, self._clock()),
            )
            return _row_id(cursor)

    async def recent_events(self, channel_id: int, limit: int = 20) -> list[StoredEvent]:
        """The channel's latest events, newest first (empty if there is no encounter)."""
        async with (
            self._use(),
            self._db.execute(
                "SELECT e.id, e.encounter_id, e.kind, e.data, e.created_at FROM events e "
                "JOIN encounters c ON c.id = e.encounter_id WHERE c.channel_id = ? "
                "ORDER BY e.id DESC LIMIT ?",
                (channel_id, max(0, limit)),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [
            StoredEvent(id=r[0], encounter_id=r[1], kind=r[2], data=json.loads(r[3]), created_at=r[4])
            for r in rows
        ]

    async def last_undoable_action(self, channel_id: int) -> StoredEvent | None:
        """The newest completed `action` event of the channel not yet reverted by an `undo` event.

        Actions logged before the latest `imported` event are not undoable: their snapshots belong to
        the encounter the import replaced.
        """
        async with self._use():
            row = await self._one(
                "SELECT e.id, e.encounter_id, e.kind, e.data, e.created_at FROM events e "
                "JOIN encounters c ON c.id = e.encounter_id "
                "WHERE c.channel_id = ? AND e.kind = 'action' AND NOT EXISTS ("
                "  SELECT 1 FROM events u WHERE u.encounter_id = e.encounter_id AND u.kind = 'undo' "
                "  AND json_extract(u.data, '$.undid') = e.id"
                ") AND e.id > COALESCE(("
                "  SELECT MAX(i.id) FROM events i "
                "  WHERE i.encounter_id = e.encounter_id AND i.kind = 'imported'"
                "), 0) ORDER BY e.id DESC LIMIT 1",
                (channel_id,),
            )
        if row is None:
            return None
        return StoredEvent(
            id=row[0], encounter_id=row[1], kind=row[2], data=json.loads(row[3]), created_at=row[4]
        )

    # -- imports awaiting confirmation -----------------------------------------------------------

    async def put_import(self, token: str, channel_id: int, user_id: int, data: dict[str, Any]) -> None:
        """Keep a parsed encounter file until its confirm button is pressed (survives restarts).

        Stored as a metadata row ``import:<token>``; unconfirmed imports older than a week are dropped.
        """
        now = self._clock()
        value = json.dumps(
            {"channel_id": channel_id, "user_id": user_id, "data": data, "created_at": now},
            separators=(",", ":"),
            ensure_ascii=False,
        )
        async with self.transaction():
            await self._db.execute(
                "DELETE FROM meta WHERE key LIKE 'import:%' AND json_extract(value, '$.created_at') < ?",
                (now - IMPORT_TTL,),
            )
            await self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"import:{token}", value),
            )

    async def get_import(self, token: str) -> PendingImport | None:
        """The import awaiting confirmation under ``token``, or None (confirmed, cancelled or expired)."""
        async with self._use():
            row = await self._one("SELECT value FROM meta WHERE key = ?", (f"import:{token}",))
        if row is None:
            return None
        raw = json.loads(row[0])
        return PendingImport(token=token, **raw)

    async def drop_import(self, token: str) -> bool:
        """Forget an import (confirmed or cancelled); False if it was already gone."""
        async with self.transaction():
            cursor = await self._db.execute("DELETE FROM meta WHERE key = ?", (f"import:{token}",))
            return cursor.rowcount == 1

    # -- metadata ------------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """A stored metadata value (e.g. the command-tree hash), or None."""
        async with self._use():
            row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        """Store a metadata value, replacing any previous one."""
        async with self.transaction():
            await self._db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


async def _set_journal_mode(db: aiosqlite.Connection) -> None:
    # Switching a new file to WAL takes an exclusive lock, and SQLite answers "database is locked" at
    # once (no busy handler) while another process opening the same file holds it or is migrating:
    # two bots started together failed this way about once in six starts. Retry (in short steps: the
    # other process's migrations take milliseconds) for up to about 5 s.
    for attempt in range(2500):
        try:
            await _set(db, "PRAGMA journal_mode = WAL")
            return
        except aiosqlite.OperationalError as error:
            if "locked" not in str(error) or attempt == 2499:
                raise
            # The wait is for another process, in real time: sleep in a worker thread, not on the
            # event loop, whose clock a simulated Discord (SimCord: tests, offline mode) fast-forwards;
            # that would shift the snowflake ids it hands out after start-up.
            await asyncio.to_thread(time.sleep, 0.002)


async def _set(db: aiosqlite.Connection, sql: str) -> None:
    # Drain and close the cursor: a PRAGMA that returns a row would otherwise stay "in progress"
    # and make the next COMMIT fail.
    async with db.execute(sql) as cursor:
        await cursor.fetchall()


def _row_id(cursor: aiosqlite.Cursor) -> int:
    if cursor.lastrowid is None:  # pragma: no cover - SQLite always sets it after an INSERT
        raise RuntimeError("INSERT returned no row id")
    return cursor.lastrowid


def _stored(row: aiosqlite.Row) -> StoredEncounter:
    return StoredEncounter(
        id=row[0],
        channel_id=row[1],
        guild_id=row[2],
        gm_id=row[3],
        version=row[4],
        encounter=load_data(json.loads(row[5])),
        created_at=row[6],
        updated_at=row[7],
    )
