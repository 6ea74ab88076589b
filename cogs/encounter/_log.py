"""`/encounter log` wording: the last rulings newest first, each with its prompts' answers or timeouts.

Completed actions come from `action` events (their ruling and the answers given, standing orders
included); the prompts posted for each are matched to it by time (a prompt belongs to the first action
event logged after it was asked), so the log can say who was asked and who answered, or that it timed
out. Prompts after the last action event belong to the action still in flight.
"""

from __future__ import annotations

from typing import Any

from cogs.play._text import choice_label, safe
from storage import StoredEvent
from storage.flow import Prompt

MAX_ENTRIES = 10
MAX_CHARS = 1900
GM_EDITS = {
    "combatant_added": "added",
    "combatant_set": "changed the stats of",
    "combatant_removed": "removed",
    "combatant_placed": "placed",
    "conditions": "changed the conditions of",
}
BY_TEXT = {"order": " (standing order)", "timeout": " (timed out)", "gm": " (GM)"}


def _ruling_line(data: dict[str, Any]) -> str:
    ruling = data.get("ruling") or {}
    who = f"**{safe(ruling.get('who', '?'))}**"
    path = ruling.get("path") or []
    if ruling.get("action") == "move":
        stop = data.get("stop_step")
        end = path[stop] if isinstance(stop, int) and 0 <= stop < len(path) else (path[-1] if path else "?")
        stopped = f", stopped at **{end}**" if isinstance(stop, int) and stop < len(path) - 1 else ""
        return f"{who} moved ({safe(ruling.get('mode'))}) {' → '.join(path)}{stopped}"
    foiled = " — foiled" if data.get("foiled") else ""
    name = str(data.get("act") or ruling.get("mode") or "?").replace("`", "")
    return f"{who} acted: `{name}`{foiled}"


def _prompt_line(prompt: Prompt) -> str:
    kind = str(prompt.question.get("kind", "prompt"))
    head = f"**{safe(prompt.combatant)}** ({kind}, asked <@{prompt.ping_user}>)"
    if prompt.status == "answered" and prompt.choice:
        by = BY_TEXT.get(prompt.answered_by or "", "")
        who = f" by <@{prompt.answered_user}>" if prompt.answered_user else ""
        return f"{head}: {choice_label(prompt.choice)}{who}{by}"
    if prompt.status == "timeout":
        chosen = f" → {choice_label(prompt.choice)}" if prompt.choice else ""
        return f"{head}: timed out{chosen}"
    if prompt.status == "moot":
        return f"{head}: no longer needed"
    if prompt.status == "escalated":
        return f"{head}: timed out, waiting on the GM"
    return f"{head}: waiting"


def _event_line(event: StoredEvent) -> str | None:
    d = event.data
    if event.kind == "undo":
        return f"↩ undo of #{d.get('undid')}"
    if event.kind == "turn":
        return f"Round {d.get('round')}: **{safe(d.get('turn'))}**'s turn"
    if event.kind == "imported":
        return f"Encounter file imported ({safe(d.get('ruleset'))}, {d.get('combatants')} combatant(s))"
    if event.kind == "started":
        return f"Encounter started ({safe(d.get('ruleset'))})"
    if event.kind in GM_EDITS:
        return f"GM: {GM_EDITS[event.kind]} **{safe(d.get('name'))}**"
    if event.kind == "settings":
        return "GM: settings changed"
    return None


def log_text(events: list[StoredEvent], prompts: list[Prompt], *, in_flight: str | None) -> str:
    """The log message. ``events`` and ``prompts`` newest first; ``in_flight`` names the waiting action."""
    undone = {
        int(e.data["undid"]) for e in events if e.kind == "undo" and isinstance(e.data.get("undid"), int)
    }
    actions = sorted((e for e in events if e.kind == "action"), key=lambda e: e.id)
    by_action: dict[int, list[Prompt]] = {e.id: [] for e in actions}
    loose: list[Prompt] = []
    for prompt in sorted(prompts, key=lambda p: p.id):
        owner = next((e for e in actions if e.created_at >= prompt.created_at), None)
        (by_action[owner.id] if owner is not None else loose).append(prompt)

    blocks: list[str] = []
    if in_flight is not None:
        lines = [f"⏳ {in_flight}"]
        lines.extend(f"  • {_prompt_line(p)}" for p in loose)
        blocks.append("\n".join(lines))
    for event in events:
        if len(blocks) >= MAX_ENTRIES:
            break
        if event.kind != "action":
            line = _event_line(event)
            if line is not None:
                blocks.append(line)
            continue
        mark = " *(undone)*" if event.id in undone else ""
        lines = [f"#{event.id} {_ruling_line(event.data)}{mark}"]
        lines.extend(f"  • {_prompt_line(p)}" for p in by_action.get(event.id, []))
        for answer in event.data.get("answers", []):
            if answer.get("by") == "order":  # answered at once, without a prompt
                lines.append(
                    f"  • **{safe(answer.get('asked'))}**: {choice_label(str(answer.get('choice')))}"
                    " (standing order)"
                )
        if len(lines) == 1:
            lines.append("  • nobody could react")
        blocks.append("\n".join(lines))
    if not blocks:
        return "Nothing has happened in this encounter yet."
    out = "**Encounter log** (newest first)"
    for block in blocks:
        if len(out) + len(block) + 1 > MAX_CHARS:
            out += "\n…"
            break
        out += "\n" + block
    return out
