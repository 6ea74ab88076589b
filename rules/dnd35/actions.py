"""Non-move actions (`/act`): which foes a provoking action gives an attack of opportunity.

SPEC §7.1: a provoking action provokes from each foe that threatens the actor, except the attacks aimed
at one foe, which provoke only from that target; the Improved maneuver feats remove the provocation.
"""

from __future__ import annotations

from typing import Any

from rules.catalogue import normalise
from rules.coords import format_coord
from rules.dnd35 import geometry
from rules.dnd35.catalogue import MOVE_ACTIONS, SPELLS, TARGETED, by_name
from rules.dnd35.creature import Body, barred, threat
from rules.dnd35.model import Dnd35Encounter
from rules.dnd35.opportunities import Point, build
from rules.engine import Action, Ruling

ENTERS_SPACE = frozenset({"bull-rush", "overrun"})  # SPEC §7.1: entering the defender's space
CONCENTRATION_DEFENSIVE = 15  # SRD Concentration: casting defensively, DC 15 + spell level
CONCENTRATION_DAMAGE = 10  # SRD Concentration: damaged while casting, DC 10 + damage + spell level


def maneuver_provokes(actor: Body, maneuver: str) -> bool:
    """Whether a targeted attack provokes from its target, given the actor's feats and weapons."""
    feat = TARGETED[maneuver]
    if feat is not None and actor.feat(feat):
        return False
    if maneuver == "trip" and actor.armed:
        # SRD Trip: "If you are using a weapon to trip, you don't provoke" (an unarmed trip does).
        return False
    return True


def _illegal(enc: Dnd35Encounter, action: Action, error: str) -> Ruling:
    return Ruling(ruleset="dnd35", who=action.who, action="act", mode=action.mode, legal=False, error=error)


def adjudicate_act(enc: Dnd35Encounter, action: Action, bodies: dict[str, Body]) -> Ruling:
    """Rule on a named non-move action (``action.name``, optionally ``action.target``)."""
    actor = bodies[enc.find(action.who).name]
    raw = action.name or ""
    entry = by_name().get(normalise(raw))
    if entry is None:
        from rules.catalogue import lookup

        lookup("dnd35", raw)  # raises an InputError with suggestions
        raise AssertionError("unreachable")  # pragma: no cover
    name = entry.action
    who = actor.name
    if name in MOVE_ACTIONS:
        return _illegal(
            enc, action, f"`{name}` is movement: use `move` with mode {MOVE_ACTIONS[name]} and the squares."
        )
    dead = sorted(actor.conditions & {"dead", "unconscious", "paralyzed", "helpless", "stunned"})
    if dead:
        return _illegal(enc, action, f"{who} is {dead[0]} and cannot act.")
    target: Body | None = None
    if action.target:
        target = bodies[enc.find(action.target).name]
        if target.name == who:
            return _illegal(enc, action, f"{who} cannot target itself.")
    at = format_coord(actor.pos)
    base: dict[str, Any] = {
        "ruleset": "dnd35",
        "who": who,
        "action": "act",
        "mode": action.mode,
        "legal": True,
        "path": [at],
        "cost": 0,
        "act_name": name,
        "target": target.name if target else None,
    }
    if name == "cast-defensively":
        point = Point(step=0, trigger="action")
        points, _ = build([point], [at], who, {"concentration": {"dc_base": CONCENTRATION_DEFENSIVE}})
        points[0].detail["formula"] = "15 + spell level"
        return Ruling(
            **base,
            points=points,
            notes=[
                "Casting defensively does not provoke; "
                f"{who} must pass a Concentration check (DC 15 + spell level) or lose the spell."
            ],
        )
    if entry.provokes == "no":
        return Ruling(**base, notes=[f"Does not provoke: {entry.reason}"])
    targeted = name in TARGETED
    if targeted and target is None:
        return _illegal(enc, action, f"`{name}` is aimed at one foe: give its target (the `target` option).")
    notes: list[str] = []
    exempt: set[str] = set()
    if targeted and target is not None:
        if not maneuver_provokes(actor, name):
            feat = TARGETED[name]
            why = (
                "a trip made with a weapon does not provoke"
                if name == "trip" and not (feat and actor.feat(feat))
                else f"{who} has {str(feat).replace('_', ' ').title()}"
            )
            return Ruling(**base, notes=[f"Does not provoke: {why}."])
        candidates = [target] if target.side != actor.side else []
    else:
        candidates = [b for b in bodies.values() if b.side != actor.side]
        if name == "bull-rush" and target is not None and actor.feat("improved_bull_rush"):
            # SRD Improved Bull Rush: "you do not provoke an attack of opportunity from the defender"
            exempt.add(target.name)
    width, height = enc.map.width, enc.map.height
    walls = enc.map.blocked_set()
    mine = set(actor.squares)
    point = Point(step=0, trigger="action")
    entering = Point(step=0, trigger="enter-space")
    for foe in candidates:
        if name in ENTERS_SPACE and target is not None and foe.name == target.name and foe.name not in exempt:
            # 001: "A Tiny or smaller creature cannot make an attack of opportunity unless a foe actually
            # enters its space, such as when a foe tries to make an overrun or bull rush attack." The
            # defender reacts to the entry, whatever it threatens.
            barring = barred(foe, actor)
            if barring is not None:
                notes.append(f"No AoO from {foe.name}: {barring}.")
            else:
                entering.reactors.append(foe.name)
                entering.info[foe.name] = {}
            continue
        if foe.name in exempt:
            notes.append(f"No AoO from {foe.name}: {who} has Improved Bull Rush.")
            continue
        if not (threat(foe, width, height, walls) & mine):
            continue
        barring = barred(foe, actor)
        if barring is not None:
            notes.append(f"No AoO from {foe.name}: {barring}.")
            continue
        if geometry.has_cover(foe.pos, foe.side_len, actor.pos, actor.side_len, walls):
            notes.append(f"No AoO from {foe.name}: {who} has cover from it.")
            continue
        point.reactors.append(foe.name)
        point.info[foe.name] = {}
    if entry.provokes == "sometimes" and name != "trip":
        notes.append(f"{entry.reason} Ruled as provoking; a foe may simply decline.")
    pending = [p for p in (point, entering) if p.reactors]
    if not pending:
        notes.append(f"{name} provokes, but no foe can take an attack of opportunity against {who} now.")
        return Ruling(**base, notes=notes)
    extra: dict[str, Any] = {"spell": name in SPELLS}
    points, opps = build(pending, [at], who, extra)
    return Ruling(**base, points=points, opportunities=opps, notes=notes)
