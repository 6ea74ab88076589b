"""Helpers of the reliability tests that drive the real bot through SimCord.

- `snapshot`: everything stored about a channel (encounter JSON and version, GM, log, action in flight,
  prompts, standing orders), to prove a refused command changed nothing.
- `outcome`: run one SimCord operation and classify what the bot did with it (refused or not, errors).
- `mention_problems`: audit every message the bot sent or edited for pings beyond the intended users.
- `burst`: deliver many interactions to the bot at once (SimCord runs one operation at a time).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from discord import app_commands

from cogs._common import NotAllowedError
from rules.encounter_file import to_data
from rules.errors import OpportunistError


def database(env: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the bot's database (read through a second connection: WAL lets it
    see exactly what is committed), to prove that a refused command changed nothing anywhere."""
    con = sqlite3.connect(env.bot.storage.path)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}  # noqa: S608
    finally:
        con.close()


async def snapshot(env: Any, channel_id: int) -> dict[str, Any]:
    """Everything the database holds about one channel, as comparable plain data."""
    storage = env.bot.storage
    stored = await storage.load_encounter(channel_id)
    pending = await storage.load_pending(channel_id)
    return {
        "encounter": None
        if stored is None
        else {
            "id": stored.id,
            "version": stored.version,
            "gm": stored.gm_id,
            "data": to_data(stored.encounter),
        },
        "events": [(e.id, e.kind, e.data) for e in await storage.recent_events(channel_id, limit=10_000)],
        "pending": None if pending is None else (pending.id, pending.base_version, pending.data),
        "prompts": [
            (p.id, p.status, p.choice, p.ping_user, p.message_id)
            for p in await storage.recent_prompts(channel_id, limit=10_000)
        ],
        "orders": await storage.orders(channel_id),
    }


@dataclass
class Outcome:
    """What the bot did with one user operation."""

    result: Any
    errors: list[BaseException] = field(default_factory=list)
    bugs: list[BaseException] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(getattr(self.result, "ephemeral", False))

    @property
    def text(self) -> str:
        r = self.result
        message = r.response if r.response is not None else (r.followups[-1] if r.followups else None)
        return "" if message is None else (message.content or "")

    @property
    def not_allowed(self) -> bool:
        """Refused for lack of the right: a NotAllowedError / CheckFailure, or a button's refusal text."""
        if any(isinstance(e, NotAllowedError | app_commands.CheckFailure) for e in self.errors):
            return True
        return self.ephemeral and bool(_REFUSAL.search(self.text))

    @property
    def user_error(self) -> bool:
        return bool(self.errors) or (self.ephemeral and "nothing changed" in self.text.lower())


_REFUSAL = re.compile(
    r"\bOnly\b.*\b(can|may)\b|who uploaded the file|is now the GM's", re.IGNORECASE | re.DOTALL
)


async def outcome(env: Any, operation: Awaitable[Any]) -> Outcome:
    """Run one SimCord operation; split the errors it caused into user errors and bugs (acknowledged)."""
    cursor = env.error_cursor
    result = await operation
    found = Outcome(result)
    for error in env.errors_since(cursor):
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(original, OpportunistError | app_commands.CheckFailure):
            found.errors.append(original)
        else:
            found.bugs.append(original)
    env.errors  # noqa: B018 - reading it acknowledges what was captured (checked above)
    return found


# -- mentions ------------------------------------------------------------------------------------

_MESSAGE_PATH = re.compile(
    r"^/(channels/\d+/messages(/\d+)?|interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+(/messages/[^/]+)?)$"
)
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def message_payloads(env: Any, since: int = 0) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, message body) of every message the bot created or edited since request ``since``."""
    out = []
    for entry in env.http_requests[since:]:
        if entry.method not in ("POST", "PATCH") or not _MESSAGE_PATH.match(entry.path):
            continue
        body = entry.json
        if not isinstance(body, dict):
            continue
        if entry.path.endswith("/callback"):
            body = body.get("data")
            if not isinstance(body, dict):
                continue  # a defer or a modal: no message
        out.append((entry.method, entry.path, body))
    return out


def mention_problems(env: Any, intended: Iterable[int], since: int = 0) -> list[str]:
    """Every way a message since ``since`` could ping someone outside ``intended`` (empty = none).

    A message pings a user when its content holds an unescaped ``<@id>`` and its ``allowed_mentions``
    allow that user (``parse: [users]`` or the id listed); ``@everyone``/``@here`` and roles must never be
    allowed at all, and ``allowed_mentions`` must always be sent (otherwise Discord pings everything).
    """
    allowed_targets = set(intended)
    problems = []
    for method, path, body in message_payloads(env, since):
        content = str(body.get("content") or "")
        mentions = body.get("allowed_mentions")
        if content and mentions is None:
            problems.append(f"{method} {path}: no allowed_mentions for {content[:60]!r}")
            continue
        if mentions is None:
            continue
        parse = set(mentions.get("parse") or [])
        if "everyone" in parse or "roles" in parse or mentions.get("roles"):
            problems.append(f"{method} {path}: allowed_mentions {mentions} lets @everyone or roles ping")
        listed = {int(u) for u in mentions.get("users") or []}
        pingable = {int(u) for u in _USER_MENTION.findall(content)}
        pinged = pingable if "users" in parse else pingable & listed
        if pinged - allowed_targets:
            problems.append(f"{method} {path}: pings {sorted(pinged - allowed_targets)} in {content[:80]!r}")
        if listed - allowed_targets:
            problems.append(f"{method} {path}: allows pinging {sorted(listed - allowed_targets)}")
    return problems


# -- many interactions at once -------------------------------------------------------------------


@contextmanager
def _deferred_settlement(env: Any) -> Any:
    """Let several actor operations emit their interactions without settling (or guarding) in between."""
    settle, begin, end = env._settle_internal, env._begin_operation, env._end_operation

    async def no_settle(*args: Any, **kwargs: Any) -> None:
        return None

    env._settle_internal = no_settle
    env._begin_operation = lambda label: None
    env._end_operation = lambda: None
    try:
        yield
    finally:
        env._settle_internal, env._begin_operation, env._end_operation = settle, begin, end


async def burst(env: Any, operations: list[Callable[[], Awaitable[Any]]]) -> list[Any]:
    """Deliver every operation's interaction to the bot before any of them is handled, then settle once.

    SimCord allows one operation at a time (``asyncio.gather`` of clicks raises "operation overlaps").
    Each actor operation builds its INTERACTION_CREATE exactly as usual and emits it on the simulated
    gateway; only the settle after each emit is postponed. The bot therefore receives N interactions at
    once, discord.py dispatches each to its own task, and they run concurrently on the bot's loop —
    what a burst of real users does. Returns each operation's InteractionResult (read after settling).
    """
    with _deferred_settlement(env):
        results = await asyncio.gather(*(op() for op in operations))
    await env.settle()
    return list(results)
