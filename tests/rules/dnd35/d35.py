"""Builders for dnd35 rules tests: each test states only the combatants and the action it is about."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.coords import format_coord
from rules.dnd35 import RULESET
from rules.dnd35.model import Dnd35Encounter
from rules.engine import Action, Adjudication, Question, Ruling, answer, begin

SEED = "001_1e16989ecf5349e6.txt"


def c(name: str, at: str, side: str = "party", **fields: Any) -> dict[str, Any]:
    """A combatant's file data."""
    return {"name": name, "side": side, "at": at, **fields}


def foe(name: str, at: str, **fields: Any) -> dict[str, Any]:
    """A combatant on the monsters' side."""
    return c(name, at, side="monsters", **fields)


def enc(
    *combatants: dict[str, Any],
    width: int = 12,
    height: int = 12,
    blocked: tuple[str, ...] = (),
    difficult: tuple[str, ...] = (),
    variants: tuple[str, ...] = (),
    aoo_reset: str = "turn",
    initiative: tuple[str, ...] = (),
) -> Dnd35Encounter:
    """A dnd35 encounter."""
    return Dnd35Encounter.model_validate(
        {
            "ruleset": "dnd35",
            "map": {"width": width, "height": height, "blocked": list(blocked), "difficult": list(difficult)},
            "settings": {"variants": list(variants), "aoo_reset": aoo_reset},
            "initiative": list(initiative),
            "combatants": list(combatants),
        }
    )


def move(e: Dnd35Encounter, who: str, *path: str, mode: str = "normal", target: str | None = None) -> Ruling:
    """Adjudicate a move."""
    return RULESET.adjudicate(e, Action(kind="move", who=who, path=list(path), mode=mode, target=target))


def act(e: Dnd35Encounter, who: str, name: str, target: str | None = None) -> Ruling:
    """Adjudicate a non-move action."""
    return RULESET.adjudicate(e, Action(kind="act", who=who, name=name, target=target))


def who_provokes(r: Ruling) -> list[tuple[str, str | None, str]]:
    """(attacker, at, trigger) of each opportunity, in order."""
    assert r.legal, r.error
    return [(o.attacker, o.at, o.trigger) for o in r.opportunities]


def attackers(r: Ruling) -> list[str]:
    """The attackers of a legal ruling, in order."""
    return [a for a, _, _ in who_provokes(r)]


def threatened(e: Dnd35Encounter, who: str) -> set[str]:
    """Labels of the squares ``who`` threatens."""
    return {format_coord(sq) for sq in RULESET.threatened(e, who)}


Policy = Callable[[Question], str]


def drive(e: Dnd35Encounter, action: Action, policy: Policy, limit: int = 100) -> Adjudication:
    """Run an action to completion, answering every open question with ``policy`` (first open first)."""
    adj = begin(e, action)
    for _ in range(limit):
        if adj.complete:
            return adj
        q = adj.open[0]
        adj = answer(adj, q.id, policy(q))
    raise AssertionError("the adjudication did not complete")


def scripted(script: dict[str, str] | list[tuple[str, str, str]], default: str | None = None) -> Policy:
    """A policy from (kind, asked) -> choice; a list is consumed in order and checked."""
    if isinstance(script, dict):

        def by_key(q: Question) -> str:
            for key in (f"{q.kind}:{q.asked}", q.kind):
                if key in script:
                    return script[key]
            if default is not None:
                return default
            raise AssertionError(f"unexpected question {q.kind} to {q.asked}")

        return by_key
    queue = list(script)

    def in_order(q: Question) -> str:
        kind, asked, choice = queue.pop(0)
        assert (q.kind, q.asked) == (kind, asked), (q.kind, q.asked, kind, asked)
        return choice

    return in_order
