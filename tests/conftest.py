"""Shared fixtures: the real bot on a database in tmp_path, driven through SimCord.

    async def test_something(world):
        env, guild, channel, gm, alice, bob = world
        result = await gm.slash(channel, "encounter start", ruleset="dnd35", width=12, height=10)

`simcord_env` (from SimCord's pytest plugin) runs `simcord_bot`; per-test options go through
`@pytest.mark.simcord(...)`. A user error answered by the tree's `on_error` is also recorded by
SimCord as a bot error; acknowledge it with `user_errors(env)` (which fails on any real bug).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

import discord
import pytest
from discord import app_commands

from bot import OpportunistBot, Settings, create_bot
from rules.errors import OpportunistError

# Console scripts of the interpreter running the tests (e.g. `opportunist`) are on PATH even when the
# virtualenv is not activated (`.venv/bin/python -m pytest`, as the README and .ci/run run it).
os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")


def make_settings(db_path: Any, **overrides: Any) -> Settings:
    """Settings for a test bot: the given database, no token, one shard, no `.env` file."""
    values: dict[str, Any] = {"db_path": db_path, "token": None, "shard_count": 1, "log_level": "DEBUG"}
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
def db_path(tmp_path):
    """The SQLite file the test bot uses (keep it to restart a bot on the same data)."""
    return tmp_path / "opportunist.sqlite3"


@pytest.fixture
def bot_settings(db_path) -> Settings:
    return make_settings(db_path)


@pytest.fixture
async def bot_factory(db_path):
    """Build more bots on the test database (e.g. for `env.restart_bot`); all closed at teardown.

    ``bot_factory(**settings)`` overrides settings, ``bot_factory(bot=b)`` just registers ``b``.
    """
    made: list[OpportunistBot] = []

    def make(bot: OpportunistBot | None = None, **overrides: Any) -> OpportunistBot:
        made.append(bot if bot is not None else create_bot(make_settings(db_path, **overrides)))
        return made[-1]

    yield make
    for bot in made:
        if bot.storage is not None:
            await bot.storage.close()  # aiosqlite's thread must not outlive the test's event loop


@pytest.fixture
def simcord_bot(bot_settings, bot_factory) -> OpportunistBot:
    return bot_factory(create_bot(bot_settings))


class World(NamedTuple):
    """A demo guild with one channel and three members (unpack it: env, guild, channel, gm, alice, bob)."""

    env: Any
    guild: Any
    channel: Any
    gm: Any
    alice: Any
    bob: Any


@pytest.fixture
async def world(simcord_env) -> World:
    guild = simcord_env.create_guild("Opportunist test")
    channel = guild.create_text_channel("combat")
    gm = guild.add_member(simcord_env.create_user("gm"))
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    return World(simcord_env, guild, channel, gm, alice, bob)


def user_errors(env: Any) -> list[OpportunistError | app_commands.AppCommandError]:
    """Acknowledge the errors the bot answered as user errors; fail if any was a real bug."""
    found: list[OpportunistError | app_commands.AppCommandError] = []
    for error in env.errors:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if not isinstance(original, OpportunistError | app_commands.CheckFailure):
            raise AssertionError(f"the bot raised a non-user error: {original!r}") from original
        found.append(original)
    return found


def ephemeral_text(result: Any) -> str:
    """The text of an ephemeral reply (first response or follow-up)."""
    assert result.ephemeral, "expected an ephemeral reply"
    message = result.response if result.response is not None else result.followups[-1]
    return message.content


def button_labels(message: Any) -> list[str]:
    """Labels of every button on a message (a ResponseMessage's dict components or a discord.Message)."""
    labels: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == 2:
                labels.append(node.get("label") or "")
            for child in node.get("components", []):
                walk(child)
        elif isinstance(node, discord.Button):
            labels.append(node.label or "")
        else:
            for child in getattr(node, "children", []):
                walk(child)

    for row in message.components:
        walk(row)
    return labels
