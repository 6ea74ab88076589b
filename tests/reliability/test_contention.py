"""Storage contention: two bot processes on one database file. The optimistic version check makes the
loser report "someone else acted first" and change nothing; no committed move is ever overwritten.

Each process (`_contention_worker`) runs the real bot in its own SimCord world with the same channel
id, and both hammer the same encounter with moves at the same time. Afterwards the event log must
hold exactly the moves reported OK, it must replay (each action ruled on the state the previous one
left), and the stored positions must be the replay's.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from storage import StaleVersionError, Storage
from tests.cogs.flow_support import install
from tests.conftest import user_errors
from tests.reliability import _contention_worker as worker

ROOT = Path(__file__).resolve().parents[2]
MOVES = 60


def test_two_bot_processes_on_one_file_never_overwrite(tmp_path):
    db = tmp_path / "shared.sqlite3"
    go = tmp_path / "go"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPPORTUNIST_")}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.reliability._contention_worker",
                str(db),
                side,
                str(go),
                str(MOVES),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for side in ("A", "B")
    ]
    try:
        ready = []
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline().split()
            assert line and line[0] == "READY", (line, p.stderr.read() if p.stderr else "")
            ready.append(tuple(line[1:]))
        assert ready[0] == ready[1], "the two worlds do not share the channel and GM ids"
        go.touch()
        outputs = [p.communicate(timeout=90) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    lines = [line for out, _ in outputs for line in out.splitlines()]
    for p, (out, err) in zip(procs, outputs, strict=True):
        assert p.returncode == 0 and out.rstrip().endswith("DONE"), err[-2000:]
    assert not [x for x in lines if x.startswith("BUG")], [x for x in lines if x.startswith("BUG")]
    ok = [x.split()[1:3] for x in lines if x.startswith("OK ")]
    stale = [x for x in lines if x.startswith("STALE ")]
    assert len(ok) + len(stale) == 2 * MOVES
    assert all(x.endswith(" ephemeral") for x in stale), "a loser was told publicly"

    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        version, data = con.execute("SELECT version, data FROM encounters").fetchone()
        events = [
            json.loads(d) for (d,) in con.execute("SELECT data FROM events WHERE kind = 'action' ORDER BY id")
        ]
        pending = con.execute("SELECT COUNT(*) FROM adjudications").fetchone()[0]
    finally:
        con.close()
    assert len(events) == len(ok) and version == 1 + len(ok) and pending == 0
    assert sorted((e["ruling"]["who"], e["ruling"]["path"][-1]) for e in events) == sorted(map(tuple, ok))
    at = {c["name"]: c["at"] for c in worker.encounter_data()["combatants"]}
    for e in events:
        assert {c["name"]: c["at"] for c in e["before"]["combatants"]} == at, (
            "an action was ruled on a lost state"
        )
        at[e["ruling"]["who"]] = e["ruling"]["path"][-1]
    assert {c["name"]: c["at"] for c in json.loads(data)["combatants"]} == at
    print(
        f"\ncontention: {2 * MOVES} moves from two processes, {len(ok)} committed, "
        f"{len(stale)} reported stale"
    )


# -- the loser's reply -------------------------------------------------------------------------------


async def test_the_loser_is_told_ephemerally(world, monkeypatch):
    # Found by this test: /move used to defer publicly before committing, so the stale-version error
    # replaced the public "thinking" message (Discord ignores the ephemeral flag there).
    env, guild, channel, gm, alice, bob = world
    await install(env, channel, gm, worker.encounter_data())
    other = await Storage.open(env.bot.storage.path)  # a second process's connection to the same file
    try:
        real_orders = env.bot.storage.orders

        async def orders_after_the_other_process_moved(channel_id: int) -> Any:
            # Between this bot's load and its save, the other process commits a change.
            stored = await other.require_encounter(channel_id)
            await other.save_encounter(
                channel_id, stored.encounter.model_copy(update={"round": 9}), stored.version
            )
            return await real_orders(channel_id)

        monkeypatch.setattr(env.bot.storage, "orders", orders_after_the_other_process_moved)
        result = await gm.slash(channel, "move", who="A0", path="B1")
    finally:
        await other.close()
    assert [type(e) for e in user_errors(env)] == [StaleVersionError]
    stored = await env.bot.storage.require_encounter(channel.id)
    assert stored.version == 2 and stored.encounter.round == 9  # the other process's change stands
    assert stored.encounter.get("A0").at == "A1"
    assert result.ephemeral, "the loser's 'someone else acted first' was posted publicly"
