"""Helpers for the `aphex` tests: build encounters, and drive an adjudication to the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.aphex import RULESET
from rules.aphex.model import AphexEncounter
from rules.engine import Action, Adjudication, Question, Ruling, answer, begin

SEED = "000_700d95b3c74e1117.txt"


def encounter(*combatants: dict[str, Any], width: int = 20, height: int = 12, blocked: tuple[str, ...] = ()):
    """An aphex encounter; each combatant dict needs name and at (side defaults to 'foes')."""
    people = [{"side": "foes", **c} for c in combatants]
    return AphexEncounter.model_validate(
        {
            "ruleset": "aphex",
            "map": {"width": width, "height": height, "blocked": list(blocked)},
            "combatants": people,
        }
    )


def traveller(at: str = "A5", **fields: Any) -> dict[str, Any]:
    return {"name": "Ethan", "side": "party", "at": at, **fields}


def archer(name: str, at: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "at": at, "weapon": "missile", "range": 30, **fields}


def rule(enc: AphexEncounter, who: str, *path: str) -> Ruling:
    return RULESET.adjudicate(enc, Action(kind="move", who=who, path=list(path)))


def windows(ruling: Ruling) -> dict[str, list[int]]:
    return {o.attacker: list(o.windows or []) for o in ruling.opportunities}


@dataclass
class Asked:
    kind: str
    asked: str
    ap: int
    choice: str


def roundtrip(adj: Adjudication) -> Adjudication:
    """As the bot stores it between button presses (SQLite JSON)."""
    return Adjudication.model_validate(adj.model_dump(mode="json"))


def drive(
    enc: AphexEncounter, action: Action, decide: Callable[[Question], str]
) -> tuple[Adjudication, list[Asked]]:
    """Run begin/answer to completion, storing and reloading the adjudication between answers."""
    adj = roundtrip(begin(enc, action))
    transcript: list[Asked] = []
    guard = 0
    while not adj.complete:
        guard += 1
        assert guard < 200, "adjudication does not terminate"
        assert adj.open, "incomplete adjudication with nothing to ask"
        q = adj.open[0]
        choice = decide(q)
        transcript.append(Asked(q.kind, q.asked, int(q.detail["ap"]), choice))
        adj = roundtrip(answer(adj, q.id, choice))
    return adj, transcript


def move(who: str, *path: str) -> Action:
    return Action(kind="move", who=who, path=list(path))


def script(plan: dict[str, tuple[int, str]], default: str = "wait") -> Callable[[Question], str]:
    """Attack at the AP given per attacker (with the outcome given); otherwise answer ``default``."""

    def decide(q: Question) -> str:
        if q.kind == "interrupt":
            ap, _ = plan.get(q.asked, (0, ""))
            return "attack" if ap == q.detail["ap"] else default
        return plan[q.asked][1]

    return decide


def final(adj: Adjudication) -> AphexEncounter:
    return AphexEncounter.model_validate(adj.model_dump(mode="json")["working"])


def events(adj: Adjudication, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in adj.events if e.kind == kind]
