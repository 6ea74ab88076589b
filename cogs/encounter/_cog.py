"""The `/encounter` command group."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import require_gm
from cogs.encounter._text import describe
from cogs.encounter._views import confirm_end_view
from rules.encounter_file import load_data
from rules.rulesets import RULESET_NAMES
from storage import Storage

NO_MENTIONS = discord.AllowedMentions.none()
Interaction = discord.Interaction[Any]


@app_commands.guild_only()
class EncounterCog(
    commands.GroupCog, group_name="encounter", group_description="Run this channel's encounter"
):
    """Start, show and end the channel's encounter."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        super().__init__()

    @app_commands.command(name="start", description="Start an encounter in this channel; you become its GM")
    @app_commands.describe(
        ruleset="Which rules adjudicate attacks of opportunity",
        width="Map width in columns (1-100)",
        height="Map height in rows (1-100)",
    )
    @app_commands.choices(ruleset=[app_commands.Choice(name=name, value=name) for name in RULESET_NAMES])
    async def start(
        self,
        interaction: Interaction,
        ruleset: str,
        width: app_commands.Range[int, 1, 100],
        height: app_commands.Range[int, 1, 100],
    ) -> None:
        """Create the encounter; refused (ephemerally, by the error handler) if the channel has one."""
        encounter = load_data({"ruleset": ruleset, "map": {"width": width, "height": height}})
        channel_id = _channel_id(interaction)
        async with self.storage.transaction():
            await self.storage.create_encounter(
                channel_id, encounter, gm_id=interaction.user.id, guild_id=interaction.guild_id
            )
            await self.storage.append_event(
                channel_id,
                "started",
                {"by": interaction.user.id, "ruleset": ruleset, "width": width, "height": height},
            )
        await interaction.response.send_message(
            f"New **{ruleset}** encounter on a {width}×{height} map; {interaction.user.mention} is the GM.\n"
            "Add combatants with `/combatant add`, or load a prepared file with `/encounter import`.",
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="show", description="Show this channel's encounter")
    async def show(self, interaction: Interaction) -> None:
        """Post the encounter summary."""
        stored = await self.storage.require_encounter(_channel_id(interaction))
        await interaction.response.send_message(describe(stored), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="end", description="End this channel's encounter (GM only, asks to confirm)")
    async def end(self, interaction: Interaction) -> None:
        """Ask the GM to confirm; the buttons re-check everything when pressed."""
        stored = await self.storage.require_encounter(_channel_id(interaction))
        require_gm(interaction, stored, "end this encounter")
        await interaction.response.send_message(
            f"End the **{stored.encounter.ruleset}** encounter in this channel? "
            "Its combatants and log are deleted; export it first if you want to keep it.",
            view=confirm_end_view(stored),
            allowed_mentions=NO_MENTIONS,
        )


def _channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:  # pragma: no cover - guild_only commands always have one
        raise app_commands.NoPrivateMessage()
    return interaction.channel_id
