"""`opportunist offline` as a user runs it: a subprocess serving the Preview on loopback."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.bot.preview_client import PreviewClient

URL_LINE = re.compile(r"^\s+#(?P<channel>[a-z0-9]+)\s+(?P<url>http://127\.0\.0\.1:(?P<port>\d+)/#\S+)$")


def _free_port_block(size: int = 4) -> int:
    """A port P such that P..P+size-1 were all free a moment ago."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + size > 65535:
            continue
        try:
            socks = []
            for port in range(base, base + size):
                sock = socket.socket()
                socks.append(sock)
                sock.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for sock in socks:
                sock.close()
    pytest.skip("no block of free ports")


def _start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPPORTUNIST_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "offline", "--db", str(tmp_path / "off.sqlite3"), *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    urls: dict[str, str] = {}
    seen: list[str] = []
    deadline = time.monotonic() + 60
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if match := URL_LINE.match(line.rstrip("\n")):
            urls[match["channel"]] = match["url"]
        if line.startswith("Press Ctrl-C"):
            return proc, urls
    proc.kill()
    _, err = proc.communicate(timeout=10)
    raise AssertionError(f"offline did not start (exit {proc.returncode}): {''.join(seen)}{err}")


def _stop(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_offline_serves_preview_and_stops_cleanly(tmp_path):
    port = _free_port_block()
    proc, urls = _start(tmp_path, "--port", str(port))
    try:
        assert list(urls) == ["combat", "dnd35", "aphex", "dragonquest"]
        assert urls["combat"].startswith(f"http://127.0.0.1:{port}/#")
        # The page itself.
        base = urls["combat"].split("#")[0]
        with urllib.request.urlopen(base, timeout=10) as response:  # noqa: S310 - loopback
            assert response.status == 200
            assert "<html" in response.read().decode().lower()
        # What the page shows: the channel, and the demo users to switch between.
        client = PreviewClient(urls["combat"])
        assert client.page["channel"]["name"] == "combat"
        assert [v["name"] for v in client.page["viewers"]] == ["gm", "alice", "bob"]
        assert client.page["commands"]["state"] == "available"
        # Typing /encounter start in the composer reaches the real bot.
        result = client.slash("encounter start", ruleset="dnd35", width="12", height="10")
        assert result["settlement"] == "settled" and not result["rejected"], result
        assert any("New dnd35 encounter on a 12×10 map" in text for text in client.excerpts())
        # The sample channels are served too, each naming its channel.
        for name in ("dnd35", "aphex", "dragonquest"):
            assert PreviewClient(urls[name]).page["channel"]["name"] == name
    finally:
        status = _stop(proc)
    assert status == 0, proc.stderr.read() if proc.stderr else ""
    with sqlite3.connect(tmp_path / "off.sqlite3") as db:
        rulesets = sorted(r[0] for r in db.execute("SELECT ruleset FROM encounters"))
    # The three samples plus the one started from the browser, all on disk after Ctrl-C.
    assert rulesets == ["aphex", "dnd35", "dnd35", "dragonquest"]


def test_offline_session_persists_across_runs(tmp_path):
    proc, urls = _start(tmp_path)
    try:
        PreviewClient(urls["combat"]).slash("encounter start", ruleset="aphex", width="9", height="9")
    finally:
        assert _stop(proc) == 0
    proc, urls = _start(tmp_path)
    try:
        client = PreviewClient(urls["combat"])
        client.slash("encounter show")
        assert any(
            "**aphex** encounter on a 9×9 map" in text or "aphex encounter on a 9×9 map" in text
            for text in client.excerpts()
        ), client.excerpts()
    finally:
        assert _stop(proc) == 0


def test_offline_with_encounter_file_serves_only_combat(tmp_path):
    enc = tmp_path / "mine.yaml"
    enc.write_text(
        "ruleset: dragonquest\nmap: {width: 6, height: 5}\ncombatants:\n"
        "  - {name: Knight, side: party, at: B2}\n"
    )
    proc, urls = _start(tmp_path, "--encounter", str(enc))
    try:
        assert list(urls) == ["combat"]
        client = PreviewClient(urls["combat"])
        client.slash("encounter show")
        assert any("Knight" in text for text in client.excerpts()), client.excerpts()
    finally:
        assert _stop(proc) == 0


def test_offline_bad_encounter_file_exits_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: chess\n")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "offline",
            "--db",
            str(tmp_path / "x.sqlite3"),
            "--encounter",
            str(bad),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "ruleset" in proc.stderr and proc.stderr.count("\n") == 1


async def test_simulated_clock_follows_the_wall_clock(simcord_env):
    import asyncio

    from bot.offline import _follow_wall_clock

    before = simcord_env.now()
    ticker = asyncio.ensure_future(_follow_wall_clock(simcord_env, period=0.05))
    await asyncio.sleep(0.4)
    ticker.cancel()
    await asyncio.gather(ticker, return_exceptions=True)
    advanced = (simcord_env.now() - before).total_seconds()
    assert 0.2 <= advanced <= 2.0
