"""Path finding on a square grid: the legal route with the fewest opportunities, then the lowest cost.

Ruleset-independent: the caller describes the grid (walls, squares the mover may not enter, difficult
terrain, the budget) and, per square, a bit mask of the foes whose opportunity leaving that square
gives. The search is A* over (square, diagonal parity) states with lexicographic weights
(opportunities, cost); costs use the 1-2-1-2 diagonal rule.

Approximation (documented in docs/rules/dnd35.md): "distinct foes that get an opportunity" is not a
shortest-path metric. Each foe is counted when the path leaves its threatened area (or, on the last
move, when the mover leaves any square it threatens), so a path that walks out of one foe's area and
back in counts that foe twice. The count is exact for paths that pass through each area once; the
caller re-adjudicates the chosen path, so what the user sees is always exact.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from rules.coords import Coord

ORTHOGONAL: tuple[Coord, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL: tuple[Coord, ...] = ((1, -1), (1, 1), (-1, 1), (-1, -1))
NEIGHBOURS: tuple[Coord, ...] = ORTHOGONAL + DIAGONAL  # fixed order: the deterministic tie-break


@dataclass
class Grid:
    """One path-finding problem. Positions are the mover's top-left square; ``side`` its space."""

    width: int
    height: int
    start: Coord
    goal: Coord
    budget: int  # in squares (5-foot units)
    side: int = 1
    walls: frozenset[Coord] = frozenset()  # impassable, and no diagonal past their corners
    closed: frozenset[Coord] = frozenset()  # may not be entered (e.g. enemies' spaces)
    difficult: frozenset[Coord] = frozenset()
    allow_difficult: bool = True
    threat: dict[Coord, int] = field(default_factory=dict)  # square -> foes whose area it is (bits)
    start_exempt: int = 0  # foes whose opportunity for leaving the start square is waived
    enter: dict[Coord, int] = field(default_factory=dict)  # square -> foes that entering it provokes
    start_parity: int = 0  # diagonals already taken before ``start`` (odd = the next one costs 2)


@dataclass
class Found:
    """The result: ``path`` (squares entered, start excluded) or ``reason`` why there is none."""

    path: list[Coord] | None
    cost: int = 0  # squares
    opportunities: int = 0  # the search's estimate (see the module docstring)
    reason: str | None = None
    parity: int = 0  # diagonal parity at the goal (to chain a second leg)


def step_cost(diagonal: bool, difficult: bool, parity: int) -> int:
    """Squares a single move costs: 1, or 1/2 alternating on diagonals; difficult terrain doubles and a
    diagonal into it counts 3 (SRD "Difficult Terrain")."""
    if diagonal:
        return 3 if difficult else 1 + parity
    return 2 if difficult else 1


def lower_bound(a: Coord, b: Coord, parity: int) -> int:
    """Fewest squares from ``a`` to ``b`` on open ground, given the diagonal parity so far."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    diag = min(dx, dy)
    return max(dx, dy) + (diag + parity) // 2


class _Space:
    """Per-position facts for a mover of a given side, cached."""

    def __init__(self, grid: Grid) -> None:
        self.g = grid
        self._ok: dict[Coord, bool] = {}
        self._wall_free: dict[Coord, bool] = {}
        self._zone: dict[Coord, int] = {}
        self._enter: dict[Coord, int] = {}
        self._difficult: dict[Coord, bool] = {}

    def squares(self, p: Coord) -> list[Coord]:
        s = self.g.side
        return [(p[0] + i, p[1] + j) for j in range(s) for i in range(s)]

    def on_map(self, p: Coord) -> bool:
        s = self.g.side
        return 0 <= p[0] and 0 <= p[1] and p[0] + s <= self.g.width and p[1] + s <= self.g.height

    def wall_free(self, p: Coord) -> bool:
        got = self._wall_free.get(p)
        if got is None:
            got = self.on_map(p) and not any(q in self.g.walls for q in self.squares(p))
            self._wall_free[p] = got
        return got

    def ok(self, p: Coord) -> bool:
        got = self._ok.get(p)
        if got is None:
            got = self.wall_free(p) and not any(q in self.g.closed for q in self.squares(p))
            self._ok[p] = got
        return got

    def zone(self, p: Coord) -> int:
        got = self._zone.get(p)
        if got is None:
            got = 0
            for q in self.squares(p):
                got |= self.g.threat.get(q, 0)
            self._zone[p] = got
        return got

    def enter_bits(self, p: Coord) -> int:
        got = self._enter.get(p)
        if got is None:
            got = 0
            for q in self.squares(p):
                got |= self.g.enter.get(q, 0)
            self._enter[p] = got
        return got

    def difficult(self, p: Coord) -> bool:
        got = self._difficult.get(p)
        if got is None:
            got = any(q in self.g.difficult for q in self.squares(p))
            self._difficult[p] = got
        return got

    def left_bits(self, p: Coord, q: Coord) -> int:
        """Foes threatening a square of ``p``'s space that the move to ``q`` vacates."""
        if self.g.side == 1:
            return self.g.threat.get(p, 0)
        s = self.g.side
        bits = 0
        for sq in self.squares(p):
            if not (q[0] <= sq[0] < q[0] + s and q[1] <= sq[1] < q[1] + s):
                bits |= self.g.threat.get(sq, 0)
        return bits


def _search(grid: Grid, budget: int, count: bool) -> Found:
    sp = _Space(grid)
    start, goal = grid.start, grid.goal
    # State: (position, parity). Value: (opportunities, cost).
    p0 = grid.start_parity
    best: dict[tuple[Coord, int], tuple[int, int]] = {(start, p0): (0, 0)}
    parent: dict[tuple[Coord, int], tuple[Coord, int]] = {}
    seq = 0
    heap: list[tuple[int, int, int, int, Coord, int]] = [(0, lower_bound(start, goal, p0), 0, seq, start, p0)]
    while heap:
        opps, _f, cost, _seq, p, parity = heapq.heappop(heap)
        state = (p, parity)
        if best.get(state, (opps, cost)) < (opps, cost):
            continue
        if p == goal:
            path = [p]
            while state in parent:
                state = parent[state]
                path.append(state[0])
            path.reverse()
            return Found(path=path[1:], cost=cost, opportunities=opps, parity=parity)
        for dx, dy in NEIGHBOURS:
            q = (p[0] + dx, p[1] + dy)
            if not sp.ok(q):
                continue
            diagonal = dx != 0 and dy != 0
            if diagonal and not (sp.wall_free((p[0] + dx, p[1])) and sp.wall_free((p[0], p[1] + dy))):
                continue  # no diagonal past the corner of a wall
            hard = sp.difficult(q)
            if hard and not grid.allow_difficult:
                continue
            ncost = cost + step_cost(diagonal, hard, parity)
            nparity = parity ^ 1 if diagonal else parity
            f = ncost + lower_bound(q, goal, nparity)
            if f > budget:
                continue
            nopps = opps
            if count:
                left = sp.left_bits(p, q)
                if p == start:
                    left &= ~grid.start_exempt
                entered = sp.enter_bits(q) & ~sp.enter_bits(p)
                if q != goal:
                    left &= ~sp.zone(q)  # still inside the area: counted when the path leaves it
                nopps += (left | entered).bit_count()
            nstate = (q, nparity)
            if best.get(nstate, (nopps + 1, 0)) <= (nopps, ncost):
                continue
            best[nstate] = (nopps, ncost)
            parent[nstate] = state
            seq += 1
            heapq.heappush(heap, (nopps, f, ncost, seq, q, nparity))
    return Found(path=None)


def find_path(grid: Grid) -> Found:
    """The legal path from ``grid.start`` to ``grid.goal`` within the budget with the fewest
    opportunities, then the lowest cost; or a plain-English reason there is none."""
    sp = _Space(grid)
    if not sp.on_map(grid.goal):
        return Found(path=None, reason="the mover does not fit on the map there")
    if not sp.ok(grid.goal):
        return Found(path=None, reason="the destination is blocked")
    if grid.goal == grid.start:
        return Found(path=None, reason="the mover is already there")
    found = _search(grid, grid.budget, count=True)
    if found.path is not None:
        return found
    unbounded = _search(grid, 10**9, count=False)
    if unbounded.path is None:
        return Found(path=None, reason="no route reaches it: walls, foes or terrain block every way there")
    return Found(
        path=None,
        reason=(
            f"the shortest legal route is {unbounded.cost * 5} ft, more than the {grid.budget * 5} ft allowed"
        ),
    )
