"""The command tree: one error handler for every app command, sync only when the tree changed."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from bot import create_bot
from cogs._common import GENERIC_ERROR
from rules.errors import InputError
from tests.conftest import ephemeral_text


def _with_test_commands(bot):
    @bot.tree.command(name="boom", description="raises a bug")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @bot.tree.command(name="oops", description="a user error after deferring")
    async def oops(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        raise InputError("`Z99` is off the map; the map runs from A1 to L10.")

    @bot.tree.command(name="late", description="a bug after a public reply")
    async def late(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working on it")
        raise KeyError("missing")

    return bot


@pytest.fixture
def simcord_bot(bot_settings, bot_factory):
    return bot_factory(_with_test_commands(create_bot(bot_settings)))


async def test_bug_is_logged_and_answered_generically(world, caplog):
    env, guild, channel, gm, alice, bob = world
    with caplog.at_level(logging.ERROR, logger="opportunist.errors"):
        result = await alice.slash(channel, "boom")
    assert ephemeral_text(result) == GENERIC_ERROR
    assert "kaboom" not in ephemeral_text(result)
    record = next(r for r in caplog.records if r.name == "opportunist.errors")
    assert "boom" in record.getMessage() and record.exc_info is not None
    (error,) = env.errors
    assert isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, RuntimeError)


async def test_user_error_after_defer_is_an_ephemeral_followup(world):
    env, guild, channel, gm, alice, bob = world
    result = await alice.slash(channel, "oops")
    assert ephemeral_text(result) == "`Z99` is off the map; the map runs from A1 to L10."
    # The reply went out as a follow-up (webhook) because the interaction was already deferred.
    calls = [(r.method, r.path.split("/")[1]) for r in env.http_requests[-2:]]
    assert calls == [("POST", "interactions"), ("POST", "webhooks")]
    env.errors  # acknowledge the recorded user error  # noqa: B018


async def test_bug_after_public_reply_gets_ephemeral_followup(world):
    env, guild, channel, gm, alice, bob = world
    result = await alice.slash(channel, "late")
    assert result.response.content == "working on it" and not result.response.ephemeral
    assert result.followups[-1].content == GENERIC_ERROR and result.followups[-1].ephemeral
    env.errors  # noqa: B018


def _command_puts(env):
    return [r for r in env.http_requests if r.method == "PUT" and "/commands" in r.path]


async def test_tree_synced_once_then_only_when_changed(world, bot_factory):
    env, guild, channel, gm, alice, bob = world
    assert env.bot.synced is True and len(_command_puts(env)) == 1

    same = _with_test_commands(bot_factory())
    await env.restart_bot(same)
    assert same.synced is False and len(_command_puts(env)) == 1
    result = await alice.slash(channel, "oops")  # the commands synced earlier still work
    assert "Z99" in ephemeral_text(result)
    env.errors  # noqa: B018

    changed = bot_factory()  # without the test commands: a different tree
    await env.restart_bot(changed)
    assert changed.synced is True and len(_command_puts(env)) == 2


async def test_dev_guild_sync_goes_to_that_guild(simcord_env, bot_factory):
    guild = simcord_env.create_guild("dev")
    bot = bot_factory(dev_guild=guild.id)
    await simcord_env.restart_bot(bot)
    puts = [r.path for r in _command_puts(simcord_env)]
    assert puts[-1].endswith(f"/guilds/{guild.id}/commands")
