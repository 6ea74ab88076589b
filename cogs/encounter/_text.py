"""How an encounter reads in a message (text for now; the map image comes with the render issue)."""

from __future__ import annotations

from storage import StoredEncounter


def describe(stored: StoredEncounter) -> str:
    """A short text summary: ruleset, map size, round, turn, GM and combatants with positions."""
    enc = stored.encounter
    lines = [
        f"**{enc.ruleset}** encounter on a {enc.map.width}×{enc.map.height} map, "
        f"round {enc.round}, turn: {enc.turn or '—'}",
        f"GM: <@{stored.gm_id}>",
    ]
    if enc.initiative:
        lines.append("Initiative: " + " → ".join(enc.initiative))
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
            lines.append(f"- **{c.name}** ({c.side}) at {c.at}, {controller}{conditions}")
        if len(enc.combatants) > len(shown):
            lines.append(f"… and {len(enc.combatants) - len(shown)} more.")
    return "\n".join(lines)
