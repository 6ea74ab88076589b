"""`/move`, `/act`, `/orders`, `/turn next` and the persistent reaction-prompt buttons."""

from __future__ import annotations

from discord.ext import commands

from cogs._common import storage_of
from cogs.play._cog import PlayCog
from cogs.play._messages import PromptButton


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: register the cog and its persistent buttons."""
    bot.add_dynamic_items(PromptButton)
    await bot.add_cog(PlayCog(bot, storage_of(bot)))
