"""Helpers every cog shares: reaching storage from an interaction, replying to errors."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from rules.errors import OpportunistError
from storage import Storage, StoredEncounter

log = logging.getLogger("opportunist.errors")

GENERIC_ERROR = "Something went wrong on our side and it has been logged. Please try again in a moment."


class NotAllowedError(OpportunistError):
    """The user may not do this (e.g. only the GM may)."""


def is_gm(interaction: discord.Interaction[Any], stored: StoredEncounter) -> bool:
    """The GM is whoever started the encounter, or anyone allowed to manage the channel."""
    if interaction.user.id == stored.gm_id:
        return True
    return isinstance(interaction.user, discord.Member) and interaction.permissions.manage_channels


def require_gm(interaction: discord.Interaction[Any], stored: StoredEncounter, doing: str) -> None:
    """Raise `NotAllowedError` (shown ephemerally) unless the user is the encounter's GM."""
    if not is_gm(interaction, stored):
        raise NotAllowedError(f"Only the GM (<@{stored.gm_id}>) or someone with Manage Channels can {doing}.")


def storage_of(client: Any) -> Storage:
    """The bot's open `Storage` (set up in ``setup_hook`` before any cog loads)."""
    storage = getattr(client, "storage", None)
    if not isinstance(storage, Storage):
        raise RuntimeError("the bot has no open storage; build it with bot.create_bot()")
    return storage


def user_message(error: BaseException) -> str | None:
    """The text a user may read for ``error``, or None if it is a bug to log instead."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, OpportunistError):
        return original.message
    if isinstance(original, app_commands.NoPrivateMessage):
        return "This command only works in a server channel."
    if isinstance(original, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {original.retry_after:.0f} s."
    if isinstance(original, app_commands.CheckFailure):
        return str(original) or "You can't use this here."
    if isinstance(original, app_commands.TransformerError):
        return str(original)
    return None


def _custom_id(interaction: discord.Interaction[Any]) -> str:
    data: Any = interaction.data or {}
    return str(data.get("custom_id", "interaction"))


async def reply_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the user what went wrong, ephemerally: their mistake in plain words, our bug generically.

    Uses a follow-up if the interaction was already answered, else the first response.
    """
    text = user_message(error)
    if text is None:
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "unhandled error in %s (channel %s, user %s)",
            command or _custom_id(interaction),
            interaction.channel_id,
            interaction.user.id if interaction.user else None,
            exc_info=error,
        )
        text = GENERIC_ERROR
    # Error texts may echo what the user typed (`<@id>`, `@everyone`): they never ping anyone.
    quiet = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=quiet)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=quiet)
    except discord.HTTPException:
        # The interaction expired or Discord is down: there is nobody left to tell.
        log.warning("could not send the error reply for interaction %s", interaction.id, exc_info=True)
