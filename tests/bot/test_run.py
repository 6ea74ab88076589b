"""`opportunist run`: a SIGTERM or SIGINT closes the database and exits 0 (no Discord needed)."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot import cli
from bot.client import OpportunistBot
from storage import Storage
from tests.conftest import make_settings


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_closes_database_and_exits_zero(tmp_path, monkeypatch, signum):
    opened: list[Storage] = []

    async def fake_start(self, token, *, reconnect=True):
        # Stands in for the gateway connection: open storage like setup_hook, then run until closed.
        self.storage = await Storage.open(self.settings.db_path)
        opened.append(self.storage)
        asyncio.get_running_loop().call_later(0.2, os.kill, os.getpid(), signum)
        await asyncio.Event().wait()

    monkeypatch.setattr(OpportunistBot, "start", fake_start)
    status = asyncio.run(cli._run_bot("token", make_settings(tmp_path / "run.sqlite3")))
    assert status == 0
    assert len(opened) == 1 and opened[0].closed
