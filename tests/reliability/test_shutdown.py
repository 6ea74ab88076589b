"""Graceful shutdown: SIGTERM/SIGINT while a transaction is in flight finishes it, closes the database
and exits 0 — for `opportunist run` (its real signal path in a child process, the gateway replaced,
see `_shutdown_worker`) and for `opportunist offline` (the real CLI).

tests/bot/test_run.py already checks, in-process, that a signal closes storage and `_run_bot` returns 0;
these tests add a real process, a real signal, a transaction caught mid-way and the file afterwards.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _integrity(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        con.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_run_signal_mid_transaction_commits_it_and_exits_zero(tmp_path, signum):
    db = tmp_path / "run.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPPORTUNIST_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability._shutdown_worker", str(db)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            line = proc.stdout.readline().strip()
            assert line, f"worker died early: {seen} {proc.stderr.read() if proc.stderr else ''}"
            seen.append(line)
            # After a few whole actions, signal the moment the next transaction has begun.
            if line.startswith("B ") and int(line.split()[1]) >= 4:
                proc.send_signal(signum)
                break
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    seen += out.split("\n")
    in_flight = int(next(x for x in reversed(seen) if x.startswith("B ")).split()[1])
    committed = [int(x.split()[1]) for x in seen if x.startswith("C ")]

    assert proc.returncode == 0, err
    assert committed == list(range(1, in_flight + 1)), "the in-flight transaction was not finished"
    assert any(x.startswith(f"X {in_flight + 1} ") for x in seen), "the writer was not stopped by close"
    _integrity(db)
    con = sqlite3.connect(db)
    try:
        events = [json.loads(d)["n"] for (d,) in con.execute("SELECT data FROM events ORDER BY id")]
        version, data = con.execute("SELECT version, data FROM encounters").fetchone()
    finally:
        con.close()
    assert events == committed
    assert version == 1 + in_flight and json.loads(data)["round"] == in_flight


def test_offline_sigterm_closes_database_and_exits_zero(tmp_path):
    from tests.bot.test_offline import _start

    proc, urls = _start(tmp_path)
    assert urls
    proc.send_signal(signal.SIGTERM)
    try:
        status = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert status == 0, proc.stderr.read() if proc.stderr else ""
    db = tmp_path / "off.sqlite3"
    _integrity(db)
    con = sqlite3.connect(db)
    try:
        rulesets = sorted(r for (r,) in con.execute("SELECT ruleset FROM encounters"))
    finally:
        con.close()
    assert rulesets == ["aphex", "dnd35", "dragonquest"]  # the sample encounters were kept
