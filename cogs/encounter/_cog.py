"""The `/encounter` command group."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import require_gm
from cogs.combatants._edit import change_encounter
from cogs.encounter._import import export_file, propose
from cogs.encounter._log import log_text
from cogs.encounter._text import change_settings, describe, map_files, settings_text, turn_order_text
from cogs.encounter._views import confirm_end_view
from cogs.play._cog import flow_of
from cogs.play._text import safe
from rules.encounter_file import load_data
from rules.errors import InputError
from rules.rulesets import RULESET_NAMES
from storage import Storage

NO_MENTIONS = discord.AllowedMentions.none()
Interaction = discord.Interaction[Any]
LOG_EVENTS = 100
LOG_PROMPTS = 100


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
        """Post the map image, the turn order (round, whose turn) and the prompts being waited on."""
        channel_id = _channel_id(interaction)
        stored = await self.storage.require_encounter(channel_id)
        text = describe(stored) + turn_order_text(stored.encounter)
        waiting = await flow_of(interaction.client).waiting_text(channel_id)
        if waiting is not None:
            text += "\n⏳ " + waiting
        files = await map_files(stored.encounter)
        await interaction.response.send_message(text[:2000], files=files, allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="import", description="Load an encounter file (YAML or JSON, up to 1 MB; GM)")
    @app_commands.describe(file="The encounter file, as `/encounter export` gives it")
    async def import_(self, interaction: Interaction, file: discord.Attachment) -> None:
        """Check the file and ask to confirm; nothing changes before the confirm button."""
        await propose(interaction, file)

    @app_commands.command(name="export", description="The encounter file as an attachment (GM)")
    async def export(self, interaction: Interaction) -> None:
        """Canonical YAML; importing it gives the same encounter back. Ephemeral: stats may be secret."""
        stored = await self.storage.require_encounter(_channel_id(interaction))
        require_gm(interaction, stored, "export this encounter")
        await interaction.response.send_message(
            "The encounter file; load it anywhere with `/encounter import`.",
            file=await export_file(stored),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(
        name="settings", description="Prompt timeout, what happens on timeout, variants (GM)"
    )
    @app_commands.describe(
        prompt_timeout="Seconds a reaction prompt waits (0 = until answered)",
        on_timeout="decline: the reaction is declined; gm: the GM is pinged to decide",
        variants="Ruleset variants, comma-separated (e.g. reach_weapon_up_close), or `none`",
    )
    @app_commands.choices(on_timeout=[app_commands.Choice(name=v, value=v) for v in ("decline", "gm")])
    async def settings(
        self,
        interaction: Interaction,
        prompt_timeout: app_commands.Range[int, 0, 2592000] | None = None,
        on_timeout: str | None = None,
        variants: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """Without options: show the settings. With options: change them (GM only)."""
        if prompt_timeout is None and on_timeout is None and variants is None:
            stored = await self.storage.require_encounter(_channel_id(interaction))
            await interaction.response.send_message(
                settings_text(stored.encounter), ephemeral=True, allowed_mentions=NO_MENTIONS
            )
            return
        _, enc = await change_encounter(
            interaction,
            "change the settings",
            lambda stored: change_settings(stored.encounter, prompt_timeout, on_timeout, variants),
        )
        await interaction.response.send_message(settings_text(enc), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="undo", description="Revert the last completed action (GM)")
    async def undo(self, interaction: Interaction) -> None:
        """Restore the snapshot taken before the last completed action not yet undone."""
        channel_id = _channel_id(interaction)
        flow = flow_of(interaction.client)
        async with flow.lock(channel_id):
            stored = await self.storage.require_encounter(channel_id)
            require_gm(interaction, stored, "undo actions")
            await flow.ensure_idle(channel_id)
            event = await self.storage.last_undoable_action(channel_id)
            if event is None:
                raise InputError("There is no completed action left to undo in this encounter.")
            before = load_data(event.data["before"])
            async with self.storage.transaction():
                await self.storage.save_encounter(channel_id, before, stored.version)
                await self.storage.append_event(
                    channel_id, "undo", {"undid": event.id, "by": interaction.user.id}
                )
        ruling = event.data.get("ruling") or {}
        files = await map_files(before)
        await interaction.response.send_message(
            f"Undone: #{event.id}, **{safe(ruling.get('who', '?'))}**'s "
            f"{safe(ruling.get('action', 'action'))}. "
            "The encounter is back as it was just before it (later turn changes and edits are reverted too).",
            files=files,
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(
        name="log", description="The last rulings, newest first, with every prompt's answer"
    )
    async def log(self, interaction: Interaction) -> None:
        """Rulings from the event log, prompts from the prompt table."""
        channel_id = _channel_id(interaction)
        await self.storage.require_encounter(channel_id)
        events = await self.storage.recent_events(channel_id, limit=LOG_EVENTS)
        prompts = await self.storage.recent_prompts(channel_id, limit=LOG_PROMPTS)
        if len(events) == LOG_EVENTS:  # older prompts belong to actions beyond the window
            prompts = [p for p in prompts if p.created_at > events[-1].created_at]
        in_flight = await flow_of(interaction.client).waiting_text(channel_id)
        await interaction.response.send_message(
            log_text(events, prompts, in_flight=in_flight), allowed_mentions=NO_MENTIONS
        )

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
