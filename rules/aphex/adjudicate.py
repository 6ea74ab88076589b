"""The ruling on an `aphex` action: path, AP, and who may pause the traveller after which AP."""

from __future__ import annotations

from rules.aphex import eligibility
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.aphex.movement import ap_cost, plan_route
from rules.coords import Coord, format_coord
from rules.engine import Action, Opportunity, ReactionPoint, Ruling, Trigger
from rules.errors import InputError

MODES: tuple[str, ...] = ("normal",)
TRIGGER: Trigger = "interrupted-movement"


def adjudicate(encounter: AphexEncounter, action: Action) -> Ruling:
    """Rule on a move or an act before anyone reacts (SPEC §7.2)."""
    if action.mode not in MODES:
        raise InputError(f"`{action.mode[:20]}` is not a move mode in aphex; use: {', '.join(MODES)}.")
    mover: AphexCombatant = encounter.find(action.who)
    ruling = Ruling(
        ruleset="aphex",
        who=mover.name,
        action=action.kind,
        mode=action.mode,
        legal=True,
        path=[mover.at],
        act_name=action.name,
        target=action.target,
    )
    if action.target is not None:
        encounter.find(action.target)
    if mover.has("stunned"):
        # Seed 000, "Stunning": "The combatant will then take no action for full round ..."
        return _illegal(ruling, f"{mover.name} is stunned and can take no action until the stun wears off.")
    if action.kind == "act":
        if not action.name:
            raise InputError("Name the action, like `use-wand`.")
        # Seed 000 only ever pauses a *travelling* combatant: no other action provokes.
        ruling.notes.append(f"In aphex only movement can be interrupted; {action.name} provokes nothing.")
        return ruling
    if not action.path:
        raise InputError("Give the hexes to move through, like `C3 D4`, or one hex to go to.")
    return _rule_move(encounter, mover, action, ruling)


def _illegal(ruling: Ruling, error: str) -> Ruling:
    ruling.legal = False
    ruling.error = error
    return ruling


def _rule_move(encounter: AphexEncounter, mover: AphexCombatant, action: Action, ruling: Ruling) -> Ruling:
    route = plan_route(encounter, mover, action.path)
    if route.error is not None:
        return _illegal(ruling, route.error)
    if mover.stride < 1:
        return _illegal(ruling, f"{mover.name} has a stride of {mover.stride} hexes per AP and cannot move.")
    hexes = len(route.hexes) - 1
    spent = ap_cost(hexes, mover.stride)
    if spent > mover.ap:
        return _illegal(
            ruling,
            f"Moving {hexes} hexes at {mover.stride} hexes per AP takes {spent} AP, but {mover.name} has "
            f"{mover.ap} AP (at most {mover.ap * mover.stride} hexes).",
        )
    ruling.path = [format_coord(h) for h in route.hexes]
    ruling.cost = spent
    if mover.stride <= 1:
        # Seed 000: "An attack of opportunity may occur if any combatant travels with a stride greater
        # than 1 hex per action point (AP)."
        ruling.notes.append("No interruption: a stride of 1 hex per AP cannot be interrupted.")
        return ruling
    # Seed 000: the traveller may be paused "after the expenditure of 1 AP" and "No attacker may make
    # an attack of opportunity once the traveller's last AP is spent": k runs over 1..N-1, and after k
    # AP the traveller stands k * stride hexes along the path.
    stops: dict[int, Coord] = {k: route.hexes[k * mover.stride] for k in range(1, spent)}
    _add_opportunities(encounter, mover, stops, ruling)
    return ruling


def _add_opportunities(
    encounter: AphexEncounter, mover: AphexCombatant, stops: dict[int, Coord], ruling: Ruling
) -> None:
    found: list[tuple[AphexCombatant, list[int]]] = []
    for foe in encounter.foes(mover):
        reason = eligibility.barred_reason(encounter, foe, mover)
        if reason is not None:
            if foe.weapon != "melee":  # a melee foe is never a candidate; say nothing about it
                ruling.notes.append(f"{foe.name} cannot interrupt: it {reason}.")
            continue
        ks = eligibility.windows(encounter, foe, stops)
        if ks:
            found.append((foe, ks))
    point_of: dict[int, int] = {}
    for k in sorted({k for _, ks in found for k in ks}):
        point_of[k] = len(ruling.points)
        ruling.points.append(
            ReactionPoint(
                index=len(ruling.points),
                step=k * mover.stride,
                at=None,
                trigger=TRIGGER,
                reactors=[foe.name for foe, ks in found if k in ks],
                detail={"ap": k, "hex": format_coord(stops[k])},
            )
        )
    # SPEC §4: opportunities "in the order they resolve": by the first AP each attacker may act.
    order = {c.name: i for i, c in enumerate(encounter.combatants)}
    found.sort(key=lambda item: (item[1][0], order[item[0].name]))
    for foe, ks in found:
        ruling.opportunities.append(
            Opportunity(
                attacker=foe.name,
                at=None,
                trigger=TRIGGER,
                windows=ks,
                point=point_of[ks[0]],
                detail={"weapon": foe.weapon},
            )
        )
