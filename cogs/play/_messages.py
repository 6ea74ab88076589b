"""Building the prompt messages: content that pings exactly the controllers concerned, and buttons."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.play._text import choice_label, question_line, safe
from rules.engine import Question
from storage.flow import Prompt

Interaction = discord.Interaction[Any]
MAX_BUTTONS = 25

_STYLES: dict[str, discord.ButtonStyle] = {
    "take": discord.ButtonStyle.danger,
    "attack": discord.ButtonStyle.danger,
    "disarm": discord.ButtonStyle.primary,
    "trip": discord.ButtonStyle.primary,
    "grapple": discord.ButtonStyle.primary,
    "sunder": discord.ButtonStyle.primary,
    "down": discord.ButtonStyle.success,
    "stunned": discord.ButtonStyle.success,
    "hit": discord.ButtonStyle.primary,
    "success": discord.ButtonStyle.success,
    "passed": discord.ButtonStyle.success,
    "repulsed": discord.ButtonStyle.success,
}

STATUS_TEXT = {"timeout": "timed out", "moot": "no longer needed", "escalated": "waiting on the GM"}


class PromptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"opp:q:(?P<prompt>[0-9]{1,18}):(?P<choice>[a-z_]{1,20})",
):
    """One answer to one stored prompt. All state is in SQLite: the custom id only names the prompt
    row and the choice, so the button works after a restart and a spent one is recognised."""

    def __init__(self, prompt_id: int, choice: str, label: str = "", row: int | None = None) -> None:
        self.prompt_id = prompt_id
        self.choice = choice
        super().__init__(
            discord.ui.Button(
                label=(label or choice_label(choice))[:80],
                style=_STYLES.get(choice, discord.ButtonStyle.secondary),
                custom_id=f"opp:q:{prompt_id}:{choice}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PromptButton:
        """Rebuild from the custom id (after a restart too)."""
        return cls(int(match["prompt"]), match["choice"])

    async def callback(self, interaction: Interaction) -> None:
        """Hand the press to the flow, which reloads everything from storage."""
        from cogs.play._cog import flow_of

        await flow_of(interaction.client).press(interaction, self.prompt_id, self.choice)


def question_of(prompt: Prompt) -> Question:
    """The stored question of a prompt."""
    return Question.model_validate({k: v for k, v in prompt.question.items() if k != "header"})


def prompt_content(prompts: list[Prompt], *, deadline_note: bool = True) -> str:
    """The text of a message carrying these prompts: a header, one line per question and its status."""
    header = str(prompts[0].question.get("header", "")) if prompts else ""
    pings = list(dict.fromkeys(p.ping_user for p in prompts if p.status in ("open", "escalated")))
    lines = [header] if header else []
    for p in prompts:
        line = question_line(question_of(p))
        if p.status == "answered" and p.choice:
            how = {"order": " (standing order)", "gm": " (by the GM)"}.get(p.answered_by or "", "")
            line += f" → **{choice_label(p.choice)}**{how}"
        elif p.status in STATUS_TEXT:
            line += f" → _{STATUS_TEXT[p.status]}_"
            if p.status == "timeout" and p.choice:
                line += f" ({choice_label(p.choice)})"
        lines.append(line)
    open_deadlines = [p.deadline for p in prompts if p.status == "open" and p.deadline is not None]
    if deadline_note and open_deadlines:
        lines.append(f"Answer <t:{int(min(open_deadlines))}:R>.")
    if pings:
        lines.append(" ".join(f"<@{u}>" for u in pings))
    return "\n".join(lines)[:2000]


def prompt_view(prompts: list[Prompt]) -> discord.ui.View | None:
    """Buttons for the prompts still open, each labelled with the combatant it answers for."""
    open_prompts = [p for p in prompts if p.status in ("open", "escalated")]
    if not open_prompts:
        return None
    view = discord.ui.View(timeout=None)
    for p in open_prompts:
        # Always name the combatant: a message may carry several, and a bare "Take AoO" on a
        # screenshot or after an edit would not say whose it is.
        for choice in question_of(p).choices:
            view.add_item(PromptButton(p.id, choice, f"{p.combatant}: {choice_label(choice)}"))
    return view


def mentions_for(prompts: list[Prompt]) -> discord.AllowedMentions:
    """Allowed mentions limited to the users these prompts ping: no @everyone, no roles, nobody else."""
    users = [
        discord.Object(id=u)
        for u in dict.fromkeys(p.ping_user for p in prompts if p.status in ("open", "escalated"))
    ]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def batches(prompts: list[Prompt]) -> list[list[Prompt]]:
    """Split prompts into messages of at most 25 buttons (Discord's limit), keeping each prompt whole."""
    out: list[list[Prompt]] = []
    current: list[Prompt] = []
    used = 0
    for p in prompts:
        size = len(question_of(p).choices)
        if current and used + size > MAX_BUTTONS:
            out.append(current)
            current, used = [], 0
        current.append(p)
        used += size
    if current:
        out.append(current)
    return out


def header_for(question: Question, point_at: str | None, point_trigger: str | None, who: str) -> str:
    """A one-line header saying what happened that gives the chance to react."""
    mover = f"**{safe(who)}**"
    where = f" at **{point_at}**" if point_at else ""
    if question.kind in ("tumble", "concentration", "perception"):
        return f"{mover} must roll{where}:"
    if point_trigger == "leave-threatened":
        return f"{mover} leaves a threatened square{where}."
    if point_trigger == "enter-space":
        return f"{mover} tries to enter a foe's space{where}."
    if point_trigger == "action":
        return f"{mover} does something that provokes{where}."
    if point_trigger == "interrupted-movement":
        ap = question.detail.get("ap")
        return f"{mover} has spent {ap} AP{where}." if ap else f"{mover} is moving{where}."
    if point_trigger == "repulse":
        return f"{mover} charges and closes{where}."
    return f"{mover}{where}:"
