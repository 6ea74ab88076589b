"""The rulings catalogue behind `/provokes`: does an action provoke, why, the exceptions, the source.

Each ruleset package lists its entries (``RULESET.catalogue``); this module finds one by name or alias.
"""

from __future__ import annotations

import difflib
import re
from typing import Literal

from pydantic import BaseModel, Field

from rules.errors import InputError
from rules.rulesets import get_ruleset

Provokes = Literal["yes", "no", "sometimes"]


class CatalogueEntry(BaseModel):
    """One action's quick ruling."""

    action: str  # canonical kebab-case name, as `/act` takes it (e.g. "stand-up")
    aliases: list[str] = Field(default_factory=list)  # other ways users say it ("stand up", "get up")
    provokes: Provokes
    reason: str  # one sentence
    exceptions: list[str] = Field(default_factory=list)
    source: str  # where the rule comes from (seed file + words, or SRD section)


def normalise(text: str) -> str:
    """Lower-case, with runs of spaces/underscores/hyphens folded to one hyphen: 'Stand up' -> 'stand-up'."""
    return re.sub(r"[\s_\-]+", "-", text.strip().casefold())


def entries(ruleset: str) -> list[CatalogueEntry]:
    """Every entry of a ruleset's catalogue."""
    result: list[CatalogueEntry] = get_ruleset(ruleset).catalogue
    return result


def lookup(ruleset: str, text: str) -> CatalogueEntry:
    """The entry for an action name or alias; an `InputError` suggesting close names otherwise."""
    key = normalise(text)
    catalogue = entries(ruleset)
    for entry in catalogue:
        if key == entry.action or key in (normalise(a) for a in entry.aliases):
            return entry
    close = suggest(ruleset, text, limit=5) or difflib.get_close_matches(
        key, [e.action for e in catalogue], n=5, cutoff=0.5
    )
    if close:
        hint = f" Did you mean: {', '.join(close)}?"
    else:
        hint = f" Known actions include: {', '.join(e.action for e in catalogue[:12])}, ..."
    raise InputError(f"I don't know the action `{text[:40]}` in {ruleset}.{hint}")


def suggest(ruleset: str, text: str, limit: int = 25) -> list[str]:
    """Action names matching what was typed so far (for autocomplete): prefix matches first."""
    key = normalise(text)
    catalogue = entries(ruleset)
    scored: list[tuple[int, str]] = []
    for entry in catalogue:
        names = [entry.action, *(normalise(a) for a in entry.aliases)]
        if not key:
            scored.append((2, entry.action))
        elif any(n.startswith(key) for n in names):
            scored.append((0, entry.action))
        elif any(key in n for n in names):
            scored.append((1, entry.action))
    scored.sort()
    return list(dict.fromkeys(name for _, name in scored))[:limit]
