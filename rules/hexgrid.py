"""Flat-topped hex geometry in odd-q offset layout (SPEC §2), shared by `aphex` and `dragonquest`.

Odd columns (B, D, F, ...) sit half a hex lower than even ones. Everything is computed in axial
coordinates ``(q, r)`` (cube ``s = -q - r``), after Red Blob Games' "Hexagonal Grids".
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator

from rules.coords import Coord

Axial = tuple[int, int]

FACINGS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
"""The six hex sides, clockwise from north."""

# Axial step across each side, in the order of FACINGS. Adjacent sides sum to the side between them.
DIRECTIONS: tuple[Axial, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def to_axial(coord: Coord) -> Axial:
    """Offset (column, row) -> axial (q, r) for the odd-q layout."""
    col, row = coord
    return col, row - (col - (col & 1)) // 2


def from_axial(axial: Axial) -> Coord:
    """Axial (q, r) -> offset (column, row) for the odd-q layout."""
    q, r = axial
    return q, r + (q - (q & 1)) // 2


def distance(a: Coord, b: Coord) -> int:
    """Hexes between two hexes (0 for the same hex)."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(coord: Coord, facing: int) -> Coord:
    """The hex across side ``facing`` (an index into FACINGS)."""
    q, r = to_axial(coord)
    dq, dr = DIRECTIONS[facing % 6]
    return from_axial((q + dq, r + dr))


def neighbours(coord: Coord) -> list[Coord]:
    """The six hexes around ``coord`` (some may be off the map), in FACINGS order."""
    return [neighbour(coord, f) for f in range(6)]


def facing_index(name: str) -> int:
    """Index of a facing name such as ``NE``."""
    return FACINGS.index(name.upper())


def direction_between(a: Coord, b: Coord) -> int | None:
    """The facing index from ``a`` to an adjacent ``b``; None if they are not adjacent."""
    for f in range(6):
        if neighbour(a, f) == b:
            return f
    return None


def in_forward_arc(origin: Coord, facing: int, other: Coord) -> bool:
    """True if ``other`` lies in the 120-degree arc in front of ``origin`` facing ``facing``.

    The arc is the cone spanned by the two sides beside the faced one: ``a*u + b*v`` with
    ``a, b >= 0``. Its ring at distance 1 is exactly the three front hexes.
    """
    oq, orr = to_axial(origin)
    tq, tr = to_axial(other)
    dq, dr = tq - oq, tr - orr
    if dq == 0 and dr == 0:
        return False
    uq, ur = DIRECTIONS[(facing - 1) % 6]
    vq, vr = DIRECTIONS[(facing + 1) % 6]
    det = uq * vr - ur * vq
    a = (dq * vr - dr * vq) * det  # det is +-1, so multiplying equals dividing
    b = (uq * dr - ur * dq) * det
    return a >= 0 and b >= 0


def front_hexes(origin: Coord, facing: int) -> list[Coord]:
    """The three hexes across the faced side and the two sides beside it."""
    return [neighbour(origin, facing - 1), neighbour(origin, facing), neighbour(origin, facing + 1)]


def _cube_round(q: float, r: float) -> Axial:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)


def line(a: Coord, b: Coord) -> list[Coord]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes, both ends included.

    The line is nudged by a tiny epsilon so that a line along a hex edge picks one side deterministically.
    """
    n = distance(a, b)
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    if n == 0:
        return [a]
    eps_q, eps_r = 1e-6, 2e-6
    out: list[Coord] = []
    for i in range(n + 1):
        t = i / n
        q = aq + eps_q + (bq - aq) * t
        r = ar + eps_r + (br - ar) * t
        out.append(from_axial(_cube_round(q, r)))
    return out


def has_line_of_effect(a: Coord, b: Coord, blocked: Iterable[Coord]) -> bool:
    """True if no blocked hex lies strictly between ``a`` and ``b`` on the line joining them."""
    blocked_set = blocked if isinstance(blocked, set | frozenset) else set(blocked)
    return not any(h in blocked_set for h in line(a, b)[1:-1])


def within(origin: Coord, radius: int) -> Iterator[Coord]:
    """Every hex (on or off the map) within ``radius`` of ``origin``."""
    oq, orr = to_axial(origin)
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield from_axial((oq + dq, orr + dr))


def shortest_path(
    start: Coord, goal: Coord, width: int, height: int, passable: Callable[[Coord], bool]
) -> list[Coord] | None:
    """Hexes entered on a shortest path from ``start`` to ``goal`` (start excluded), or None.

    Breadth-first in FACINGS order, so ties break the same way every time.
    """
    if start == goal:
        return []
    previous: dict[Coord, Coord] = {start: start}
    frontier = deque([start])
    while frontier:
        here = frontier.popleft()
        for nxt in neighbours(here):
            if nxt in previous or not (0 <= nxt[0] < width and 0 <= nxt[1] < height):
                continue
            if nxt != goal and not passable(nxt):
                continue
            previous[nxt] = here
            if nxt == goal:
                path = [goal]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return path[-2::-1]
            frontier.append(nxt)
    return None
