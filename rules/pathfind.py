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

import gc
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


class _Board:
    """The grid as flat per-position arrays for the search.

    A position is the mover's top-left square at index ``(y + 1) * stride + (x + 1)``: a border of
    positions that are never ``ok`` surrounds the map, so a step needs no bounds check. The arrays are
    built by marking only the listed squares (walls, foes' spaces, threatened squares, ...), so the
    cost grows with what is on the map, not with its area; a listed square marks the ``side**2``
    positions whose space covers it.
    """

    def __init__(self, grid: Grid) -> None:
        s = grid.side
        self.side = s
        self.cols = grid.width - s + 1  # positions per row where the space fits
        self.rows = grid.height - s + 1
        self.stride = stride = self.cols + 2
        n = stride * (self.rows + 2)
        self.ok = [False] * n
        for y in range(self.rows):
            row = (y + 1) * stride
            self.ok[row + 1 : row + 1 + self.cols] = [True] * self.cols
        self.wall_free = list(self.ok)
        self.hard = [False] * n
        self.zone = [0] * n
        self.enter = [0] * n
        for sq in grid.walls:
            for i in self.covering(sq):
                self.wall_free[i] = False
                self.ok[i] = False
        for sq in grid.closed:
            for i in self.covering(sq):
                self.ok[i] = False
        for sq in grid.difficult:
            for i in self.covering(sq):
                self.hard[i] = True
        for sq, bits in grid.threat.items():
            for i in self.covering(sq):
                self.zone[i] |= bits
        for sq, bits in grid.enter.items():
            for i in self.covering(sq):
                self.enter[i] |= bits

    def index(self, p: Coord) -> int:
        """Flat index of a position."""
        return (p[1] + 1) * self.stride + p[0] + 1

    def coord(self, i: int) -> Coord:
        """Position of a flat index."""
        return (i % self.stride - 1, i // self.stride - 1)

    def covering(self, sq: Coord) -> list[int]:
        """Indexes of the positions (on the map) whose space covers square ``sq``."""
        x, y = sq
        if self.side == 1:
            return [(y + 1) * self.stride + x + 1] if 0 <= x < self.cols and 0 <= y < self.rows else []
        s = self.side
        return [
            (py + 1) * self.stride + px + 1
            for py in range(max(0, y - s + 1), min(self.rows, y + 1))
            for px in range(max(0, x - s + 1), min(self.cols, x + 1))
        ]


_COST_BITS = 24  # costs and estimates stay far below 2**24 squares on a 100x100 map
_MASK = (1 << _COST_BITS) - 1


def _search(grid: Grid, budget: int, count: bool) -> Found:
    # The search allocates many small tuples that never form cycles; the cyclic garbage collector
    # would scan them again and again (about 40% of the time of a 100x100 search), so it waits.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _astar(grid, budget, count)
    finally:
        if paused:
            gc.enable()


def _astar(grid: Grid, budget: int, count: bool) -> Found:
    # A* over (position, parity) states in the order (opportunities, cost + lower bound, cost,
    # insertion). bench/bench_pathfind.py measured the per-state work as what made the search slow, so:
    # positions are flat indexes into `_Board` arrays; each position's legal steps (target state, cost,
    # lower bound there, opportunities) are worked out once, on its first expansion, for both parities;
    # and the queue is a bucket per key (a list, so insertion order is kept) with a heap of the keys.
    # The lower bound is consistent and steps cost at least 1, so a push never lands at or before the
    # bucket being emptied.
    board = _Board(grid)
    sp = _Space(grid) if grid.side > 1 else None  # left_bits of big movers depends on the direction
    stride = board.stride
    ok, wall_free, hard, zone, enter = board.ok, board.wall_free, board.hard, board.zone, board.enter
    allow_difficult = grid.allow_difficult
    goal_i = board.index(grid.goal)
    start_i = board.index(grid.start)
    exempt = ~grid.start_exempt
    # Lower bounds to the goal by position, for an even and an odd count of diagonals so far.
    gx, gy = grid.goal
    h_even = [0] * len(ok)
    h_odd = [0] * len(ok)
    for y in range(board.rows):
        ay = abs(y - gy)
        row = (y + 1) * stride + 1
        even_row, odd_row = [], []
        for x in range(board.cols):
            ax = abs(x - gx)
            far, near = (ax, ay) if ax >= ay else (ay, ax)
            even_row.append(far + near // 2)
            odd_row.append(far + (near + 1) // 2)
        h_even[row : row + board.cols] = even_row
        h_odd[row : row + board.cols] = odd_row
    orthogonal = [dy * stride + dx for dx, dy in ORTHOGONAL]
    diagonal = [(dy * stride + dx, dx, dy * stride) for dx, dy in DIAGONAL]
    bits = _COST_BITS
    high = 2 * bits
    best = [1 << 80] * (2 * len(ok))  # per state: opportunities << high | cost
    parent = [-1] * len(best)
    Step = tuple[int, int, int, int]  # noqa: N806 - a local type alias
    steps: list[tuple[list[Step], list[Step]] | None] = [None] * len(ok)

    def opportunities(i: int, j: int) -> int:
        if sp is None:
            left = zone[i]
        else:
            left = sp.left_bits(board.coord(i), board.coord(j))
        if i == start_i:
            left &= exempt
        if j != goal_i:
            left &= ~zone[j]  # still inside the area: counted when the path leaves it
        return (left | (enter[j] & ~enter[i])).bit_count()

    def expand(i: int) -> tuple[list[Step], list[Step]]:
        # In NEIGHBOURS order (orthogonal first): the order of equal pushes is the tie-break.
        # A step is (target state, cost, lower bound there, opportunities << high).
        even: list[Step] = []
        odd: list[Step] = []
        # A Medium-or-smaller mover (the common case) inlines `opportunities`.
        slow = count and sp is not None
        left = not_here = 0  # without counting, every step gives 0 opportunities
        if count and not slow:
            left = zone[i] & exempt if i == start_i else zone[i]
            not_here = ~enter[i]
        for offset in orthogonal:
            j = i + offset
            if not ok[j]:
                continue
            if hard[j]:
                if not allow_difficult:
                    continue
                cost = 2
            else:
                cost = 1
            if slow:
                more = opportunities(i, j) << high
            elif left:
                more = (
                    (left if j == goal_i else left & ~zone[j]) | (enter[j] & not_here)
                ).bit_count() << high
            elif enter[j] & not_here:
                more = (enter[j] & not_here).bit_count() << high
            else:
                more = 0  # most squares: nobody threatens the square left, no foe's space is entered
            even.append((2 * j, cost, h_even[j], more))
            odd.append((2 * j + 1, cost, h_odd[j], more))
        for offset, cx, cy in diagonal:
            j = i + offset
            if not ok[j] or not (wall_free[i + cx] and wall_free[i + cy]):
                continue  # off the map, closed, or past the corner of a wall
            if hard[j]:
                if not allow_difficult:
                    continue
                cost0 = cost1 = 3
            else:
                cost0, cost1 = 1, 2
            if slow:
                more = opportunities(i, j) << high
            elif left:
                more = (
                    (left if j == goal_i else left & ~zone[j]) | (enter[j] & not_here)
                ).bit_count() << high
            elif enter[j] & not_here:
                more = (enter[j] & not_here).bit_count() << high
            else:
                more = 0  # most squares: nobody threatens the square left, no foe's space is entered
            even.append((2 * j + 1, cost0, h_odd[j], more))
            odd.append((2 * j, cost1, h_even[j], more))
        made = (even, odd)
        steps[i] = made
        return made

    p0 = grid.start_parity
    s0 = 2 * start_i + p0
    best[s0] = 0
    # Key of a bucket: opportunities << high | estimate << bits | cost.
    first = lower_bound(grid.start, grid.goal, p0) << bits
    buckets: dict[int, list[int]] = {first: [s0]}
    keys = [first]
    pop, push = heapq.heappop, heapq.heappush
    while keys:
        key = pop(keys)
        value = key & ~(_MASK << bits)  # opportunities << high | cost
        cost = key & _MASK
        for state in buckets.pop(key):
            if best[state] < value:
                continue  # a better way here was found after this entry was queued
            i = state >> 1
            if i == goal_i:
                at_goal = state & 1
                path = [board.coord(i)]
                while parent[state] >= 0:
                    state = parent[state]
                    path.append(board.coord(state >> 1))
                path.reverse()
                return Found(path=path[1:], cost=cost, opportunities=value >> high, parity=at_goal)
            for nstate, step, bound, more in (steps[i] or expand(i))[state & 1]:
                ncost = cost + step
                f = ncost + bound
                if f > budget:
                    continue
                nvalue = value + more + step
                if best[nstate] <= nvalue:
                    continue
                best[nstate] = nvalue
                parent[nstate] = state
                nkey = nvalue + (f << bits)
                bucket = buckets.get(nkey)
                if bucket is None:
                    buckets[nkey] = [nstate]
                    push(keys, nkey)
                else:
                    bucket.append(nstate)
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
