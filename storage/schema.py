"""Numbered schema migrations (``migrations/NNNN_name.sql``), applied in order, recorded in
``PRAGMA user_version``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One schema step: its number, file name and SQL."""

    version: int
    name: str
    sql: str


def available() -> list[Migration]:
    """Every migration shipped in ``storage/migrations``, in order; numbers must run 1, 2, 3, ..."""
    found: list[Migration] = []
    for entry in resources.files("storage").joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migrations must be numbered 1, 2, 3, ...; {migration.name} is out of step")
    return found


async def current_version(db: aiosqlite.Connection) -> int:
    """The schema version recorded in the database file."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply every migration newer than the file's ``user_version``; return the resulting version.

    Each migration runs in its own transaction together with its ``user_version`` bump, so a crash
    mid-way leaves the file at the previous version, never half-migrated.
    """
    version = await current_version(db)
    migrations = available()
    if version > len(migrations):
        raise RuntimeError(
            f"the database is at schema version {version}, newer than this program knows "
            f"({len(migrations)}); upgrade Opportunist"
        )
    for migration in migrations[version:]:
        if version >= migration.version:
            continue
        # executescript commits any open transaction first, then runs the script as given; the
        # explicit BEGIN/COMMIT makes the DDL and the version bump one atomic unit.
        script = f"BEGIN IMMEDIATE;\n{migration.sql}\nPRAGMA user_version = {migration.version};\nCOMMIT;\n"
        try:
            await db.executescript(script)
        except aiosqlite.OperationalError:
            if db.in_transaction:
                await db.rollback()
            # Another process opening the same file may have applied it between our version read
            # and our BEGIN IMMEDIATE (offline mode starts several bots at once): that is success.
            version = await current_version(db)
            if version >= migration.version:
                continue
            raise
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
        version = migration.version
    return version
