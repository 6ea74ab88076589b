"""`/encounter ...`: start, show, import, export, settings, undo, log and end a channel's encounter."""

from __future__ import annotations

from discord.ext import commands

from cogs._common import storage_of
from cogs.encounter._cog import EncounterCog
from cogs.encounter._import import ImportButton
from cogs.encounter._views import EndButton


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: register the cog and its persistent buttons."""
    bot.add_dynamic_items(EndButton, ImportButton)
    await bot.add_cog(EncounterCog(storage_of(bot)))
