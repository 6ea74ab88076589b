"""Hex geometry (SPEC §2): flat-topped hexes in columns, odd columns half a hex lower ("odd-q")."""

from __future__ import annotations

import itertools
import math
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import hexgrid
from rules.coords import Coord, format_coord, parse_coord

# Coordinates well beyond a 100x100 map, negatives included: the geometry must not care.
coords = st.tuples(st.integers(-30, 130), st.integers(-30, 130))
on_map = st.tuples(st.integers(0, 99), st.integers(0, 99))
small = st.tuples(st.integers(0, 11), st.integers(0, 11))

FAST = settings(max_examples=150, deadline=None)


def c(label: str) -> Coord:
    return parse_coord(label)


def labels(hexes: list[Coord]) -> list[str]:
    return [format_coord(h) for h in hexes]


def centre(coord: Coord) -> tuple[float, float]:
    """Pixel centre of a flat-topped odd-q hex of size 1: odd columns are half a hex lower."""
    col, row = coord
    return 1.5 * col, math.sqrt(3) * (row + 0.5 * (col & 1))


# -- hand checks of the odd-q layout ------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "facing", "expected"),
    [
        # SPEC §2: "odd columns (B, D, F, ...) sit half a hex lower than even ones"
        ("A1", "SE", "B1"),  # so B1 is south-east of A1, not north-east
        ("B2", "N", "B1"),
        ("B2", "NE", "C2"),
        ("B2", "SE", "C3"),
        ("B2", "S", "B3"),
        ("B2", "SW", "A3"),
        ("B2", "NW", "A2"),
        ("C2", "N", "C1"),
        ("C2", "NE", "D1"),  # even column: the odd neighbour on the same row is to the SE
        ("C2", "SE", "D2"),
        ("C2", "S", "C3"),
        ("C2", "SW", "B2"),
        ("C2", "NW", "B1"),
        ("Z10", "NE", "AA10"),  # Z is column 25 (odd, lower), AA is 26 (even)
        ("AA10", "SW", "Z10"),
        ("AA10", "NW", "Z9"),
    ],
    ids=lambda v: str(v),
)
def test_neighbour_across_each_side(origin: str, facing: str, expected: str) -> None:
    assert format_coord(hexgrid.neighbour(c(origin), hexgrid.facing_index(facing))) == expected


def test_neighbours_are_in_facing_order() -> None:
    assert labels(hexgrid.neighbours(c("B2"))) == ["B1", "C2", "C3", "B3", "A3", "A2"]
    assert labels(hexgrid.neighbours(c("C2"))) == ["C1", "D1", "D2", "C3", "B2", "B1"]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("A1", "A1", 0),
        ("A1", "B1", 1),
        ("A1", "B2", 2),  # B2 is below B1, which is already SE of A1
        ("A2", "B1", 1),
        ("A1", "C1", 2),
        ("A1", "E3", 4),  # straight along the SE diagonal: A1 B1 C2 D2 E3
        ("A1", "A10", 9),
        ("A1", "E1", 4),  # zig-zag along row 1 still needs 4 steps
        ("C4", "C4", 0),
        ("A1", "CV100", 149),  # CV = column 99
    ],
    ids=lambda v: str(v),
)
def test_distance_by_hand(a: str, b: str, expected: int) -> None:
    assert hexgrid.distance(c(a), c(b)) == expected


def test_line_along_a_diagonal_passes_the_centres() -> None:
    assert labels(hexgrid.line(c("A1"), c("E3"))) == ["A1", "B1", "C2", "D2", "E3"]
    assert labels(hexgrid.line(c("A1"), c("A5"))) == ["A1", "A2", "A3", "A4", "A5"]
    assert labels(hexgrid.line(c("D4"), c("D4"))) == ["D4"]


def test_facing_names() -> None:
    # SPEC §2: "one of the six hex sides N, NE, SE, S, SW, NW"
    assert hexgrid.FACINGS == ("N", "NE", "SE", "S", "SW", "NW")
    assert [hexgrid.facing_index(f) for f in ("n", "Ne", "SE", "s", "sw", "NW")] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("facing", "front"),
    [
        ("N", ["D4", "E4", "F4"]),
        ("NE", ["E4", "F4", "F5"]),
        ("SE", ["F4", "F5", "E6"]),
        ("S", ["F5", "E6", "D5"]),
        ("SW", ["E6", "D5", "D4"]),
        ("NW", ["D5", "D4", "E4"]),
    ],
)
def test_front_hexes_of_e5(facing: str, front: list[str]) -> None:
    # E5 is an even column: its NE neighbour is F4 and its SE neighbour F5.
    assert labels(hexgrid.front_hexes(c("E5"), hexgrid.facing_index(facing))) == front


def test_direction_between() -> None:
    assert hexgrid.direction_between(c("A1"), c("B1")) == hexgrid.facing_index("SE")
    assert hexgrid.direction_between(c("B2"), c("B1")) == hexgrid.facing_index("N")
    assert hexgrid.direction_between(c("A1"), c("C1")) is None
    assert hexgrid.direction_between(c("A1"), c("A1")) is None


def test_line_of_effect_by_hand() -> None:
    # SPEC §3: blocked hexes "also block line of effect (cover)"
    assert not hexgrid.has_line_of_effect(c("A1"), c("A5"), {c("A3")})
    assert hexgrid.has_line_of_effect(c("A1"), c("A5"), {c("B3")})
    # The end hexes themselves never block: only hexes strictly between.
    assert hexgrid.has_line_of_effect(c("A1"), c("A5"), [c("A1"), c("A5")])
    assert hexgrid.has_line_of_effect(c("A1"), c("B1"), {c("C3")})


def test_shortest_path_goes_around_a_wall() -> None:
    wall = {c("A3"), c("B3"), c("C3")}
    path = hexgrid.shortest_path(c("A1"), c("A5"), 5, 5, lambda h: h not in wall)
    assert path is not None
    assert path[-1] == c("A5")
    assert not wall & set(path)
    steps = [c("A1"), *path]
    assert all(hexgrid.distance(x, y) == 1 for x, y in itertools.pairwise(steps))
    assert len(path) == bfs_distance(c("A1"), c("A5"), 5, 5, wall)


def test_shortest_path_none_when_walled_in() -> None:
    ring = set(hexgrid.neighbours(c("C3")))
    assert hexgrid.shortest_path(c("C3"), c("A1"), 6, 6, lambda h: h not in ring) is None
    assert hexgrid.shortest_path(c("C3"), c("C3"), 6, 6, lambda h: False) == []


def test_shortest_path_stays_on_the_map() -> None:
    path = hexgrid.shortest_path(c("A1"), c("A3"), 1, 3, lambda h: True)
    assert path == [c("A2"), c("A3")]


# -- properties ---------------------------------------------------------------------------------


def bfs_distance(a: Coord, b: Coord, width: int, height: int, blocked: set[Coord]) -> int:
    seen = {a: 0}
    todo = deque([a])
    while todo:
        here = todo.popleft()
        if here == b:
            return seen[here]
        for n in hexgrid.neighbours(here):
            if n not in seen and 0 <= n[0] < width and 0 <= n[1] < height and n not in blocked:
                seen[n] = seen[here] + 1
                todo.append(n)
    raise AssertionError("unreachable")


@FAST
@given(coords)
def test_axial_round_trip(h: Coord) -> None:
    assert hexgrid.from_axial(hexgrid.to_axial(h)) == h


@FAST
@given(on_map)
def test_label_round_trip(h: Coord) -> None:
    label = format_coord(h)
    assert parse_coord(label) == h
    assert parse_coord(label.lower()) == h
    assert hexgrid.from_axial(hexgrid.to_axial(parse_coord(label))) == h


@FAST
@given(coords, coords)
def test_distance_symmetric_and_zero_only_on_itself(a: Coord, b: Coord) -> None:
    assert hexgrid.distance(a, b) == hexgrid.distance(b, a)
    assert (hexgrid.distance(a, b) == 0) == (a == b)


@FAST
@given(coords, coords, coords)
def test_distance_triangle_inequality(a: Coord, b: Coord, m: Coord) -> None:
    assert hexgrid.distance(a, b) <= hexgrid.distance(a, m) + hexgrid.distance(m, b)


@FAST
@given(small, small)
def test_distance_equals_steps_on_an_open_map(a: Coord, b: Coord) -> None:
    assert hexgrid.distance(a, b) == bfs_distance(a, b, 12, 12, set())


@FAST
@given(coords)
def test_neighbours_at_distance_one_and_touching(h: Coord) -> None:
    ns = hexgrid.neighbours(h)
    assert len(set(ns)) == 6
    assert all(hexgrid.distance(h, n) == 1 for n in ns)
    # The six neighbour centres sit exactly one hex-width (sqrt 3) away: the layout really is odd-q.
    x, y = centre(h)
    for n in ns:
        nx, ny = centre(n)
        assert math.isclose(math.hypot(nx - x, ny - y), math.sqrt(3))
    # Facing geometry: N is straight up, and the sides go clockwise.
    angles = [math.degrees(math.atan2(centre(n)[0] - x, y - centre(n)[1])) % 360 for n in ns]
    assert [round(a) for a in angles] == [0, 60, 120, 180, 240, 300]
    for f, n in enumerate(ns):
        assert hexgrid.direction_between(h, n) == f
        assert hexgrid.neighbour(n, f + 3) == h


@FAST
@given(coords, coords)
def test_line_length_contiguous_and_reversible(a: Coord, b: Coord) -> None:
    ln = hexgrid.line(a, b)
    assert len(ln) == hexgrid.distance(a, b) + 1
    assert ln[0] == a and ln[-1] == b
    assert all(hexgrid.distance(x, y) == 1 for x, y in itertools.pairwise(ln))
    # Each hex of the line is i steps from a, so the line is also a shortest path.
    assert all(hexgrid.distance(a, h) == i for i, h in enumerate(ln))
    assert hexgrid.line(b, a) == ln[::-1]


@FAST
@given(coords, coords, st.sets(coords, max_size=20))
def test_line_of_effect_symmetric_and_ignores_ends(a: Coord, b: Coord, blocked: set[Coord]) -> None:
    assert hexgrid.has_line_of_effect(a, b, blocked) == hexgrid.has_line_of_effect(b, a, blocked)
    assert hexgrid.has_line_of_effect(a, b, blocked | {a, b}) == hexgrid.has_line_of_effect(a, b, blocked)
    between = hexgrid.line(a, b)[1:-1]
    assert hexgrid.has_line_of_effect(a, b, blocked) == (not set(between) & blocked)


@FAST
@given(coords, st.integers(0, 6))
def test_within_is_the_filled_hexagon(h: Coord, radius: int) -> None:
    hexes = list(hexgrid.within(h, radius))
    assert len(hexes) == len(set(hexes)) == 1 + 3 * radius * (radius + 1)
    assert all(hexgrid.distance(h, x) <= radius for x in hexes)


@FAST
@given(coords, st.integers(0, 5), st.integers(1, 6))
def test_forward_arc_is_a_widening_cone(h: Coord, facing: int, dist: int) -> None:
    ring = [x for x in hexgrid.within(h, dist) if hexgrid.distance(h, x) == dist]
    in_arc = [x for x in ring if hexgrid.in_forward_arc(h, facing, x)]
    # The arc spans 120 degrees, two of the ring's six edges: 2d + 1 hexes at distance d.
    assert len(in_arc) == 2 * dist + 1
    assert not hexgrid.in_forward_arc(h, facing, h)
    if dist == 1:
        assert set(in_arc) == set(hexgrid.front_hexes(h, facing))
    # The hex straight ahead is always in the arc, the one straight behind never.
    ahead, behind = h, h
    for _ in range(dist):
        ahead = hexgrid.neighbour(ahead, facing)
        behind = hexgrid.neighbour(behind, facing + 3)
    assert hexgrid.in_forward_arc(h, facing, ahead)
    assert not hexgrid.in_forward_arc(h, facing, behind)


@FAST
@given(small, small, st.sets(small, max_size=40))
def test_shortest_path_is_shortest_and_avoids_blocked(a: Coord, b: Coord, blocked: set[Coord]) -> None:
    blocked = blocked - {a, b}
    path = hexgrid.shortest_path(a, b, 12, 12, lambda x: x not in blocked)
    try:
        expected = bfs_distance(a, b, 12, 12, blocked)
    except AssertionError:
        assert path is None
        return
    assert path is not None
    assert len(path) == expected
    steps = [a, *path]
    assert all(hexgrid.distance(x, y) == 1 for x, y in itertools.pairwise(steps))
    assert not set(path) & blocked
    assert all(0 <= x < 12 and 0 <= y < 12 for x, y in path)
