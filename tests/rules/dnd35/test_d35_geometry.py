"""dnd35 geometry: space and reach by size, 1-2-1-2 distance, threatened squares, cover."""

from __future__ import annotations

import pytest
from d35 import enc, foe, threatened

from rules.coords import format_coord, parse_coord
from rules.dnd35 import geometry


def block(top_left: str, cols: int, rows: int) -> set[str]:
    x0, y0 = parse_coord(top_left)
    return {format_coord((x0 + i, y0 + j)) for i in range(cols) for j in range(rows)}


def ring(center: str, radius: int) -> set[str]:
    x0, y0 = parse_coord(center)
    return {
        format_coord((x, y))
        for x in range(x0 - radius, x0 + radius + 1)
        for y in range(y0 - radius, y0 + radius + 1)
        if max(abs(x - x0), abs(y - y0)) == radius
    }


@pytest.mark.parametrize(
    ("a", "a_side", "b", "b_side", "feet"),
    [
        # SRD "Measuring Distance": "the first diagonal counts as 1 square, the second as 2 squares"
        ("A1", 1, "B2", 1, 5),
        ("A1", 1, "C3", 1, 15),
        ("A1", 1, "D4", 1, 20),
        ("A1", 1, "E5", 1, 30),
        ("A1", 1, "E2", 1, 20),
        # SPEC §7.1: "measured between the nearest occupied squares"
        ("A1", 2, "D1", 1, 10),
        ("A1", 2, "C3", 2, 5),
        ("A1", 2, "D4", 2, 15),
        ("A1", 3, "A1", 1, 0),
    ],
    ids=[
        "adjacent-diagonal",
        "two-diagonals",
        "three-diagonals",
        "four-diagonals",
        "knight-ish",
        "large-to-medium",
        "large-to-large",
        "large-to-large-diagonal",
        "inside-space",
    ],
)
def test_distance_1_2_1_2(a, a_side, b, b_side, feet):
    assert geometry.distance_ft(parse_coord(a), a_side, parse_coord(b), b_side) == feet


@pytest.mark.parametrize(
    ("size", "shape", "side", "reach"),
    [
        # SRD table "Creature Size and Scale"
        ("fine", "tall", 1, 0),
        ("diminutive", "tall", 1, 0),
        ("tiny", "tall", 1, 0),
        ("small", "tall", 1, 5),
        ("medium", "tall", 1, 5),
        ("large", "tall", 2, 10),
        ("large", "long", 2, 5),
        ("huge", "tall", 3, 15),
        ("huge", "long", 3, 10),
        ("gargantuan", "tall", 4, 20),
        ("gargantuan", "long", 4, 15),
        ("colossal", "tall", 6, 30),
        ("colossal", "long", 6, 20),
    ],
)
def test_size_table(size, shape, side, reach):
    assert geometry.SPACE_SIDE[size] == side
    assert geometry.natural_reach(size, shape, None) == reach


def test_medium_threatens_adjacent_and_own_square():
    # 001: "Most creatures have at least 5 feet of reach, so they threaten all squares adjacent to their
    # spaces (including diagonally)" and "A creature can attack into its own space"
    e = enc(foe("Orc", "F6"))
    assert threatened(e, "Orc") == block("E5", 3, 3)


def test_small_threatens_like_medium():
    # 001: "A Small creature threatens the same sized area as a Medium creature."
    e = enc(foe("Gob", "F6", size="small"))
    assert threatened(e, "Gob") == block("E5", 3, 3)


def test_reach_weapon_hollow_ring_with_ten_foot_corner():
    # 001: "If you use a reach weapon ... You do not, however, threaten the squares immediately adjacent
    # to you." PHB exception (SPEC §7.1): "10 feet of reach threatens all squares two squares away,
    # even diagonally" - so D4, the corner, is threatened although 1-2-1-2 counts it 15 feet.
    e = enc(foe("Guard", "F6", reach_weapon=True))
    got = threatened(e, "Guard")
    assert got == ring("F6", 2) | {"F6"}
    assert "E5" not in got and "G6" not in got
    assert "D4" in got and "H8" in got


def test_reach_weapon_up_close_variant_fills_the_ring():
    # 001 "Using Reach Weapons up Close": "allow a character to use a reach weapon to attack foes within
    # his natural reach, but with a -4 penalty"
    e = enc(foe("Guard", "F6", reach_weapon=True), variants=("reach_weapon_up_close",))
    assert threatened(e, "Guard") == block("D4", 5, 5)


def test_large_tall_vs_long():
    # SRD "Creature Size and Scale": Large (tall) 10 ft reach, Large (long) 5 ft; space 2x2.
    tall = enc(foe("Ogre", "F6", size="large"))
    long = enc(foe("Horse", "F6", size="large", shape="long"))
    assert threatened(tall, "Ogre") == block("D4", 6, 6)  # 10 ft: two squares out, corners included
    assert threatened(long, "Horse") == block("E5", 4, 4)


def test_huge_with_reach_weapon():
    # 001: "If a creature has a reach of more than 5 feet (by virtue of its size or because it wields a
    # reach weapon, or both) it threatens more squares." Huge tall: 15 ft natural, 30 ft with a reach
    # weapon, and not within its natural 15 ft.
    e = enc(foe("Giant", "P16", size="huge", reach_weapon=True), width=40, height=40)
    got = {parse_coord(s) for s in threatened(e, "Giant")}
    x0, y0 = parse_coord("P16")
    right = x0 + 2  # last column of its 3x3 space
    assert (right + 3, y0) not in got  # 15 ft: inside natural reach, the hollow
    assert (right + 4, y0) in got  # 20 ft
    assert (right + 6, y0) in got  # 30 ft
    assert (right + 7, y0) not in got  # 35 ft
    assert (right + 2, y0 - 2) not in got  # 2 diagonals = 15 ft: hollow
    assert (right + 3, y0 - 3) in got  # 3 diagonals = 20 ft
    assert (right + 4, y0 - 4) in got  # 4 diagonals = 30 ft
    assert (right + 5, y0 - 5) not in got  # 5 diagonals = 35 ft
    assert (x0 + 1, y0 + 1) in got  # its own space


def test_huge_without_reach_weapon():
    e = enc(foe("Giant", "P16", size="huge"), width=40, height=40)
    got = {parse_coord(s) for s in threatened(e, "Giant")}
    x0, y0 = parse_coord("P16")
    assert (x0 + 2 + 3, y0) in got and (x0 + 2 + 4, y0) not in got
    assert (x0 + 2 + 2, y0 - 2) in got and (x0 + 2 + 3, y0 - 3) not in got


@pytest.mark.parametrize(
    ("fields", "variants", "expected"),
    [
        # 001: "A Tiny or smaller creature threatens the square it occupies but not the squares around it."
        ({"size": "tiny"}, (), {"F6"}),
        # 001: "If your natural reach is 0, your reach is still 0 when you wield a reach weapon."
        ({"size": "tiny", "reach_weapon": True}, (), {"F6"}),
        # 001: "As a variant, allow Tiny creatures a reach of 5 feet when they use reach weapons."
        ({"size": "tiny", "reach_weapon": True}, ("tiny_reach_weapons",), block("E5", 3, 3)),
        ({"size": "diminutive", "reach_weapon": True}, ("tiny_reach_weapons",), {"F6"}),
        # SPEC §7.1: "Reach 0 threatens only its own square."
        ({"reach": 0}, (), {"F6"}),
    ],
    ids=["tiny", "tiny-reach-weapon", "tiny-reach-weapon-variant", "diminutive-variant-no", "reach-0"],
)
def test_tiny_and_reach_zero(fields, variants, expected):
    e = enc(foe("Imp", "F6", **fields), variants=variants)
    assert threatened(e, "Imp") == expected


@pytest.mark.parametrize(
    ("fields", "threatens"),
    [
        # 001: "If you're grappling, however, you don't threaten an area, no matter how many weapons"
        ({"conditions": ["grappling"]}, False),
        # 001: "A creature threatens all squares into which it can make an armed melee attack."
        ({"armed": False}, False),
        # 001: "If you have a natural weapon or the Improved Unarmed Strike feat, you threaten the area"
        ({"armed": False, "feats": ["improved_unarmed_strike"]}, True),
        ({"armed": False, "feats": ["improved_unarmed_strike"], "conditions": ["grappling"]}, False),
        ({"conditions": ["stunned"]}, False),
        ({"conditions": ["unconscious"]}, False),
        ({"conditions": ["paralyzed"]}, False),
        ({"conditions": ["helpless"]}, False),
        ({"conditions": ["dead"]}, False),
        # 001: "You threaten a creature that has cover ..." - flat-footed creatures still threaten.
        ({"conditions": ["flat_footed"]}, True),
        ({"conditions": ["prone"]}, True),
    ],
    ids=[
        "grappling",
        "unarmed",
        "improved-unarmed-strike",
        "ius-grappling",
        "stunned",
        "unconscious",
        "paralyzed",
        "helpless",
        "dead",
        "flat-footed-still-threatens",
        "prone-still-threatens",
    ],
)
def test_who_threatens_at_all(fields, threatens):
    e = enc(foe("Orc", "F6", **fields))
    assert bool(threatened(e, "Orc")) is threatens


def test_threatened_squares_are_clipped_to_the_map_and_skip_walls():
    e = enc(foe("Orc", "A1"), blocked=("B2",))
    assert threatened(e, "Orc") == {"A1", "B1", "A2"}


@pytest.mark.parametrize(
    ("attacker", "a_side", "target", "walls", "cover"),
    [
        # SRD Cover: "If any line from this corner to any corner of the target's square passes through a
        # square ... that blocks line of effect ..., the target has cover."
        ("B2", 1, "D2", {"C2"}, True),
        ("B2", 1, "D2", set(), False),
        ("B2", 1, "D4", {"C3"}, True),
        ("B2", 1, "D2", {"C1"}, False),
        # SRD Cover: "When making a melee attack against an adjacent target, your target has cover if any
        # line from your square to the target's square goes through a wall"
        ("B2", 1, "C3", {"C2"}, True),
        ("B2", 1, "C2", {"C3"}, False),
        # SRD "Big Creatures and Cover": a big attacker picks its best square.
        ("A1", 2, "D2", {"C1"}, False),
        ("A1", 2, "D1", {"C1", "C2"}, True),
    ],
    ids=[
        "wall-between",
        "open",
        "diagonal-wall",
        "wall-aside",
        "adjacent-diagonal-past-corner",
        "adjacent-orthogonal",
        "large-best-square",
        "large-walled",
    ],
)
def test_cover_through_blocked_squares(attacker, a_side, target, walls, cover):
    blocked = {parse_coord(w) for w in walls}
    assert geometry.has_cover(parse_coord(attacker), a_side, parse_coord(target), 1, blocked) is cover
