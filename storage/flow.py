"""Repository methods of the reaction flow: the action in flight, its prompts, standing orders.

A mixin of `storage.Storage` (it uses the connection, lock and transactions of that class), kept in its
own file so the encounter repository stays small.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Literal

import aiosqlite
from pydantic import BaseModel, ConfigDict

from storage.errors import NoEncounterError, StaleVersionError

if TYPE_CHECKING:
    from storage.repository import Clock

PromptStatus = Literal["open", "answered", "timeout", "moot", "escalated"]
Policy = Literal["ask", "take", "decline"]
OrderTrigger = Literal["movement", "action", "any"]


class PendingAction(BaseModel):
    """The channel's action in flight."""

    model_config = ConfigDict(frozen=True)

    id: int
    encounter_id: int
    channel_id: int
    base_version: int
    started_by: int
    data: dict[str, Any]
    created_at: float
    version: int


class Prompt(BaseModel):
    """One question posted to a controller, with its deadline and the message carrying its buttons."""

    model_config = ConfigDict(frozen=True)

    id: int
    adjudication_id: int | None
    encounter_id: int
    channel_id: int
    question_id: str
    question: dict[str, Any]
    combatant: str
    ping_user: int
    message_id: int | None
    deadline: float | None
    remind_at: float | None
    status: PromptStatus
    choice: str | None
    answered_by: str | None
    answered_user: int | None
    created_at: float
    answered_at: float | None


class NewPrompt(BaseModel):
    """What the flow knows about a prompt before it is stored."""

    question_id: str
    question: dict[str, Any]
    combatant: str
    ping_user: int
    deadline: float | None
    remind_at: float | None


_PROMPT_COLUMNS = (
    "id, adjudication_id, encounter_id, channel_id, question_id, question, combatant, ping_user, "
    "message_id, deadline, remind_at, status, choice, answered_by, answered_user, created_at, answered_at"
)


def _prompt(row: aiosqlite.Row | tuple[Any, ...]) -> Prompt:
    return Prompt(
        id=row[0],
        adjudication_id=row[1],
        encounter_id=row[2],
        channel_id=row[3],
        question_id=row[4],
        question=json.loads(row[5]),
        combatant=row[6],
        ping_user=row[7],
        message_id=row[8],
        deadline=row[9],
        remind_at=row[10],
        status=row[11],
        choice=row[12],
        answered_by=row[13],
        answered_user=row[14],
        created_at=row[15],
        answered_at=row[16],
    )


class FlowRepository:
    """The flow's SQL. Every write joins the caller's `transaction()` when there is one."""

    _db: aiosqlite.Connection
    _clock: Clock

    if TYPE_CHECKING:

        def transaction(self) -> AbstractAsyncContextManager[None]: ...
        def _use(self) -> AbstractAsyncContextManager[None]: ...
        async def _one(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Row | None: ...

    async def _encounter_id(self, channel_id: int) -> int:
        row = await self._one("SELECT id FROM encounters WHERE channel_id = ?", (channel_id,))
        if row is None:
            raise NoEncounterError()
        return int(row[0])

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[Prompt]:
        async with self._db.execute(sql, params) as cursor:
            return [_prompt(r) for r in await cursor.fetchall()]

    # -- the action in flight ------------------------------------------------------------------

    async def load_pending(self, channel_id: int) -> PendingAction | None:
        """The channel's action in flight, or None."""
        async with self._use():
            row = await self._one(
                "SELECT a.id, a.encounter_id, a.channel_id, a.base_version, a.started_by, a.data, "
                "a.created_at, a.version "
                "FROM adjudications a JOIN encounters e ON e.id = a.encounter_id WHERE e.channel_id = ?",
                (channel_id,),
            )
        if row is None:
            return None
        return PendingAction(
            id=row[0],
            encounter_id=row[1],
            channel_id=row[2],
            base_version=row[3],
            started_by=row[4],
            data=json.loads(row[5]),
            created_at=row[6],
            version=row[7],
        )

    async def put_pending(
        self,
        channel_id: int,
        data: dict[str, Any],
        *,
        base_version: int,
        started_by: int,
        expected_version: int | None = None,
    ) -> int:
        """Store the channel's action in flight; return its id.

        Without ``expected_version`` it must be new (another action in flight is a `StaleVersionError`);
        with it, the stored one is replaced only if still at that version, so two processes answering
        the same action can never both win.
        """
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        now = self._clock()
        async with self.transaction():
            encounter_id = await self._encounter_id(channel_id)
            if expected_version is None:
                try:
                    cursor = await self._db.execute(
                        "INSERT INTO adjudications (encounter_id, channel_id, base_version, started_by, "
                        "data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (encounter_id, channel_id, base_version, started_by, payload, now, now),
                    )
                except aiosqlite.IntegrityError:
                    raise StaleVersionError(
                        "Another action in this channel started first; nothing changed. Try again."
                    ) from None
                if cursor.lastrowid is None:  # pragma: no cover - SQLite always sets it
                    raise RuntimeError("INSERT returned no row id")
                return cursor.lastrowid
            cursor = await self._db.execute(
                "UPDATE adjudications SET data = ?, version = version + 1, updated_at = ? "
                "WHERE encounter_id = ? AND version = ?",
                (payload, now, encounter_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleVersionError()
            row = await self._one("SELECT id FROM adjudications WHERE encounter_id = ?", (encounter_id,))
            assert row is not None  # noqa: S101 - updated just above
            return int(row[0])

    async def clear_pending(self, channel_id: int, *, expected_version: int | None = None) -> None:
        """Forget the channel's action in flight (only if still at ``expected_version``, when given);
        its still-open prompts become moot."""
        now = self._clock()
        async with self.transaction():
            if expected_version is not None:
                cursor = await self._db.execute(
                    "DELETE FROM adjudications WHERE channel_id = ? AND version = ?",
                    (channel_id, expected_version),
                )
                if cursor.rowcount != 1:
                    raise StaleVersionError()
            else:
                await self._db.execute("DELETE FROM adjudications WHERE channel_id = ?", (channel_id,))
            await self._db.execute(
                "UPDATE prompts SET status = 'moot', answered_at = ? "
                "WHERE channel_id = ? AND status IN ('open', 'escalated')",
                (now, channel_id),
            )

    # -- prompts -------------------------------------------------------------------------------

    async def add_prompts(
        self, channel_id: int, adjudication_id: int, prompts: Iterable[NewPrompt]
    ) -> list[int]:
        """Store new open prompts; return their ids in order."""
        now = self._clock()
        ids: list[int] = []
        async with self.transaction():
            encounter_id = await self._encounter_id(channel_id)
            for p in prompts:
                cursor = await self._db.execute(
                    "INSERT INTO prompts (adjudication_id, encounter_id, channel_id, question_id, question, "
                    "combatant, ping_user, deadline, remind_at, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        adjudication_id,
                        encounter_id,
                        channel_id,
                        p.question_id,
                        json.dumps(p.question, separators=(",", ":"), ensure_ascii=False),
                        p.combatant,
                        p.ping_user,
                        p.deadline,
                        p.remind_at,
                        now,
                    ),
                )
                if cursor.lastrowid is None:  # pragma: no cover - SQLite always sets it
                    raise RuntimeError("INSERT returned no row id")
                ids.append(cursor.lastrowid)
        return ids

    async def set_prompt_message(self, prompt_ids: Iterable[int], message_id: int) -> None:
        """Record which message carries these prompts' buttons."""
        async with self.transaction():
            await self._db.executemany(
                "UPDATE prompts SET message_id = ? WHERE id = ?", [(message_id, pid) for pid in prompt_ids]
            )

    async def get_prompt(self, prompt_id: int) -> Prompt | None:
        """One prompt by id."""
        async with self._use():
            rows = await self._all(f"SELECT {_PROMPT_COLUMNS} FROM prompts WHERE id = ?", (prompt_id,))  # noqa: S608
        return rows[0] if rows else None

    async def prompts_of_message(self, message_id: int) -> list[Prompt]:
        """Every prompt whose buttons a message carries, in order."""
        async with self._use():
            return await self._all(
                f"SELECT {_PROMPT_COLUMNS} FROM prompts WHERE message_id = ? ORDER BY id",  # noqa: S608
                (message_id,),
            )

    async def open_prompts(self, channel_id: int) -> list[Prompt]:
        """The channel's prompts still waiting for an answer."""
        async with self._use():
            return await self._all(
                f"SELECT {_PROMPT_COLUMNS} FROM prompts "  # noqa: S608
                "WHERE channel_id = ? AND status IN ('open', 'escalated') ORDER BY id",
                (channel_id,),
            )

    async def recent_prompts(self, channel_id: int, limit: int = 50) -> list[Prompt]:
        """The channel's latest prompts, newest first (for the log)."""
        async with self._use():
            return await self._all(
                f"SELECT {_PROMPT_COLUMNS} FROM prompts WHERE channel_id = ? "  # noqa: S608
                "ORDER BY id DESC LIMIT ?",
                (channel_id, max(0, limit)),
            )

    async def close_prompt(
        self, prompt_id: int, status: PromptStatus, *, choice: str | None, by: str, user_id: int | None
    ) -> bool:
        """Close an open prompt; False if it was no longer open (someone answered first)."""
        async with self.transaction():
            cursor = await self._db.execute(
                "UPDATE prompts SET status = ?, choice = ?, answered_by = ?, answered_user = ?, "
                "answered_at = ? "
                "WHERE id = ? AND status IN ('open', 'escalated')",
                (status, choice, by, user_id, self._clock(), prompt_id),
            )
            return cursor.rowcount == 1

    async def moot_prompts(self, channel_id: int, question_ids: Iterable[str]) -> None:
        """Mark the open prompts of these questions moot (an earlier reaction ended the action)."""
        async with self.transaction():
            await self._db.executemany(
                "UPDATE prompts SET status = 'moot', answered_at = ? "
                "WHERE channel_id = ? AND question_id = ? AND status IN ('open', 'escalated')",
                [(self._clock(), channel_id, q) for q in question_ids],
            )

    async def escalate_prompt(self, prompt_id: int, gm_id: int, deadline: float | None) -> None:
        """Hand a timed-out prompt to the GM (``on_timeout: gm``)."""
        async with self.transaction():
            await self._db.execute(
                "UPDATE prompts SET status = 'escalated', ping_user = ?, deadline = ?, remind_at = NULL "
                "WHERE id = ? AND status = 'open'",
                (gm_id, deadline, prompt_id),
            )

    async def due_prompts(self, now: float) -> list[Prompt]:
        """Open prompts whose deadline has passed, oldest first."""
        async with self._use():
            return await self._all(
                f"SELECT {_PROMPT_COLUMNS} FROM prompts "  # noqa: S608
                "WHERE status = 'open' AND deadline IS NOT NULL AND deadline <= ? ORDER BY deadline, id",
                (now,),
            )

    async def due_reminders(self, now: float) -> list[Prompt]:
        """Open prompts whose half-time reminder is due."""
        async with self._use():
            return await self._all(
                f"SELECT {_PROMPT_COLUMNS} FROM prompts "  # noqa: S608
                "WHERE status = 'open' AND remind_at IS NOT NULL AND remind_at <= ? ORDER BY remind_at, id",
                (now,),
            )

    async def mark_reminded(self, prompt_id: int) -> None:
        """The reminder was sent: never send it again."""
        async with self.transaction():
            await self._db.execute("UPDATE prompts SET remind_at = NULL WHERE id = ?", (prompt_id,))

    async def next_wake(self) -> float | None:
        """The earliest pending deadline or reminder, or None."""
        async with self._use():
            row = await self._one(
                "SELECT MIN(t) FROM (SELECT MIN(deadline) AS t FROM prompts WHERE status = 'open' "
                "UNION ALL SELECT MIN(remind_at) FROM prompts WHERE status = 'open')"
            )
        return None if row is None or row[0] is None else float(row[0])

    # -- standing orders -----------------------------------------------------------------------

    async def set_order(
        self, channel_id: int, combatant: str, trigger: OrderTrigger, policy: Policy, *, set_by: int
    ) -> None:
        """Set a combatant's standing order for a trigger (``ask`` removes it)."""
        async with self.transaction():
            encounter_id = await self._encounter_id(channel_id)
            if policy == "ask":
                await self._db.execute(
                    "DELETE FROM standing_orders WHERE encounter_id = ? AND combatant = ? AND trigger = ?",
                    (encounter_id, combatant, trigger),
                )
                return
            await self._db.execute(
                "INSERT INTO standing_orders (encounter_id, combatant, trigger, policy, set_by) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (encounter_id, combatant, trigger) "
                "DO UPDATE SET policy = excluded.policy, set_by = excluded.set_by",
                (encounter_id, combatant, trigger, policy, set_by),
            )

    async def orders(self, channel_id: int) -> dict[tuple[str, str], str]:
        """The channel's standing orders: (combatant, trigger) -> policy."""
        async with (
            self._use(),
            self._db.execute(
                "SELECT o.combatant, o.trigger, o.policy FROM standing_orders o "
                "JOIN encounters e ON e.id = o.encounter_id WHERE e.channel_id = ?",
                (channel_id,),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return {(r[0], r[1]): r[2] for r in rows}

    async def drop_orders(self, channel_id: int, combatant: str) -> None:
        """Forget a removed combatant's standing orders."""
        async with self.transaction():
            encounter_id = await self._encounter_id(channel_id)
            await self._db.execute(
                "DELETE FROM standing_orders WHERE encounter_id = ? AND combatant = ?",
                (encounter_id, combatant),
            )
