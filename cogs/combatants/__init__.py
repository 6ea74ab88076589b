"""`/combatant add|set|remove|place|condition`: the GM's edits of the channel's combatants."""

from __future__ import annotations

from discord.ext import commands

from cogs.combatants._cog import CombatantCog


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: register the cog."""
    await bot.add_cog(CombatantCog())
