"""Process wiring: settings, the discord.py client, start-up, the CLI and offline mode."""

from bot.client import OpportunistBot, create_bot
from bot.settings import Settings

__all__ = ["OpportunistBot", "Settings", "create_bot"]
