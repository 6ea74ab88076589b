"""Movement legality and cost for every dnd35 mode (SPEC §7.1 "Movement").

`check_path` walks the positions a mover occupies (start first) and returns the cost in squares or a
plain-English reason the move is illegal. Positions are the mover's top-left square.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.coords import Coord, format_coord
from rules.dnd35 import geometry
from rules.dnd35.creature import INCAPABLE, Body, can_pass
from rules.pathfind import step_cost

MODES: tuple[str, ...] = (
    "normal",
    "run",
    "charge",
    "withdraw",
    "step",
    "tumble",
    "tumble-through",
    "spring-attack",
)
STRAIGHT_MODES = frozenset({"run", "charge"})
TUMBLE_MODES = frozenset({"tumble", "tumble-through"})


def budget_ft(mode: str, speed: int) -> int:
    """Feet a mode allows: speed, x4 run, x2 charge/withdraw, half for tumbling, 5 for a step."""
    if mode == "run":
        return 4 * speed
    if mode in ("charge", "withdraw"):
        return 2 * speed
    if mode == "step":
        return 5
    if mode in TUMBLE_MODES:
        return (speed // 2) // 5 * 5  # SRD Tumble: "at one-half speed"
    return speed


@dataclass
class Field:
    """The battlefield as the movement rules see it, built once per adjudication."""

    width: int
    height: int
    walls: frozenset[Coord]
    difficult: frozenset[Coord]
    occupants: dict[Coord, list[Body]]  # square -> combatants there, except the mover


@dataclass
class Walk:
    """A checked path: its cost and the foes whose space it passes through (tumble-through)."""

    cost: int = 0  # squares
    error: str | None = None
    through: list[tuple[int, Body]] = field(default_factory=list)  # (step entering its space, foe)


def fits(f: Field, pos: Coord, side: int) -> bool:
    """True if a space of ``side`` squares at ``pos`` lies on the map."""
    return pos[0] >= 0 and pos[1] >= 0 and pos[0] + side <= f.width and pos[1] + side <= f.height


def refuse_mover(mover: Body, mode: str) -> str | None:
    """Why the mover cannot move at all in this mode (conditions, feats), or None."""
    bad = sorted(mover.conditions & INCAPABLE)
    if bad:
        return f"{mover.name} is {bad[0]} and cannot move."
    if mover.has("grappling"):
        return f"{mover.name} is grappling and cannot move away; escape the grapple first."
    if mover.has("prone"):
        return f"{mover.name} is prone: stand up first (`act stand-up`, which provokes)."
    if mover.speed <= 0:
        return f"{mover.name} has speed 0 and cannot move."
    if mode == "withdraw" and mover.has("blinded"):
        return f"{mover.name} is blinded and cannot withdraw (SRD: \"You can't withdraw if you're blinded\")."
    if mover.stepped and mode != "step":
        # SRD: "You can't take a 5-foot step in the same round that you move any distance."
        return f"{mover.name} took a 5-foot step this turn, so it cannot move any other distance."
    if mode == "step":
        if mover.moved:
            return f"{mover.name} already moved this turn, so it cannot take a 5-foot step."
        if mover.speed <= 5:
            return f"{mover.name} has speed {mover.speed} ft: a 5-foot step needs a speed over 5 ft."
    if mode == "spring-attack" and not mover.feat("spring_attack"):
        return f"{mover.name} does not have the Spring Attack feat."
    return None


def on_line(positions: list[Coord]) -> bool:
    """True if the positions follow the straight line from the first to the last (each square within
    half a square of the line, one square along the major axis per move)."""
    (sx, sy), (ex, ey) = positions[0], positions[-1]
    dx, dy = ex - sx, ey - sy
    n = max(abs(dx), abs(dy))
    if n != len(positions) - 1:
        return False
    for i, (x, y) in enumerate(positions):
        # |x - (sx + i*dx/n)| <= 1/2, in integers: |2n(x - sx) - 2i*dx| <= n
        if abs(2 * n * (x - sx) - 2 * i * dx) > n or abs(2 * n * (y - sy) - 2 * i * dy) > n:
            return False
    return True


def line(start: Coord, end: Coord) -> list[Coord]:
    """The straight line of positions from ``start`` to ``end`` (halves round up), start included."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    n = max(abs(dx), abs(dy))
    if n == 0:
        return [start]
    return [
        (start[0] + (2 * i * dx + n) // (2 * n), start[1] + (2 * i * dy + n) // (2 * n)) for i in range(n + 1)
    ]


def check_path(f: Field, mover: Body, positions: list[Coord], mode: str) -> Walk:
    """Walk the positions (start first): adjacency, walls, corners, foes' spaces, terrain, cost."""
    walk = Walk()
    side = mover.side_len
    parity = 0
    start_squares = set(geometry.space(positions[0], side))
    for i in range(1, len(positions)):
        p, q = positions[i - 1], positions[i]
        dx, dy = q[0] - p[0], q[1] - p[1]
        label = format_coord(q)
        if max(abs(dx), abs(dy)) != 1:
            walk.error = f"{label} is not next to {format_coord(p)}: list every square entered, in order."
            return walk
        if not fits(f, q, side):
            walk.error = f"{mover.name} does not fit on the map at {label}."
            return walk
        squares = geometry.space(q, side)
        wall = next((s for s in squares if s in f.walls), None)
        if wall is not None:
            walk.error = f"{format_coord(wall)} is blocked."
            return walk
        diagonal = dx != 0 and dy != 0
        if diagonal:
            for corner in ((p[0] + dx, p[1]), (p[0], p[1] + dy)):
                hit = next((s for s in geometry.space(corner, side) if s in f.walls), None)
                if hit is not None:
                    walk.error = (
                        f"{mover.name} cannot move diagonally from {format_coord(p)} to {label} past the "
                        f"corner of the blocked square {format_coord(hit)}."
                    )
                    return walk
        previous = set(geometry.space(p, side))
        for s in squares:
            if s in previous:
                continue
            for other in f.occupants.get(s, ()):
                if other.side == mover.side:
                    continue
                if mode == "charge":
                    continue  # reported below: a charge may not pass any creature
                if can_pass(mover, other):
                    continue
                if mode == "tumble-through":
                    if all(o is not other for _, o in walk.through):
                        walk.through.append((i - 1, other))
                    continue
                walk.error = (
                    f"{other.name}'s space at {format_coord(s)} blocks the way: a foe's space cannot be "
                    "moved through (use mode tumble-through to tumble past it)."
                )
                return walk
        hard = any(s in f.difficult for s in squares)
        if hard and mode in ("run", "charge", "step"):
            what = {"run": "run", "charge": "charge", "step": "take a 5-foot step"}[mode]
            walk.error = f"{label} is difficult terrain: {mover.name} cannot {what} through it."
            return walk
        if mode == "charge":
            blocker = next(
                (o for s in squares for o in f.occupants.get(s, ()) if s not in start_squares), None
            )
            if blocker is not None:
                walk.error = (
                    f"{blocker.name} stands in the way at {label}: a charge needs a clear line (SRD Charge)."
                )
                return walk
        walk.cost += step_cost(diagonal, hard, parity)
        if diagonal:
            parity ^= 1
    end = positions[-1]
    for s in geometry.space(end, side):
        for other in f.occupants.get(s, ()):
            if geometry.tiny_or_smaller(mover.size) and geometry.tiny_or_smaller(other.size):
                continue  # Tiny and smaller share a square (SPEC §7.1)
            walk.error = (
                f"{mover.name} cannot end its move at {format_coord(end)}: {other.name} is there "
                "(you can pass through an ally but never stop in an occupied square)."
            )
            return walk
    return walk


def attack_squares(mover: Body, pos: Coord, width: int, height: int) -> set[Coord]:
    """Squares the mover could attack in melee from ``pos`` (its reach band, armed or not)."""
    return geometry.threatened_squares(pos, mover.side_len, mover.inner, mover.outer, width, height)


def charge_ends(f: Field, mover: Body, target: Body) -> list[Coord]:
    """Positions from which the mover could attack ``target`` and may stop, nearest to it first."""
    side = mover.side_len
    r = mover.outer // 5 + side + 1
    tx, ty = target.pos
    result = []
    target_squares = set(target.squares)
    for y in range(ty - r, ty + target.side_len + r):
        for x in range(tx - r, tx + target.side_len + r):
            pos = (x, y)
            if not fits(f, pos, side):
                continue
            squares = geometry.space(pos, side)
            if any(s in f.walls for s in squares):
                continue
            if any(o.name != mover.name for s in squares for o in f.occupants.get(s, ())):
                if pos != mover.pos:
                    continue
            if attack_squares(mover, pos, f.width, f.height) & target_squares:
                result.append(pos)
    return result
