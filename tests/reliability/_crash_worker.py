"""Child side of the crash test: apply storage actions in a loop until SIGKILLed.

Run as a *zygote*: ``python -m tests.reliability._crash_worker`` imports the storage layer once and
then reads commands on stdin, one per line:

    run DB SEED    fork a child that applies actions to DB; print ``P <pid>`` (the child prints
                   ``B <action id>`` before each BEGIN and ``C <action id>`` right after its COMMIT,
                   flushed)
    reap PID       wait for that child to die; print ``D <pid> <status>``

Forking from a warm zygote keeps each kill cycle at milliseconds instead of a fresh interpreter's
~0.4 s import time, so the test can afford hundreds of kills. The zygote and its children share one
stdout pipe; ``D`` is written after the child is dead, so every ``C`` line of that child precedes it.

Each action N is one transaction: save the encounter with a version check (Runner moves to a square
derived from N, ``round`` becomes N), append an ``action`` event ``{"n": N}``, replace the channel's
pending action (or clear it when N is a multiple of 3) and add N % 4 + 1 prompts to it. The checker
in test_crash.py knows the same rules (`expected_after`) and looks for any half-applied action.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

from rules.encounter_file import load_data
from storage import Storage
from storage.flow import NewPrompt

CHANNEL = 4242
GM = 7
WIDTH = 20
HEIGHT = 20


def square(n: int) -> str:
    """Where Runner stands after action ``n`` (deterministic, so the checker can recompute it)."""
    col, row = n % WIDTH, (n // WIDTH) % HEIGHT
    return f"{chr(ord('A') + col)}{row + 1}"


def has_pending(n: int) -> bool:
    """Whether action ``n`` leaves an action in flight (otherwise it clears it)."""
    return n % 3 != 0


def prompt_count(n: int) -> int:
    """How many prompts action ``n`` opens (when it leaves an action in flight)."""
    return n % 4 + 1


def initial() -> dict[str, object]:
    """The encounter file the worker starts from."""
    return {
        "ruleset": "dnd35",
        "map": {"width": WIDTH, "height": HEIGHT},
        "round": 1,
        "combatants": [
            {"name": "Runner", "side": "party", "player": 11, "at": "T20"},
            {"name": "Ogre", "side": "foes", "at": "T1", "size": "large"},
        ],
    }


async def apply_actions(db: str, seed: int) -> None:
    """Open the database and apply actions forever (until killed)."""
    rng = random.Random(seed)
    storage = await Storage.open(db)
    # What the connection actually runs with (2 = FULL: the WAL is fsynced at every COMMIT).
    sys.stdout.write(f"S {await storage.pragma('synchronous')} {await storage.pragma('journal_mode')}\n")
    sys.stdout.flush()
    stored = await storage.load_encounter(CHANNEL)
    if stored is None:
        try:
            stored = await storage.create_encounter(CHANNEL, load_data(initial()), gm_id=GM, guild_id=1)
        except Exception:  # a previous child created it after our load; take theirs
            stored = await storage.require_encounter(CHANNEL)
    while True:
        stored = await storage.require_encounter(CHANNEL)
        n = stored.version  # version 1 = no action yet; action n takes it to n + 1
        runner = stored.encounter.get("Runner").model_copy(update={"at": square(n)})
        encounter = stored.encounter.replace_combatant(runner).model_copy(update={"round": n})
        sys.stdout.write(f"B {n}\n")  # about to BEGIN: tells the test where the kill landed
        sys.stdout.flush()
        async with storage.transaction():
            await storage.save_encounter(CHANNEL, encounter, stored.version)
            await storage.append_event(CHANNEL, "action", {"n": n})
            await storage.clear_pending(CHANNEL)
            if has_pending(n):
                adjudication = await storage.put_pending(
                    CHANNEL, {"n": n, "who": "Runner"}, base_version=n + 1, started_by=11
                )
                await storage.add_prompts(
                    CHANNEL,
                    adjudication,
                    [
                        NewPrompt(
                            question_id=f"{n}-{k}",
                            question={"n": n, "k": k, "choices": ["take", "decline"]},
                            combatant="Ogre",
                            ping_user=GM,
                            deadline=1e9 + n,
                            remind_at=None,
                        )
                        for k in range(prompt_count(n))
                    ],
                )
        # Reported only after COMMIT returned: a reported action must be in the file.
        sys.stdout.write(f"C {n}\n")
        sys.stdout.flush()
        if rng.random() < 0.3:
            await asyncio.sleep(0)


def child(db: str, seed: int) -> None:
    """Body of a forked child: never returns."""
    try:
        asyncio.run(apply_actions(db, seed))
    except BaseException as exc:  # pragma: no cover - only if storage itself fails
        sys.stdout.write(f"E {type(exc).__name__}: {exc}\n")
        sys.stdout.flush()
    os._exit(1)


def zygote() -> None:
    """Serve `run` and `reap` commands from stdin (see the module docstring)."""
    load_data(initial())  # import the ruleset and build its validators once, before forking
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "run":
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                child(parts[1], int(parts[2]))
            sys.stdout.write(f"P {pid}\n")
        elif parts[0] == "reap":
            pid = int(parts[1])
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(f"D {pid} {status}\n")
        elif parts[0] == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    zygote()
