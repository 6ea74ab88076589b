"""Who gets an attack of opportunity during a move, and where (SPEC §7.1 "When an AoO is available").

Works on `Body` snapshots and plain sets only: the adjudicator's hot path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.coords import Coord, format_coord
from rules.dnd35 import geometry
from rules.dnd35.creature import Body, barred, mobility_note, sees, threat
from rules.dnd35.movement import TUMBLE_MODES
from rules.engine import Opportunity, ReactionPoint, Trigger

TUMBLE_DC = 15  # SRD Tumble: "DC 15 ... Each additional enemy after the first adds +2"
TUMBLE_THROUGH_DC = 25  # seed: "With a DC 25 Tumble check, you can pass right through a foe's space"


@dataclass
class Point:
    """A reaction point under construction."""

    step: int
    trigger: Trigger
    reactors: list[str] = field(default_factory=list)
    info: dict[str, dict[str, Any]] = field(default_factory=dict)


def near(foe: Body, box: tuple[int, int, int, int]) -> bool:
    """Cheap filter: could ``foe`` threaten anything inside the box (x0, y0, x1, y1)?"""
    r = foe.outer // 5 + 1
    x0, y0, x1, y1 = box
    return not (
        foe.pos[0] + foe.side_len - 1 + r < x0
        or foe.pos[0] - r > x1
        or foe.pos[1] + foe.side_len - 1 + r < y0
        or foe.pos[1] - r > y1
    )


def move_points(
    mover: Body,
    positions: list[Coord],
    mode: str,
    foes: list[Body],
    width: int,
    height: int,
    walls: frozenset[Coord],
    target: Body | None,
    through: list[tuple[int, Body]],
) -> tuple[list[Point], list[str]]:
    """The reaction points of a checked move, in order, plus notes on foes that get no AoO."""
    notes: list[str] = []
    if mode == "step":
        return [], [
            "A 5-foot step never provokes (seed: \"your movement doesn't provoke an attack of opportunity "
            'from any foe that threatens that square").'
        ]
    side = mover.side_len
    xs = [p[0] for p in positions]
    ys = [p[1] for p in positions]
    box = (min(xs), min(ys), max(xs) + side - 1, max(ys) + side - 1)
    through_step = {o.name: i for i, o in through}
    # Static reasons first: a barred foe is noted once if the path leaves a square it threatens.
    live: list[tuple[Body, set[Coord], frozenset[Coord], str | None]] = []
    for foe in foes:
        if not near(foe, box) and foe.name not in through_step:
            continue
        squares = threat(foe, width, height, walls)
        if not squares and foe.name not in through_step:
            continue
        why = barred(foe, mover)
        if why is None and mover.name in foe.aoo_against:
            # seed: "moving out of more than one threatened square during a turn counts as only one
            # 'opportunity' for the moving creature's foes"
            why = f"{foe.name} already had its opportunity against {mover.name} this round"
        if why is None and mode == "spring-attack" and target is not None and foe.name == target.name:
            why = (
                f"Spring Attack: {foe.name} is the target, so this movement provokes nothing from it "
                "(seed: \"your movement before and after the attack doesn't provoke any attacks of "
                'opportunity from that foe")'
            )
        live.append((foe, squares, frozenset(foe.squares), why))
    spaces = [set(geometry.space(p, side)) for p in positions]
    done: set[str] = set()
    noted: set[str] = set()
    points: list[Point] = []
    checks = 0
    for i in range(len(positions) - 1):
        here, there = spaces[i], spaces[i + 1]
        vacated = here - there
        entered = there - here
        leave = Point(step=i, trigger="leave-threatened")
        enter = Point(step=i, trigger="enter-space")
        for foe, squares, occupied, why in live:
            if foe.name in done:
                continue
            passing = through_step.get(foe.name)
            if passing is not None:
                if passing != i:
                    continue
                point = enter
            else:
                into = not entered.isdisjoint(occupied)
                left = not vacated.isdisjoint(squares)
                if not (into or left):
                    continue
                point = leave if left else enter
            if why is not None:
                if foe.name not in noted:
                    noted.add(foe.name)
                    notes.append(f"No AoO from {foe.name}: {why}.")
                done.add(foe.name)
                continue
            if mode == "withdraw" and i == 0 and point.trigger == "leave-threatened" and sees(mover, foe):
                # seed: "leave one threatened square without provoking ... Foes you can't see (or discern
                # through blindsight) can make attacks of opportunity against you even when you leave
                # that first square."
                if foe.name not in noted:
                    noted.add(foe.name)
                    notes.append(
                        f"Withdraw: leaving {format_coord(positions[0])} provokes nothing from {foe.name}, "
                        f"whom {mover.name} can see."
                    )
                continue
            if point.trigger == "leave-threatened" and geometry.has_cover(
                foe.pos, foe.side_len, positions[i], side, walls
            ):
                # seed: "You threaten a creature that has cover against your attacks, but you cannot make
                # an attack of opportunity against such a foe."
                if foe.name not in noted:
                    noted.add(foe.name)
                    notes.append(f"{mover.name} has cover from {foe.name} at {format_coord(positions[i])}.")
                continue
            done.add(foe.name)
            info: dict[str, Any] = {}
            note = mobility_note(mover, foe)
            if note is not None:
                info["mobility"] = note
            # seed: "If you tumble into a foe's square, you still provoke an attack of opportunity from
            # that foe" - only tumble-through's DC 25 check covers entering a space.
            entering = point.trigger == "enter-space"
            if mode in TUMBLE_MODES and not (entering and mode == "tumble"):
                base = TUMBLE_THROUGH_DC if entering else TUMBLE_DC
                info["dc"] = base + 2 * checks
                info["through"] = entering
                checks += 1
            point.reactors.append(foe.name)
            point.info[foe.name] = info
        for point in (leave, enter):
            if point.reactors:
                points.append(point)
    return points, notes


def build(
    points: list[Point], path: list[str], mover: str, extra: dict[str, Any] | None = None
) -> tuple[list[ReactionPoint], list[Opportunity]]:
    """Turn points under construction into the engine's `ReactionPoint`s and `Opportunity` list."""
    rps: list[ReactionPoint] = []
    opps: list[Opportunity] = []
    for index, p in enumerate(points):
        at = path[p.step]
        detail: dict[str, Any] = {"mover": mover, "reactors": p.info}
        if extra:
            detail.update(extra)
        rps.append(
            ReactionPoint(
                index=index, step=p.step, at=at, trigger=p.trigger, reactors=p.reactors, detail=detail
            )
        )
        for name in p.reactors:
            opps.append(
                Opportunity(attacker=name, at=at, trigger=p.trigger, point=index, detail=p.info[name])
            )
    return rps, opps
