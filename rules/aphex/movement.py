"""Paths and action points of a move (SPEC §7.2: "A move of H hexes spends ceil(H / stride) AP")."""

from __future__ import annotations

from dataclasses import dataclass

from rules import hexgrid
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.coords import Coord, format_coord


@dataclass(frozen=True)
class Route:
    """A checked path: every hex occupied, start first; or why there is none."""

    hexes: list[Coord]
    error: str | None = None


def ap_cost(hexes: int, stride: int) -> int:
    """Action points spent moving ``hexes`` hexes at ``stride`` hexes per AP (stride must be >= 1)."""
    return -(-hexes // stride)


def plan_route(encounter: AphexEncounter, mover: AphexCombatant, labels: list[str]) -> Route:
    """Check the hexes entered (or find the path to a single non-adjacent hex): contiguous, open, not
    through hostile figures, not ending on an occupied hex. Off-map labels raise `InputError`."""
    entered = [encounter.coord(label) for label in labels]
    start = mover.pos
    blocked = encounter.map.blocked_set()
    hostile = {c.pos: c.name for c in encounter.foes(mover)}
    occupied = {c.pos: c.name for c in encounter.others(mover)}

    def refuse(where: Coord) -> str | None:
        if where in blocked:
            return f"{format_coord(where)} is blocked."
        if where in hostile:
            return (
                f"{mover.name} cannot move through {hostile[where]}, a hostile figure, "
                f"at {format_coord(where)}."
            )
        return None

    if len(entered) == 1 and hexgrid.distance(start, entered[0]) != 1:
        goal = entered[0]
        if goal == start:
            return Route([start], f"{mover.name} is already on {format_coord(goal)}.")
        problem = _end_problem(goal, occupied) or refuse(goal)
        if problem:
            return Route([start], problem)
        # A straight line when it is open (what a player means by "go there"), else the shortest way round.
        straight = hexgrid.line(start, goal)[1:]
        if all(encounter.map.contains(h) and refuse(h) is None for h in straight):
            return Route([start, *straight])
        found = hexgrid.shortest_path(
            start,
            goal,
            encounter.map.width,
            encounter.map.height,
            lambda h: h not in blocked and h not in hostile,
        )
        if found is None:
            return Route(
                [start],
                f"There is no open path from {format_coord(start)} to {format_coord(goal)} "
                "(blocked hexes or hostile figures are in the way).",
            )
        return Route([start, *found])

    here = start
    for where in entered:
        if hexgrid.distance(here, where) != 1:
            return Route(
                [start],
                f"{format_coord(where)} is not next to {format_coord(here)}: "
                "a path must be contiguous hexes.",
            )
        problem = refuse(where)
        if problem:
            return Route([start], problem)
        here = where
    problem = _end_problem(entered[-1], occupied)
    if problem:
        return Route([start], problem)
    return Route([start, *entered])


def _end_problem(goal: Coord, occupied: dict[Coord, str]) -> str | None:
    if goal in occupied:
        return f"A move cannot end on {format_coord(goal)}: {occupied[goal]} stands there."
    return None
