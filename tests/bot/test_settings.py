"""Settings from the environment and `.env`."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    for key in (
        "OPPORTUNIST_TOKEN",
        "DISCORD_TOKEN",
        "OPPORTUNIST_DB",
        "OPPORTUNIST_DEV_GUILD",
        "OPPORTUNIST_LOG_LEVEL",
    ):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)


def test_defaults():
    s = Settings()
    assert s.token is None and s.db_path == Path("opportunist.sqlite3")
    assert s.dev_guild is None and s.log_level == "INFO" and s.sync_commands == "auto"


def test_discord_token_is_the_fallback(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "from-discord")
    assert Settings().token.get_secret_value() == "from-discord"
    monkeypatch.setenv("OPPORTUNIST_TOKEN", "from-opportunist")
    assert Settings().token.get_secret_value() == "from-opportunist"


def test_environment_values(monkeypatch):
    monkeypatch.setenv("OPPORTUNIST_DB", "/data/x.sqlite3")
    monkeypatch.setenv("OPPORTUNIST_DEV_GUILD", "123")
    monkeypatch.setenv("OPPORTUNIST_LOG_LEVEL", "debug")
    s = Settings()
    assert (s.db_path, s.dev_guild, s.log_level) == (Path("/data/x.sqlite3"), 123, "DEBUG")
    assert "x.sqlite3" not in repr(s.token)


def test_dot_env_file(tmp_path):
    (tmp_path / ".env").write_text("OPPORTUNIST_TOKEN=abc\nOPPORTUNIST_DB=db.sqlite3\n")
    s = Settings()
    assert s.token.get_secret_value() == "abc" and s.db_path == Path("db.sqlite3")
    assert "abc" not in repr(s)


def test_blank_token_is_no_token(monkeypatch):
    monkeypatch.setenv("OPPORTUNIST_TOKEN", "  ")
    assert Settings().token is None


def test_bad_log_level(monkeypatch):
    monkeypatch.setenv("OPPORTUNIST_LOG_LEVEL", "loud")
    with pytest.raises(ValidationError, match="OPPORTUNIST_LOG_LEVEL"):
        Settings()
