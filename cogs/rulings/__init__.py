"""`/provokes` and `/threatens`: quick rulings anyone may ask for."""

from __future__ import annotations

from discord.ext import commands

from cogs.rulings._cog import RulingsCog


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: register the cog."""
    await bot.add_cog(RulingsCog())
