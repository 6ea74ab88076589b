"""Interrupted movement as questions and answers (seed 000, "Interrupted Movement"; SPEC §6, §7.2).

At each AP point every attacker still holding its opportunity whose windows include that AP is asked
`attack` / `wait` / `decline`. An attack asks for its outcome (`stunned` / `hit` / `miss`); `stunned`
ends the movement where the traveller stands. Per-attacker progress lives in ``adj.scratch["status"]``:
absent (not yet asked), ``waiting``, ``attacked``, ``declined`` or ``lost``.
"""

from __future__ import annotations

from typing import Any

from rules.aphex.catalogue import CATALOGUE
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.aphex.movement import ap_cost
from rules.catalogue import normalise
from rules.engine import Adjudication, Answer, Question, ReactionPoint

# A stun from an interruption: the traveller's own next turn is lost, and the stun wears off at the
# turn start after that one (see rules.aphex.turns.start_turn).
STUN_TURNS = 2

_STILL_OPEN = (None, "waiting")


def working(adj: Adjudication) -> AphexEncounter:
    """The encounter being changed, as a model (after a JSON round trip it is a plain dict)."""
    if not isinstance(adj.working, AphexEncounter):
        adj.working = AphexEncounter.model_validate(adj.working)
    return adj.working


def _status(adj: Adjudication) -> dict[str, Any]:
    status: dict[str, Any] = adj.scratch.setdefault("status", {})
    return status


def _windows(adj: Adjudication, attacker: str) -> list[int]:
    for opp in adj.ruling.opportunities:
        if opp.attacker == attacker:
            return list(opp.windows or [])
    return []


def open_point(adj: Adjudication, point: ReactionPoint) -> None:
    """Ask every attacker who still holds its opportunity and covers this AP."""
    k = int(point.detail["ap"])
    status = _status(adj)
    for name in point.reactors:
        if status.get(name) not in _STILL_OPEN:
            continue
        ks = _windows(adj, name)
        attacker: AphexCombatant = working(adj).find(name)
        adj.ask(
            Question(
                id=adj.next_id(f"ap{k}:{name}:interrupt"),
                point=point.index,
                kind="interrupt",
                asked=name,
                about=adj.ruling.who,
                choices=["attack", "wait", "decline"],
                timeout_choice="decline",
                trigger="interrupted-movement",
                detail={
                    "ap": k,
                    "hex": point.detail.get("hex"),
                    "windows": ks,
                    "last_window": k == ks[-1],
                    "weapon": attacker.weapon,
                },
            )
        )


def on_answer(adj: Adjudication, answer: Answer) -> None:
    """Apply an `interrupt` or `outcome` answer."""
    q = answer.question
    if q.kind == "interrupt":
        _on_interrupt(adj, q, answer.choice)
    elif q.kind == "outcome":
        _on_outcome(adj, q, answer.choice)


def _on_interrupt(adj: Adjudication, q: Question, choice: str) -> None:
    name, k = q.asked, int(q.detail["ap"])
    status = _status(adj)
    if choice == "decline":
        status[name] = "declined"
        return
    if choice == "wait":
        later = [w for w in _windows(adj, name) if w > k]
        if later:
            status[name] = "waiting"
            adj.log("interrupt-wait", attacker=name, ap=k, next_ap=later[0])
        else:
            # Seed 000: "No attacker may make an attack of opportunity once the traveller's last AP
            # is spent ... the opportunity is lost." Past its last window the same holds.
            status[name] = "lost"
            adj.log("opportunity-lost", attacker=name, ap=k, reason="waited past its last window")
        return
    status[name] = "attacked"
    attacker: AphexCombatant = working(adj).find(name)
    _after_effects(attacker)
    adj.log("interrupt", attacker=name, target=q.about, ap=k, hex=q.detail.get("hex"), weapon=attacker.weapon)
    adj.ask(
        Question(
            id=adj.next_id(f"ap{k}:{name}:outcome"),
            point=q.point,
            kind="outcome",
            asked=name,
            about=q.about,
            choices=["stunned", "hit", "miss"],
            timeout_choice="miss",
            trigger="interrupted-movement",
            detail={"ap": k, "hex": q.detail.get("hex"), "weapon": attacker.weapon},
        )
    )


def _after_effects(attacker: AphexCombatant) -> None:
    """What an interruption leaves behind (seed 000, "Conditions")."""
    if attacker.weapon == "missile":
        # "they have fired or thrown their weapon, and must therefore load or draw a new weapon"
        attacker.loaded = False
    elif attacker.weapon == "thrown":
        attacker.in_hand = False
    elif attacker.weapon == "natural":
        # "the specific ability used cannot be used again on the attacker's turn following"
        attacker.natural_barred = True
        attacker.natural_bar_served = False
    # Wand: "without restriction of using the item again"; pole-arm: "can be used on the attacker's
    # normal turn". Nothing changes.


def _on_outcome(adj: Adjudication, q: Question, choice: str) -> None:
    if choice != "stunned":
        return
    k = int(q.detail["ap"])
    step = adj.ruling.points[q.point].step
    enc = working(adj)
    traveller: AphexCombatant = enc.find(q.about)
    # Seed 000, "Stunning": "all further movement is lost and the combatant is locked in place."
    traveller.conditions = [*traveller.conditions, "stunned"]
    traveller.stun_turns = STUN_TURNS
    adj.log("stunned", who=traveller.name, by=q.asked, ap=k, hex=adj.ruling.path[step])
    # Attacks already made at this AP still need their outcome; only unanswered interruptions are moot.
    pending = [o for o in adj.open if o.kind == "outcome"]
    adj.open = [o for o in adj.open if o.kind != "outcome"]
    adj.halt(step)
    adj.open.extend(pending)
    status = _status(adj)
    for opp in adj.ruling.opportunities:
        if status.get(opp.attacker) == "waiting":
            status[opp.attacker] = "lost"
            adj.log("opportunity-lost", attacker=opp.attacker, ap=k, reason="the traveller was stopped")


def finish(adj: Adjudication) -> None:
    """Put the traveller where its movement ended."""
    enc = working(adj)
    if adj.ruling.action != "move":
        _rearm(adj, enc)
        return
    traveller: AphexCombatant = enc.find(adj.ruling.who)
    step = len(adj.ruling.path) - 1 if adj.stop_step is None else adj.stop_step
    traveller.at = adj.ruling.path[step]
    spent = ap_cost(step, traveller.stride) if traveller.stride >= 1 else 0
    adj.log("moved", who=traveller.name, to=traveller.at, hexes=step, ap=spent)


def _rearm(adj: Adjudication, enc: AphexEncounter) -> None:
    """`reload` (or `draw`) on one's own turn makes the weapon usable again.

    Seed 000: "When the attacker gains their turn, it should be noted that they have fired or thrown their
    weapon, and must therefore load or draw a new weapon to take its place."
    """
    if normalise(adj.ruling.act_name or "") not in _REARM_NAMES:
        return
    actor: AphexCombatant = enc.find(adj.ruling.who)
    actor.loaded = True
    actor.in_hand = True
    adj.log("rearmed", who=actor.name, weapon=actor.weapon)


_REARM_NAMES = frozenset(
    normalise(name)
    for entry in CATALOGUE
    if entry.action == "reload"
    for name in (entry.action, *entry.aliases)
)
