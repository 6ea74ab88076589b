"""The ruleset-independent adjudication state machine.

A ruleset turns an `Action` into a `Ruling` (data: the path, its cost, and the ordered reaction
points). `begin` wraps that in an `Adjudication`, which asks `Question`s; `answer` feeds a choice
back. Everything that depends on the rules (which questions a point raises, what an answer does,
how the final state is built) lives in the ruleset behind the `Ruleset` protocol; this module only
keeps the queue, the cursor and the log. All functions are pure: they return new objects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.errors import InputError

Trigger = Literal["leave-threatened", "enter-space", "action", "interrupted-movement", "repulse"]
AnsweredBy = Literal["user", "gm", "order", "timeout"]


class Action(BaseModel):
    """What a user asked a combatant to do: a move along squares, or a named non-move action."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["move", "act"]
    who: str
    path: list[str] = Field(default_factory=list)  # squares entered, in order; start not repeated
    mode: str = "normal"
    name: str | None = None  # act: the action name, e.g. "cast-spell"
    target: str | None = None


class Opportunity(BaseModel):
    """One possible reaction, as SPEC §4 prints it (the internal fields are excluded from the JSON)."""

    attacker: str
    at: str | None
    trigger: Trigger
    windows: list[int] | None = None
    point: int = 0  # index of its ReactionPoint (internal: not in SPEC §4's JSON)
    detail: dict[str, Any] = Field(default_factory=dict)  # internal


class ReactionPoint(BaseModel):
    """A moment of the action where reactions resolve: the mover stands on ``path[step]``."""

    index: int
    step: int
    at: str | None
    trigger: Trigger
    reactors: list[str]
    detail: dict[str, Any] = Field(default_factory=dict)


class Ruling(BaseModel):
    """A ruleset's answer to an action before anyone reacts: SPEC §4's JSON plus the reaction points."""

    ruleset: str
    who: str
    action: str
    mode: str
    legal: bool
    error: str | None = None
    path: list[str] = Field(default_factory=list)
    cost: int = 0
    opportunities: list[Opportunity] = Field(default_factory=list)
    stop_at: str | None = None
    notes: list[str] = Field(default_factory=list)
    # Internal fields the flow runs on; a stored adjudication keeps them, SPEC §4's JSON leaves them out.
    act_name: str | None = None
    target: str | None = None
    points: list[ReactionPoint] = Field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The object `opportunist ruling --json` prints (SPEC §4)."""
        return self.model_dump(
            mode="json",
            exclude={
                "act_name": True,
                "target": True,
                "points": True,
                "opportunities": {"__all__": {"point", "detail"}},
            },
        )


class Question(BaseModel):
    """One thing the bot must ask a controller: take an AoO, report an outcome, a check, a Repulse."""

    id: str  # unique within the adjudication, e.g. "p0:Ogre:aoo"
    point: int
    kind: str  # ruleset-defined: "aoo", "outcome", "tumble", "concentration", "interrupt", "repulse", ...
    asked: str  # the combatant whose controller answers
    about: str  # the combatant the question concerns (usually the mover)
    choices: list[str]
    timeout_choice: str  # what `on_timeout: decline` picks
    trigger: Trigger | None = None  # for standing orders: movement vs action
    detail: dict[str, Any] = Field(default_factory=dict)


class Answer(BaseModel):
    """A choice given to a question, and how it was given."""

    question: Question
    choice: str
    by: AnsweredBy


class Event(BaseModel):
    """A log entry: a kind plus data. Cogs decide the wording."""

    kind: str
    data: dict[str, Any] = Field(default_factory=dict)


class Adjudication(BaseModel):
    """An action in flight: the ruling, the open questions and what has been answered so far."""

    ruleset: str
    action: Action
    ruling: Ruling
    before: Any  # the Encounter before the action (for undo)
    working: Any  # the Encounter as reactions change it (budgets, unloaded weapons, ...)
    cursor: int = 0  # next reaction point to open
    open: list[Question] = Field(default_factory=list)
    answers: list[Answer] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    stop_step: int | None = None  # movement ends on path[stop_step] (None = the whole path)
    foiled: bool = False  # the action itself was prevented (spell lost, mover dropped)
    complete: bool = False
    scratch: dict[str, Any] = Field(default_factory=dict)  # ruleset-private, JSON-serialisable state
    seq: int = 0

    @model_validator(mode="after")
    def _encounters_as_models(self) -> Adjudication:
        # Stored as JSON between button presses, the two encounters come back as plain dicts;
        # rebuild them as the ruleset's Encounter type so every ruleset sees real models.
        from rules.rulesets import encounter_model

        model = encounter_model(self.ruleset)
        for key in ("before", "working"):
            value = getattr(self, key)
            if isinstance(value, dict):
                object.__setattr__(self, key, model.model_validate(value))
        return self

    # -- used by rulesets while they handle a point or an answer ---------------------------------

    def ask(self, question: Question) -> None:
        """Open a question."""
        self.open.append(question)

    def log(self, kind: str, **data: Any) -> None:
        """Record an event."""
        self.events.append(Event(kind=kind, data=data))

    def halt(self, step: int, *, foiled: bool = False) -> None:
        """End the action with the mover on ``path[step]``; drop every open question and later point."""
        self.stop_step = step if self.stop_step is None else min(step, self.stop_step)
        self.foiled = self.foiled or foiled
        for q in self.open:
            self.events.append(Event(kind="moot", data={"question": q.id, "asked": q.asked}))
        self.open = []
        self.cursor = len(self.ruling.points)

    def next_id(self, prefix: str) -> str:
        """A fresh question id."""
        self.seq += 1
        return f"{prefix}#{self.seq}"

    @property
    def halted(self) -> bool:
        """True once something ended the action early."""
        return self.stop_step is not None or self.foiled


@dataclass(frozen=True)
class Ruleset:
    """What every ruleset provides (SPEC §7): its models, modes and catalogue, and the functions the
    engine calls. Each ruleset package builds one as its ``RULESET``."""

    name: str
    encounter_model: type[Any]
    combatant_model: type[Any]
    modes: tuple[str, ...]  # move modes; the first is the default
    catalogue: list[Any]  # `rules.catalogue.CatalogueEntry` list for `/provokes`
    adjudicate: Callable[[Any, Action], Ruling]  # rule on an action before anyone reacts
    open_point: Callable[[Adjudication, ReactionPoint], None]  # ask a point's questions (maybe none)
    on_answer: Callable[[Adjudication, Answer], None]  # follow-ups, changes to adj.working, or adj.halt
    finish: Callable[[Adjudication], None]  # build the final adj.working once no question is open
    threatened: Callable[[Any, str], frozenset[tuple[int, int]]]  # where `who` could react to a foe
    start_turn: Callable[[Any, str], Any]  # the encounter as `who`'s turn starts (per-turn resets)
    turn_order: Callable[[Any], list[str]]  # who acts in what order this round


def _ruleset(name: str) -> Ruleset:
    from rules.rulesets import get_ruleset

    ruleset: Ruleset = get_ruleset(name)
    return ruleset


def begin(encounter: Any, action: Action) -> Adjudication:
    """Rule on an action and open its first questions. An illegal action is an `Adjudication` too:
    check ``adj.ruling.legal`` before posting it."""
    rs = _ruleset(encounter.ruleset)
    ruling = rs.adjudicate(encounter, action)
    adj = Adjudication(
        ruleset=rs.name,
        action=action,
        ruling=ruling,
        before=encounter,
        working=encounter.model_copy(deep=True),
    )
    if not ruling.legal:
        adj.complete = True
        return adj
    adj.log(
        "ruling", who=ruling.who, action=ruling.action, mode=ruling.mode, path=ruling.path, cost=ruling.cost
    )
    return _advance(rs, adj)


def answer(adj: Adjudication, question_id: str, choice: str, by: AnsweredBy = "user") -> Adjudication:
    """Feed one answer; returns the advanced adjudication. Unknown or spent questions are `InputError`."""
    if adj.complete:
        raise InputError("This action is already resolved; nothing changed.")
    question = next((q for q in adj.open if q.id == question_id), None)
    if question is None:
        raise InputError("That question was already answered or is no longer open; nothing changed.")
    if choice not in question.choices:
        raise InputError(f"`{choice}` is not a choice here; choose one of: {', '.join(question.choices)}.")
    rs = _ruleset(adj.ruleset)
    new = adj.model_copy(deep=True)
    new.open = [q for q in new.open if q.id != question_id]
    given = Answer(question=question, choice=choice, by=by)
    new.answers.append(given)
    new.log(
        "answer",
        question=question.id,
        question_kind=question.kind,
        asked=question.asked,
        choice=choice,
        by=by,
    )
    rs.on_answer(new, given)
    return _advance(rs, new)


def timeout_choice(question: Question) -> str:
    """The choice a timed-out question takes under ``on_timeout: decline``."""
    return question.timeout_choice


def _advance(rs: Ruleset, adj: Adjudication) -> Adjudication:
    while not adj.open and not adj.complete:
        if adj.cursor >= len(adj.ruling.points):
            rs.finish(adj)
            adj.complete = True
            adj.log("resolved", stop_step=adj.stop_step, foiled=adj.foiled)
            break
        point = adj.ruling.points[adj.cursor]
        adj.cursor += 1
        rs.open_point(adj, point)
    return adj
