"""How an encounter reads in a message: summary, turn order, settings, and the map image."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from cogs.combatants._edit import revalidate
from cogs.play._cog import render_map
from cogs.play._text import safe
from rules.encounter_file import to_data
from rules.model import Encounter
from rules.rulesets import get_ruleset
from storage import StoredEncounter

log = logging.getLogger("opportunist.encounter")


def describe(stored: StoredEncounter) -> str:
    """A short text summary: ruleset, map size, round, turn, GM and combatants with positions."""
    enc = stored.encounter
    lines = [
        f"**{enc.ruleset}** encounter on a {enc.map.width}×{enc.map.height} map, "
        f"round {enc.round}, turn: {safe(enc.turn) if enc.turn else '—'}",
        f"GM: <@{stored.gm_id}>",
    ]
    if enc.initiative:
        lines.append("Initiative: " + " → ".join(safe(n) for n in enc.initiative))
    if not enc.combatants:
        lines.append(
            "No combatants yet; add them with `/combatant add` or load a file with `/encounter import`."
        )
    else:
        lines.append(f"Combatants ({len(enc.combatants)}):")
        shown = enc.combatants[:25]
        for c in shown:
            controller = f"<@{c.player}>" if c.player else "GM"
            conditions = f" [{', '.join(c.conditions)}]" if c.conditions else ""
            lines.append(f"- **{safe(c.name)}** ({safe(c.side)}) at {c.at}, {controller}{conditions}")
        if len(enc.combatants) > len(shown):
            lines.append(f"… and {len(enc.combatants) - len(shown)} more.")
    return "\n".join(lines)


def turn_order_text(enc: Encounter) -> str:
    """The ruleset's turn order for this round, whose turn marked (empty without combatants)."""
    if not enc.combatants:
        return ""
    order: list[str] = get_ruleset(enc.ruleset).turn_order(enc)
    if not order:
        return ""
    shown = [f"▶ **{safe(n)}**" if n == enc.turn else safe(n) for n in order[:30]]
    more = " → …" if len(order) > 30 else ""
    now = f"**{safe(enc.turn)}**'s turn" if enc.turn else "no turn yet (start with `/turn next`)"
    return f"\nRound {enc.round}, {now}. Turn order: " + " → ".join(shown) + more


def settings_text(enc: Encounter) -> str:
    """The encounter's settings, one line each."""
    s = enc.settings
    timeout = "wait until answered" if s.prompt_timeout == 0 else f"{s.prompt_timeout} s"
    variants = ", ".join(s.variants) or "none"
    known = ", ".join(sorted(type(enc).VARIANTS)) or "none"
    lines = [
        "**Settings**",
        f"prompt_timeout: {timeout}",
        f"on_timeout: {s.on_timeout}",
        f"variants: {variants} (available: {known})",
    ]
    if enc.ruleset == "dnd35":
        lines.append(f"aoo_reset: {s.aoo_reset}")
    return "\n".join(lines)


def change_settings(
    enc: Encounter, prompt_timeout: int | None, on_timeout: str | None, variants: str | None
) -> tuple[Encounter, str, dict[str, Any]]:
    """The encounter with new settings (validated by its model), and the event to log."""
    data = to_data(enc)
    changed: dict[str, Any] = {}
    if prompt_timeout is not None:
        changed["prompt_timeout"] = prompt_timeout
    if on_timeout is not None:
        changed["on_timeout"] = on_timeout
    if variants is not None:
        words = [v.strip().lower().replace("-", "_") for v in variants.replace(",", " ").split()]
        changed["variants"] = [] if words in ([], ["none"]) else list(dict.fromkeys(words))
    data["settings"] = {**data["settings"], **changed}
    return revalidate(data), "settings", changed


async def map_files(enc: Encounter) -> list[discord.File]:
    """The map picture, rendered in a worker thread; none if rendering fails (the text still goes out)."""
    try:
        png = await asyncio.to_thread(render_map, enc)
    except Exception:
        log.exception("map render failed")
        return []
    return [discord.File(io.BytesIO(png), filename="map.png")]
