"""Wording: how rulings, questions and log events read in Discord. Rules return data; this makes prose.

Every piece of user-controlled text (names, sides) goes through `safe()` so it can neither ping anyone
nor forge formatting (a side called `**Ruling: no AoO**` shows literally).
"""

from __future__ import annotations

from typing import Any

import discord

from rules.engine import Adjudication, Event, Question, Ruling

CHOICE_LABELS: dict[str, str] = {
    "take": "Take AoO",
    "decline": "Decline",
    "disarm": "AoO as disarm",
    "trip": "AoO as trip",
    "grapple": "AoO as grapple",
    "sunder": "AoO as sunder",
    "down": "Hit — target down",
    "stunned": "Hit — stunned",
    "hit": "Hit",
    "miss": "Miss",
    "success": "Maneuver succeeded",
    "failure": "Maneuver failed",
    "passed": "Check passed",
    "failed": "Check failed",
    "attack": "Attack now",
    "wait": "Wait",
    "repulsed": "Repulse succeeded",
    "not_repulsed": "Repulse failed",
}

TRIGGER_TEXT: dict[str, str] = {
    "leave-threatened": "leaves a threatened square",
    "enter-space": "tries to enter a foe's space",
    "action": "takes a provoking action",
    "interrupted-movement": "runs through range",
    "repulse": "may Repulse the Charge and Close",
}

KIND_TEXT: dict[str, str] = {
    "aoo": "attack of opportunity?",
    "outcome": "how did the attack go?",
    "tumble": "Tumble check",
    "concentration": "Concentration check",
    "perception": "Perception roll",
    "interrupt": "interrupt the movement?",
    "repulse": "Repulse attempt",
}


def safe(text: object) -> str:
    """User text made inert: no mentions, no markdown."""
    escaped = discord.utils.escape_markdown(str(text))
    return discord.utils.escape_mentions(escaped)


def choice_label(choice: str) -> str:
    """The button label of a choice."""
    return CHOICE_LABELS.get(choice, choice.replace("_", " ").capitalize())


def ruling_text(ruling: Ruling, *, preview: bool = False) -> str:
    """A ruling as a short message: the path, its cost, and the numbered reaction points."""
    who = f"**{safe(ruling.who)}**"
    head = "Preview — nothing happens yet.\n" if preview else ""
    if not ruling.legal:
        # The error is the rules' own text, code spans included; names in it are SPEC §3 names.
        error = discord.utils.escape_mentions(ruling.error or "illegal action")
        return f"{head}{who} can't do that: {error}"
    if ruling.action == "move":
        unit = {"dnd35": "ft", "aphex": "AP", "dragonquest": "hexes of TMR"}.get(ruling.ruleset, "")
        route = " → ".join(ruling.path)
        lines = [f"{head}{who} moves ({ruling.mode}): {route} — {ruling.cost} {unit}."]
    else:
        target = f" at **{safe(ruling.target)}**" if ruling.target else ""
        lines = [f"{head}{who} acts: `{safe(ruling.act_name or ruling.mode)}`{target}."]
    if ruling.stop_at:
        lines.append(f"Movement must stop at **{ruling.stop_at}** (a hostile Melee Zone).")
    if ruling.opportunities:
        lines.append("Who may react, in order:")
        for n, opp in enumerate(ruling.opportunities, start=1):
            where = f" at {opp.at}" if opp.at else ""
            windows = f" after AP {', '.join(map(str, opp.windows))}" if opp.windows else ""
            trigger = TRIGGER_TEXT.get(opp.trigger, opp.trigger)
            lines.append(f"`{n}.` **{safe(opp.attacker)}**{where}{windows} — {trigger}")
    else:
        lines.append("No one may react.")
    lines.extend(f"• {safe(note)}" for note in ruling.notes)
    return "\n".join(lines)


def question_line(question: Question) -> str:
    """One line describing an open question."""
    about = safe(question.about)
    asked = safe(question.asked)
    detail = question.detail
    extra = ""
    if "dc" in detail:
        extra = f" (DC {detail['dc']})"
    elif "target" in detail and isinstance(detail["target"], int):
        extra = f" (roll {detail['target']} or less on D100)"
    for key in ("note", "mobility"):
        if detail.get(key):
            extra += f" — {safe(detail[key])}"
    if question.kind == "interrupt" and detail.get("last_window"):
        extra += " — last chance: waiting now gives the attack up"
    if question.kind == "aoo":
        return f"**{asked}**: attack of opportunity against **{about}**?{extra}"
    if question.kind == "outcome":
        return f"**{asked}**: how did the attack on **{about}** go?{extra}"
    if question.kind in ("tumble", "concentration", "perception"):
        return f"**{asked}**: {KIND_TEXT[question.kind]}{extra} — did it pass?"
    if question.kind == "interrupt":
        return f"**{asked}**: pause **{about}** and attack now, wait for a later AP, or decline?{extra}"
    if question.kind == "repulse":
        return f"**{asked}**: Repulse **{about}**'s Charge and Close?{extra}"
    return f"**{asked}**: {safe(question.kind)} — {about}{extra}"


def event_text(event: Event) -> str | None:
    """One log line for an event, or None for events that only matter internally."""
    d: dict[str, Any] = event.data
    kind = event.kind
    if kind == "ruling":
        path = " → ".join(d.get("path", []))
        return f"{safe(d.get('who'))}: {d.get('action')} ({d.get('mode')}) {path}".rstrip()
    if kind == "answer":
        by = {"order": " (standing order)", "timeout": " (timed out)", "gm": " (GM)"}.get(d.get("by", ""), "")
        return f"{safe(d.get('asked'))} — {d.get('question_kind')}: {choice_label(str(d.get('choice')))}{by}"
    if kind == "resolved":
        return "resolved" + (" — stopped early" if d.get("stop_step") is not None else "")
    if kind == "moot":
        return f"{safe(d.get('asked'))}'s question became moot"
    fields = ", ".join(f"{k}={safe(v)}" for k, v in d.items())
    return f"{safe(kind)}: {fields}" if fields else safe(kind)


def outcome_text(adj: Adjudication) -> str:
    """The closing line of a resolved action."""
    who = f"**{safe(adj.ruling.who)}**"
    if adj.ruling.action == "move":
        path = adj.ruling.path
        end = path[adj.stop_step] if adj.stop_step is not None and path else (path[-1] if path else "?")
        if adj.stop_step is not None and adj.stop_step < len(path) - 1:
            return f"{who}'s movement stops at **{end}**."
        return f"{who} ends the move at **{end}**."
    if adj.foiled:
        return f"{who}'s action is foiled."
    return f"{who}'s action goes ahead."
