"""Square-grid geometry for D&D 3.5: space and reach by size, 1-2-1-2 distance, threatened squares, cover.

Everything works on plain ``(col, row)`` tuples; a creature's space is its top-left square plus a side
length. Nothing here touches pydantic, so the adjudicator can call it in tight loops.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rules.coords import Coord

SIZES: tuple[str, ...] = (
    "fine",
    "diminutive",
    "tiny",
    "small",
    "medium",
    "large",
    "huge",
    "gargantuan",
    "colossal",
)
"""Size categories, smallest first (their index is used for 'three sizes apart')."""

# SRD "Creature Size and Scale": space in 5-ft squares (Tiny and smaller share one square) and
# natural reach in feet for tall and long creatures.
SPACE_SIDE: dict[str, int] = {
    "fine": 1,
    "diminutive": 1,
    "tiny": 1,
    "small": 1,
    "medium": 1,
    "large": 2,
    "huge": 3,
    "gargantuan": 4,
    "colossal": 6,
}
NATURAL_REACH: dict[tuple[str, str], int] = {
    ("fine", "tall"): 0,
    ("fine", "long"): 0,
    ("diminutive", "tall"): 0,
    ("diminutive", "long"): 0,
    ("tiny", "tall"): 0,
    ("tiny", "long"): 0,
    ("small", "tall"): 5,
    ("small", "long"): 5,
    ("medium", "tall"): 5,
    ("medium", "long"): 5,
    ("large", "tall"): 10,
    ("large", "long"): 5,
    ("huge", "tall"): 15,
    ("huge", "long"): 10,
    ("gargantuan", "tall"): 20,
    ("gargantuan", "long"): 15,
    ("colossal", "tall"): 30,
    ("colossal", "long"): 20,
}


def size_index(size: str) -> int:
    """Position of a size category in SIZES (fine = 0)."""
    return SIZES.index(size)


def tiny_or_smaller(size: str) -> bool:
    """Fine, Diminutive and Tiny creatures share squares and have no reach beyond their own."""
    return size_index(size) <= size_index("tiny")


def space(pos: Coord, side: int) -> list[Coord]:
    """Every square of a creature whose top-left square is ``pos``."""
    x0, y0 = pos
    return [(x0 + i, y0 + j) for j in range(side) for i in range(side)]


def gap(a: Coord, a_side: int, b: Coord, b_side: int) -> tuple[int, int]:
    """Squares between the nearest occupied squares of two spaces, per axis (0 = overlapping)."""
    dx = max(0, a[0] - (b[0] + b_side - 1), b[0] - (a[0] + a_side - 1))
    dy = max(0, a[1] - (b[1] + b_side - 1), b[1] - (a[1] + a_side - 1))
    return dx, dy


def squares_apart(dx: int, dy: int) -> int:
    """Distance in squares with diagonals counting 1, 2, 1, 2, ... (SRD "Measuring Distance")."""
    diag = min(dx, dy)
    return max(dx, dy) + diag // 2


def distance_ft(a: Coord, a_side: int, b: Coord, b_side: int) -> int:
    """Feet between two spaces, measured between their nearest squares with 1-2-1-2 diagonals."""
    dx, dy = gap(a, a_side, b, b_side)
    return 5 * squares_apart(dx, dy)


def within(dx: int, dy: int, feet: int) -> bool:
    """True if a gap of (dx, dy) squares lies within ``feet`` of reach.

    PHB exception: 10 feet of reach reaches two squares away even diagonally, although 1-2-1-2
    counting would make that diagonal 15 feet.
    """
    if feet == 10:
        return max(dx, dy) <= 2
    return 5 * squares_apart(dx, dy) <= feet


def natural_reach(size: str, shape: str, override: int | None) -> int:
    """Natural reach in feet: the combatant's own ``reach`` or the SRD table value."""
    return override if override is not None else NATURAL_REACH[(size, shape)]


def reach_band(
    size: str, shape: str, override: int | None, reach_weapon: bool, variants: Iterable[str]
) -> tuple[int, int]:
    """(inner, outer) feet: a creature threatens squares farther than ``inner`` (-1 = none excluded)
    and within ``outer``, plus its own space.

    A reach weapon doubles natural reach and leaves the natural band unthreatened (seed: "You do not,
    however, threaten the squares immediately adjacent to you"); natural reach 0 stays 0 unless the
    ``tiny_reach_weapons`` variant gives a Tiny wielder 5 feet; ``reach_weapon_up_close`` keeps the
    natural band threatened.
    """
    natural = natural_reach(size, shape, override)
    if not reach_weapon:
        return -1, natural
    if natural == 0:
        if size == "tiny" and "tiny_reach_weapons" in variants:
            return -1, 5
        return -1, 0
    inner = -1 if "reach_weapon_up_close" in variants else natural
    return inner, 2 * natural


def threatened_squares(pos: Coord, side: int, inner: int, outer: int, width: int, height: int) -> set[Coord]:
    """Squares on the map threatened by a creature of ``side`` at ``pos`` with reach band (inner, outer).

    Its own space is always included (seed: "A creature can attack into its own space, and so it
    threatens that square or squares as well").
    """
    return set(_threatened(pos, side, inner, outer, width, height))


@lru_cache(maxsize=8192)
def _threatened(pos: Coord, side: int, inner: int, outer: int, width: int, height: int) -> frozenset[Coord]:
    # Cached: every adjudication asks again for the same few dozen creatures (bench/bench_engine.py
    # showed this loop as the largest cost of a dnd35 move); the arguments are all plain ints.
    result = set(space(pos, side))
    if outer <= 0:
        return frozenset((x, y) for x, y in result if x < width and y < height)
    r = outer // 5 + 1  # 1-2-1-2 never reaches farther than outer/5 squares on an axis
    x0, y0 = pos
    for y in range(max(0, y0 - r), min(height, y0 + side + r)):
        dy = max(0, y0 - y, y - (y0 + side - 1))
        for x in range(max(0, x0 - r), min(width, x0 + side + r)):
            dx = max(0, x0 - x, x - (x0 + side - 1))
            if dx == 0 and dy == 0:
                continue
            if within(dx, dy, outer) and not (inner >= 0 and within(dx, dy, inner)):
                result.add((x, y))
    return frozenset((x, y) for x, y in result if x < width and y < height)


# -- cover ---------------------------------------------------------------------------------------


def _segment_enters(p: tuple[float, float], q: tuple[float, float], sq: Coord) -> bool:
    """True if the segment p-q passes through the interior of square ``sq`` (touching an edge or a
    corner does not count), by Liang-Barsky clipping against the closed square."""
    x0, y0 = sq
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - x0), (dx, x0 + 1 - p[0]), (-dy, p[1] - y0), (dy, y0 + 1 - p[1])):
        if pk == 0:
            if qk < 0:
                return False
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    if t1 - t0 <= 1e-12:
        return False
    # The clipped piece lies in the closed square; it reaches the interior iff its midpoint does.
    tm = (t0 + t1) / 2
    mx, my = p[0] + tm * dx, p[1] + tm * dy
    eps = 1e-9
    return x0 + eps < mx < x0 + 1 - eps and y0 + eps < my < y0 + 1 - eps


def _corners(sq: Coord) -> tuple[tuple[int, int], ...]:
    x, y = sq
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def _clear(p: tuple[int, int], t: Coord, walls: list[Coord]) -> bool:
    return not any(_segment_enters(p, c, w) for c in _corners(t) for w in walls)


def has_cover(
    attacker: Coord, a_side: int, target: Coord, t_side: int, blocked: frozenset[Coord] | set[Coord]
) -> bool:
    """True if blocked squares give the target cover against the attacker's melee attack (SRD "Cover").

    Adjacent: cover if every line from the corners of an attacker square to the corners of the
    target square it is next to goes through a blocked square for all such pairs ("any line from your
    square to the target's square goes through a wall"). With reach: the ranged rule, where the
    attacker picks its best corner. Big creatures pick their best square on either side.
    """
    if not blocked:
        return False
    if isinstance(blocked, frozenset):
        # Cached: path finding asks it for every square each nearby foe threatens, on every move over
        # the same walls (bench/bench_engine.py: 60% of a path-finding dnd35 move).
        return _cover(attacker, a_side, target, t_side, blocked)
    return _cover.__wrapped__(attacker, a_side, target, t_side, blocked)


@lru_cache(maxsize=65536)
def _cover(
    attacker: Coord, a_side: int, target: Coord, t_side: int, blocked: frozenset[Coord] | set[Coord]
) -> bool:
    if not blocked:
        return False
    a_sq = space(attacker, a_side)
    t_sq = space(target, t_side)
    xs = [s[0] for s in a_sq + t_sq]
    ys = [s[1] for s in a_sq + t_sq]
    lo_x, hi_x, lo_y, hi_y = min(xs), max(xs), min(ys), max(ys)
    walls = [b for b in blocked if lo_x <= b[0] <= hi_x and lo_y <= b[1] <= hi_y]
    if not walls:
        return False
    dx, dy = gap(attacker, a_side, target, t_side)
    if max(dx, dy) <= 1:
        for a in a_sq:
            for t in t_sq:
                if max(abs(a[0] - t[0]), abs(a[1] - t[1])) > 1:
                    continue
                if all(_clear(c, t, walls) for c in _corners(a)):
                    return False
        return True
    for a in a_sq:
        for c in _corners(a):
            for t in t_sq:
                if _clear(c, t, walls):
                    return False
    return True
