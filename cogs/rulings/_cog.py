"""`/provokes` (the rulings catalogue) and `/threatens` (who threatens a square; a combatant's area)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import storage_of
from cogs.combatants._complete import any_combatant_autocomplete, square_autocomplete
from cogs.play._text import safe
from render import draw
from render.scene import footprint, threat_overlay
from rules.catalogue import CatalogueEntry, lookup, suggest
from rules.coords import Coord, format_coord
from rules.errors import InputError
from rules.model import Encounter
from rules.rulesets import RULESET_NAMES, get_ruleset

log = logging.getLogger("opportunist.rulings")
Interaction = discord.Interaction[Any]
NO_MENTIONS = discord.AllowedMentions.none()
DEFAULT_RULESET = "dnd35"
VERDICT = {"yes": "provokes", "no": "does not provoke", "sometimes": "sometimes provokes"}


async def _channel_ruleset(interaction: Interaction) -> str | None:
    if interaction.channel_id is None:
        return None
    stored = await storage_of(interaction.client).load_encounter(interaction.channel_id)
    return stored.encounter.ruleset if stored is not None else None


async def catalogue_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Action names of the chosen ruleset's catalogue (else the channel's, else dnd35)."""
    chosen = getattr(interaction.namespace, "ruleset", None)
    ruleset = chosen if chosen in RULESET_NAMES else (await _channel_ruleset(interaction)) or DEFAULT_RULESET
    return [app_commands.Choice(name=n, value=n) for n in suggest(ruleset, current)[:25]]


def entry_text(ruleset: str, entry: CatalogueEntry) -> str:
    """One message: the verdict, why, the exceptions and the rule it comes from."""
    lines = [f"**{entry.action}** ({ruleset}): **{VERDICT[entry.provokes]}** an attack of opportunity."]
    lines.append(entry.reason)
    if entry.exceptions:
        lines.append("Exceptions:")
        lines.extend(f"• {e}" for e in entry.exceptions)
    lines.append(f"Source: {entry.source}")
    return "\n".join(lines)[:2000]


def threateners(enc: Encounter, square: Coord) -> tuple[Any | None, list[Any]]:
    """Who stands on ``square`` (if anyone) and who threatens it: the occupant's foes if there is one."""
    ruleset = get_ruleset(enc.ruleset)
    occupant = next((c for c in enc.combatants if square in footprint(c)), None)
    found = []
    for c in enc.combatants:
        if occupant is not None and not c.hostile_to(occupant):
            continue
        if square in ruleset.threatened(enc, c.name):
            found.append(c)
    return occupant, found


class RulingsCog(commands.Cog):
    """Quick rulings anyone may ask for."""

    @app_commands.command(name="provokes", description="Does this action provoke an attack of opportunity?")
    @app_commands.describe(
        action="The action, e.g. stand up, cast a spell, drink potion",
        ruleset="Which rules (default: this channel's encounter, else dnd35)",
    )
    @app_commands.choices(ruleset=[app_commands.Choice(name=n, value=n) for n in RULESET_NAMES])
    @app_commands.autocomplete(action=catalogue_autocomplete)
    async def provokes(
        self, interaction: Interaction, action: app_commands.Range[str, 1, 64], ruleset: str | None = None
    ) -> None:
        """The catalogue's answer in one message; works with or without an encounter, even in DMs."""
        chosen = ruleset or (await _channel_ruleset(interaction)) or DEFAULT_RULESET
        entry = lookup(chosen, action)
        await interaction.response.send_message(entry_text(chosen, entry), allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="threatens", description="Which foes threaten a square, or what a combatant threatens"
    )
    @app_commands.describe(
        at="A square or hex: who threatens it?", who="A combatant or a whole side: what does it threaten?"
    )
    @app_commands.guild_only()
    @app_commands.autocomplete(at=square_autocomplete, who=any_combatant_autocomplete)
    async def threatens(
        self,
        interaction: Interaction,
        at: app_commands.Range[str, 1, 8] | None = None,
        who: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Text for a square; an image of the threatened area for a combatant."""
        if at is None and who is None:
            raise InputError(
                "Give `at` (a square, to see who threatens it) or `who` (a combatant, to see its area)."
            )
        assert interaction.channel_id is not None  # noqa: S101 - guild-only
        stored = await storage_of(interaction.client).require_encounter(interaction.channel_id)
        enc = stored.encounter
        square = enc.coord(at) if at is not None else None
        if who is None:
            assert square is not None  # noqa: S101
            occupant, found = await asyncio.to_thread(threateners, enc, square)
            label = format_coord(square)
            if occupant is not None:
                head = f"Foes of **{safe(occupant.name)}** threatening **{label}**"
            else:
                head = f"Threatening **{label}**"
            if not found:
                text = f"Nobody threatens **{label}**." if occupant is None else f"{head}: none."
            else:
                names = ", ".join(f"**{safe(c.name)}** ({safe(c.side)}, at {c.at})" for c in found)
                text = f"{head}: {names}."
            await interaction.response.send_message(text[:2000], allowed_mentions=NO_MENTIONS)
            return
        # `who` is a combatant or a whole side (a combatant's name wins over a side's).
        area = await asyncio.to_thread(threat_overlay, enc, who)
        combatant = enc.get(who) or next(
            (c for c in enc.combatants if c.name.casefold() == who.casefold()), None
        )
        subject = f"**{safe(combatant.name)}**" if combatant is not None else f"The side **{safe(who)}**"
        focus = combatant.name if combatant is not None else who
        unit = "squares" if enc.ruleset == "dnd35" else "hexes"
        text = f"{subject} threatens {len(area)} {unit} (tinted on the map)."
        if not area:
            text = f"{subject} threatens nothing right now."
        if square is not None:
            verdict = "threatens" if square in area else "does not threaten"
            text += f"\nIt {verdict} **{format_coord(square)}**."
        await interaction.response.defer(thinking=True)
        files = []
        try:
            png = await asyncio.to_thread(draw, enc, threatened=area, focus=focus)
            files.append(discord.File(io.BytesIO(png), filename="threatens.png"))
        except Exception:
            log.exception("threat map render failed")
        await interaction.followup.send(text, files=files, allowed_mentions=NO_MENTIONS)
