"""The discord.py client: storage, cogs and the command tree wired together."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.settings import Settings
from cogs import EXTENSIONS
from cogs._common import reply_error
from storage import Storage

log = logging.getLogger("opportunist")


class OpportunistTree(app_commands.CommandTree["OpportunistBot"]):
    """The one place where app-command errors become replies (STYLE 4-5)."""

    async def on_error(
        self, interaction: discord.Interaction[OpportunistBot], error: app_commands.AppCommandError
    ) -> None:
        """User errors: their message, ephemeral. Anything else: logged, generic ephemeral reply."""
        await reply_error(interaction, error)


class OpportunistBot(commands.AutoShardedBot):
    """The bot. Build it with `create_bot`; `storage` is open once `setup_hook` has run."""

    storage: Storage | None

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel and permission cache; no message content needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            tree_cls=OpportunistTree,
            shard_count=settings.shard_count,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.storage = None
        self.synced: bool | None = None  # whether the last setup_hook synced the tree (for tests)

    async def setup_hook(self) -> None:
        """Open storage (running migrations), load the cogs, sync the command tree if it changed."""
        self.storage = await Storage.open(self.settings.db_path)
        log.info("storage open at %s", self.settings.db_path)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.synced = await self.sync_if_changed()

    async def sync_if_changed(self) -> bool:
        """Sync the tree when its definition differs from the last synced one; return True if synced.

        The hash lives in the database so restarts do not spend Discord's sync rate limit.
        """
        assert self.storage is not None  # noqa: S101 - setup_hook opens it first
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        digest = tree_hash(self.tree, guild)
        key = f"command_tree:{self.application_id}:{guild.id if guild else 'global'}"
        mode = self.settings.sync_commands
        if mode == "never" or (mode == "auto" and await self.storage.get_meta(key) == digest):
            log.info("command tree unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.storage.set_meta(key, digest)
        log.info("command tree synced (%s)", f"guild {guild.id}" if guild else "global")
        return True

    async def close(self) -> None:
        """Disconnect, then close the database so every committed action is on disk."""
        try:
            await super().close()
        finally:
            if self.storage is not None:
                await self.storage.close()


def tree_hash(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> str:
    """A stable hash of the commands that a sync for ``guild`` (None = global) would upload."""
    payload = sorted(
        (command.to_dict(tree) for command in tree.get_commands(guild=guild)),
        key=lambda data: (str(data.get("name")), int(data.get("type", 1))),
    )
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def create_bot(settings: Settings | None = None) -> OpportunistBot:
    """The fully wired bot, not yet connected (settings from the environment when None)."""
    return OpportunistBot(settings if settings is not None else Settings())
