"""`adjudicate(encounter, action) -> Ruling` for dnd35: checks a move or action and lists its reactions."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from rules.coords import Coord, format_coord
from rules.dnd35 import geometry
from rules.dnd35.actions import adjudicate_act
from rules.dnd35.creature import Body, barred, bodies, can_pass, label_coord, occupying, sees, threat
from rules.dnd35.model import Dnd35Encounter
from rules.dnd35.movement import (
    MODES,
    STRAIGHT_MODES,
    Field,
    attack_squares,
    budget_ft,
    charge_ends,
    check_path,
    line,
    on_line,
    refuse_mover,
)
from rules.dnd35.opportunities import build, move_points, near
from rules.engine import Action, Ruling
from rules.errors import InputError, LimitError
from rules.pathfind import Grid, find_path

MAX_PATH = 400  # squares in one explicit path (SPEC: limits are errors, not crashes)


def _illegal(action: Action, who: str, error: str) -> Ruling:
    return Ruling(ruleset="dnd35", who=who, action=action.kind, mode=action.mode, legal=False, error=error)


def adjudicate(enc: Dnd35Encounter, action: Action) -> Ruling:
    """Rule on ``action`` before anyone reacts (pure; illegal actions give ``legal=False``)."""
    who = enc.find(action.who)
    bs = bodies(enc)
    if action.kind == "act":
        return adjudicate_act(enc, action, bs)
    return adjudicate_move(enc, action, bs, bs[who.name])


@lru_cache(maxsize=256)
def _squares(labels: tuple[str, ...]) -> frozenset[Coord]:
    # A map's walls and difficult terrain are the same on every move; parse them once.
    return frozenset(label_coord(label) for label in labels)


def _field(enc: Dnd35Encounter, bs: dict[str, Body], mover: Body) -> Field:
    return Field(
        width=enc.map.width,
        height=enc.map.height,
        walls=_squares(tuple(enc.map.blocked)),
        difficult=_squares(tuple(enc.map.difficult)),
        occupants=occupying(bs, mover.name),
    )


def adjudicate_move(enc: Dnd35Encounter, action: Action, bs: dict[str, Body], mover: Body) -> Ruling:
    """Rule on a move along ``action.path`` (or to one far square: find the path) in ``action.mode``."""
    mode = action.mode
    if mode not in MODES:
        return _illegal(action, mover.name, f"Unknown mode `{mode[:20]}`; choose one of: {', '.join(MODES)}.")
    if not action.path:
        raise InputError("Give the squares to move through, like `C3 D4`, or one destination square.")
    if len(action.path) > MAX_PATH:
        raise LimitError(f"A path may list at most {MAX_PATH} squares.")
    squares = [enc.coord(label) for label in action.path]
    target = bs[enc.find(action.target).name] if action.target else None
    why = refuse_mover(mover, mode)
    if why is not None:
        return _illegal(action, mover.name, why)
    if mode in ("charge", "spring-attack"):
        if target is None:
            return _illegal(
                action, mover.name, f"Mode {mode} needs the foe it attacks (the `target` option)."
            )
        if target.name == mover.name or target.side == mover.side:
            return _illegal(action, mover.name, f"{target.name} is not a foe of {mover.name}.")
    f = _field(enc, bs, mover)
    budget = budget_ft(mode, mover.speed)
    start = mover.pos
    if mode == "charge" and target is not None and len(squares) == 1 and squares[0] in set(target.squares):
        # "charge Ogre" by pointing at the Ogre: the rules fix the destination (SRD Charge).
        end = _charge_destination(f, mover, target, mode)
        if isinstance(end, str):
            return _illegal(action, mover.name, end)
        squares = [end]
    if len(squares) == 1 and max(abs(squares[0][0] - start[0]), abs(squares[0][1] - start[1])) > 1:
        if mode == "step":
            return _illegal(action, mover.name, "A 5-foot step moves to an adjacent square.")
        found = _find(enc, bs, mover, squares[0], mode, target, f, budget)
        if isinstance(found, str):
            return _illegal(action, mover.name, f"No legal path to {format_coord(squares[0])}: {found}.")
        squares = found
    positions = [start, *squares]
    if squares[-1] == start and len(squares) == 1:
        return _illegal(action, mover.name, f"{mover.name} is already at {format_coord(start)}.")
    walk = check_path(f, mover, positions, mode)
    if walk.error is not None:
        return _illegal(action, mover.name, walk.error)
    error = _mode_rules(f, mover, positions, mode, target)
    if error is not None:
        return _illegal(action, mover.name, error)
    cost = walk.cost * 5
    if cost > budget:
        return _illegal(
            action,
            mover.name,
            f"That path costs {cost} ft; {mode} allows {budget} ft for {mover.name} "
            f"(speed {mover.speed} ft).",
        )
    foes = [b for b in bs.values() if b.side != mover.side]
    points, notes = move_points(
        mover, positions, mode, foes, f.width, f.height, f.walls, target, walk.through
    )
    path = [format_coord(p) for p in positions]
    extra: dict[str, Any] = {"mode": mode}
    rps, opps = build(points, path, mover.name, extra)
    return Ruling(
        ruleset="dnd35",
        who=mover.name,
        action="move",
        mode=mode,
        legal=True,
        path=path,
        cost=cost,
        opportunities=opps,
        notes=notes,
        target=target.name if target else None,
        points=rps,
    )


def _mode_rules(f: Field, mover: Body, positions: list[Coord], mode: str, target: Body | None) -> str | None:
    """The straight-line, length and target rules of run, charge, step and spring-attack."""
    moves = len(positions) - 1
    if mode == "step" and moves != 1:
        return "A 5-foot step moves exactly one square."
    if mode in STRAIGHT_MODES and not on_line(positions):
        return f"A {mode} must follow a straight line from {format_coord(positions[0])} (SRD {mode.title()})."
    if mode == "charge" and target is not None:
        if moves < 2:
            return "A charge must cover at least 10 feet (2 squares) (SRD Charge)."
        ends = charge_ends(f, mover, target)
        end = positions[-1]
        if end not in ends:
            return (
                f"A charge must end where {mover.name} can attack {target.name}; "
                f"{format_coord(end)} is not such a square."
            )
        start = positions[0]

        def far(p: Coord) -> int:
            return geometry.squares_apart(abs(p[0] - start[0]), abs(p[1] - start[1]))

        closest = min(far(p) for p in ends)
        if far(end) > closest:
            return (
                f"A charge must end in the closest square from which {mover.name} can attack {target.name} "
                f"(SRD Charge); {format_coord(end)} is farther than that."
            )
    if mode == "spring-attack" and target is not None:
        if moves < 2:
            return "Spring Attack needs at least 5 feet of movement both before and after the attack."
        tsq = set(target.squares)
        if not any(attack_squares(mover, p, f.width, f.height) & tsq for p in positions[1:-1]):
            return (
                f"Spring Attack: the path must pass a square (not the first or last) from which {mover.name} "
                f"can attack {target.name}."
            )
    return None


def _charge_destination(f: Field, mover: Body, target: Body, mode: str) -> Coord | str:
    """The closest square from which the mover can attack ``target`` and that a charge line reaches."""
    start = mover.pos
    ends = charge_ends(f, mover, target)
    if not ends:
        return f"There is no free square from which {mover.name} could attack {target.name}."

    def far(p: Coord) -> int:
        return geometry.squares_apart(abs(p[0] - start[0]), abs(p[1] - start[1]))

    closest = min(far(p) for p in ends)

    def straightness(p: Coord) -> tuple[int, int, int]:
        # Among equally close squares prefer the most direct line, then the top-left one.
        return ((p[0] - start[0]) ** 2 + (p[1] - start[1]) ** 2, p[1], p[0])

    for end in sorted((p for p in ends if far(p) == closest), key=straightness):
        positions = line(start, end)
        if len(positions) >= 3 and check_path(f, mover, positions, mode).error is None:
            return end
    return (
        f"{mover.name} cannot charge {target.name}: the closest squares from which it could attack are "
        "not at the end of a clear straight line at least 10 feet long (SRD Charge)."
    )


def _find(
    enc: Dnd35Encounter,
    bs: dict[str, Body],
    mover: Body,
    goal: Coord,
    mode: str,
    target: Body | None,
    f: Field,
    budget_feet: int,
) -> list[Coord] | str:
    """Squares entered on the best path to ``goal``, or why there is none."""
    start = mover.pos
    if mode in STRAIGHT_MODES:
        return line(start, goal)[1:]
    side = mover.side_len
    closed: set[Coord] = set()
    enter: dict[Coord, int] = {}
    threat_bits: dict[Coord, int] = {}
    start_exempt = 0
    foes = [b for b in bs.values() if b.side != mover.side]
    r = budget_feet // 5 + side + 1
    box = (start[0] - r, start[1] - r, start[0] + r, start[1] + r)
    bit = 1
    for other in bs.values():
        if other.name == mover.name or other.side == mover.side:
            continue
        if not (can_pass(mover, other) or mode == "tumble-through"):
            closed.update(other.squares)
    for foe in foes:
        if not near(foe, box):
            continue
        if barred(foe, mover) is not None or mover.name in foe.aoo_against:
            continue
        if mode == "spring-attack" and target is not None and foe.name == target.name:
            continue
        squares = threat(foe, f.width, f.height, f.walls)
        for sq in squares:
            # A square from which the foe has cover against the mover gives it no opportunity.
            if f.walls and geometry.has_cover(foe.pos, foe.side_len, sq, 1, f.walls):
                continue
            threat_bits[sq] = threat_bits.get(sq, 0) | bit
        for sq in foe.squares:
            enter[sq] = enter.get(sq, 0) | bit
        if mode == "withdraw" and sees(mover, foe):
            start_exempt |= bit
        bit <<= 1
    grid = Grid(
        width=f.width,
        height=f.height,
        start=start,
        goal=goal,
        budget=budget_feet // 5,
        side=side,
        walls=f.walls,
        closed=frozenset(closed),
        difficult=f.difficult,
        allow_difficult=mode not in ("run", "charge", "step"),
        threat=threat_bits,
        start_exempt=start_exempt,
        enter=enter,
    )
    found = find_path(grid)
    if found.path is None:
        return found.reason or "none found"
    if mode == "spring-attack" and target is not None:
        return _spring_attack_route(f, mover, target, grid, found.path)
    return found.path


def _spring_attack_route(
    f: Field, mover: Body, target: Body, grid: Grid, direct: list[Coord]
) -> list[Coord] | str:
    """Spring Attack must pass, mid-move, a square from which the mover can attack the target: keep the
    direct path if it does, else go via the best such square (two searches chained on diagonal parity)."""
    tsq = set(target.squares)

    def attacks_from(p: Coord) -> bool:
        return bool(attack_squares(mover, p, f.width, f.height) & tsq)

    if any(attacks_from(p) for p in direct[:-1]):
        return direct
    start, goal = grid.start, grid.goal
    best: tuple[int, int, list[Coord]] | None = None
    for via in sorted(charge_ends(f, mover, target), key=lambda p: (p[1], p[0])):
        if via in (start, goal):
            continue
        first = find_path(dataclasses.replace(grid, goal=via))
        if first.path is None:
            continue
        second = find_path(
            dataclasses.replace(
                grid, start=via, budget=grid.budget - first.cost, start_parity=first.parity, start_exempt=0
            )
        )
        if second.path is None:
            continue
        score = (first.opportunities + second.opportunities, first.cost + second.cost)
        if best is None or score < best[:2]:
            best = (*score, first.path + second.path)
    if best is None:
        return (
            f"no path within the budget passes a square from which {mover.name} can attack {target.name} "
            "with movement before and after"
        )
    return best[2]
