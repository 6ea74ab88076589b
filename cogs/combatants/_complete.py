"""Autocomplete for squares and for every combatant name (commands anyone may use)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from cogs._common import storage_of
from rules.coords import column_letters
from storage import StoredEncounter

Interaction = discord.Interaction[Any]
_TYPED = re.compile(r"^([A-Z]*)(\d*)$")
MAX_CHOICES = 25


async def _stored(interaction: Interaction) -> StoredEncounter | None:
    if interaction.channel_id is None:
        return None
    return await storage_of(interaction.client).load_encounter(interaction.channel_id)


async def square_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Open squares of the channel's map matching what was typed (`C` -> C1, C2, ...); with nothing typed,
    the squares where combatants stand, named."""
    stored = await _stored(interaction)
    if stored is None:
        return []
    enc = stored.encounter
    standing = {c.at: c.name for c in enc.combatants}
    typed = current.strip().upper()
    if not typed:
        return [
            app_commands.Choice(name=f"{at} ({name})", value=at)
            for at, name in list(standing.items())[:MAX_CHOICES]
        ]
    match = _TYPED.match(typed)
    if match is None:
        return []
    letters, digits = match.groups()
    blocked = set(enc.map.blocked)
    out: list[app_commands.Choice[str]] = []
    for index in range(enc.map.width):
        col = column_letters(index)
        if not col.startswith(letters) or (digits and col != letters):
            continue
        for row in range(1, enc.map.height + 1):
            label = f"{col}{row}"
            if label in blocked or not str(row).startswith(digits):
                continue
            shown = f"{label} ({standing[label]})" if label in standing else label
            out.append(app_commands.Choice(name=shown, value=label))
            if len(out) >= MAX_CHOICES:
                return out
    return out


async def any_combatant_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Every combatant of the channel matching what was typed (for commands anyone may use)."""
    stored = await _stored(interaction)
    if stored is None:
        return []
    typed = current.casefold()
    names = [c.name for c in stored.encounter.combatants if typed in c.name.casefold()]
    return [app_commands.Choice(name=n, value=n) for n in names[:MAX_CHOICES]]
