"""Crash safety: SIGKILL the storage layer at random moments, hundreds of times; nothing is lost or torn.

A warm zygote (`_crash_worker.py`) forks short-lived children that apply one-transaction actions in a
loop and print each action id after its COMMIT. The test kills each child with SIGKILL after a random
delay (0-150 ms: during start-up, migrations, mid-transaction, between transactions), then reopens the
file with plain sqlite3 and checks:

- ``PRAGMA integrity_check`` is ``ok`` and the schema is fully migrated;
- every action reported committed is in the file (at most one more: killed between COMMIT and print);
- no half-applied action: the encounter version is 1 + the number of action events, the events are
  exactly 1..N in order, the encounter JSON is action N's (square and round), the action in flight
  and its open prompts are exactly what action N left, and every earlier prompt is closed (moot);
- pending prompts are intact (their question JSON parses and belongs to their action).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage.schema import available
from tests.reliability import _crash_worker as worker

ROOT = Path(__file__).resolve().parents[2]
KILLS = 220
TIME_BUDGET = 80.0  # seconds; the loop stops early (and fails below 200 kills) if the machine is slow


class Zygote:
    """The warm worker process; see `_crash_worker`."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability._crash_worker"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.buffer: list[str] = []

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix: str, timeout: float = 20.0) -> tuple[str, list[str]]:
        """Lines up to the first one starting with ``prefix``: (that line, the lines before it)."""
        assert self.proc.stdout is not None
        before: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"zygote said nothing starting with {prefix!r}; got {before[-5:]}")
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"zygote exited; last lines {before[-5:]}")
            line = line.rstrip("\n")
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send("quit")
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def check(db: Path, reported: int) -> int:
    """Open the killed file afresh and check every invariant; return the number of actions in it.

    ``reported`` is the last action known committed: the child's last ``C`` line, or what the file
    held before this child if it reported nothing. A child can commit at most one more action than it
    reported (killed between COMMIT and its print).
    """
    con = sqlite3.connect(db, isolation_level=None)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        (schema,) = con.execute("PRAGMA user_version").fetchone()
        if schema < len(available()):
            # Killed during the first migrations: the file is at a whole earlier version, never torn.
            assert reported == 0
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert schema != 0 or "encounters" not in tables
            return 0
        row = con.execute("SELECT id, version, data FROM encounters WHERE channel_id = ?", (worker.CHANNEL,))
        enc = row.fetchone()
        if enc is None:
            assert reported == 0
            assert con.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)
            return 0
        encounter_id, version, data = enc
        events = [
            json.loads(d)["n"]
            for (d,) in con.execute(
                "SELECT data FROM events WHERE encounter_id = ? AND kind = 'action' ORDER BY id",
                (encounter_id,),
            )
        ]
        n = len(events)
        assert events == list(range(1, n + 1)), "the event log has a gap or a duplicate"
        assert version == n + 1, f"encounter at version {version} but {n} action events: half-applied"
        assert reported <= n, f"action {reported} was reported committed but only {n} are in the file"
        assert n <= reported + 1, f"{n} actions in the file, {reported} reported: a phantom commit"
        state = json.loads(data)
        runner = next(c for c in state["combatants"] if c["name"] == "Runner")
        if n:
            assert (state["round"], runner["at"]) == (n, worker.square(n)), "encounter JSON of another action"

        pending = con.execute(
            "SELECT id, base_version, data FROM adjudications WHERE encounter_id = ?", (encounter_id,)
        ).fetchall()
        open_prompts = con.execute(
            "SELECT adjudication_id, question_id, question FROM prompts "
            "WHERE encounter_id = ? AND status = 'open' ORDER BY id",
            (encounter_id,),
        ).fetchall()
        if n and worker.has_pending(n):
            assert len(pending) == 1
            adjudication_id, base, adj = pending[0]
            assert (json.loads(adj)["n"], base) == (n, n + 1)
            want = [f"{n}-{k}" for k in range(worker.prompt_count(n))]
            assert [q for _, q, _ in open_prompts] == want, "open prompts are not exactly action N's"
            for aid, qid, question in open_prompts:
                q = json.loads(question)
                assert aid == adjudication_id and f"{q['n']}-{q['k']}" == qid and q["choices"]
        else:
            assert pending == [] and open_prompts == []
        # Every prompt of an earlier action was closed in the same transaction that replaced it.
        stale = con.execute(
            "SELECT COUNT(*) FROM prompts WHERE encounter_id = ? AND status = 'open' "
            "AND CAST(substr(question_id, 1, instr(question_id, '-') - 1) AS INTEGER) <> ?",
            (encounter_id, n),
        ).fetchone()
        assert stale == (0,)
        return n
    finally:
        con.close()


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(int(os.environ.get("OPPORTUNIST_CRASH_SEED", "20261129")))
    zygote = Zygote()
    kills = 0
    reported = 0  # the last action known committed
    in_file = 0
    pragmas: set[str] = set()  # what each child's connection reported: synchronous, journal_mode
    mid_run_kills = 0  # kills that landed after the child had committed at least once
    mid_transaction = after_commit = 0
    started = time.monotonic()
    try:
        while kills < KILLS and time.monotonic() - started < TIME_BUDGET:
            zygote.send(f"run {db} {rng.randrange(1 << 30)}")
            line, early = zygote.read_until("P ")
            pid = int(line.split()[1])
            # A third of the kills land during start-up (open, migrations, first load), the rest while
            # actions are being applied (mid-transaction or between transactions).
            time.sleep(rng.uniform(0.0, 0.03) if rng.random() < 1 / 3 else rng.uniform(0.03, 0.15))
            os.kill(pid, signal.SIGKILL)
            zygote.send(f"reap {pid}")
            done, lines = zygote.read_until(f"D {pid} ")
            lines = early + lines
            status = int(done.split()[2])
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (done, lines)
            pragmas.update(x for x in lines if x.startswith("S "))
            errors = [x for x in lines if x.startswith("E ")]
            assert not errors, errors
            committed = [int(x.split()[1]) for x in lines if x.startswith("C ")]
            if committed:
                mid_run_kills += 1
                assert committed == list(range(in_file + 1, committed[-1] + 1)), (committed[:3], in_file)
            reported = committed[-1] if committed else in_file
            began = [int(x.split()[1]) for x in lines if x.startswith("B ")]
            kills += 1
            in_file = check(db, reported)
            if began and began[-1] > reported:
                # Killed after announcing action began[-1] and before reporting it: inside its
                # transaction (rolled back) or between its COMMIT and the print (kept, unreported).
                if in_file == began[-1]:
                    after_commit += 1
                else:
                    mid_transaction += 1
    finally:
        zygote.close()

    assert pragmas == {"S 2 wal"}, pragmas  # synchronous=FULL in WAL mode, on every connection
    elapsed = time.monotonic() - started
    print(
        f"\ncrash test: {kills} SIGKILLs survived in {elapsed:.1f} s, {in_file} actions committed, "
        f"{mid_run_kills} kills during the action loop, {mid_transaction} inside a transaction or "
        f"before it, {after_commit} between COMMIT and its report, 0 lost"
    )
    assert kills >= 200, f"only {kills} kills in {TIME_BUDGET} s"
    assert mid_run_kills >= 100, "too few kills landed while actions were being applied"
    assert mid_transaction >= 20, "too few kills landed inside a transaction"
    assert in_file >= reported >= 200
