"""Child side of the graceful-shutdown test: `opportunist run`'s real signal path with a busy database.

``python -m tests.reliability._shutdown_worker DB`` runs `bot.cli._run_bot` (what `opportunist run`
runs after reading its settings) with only the gateway connection replaced: ``start`` opens storage the
way ``setup_hook`` does and then keeps a writer task busy with slow transactions, each one a save with
a version check, a 30 ms await inside the transaction (an in-flight action) and an event. Lines on
stdout: ``B n`` when transaction n has begun, ``C n`` after its COMMIT, ``X n`` when the writer found
the storage closed before starting n. The process exit status is `_run_bot`'s.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot import cli
from bot.client import OpportunistBot
from rules.encounter_file import load_data
from storage import Storage
from tests.conftest import make_settings

CHANNEL = 99


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def writer(storage: Storage) -> None:
    """Apply slow transactions until the storage closes under us."""
    n = 0
    while True:
        n += 1
        try:
            async with storage.transaction():
                say(f"B {n}")
                stored = await storage.require_encounter(CHANNEL)
                await storage.save_encounter(
                    CHANNEL, stored.encounter.model_copy(update={"round": n}), stored.version
                )
                await asyncio.sleep(0.03)  # the action is in flight when the signal arrives
                await storage.append_event(CHANNEL, "action", {"n": n})
        except RuntimeError as exc:  # "storage is closed": shutdown began before this one
            say(f"X {n} {exc}")
            return
        say(f"C {n}")


async def fake_start(self: OpportunistBot, token: str, *, reconnect: bool = True) -> None:
    """Stands in for the gateway connection: storage as setup_hook opens it, a busy writer, then idle."""
    self.storage = await Storage.open(self.settings.db_path)
    if await self.storage.load_encounter(CHANNEL) is None:
        encounter = load_data({"ruleset": "dnd35", "map": {"width": 5, "height": 5}})
        await self.storage.create_encounter(CHANNEL, encounter, gm_id=1, guild_id=1)
    tasks: Any = self.__dict__.setdefault("_writers", [])
    tasks.append(asyncio.get_running_loop().create_task(writer(self.storage)))
    await asyncio.Event().wait()


def main() -> int:
    OpportunistBot.start = fake_start  # type: ignore[method-assign]
    settings = make_settings(sys.argv[1], log_level="WARNING")
    cli.setup_logging(settings.log_level)
    return asyncio.run(cli._run_bot("not-a-real-token", settings))


if __name__ == "__main__":
    sys.exit(main())
