"""One of two bot processes sharing a database file (test_contention.py).

``python -m tests.reliability._contention_worker DB SIDE GO_FILE MOVES``: builds the real bot
(`bot.create_bot`) on DB inside its own SimCord world, built exactly like the other process's (pinned
guild id, same creation order), so both bots serve the same channel id from the same SQLite file —
two deployments of the bot pointed at one database. It waits for GO_FILE, then has the GM move its
own combatants (``SIDE0``, ``SIDE1``, ...) one square right at a time, MOVES times, as fast as it can,
while the other process does the same with its combatants. Output lines:

    READY <channel id> <gm id>
    OK <combatant> <square>          the move was committed (public ruling)
    STALE <combatant> <square>       the bot reported the other process was first; nothing changed
    BUG <repr>                       anything else (the test fails on it)
    DONE
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

import simcord
from discord import app_commands

from bot import create_bot
from rules.encounter_file import load_data
from rules.errors import OpportunistError
from storage import EncounterExistsError, StaleVersionError
from tests.conftest import make_settings

GUILD_ID = 1_310_000_000_000_000_000
PER_SIDE = 4
COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def encounter_data() -> dict[str, object]:
    """Side A's combatants on rows 1-4, side B's on rows 6-9, all allies: moves provoke nothing."""
    return {
        "ruleset": "dnd35",
        "map": {"width": 26, "height": 10},
        "combatants": [
            {"name": f"{side}{i}", "side": "party", "at": f"A{row + 1}"}
            for side, base in (("A", 0), ("B", 5))
            for i in range(PER_SIDE)
            for row in [base + i]
        ],
    }


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(db: str, side: str, go: str, moves: int) -> None:
    # "always": both processes sync, so their simulated worlds hand out the same snowflakes.
    bot = create_bot(make_settings(db, log_level="WARNING", sync_commands="always"))
    async with simcord.run(bot, check_errors=False) as env:
        guild = env.create_guild("Shared", id=GUILD_ID)
        channel = guild.create_text_channel("arena")
        gm = guild.add_member(env.create_user("gm"))
        assert bot.storage is not None
        try:
            await bot.storage.create_encounter(
                channel.id, load_data(encounter_data()), gm_id=gm.id, guild_id=GUILD_ID
            )
        except EncounterExistsError:
            pass  # the other process made it
        say(f"READY {channel.id} {gm.id}")
        while not os.path.exists(go):
            time.sleep(0.001)
        for n in range(moves):
            who = f"{side}{n % PER_SIDE}"
            stored = await bot.storage.require_encounter(channel.id)
            here = stored.encounter.get(who).at
            dest = f"{COLS[COLS.index(here[0]) + 1]}{here[1:]}"  # MOVES <= 4 x 25 keeps it on the map
            cursor = env.error_cursor
            result = await gm.slash(channel, "move", who=who, path=dest)
            errors = [getattr(e, "original", e) for e in env.errors_since(cursor)]
            stale = [e for e in errors if isinstance(e, StaleVersionError)]
            others = [e for e in errors if not isinstance(e, OpportunistError | app_commands.CheckFailure)]
            for e in others:
                say(f"BUG {e!r}")
            if stale:
                say(f"STALE {who} {dest} {'ephemeral' if result.ephemeral else 'public'}")
            elif not errors:
                say(f"OK {who} {dest}")
            else:
                say(f"BUG user error {errors!r}")
            await asyncio.sleep(0)
        # SimCord's shutdown does not call bot.close(); aiosqlite's thread would keep the process alive.
        await bot.storage.close()
    say("DONE")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
