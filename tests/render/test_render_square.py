"""Square (dnd35) maps: tokens, terrain, the threat overlay, multi-square creatures, size and crop."""

from __future__ import annotations

import pytest

from render import draw, palette, plan, render
from render.palette import BLOCKED, DIFFICULT, FLOOR, SIDE_PALETTE, THREAT, THREAT_ALPHA

BLUE, RED, GREEN = SIDE_PALETTE[0], SIDE_PALETTE[1], SIDE_PALETTE[2]
# A threatened floor square: the threat colour laid over white at the overlay's opacity.
TINT = tuple(round(255 * (1 - THREAT_ALPHA) + c * THREAT_ALPHA) for c in THREAT)


def party_vs_monsters(px, **map_):
    return px.enc(
        "dnd35",
        [
            {"name": "Ethan", "side": "party", "at": "B2"},
            {"name": "Ogre", "side": "monsters", "at": "F5"},
            {"name": "Lidda", "side": "party", "at": "J8"},
            {"name": "Wolf", "side": "wolves", "at": "K2"},
        ],
        **map_,
    )


def test_token_centre_is_its_side_colour_first_side_colour_0(px):
    img = px.image(draw(party_vs_monsters(px), cell=px.cell))
    assert px.dominant(img, px.square("B2")) == BLUE  # party: first side in file order
    assert px.dominant(img, px.square("J8")) == BLUE
    assert px.dominant(img, px.square("F5")) == RED  # monsters: second side
    assert px.dominant(img, px.square("K2")) == GREEN  # wolves: third
    assert px.dominant(img, px.square("C3")) == FLOOR  # an empty square


def test_side_colours_follow_file_order_not_names(px):
    enc = px.enc(
        "dnd35", [{"name": "Ogre", "side": "zzz", "at": "A1"}, {"name": "Ethan", "side": "aaa", "at": "C1"}]
    )
    img = px.image(draw(enc, cell=px.cell))
    assert px.dominant(img, px.square("A1")) == BLUE
    assert px.dominant(img, px.square("C1")) == RED


def test_threatened_square_has_the_tint_and_others_do_not(px):
    enc = party_vs_monsters(px)
    threatened = {(4, 3), (5, 3), (6, 3)}  # E4, F4, G4
    img = px.image(draw(enc, threatened=threatened, cell=px.cell))
    for label in ("E4", "F4", "G4"):
        assert px.at(img, px.square(label)) == TINT, label
    for label in ("E6", "D4", "H4", "C3"):
        assert px.at(img, px.square(label)) == FLOOR, label


def test_reach_weapon_ring_leaves_adjacent_squares_untinted(px):
    # A 10-ft reach weapon's squares as the overlay would give them: the ring two squares out.
    enc = party_vs_monsters(px)
    ogre = (5, 4)
    ring = {
        (ogre[0] + dx, ogre[1] + dy)
        for dx in range(-2, 3)
        for dy in range(-2, 3)
        if max(abs(dx), abs(dy)) == 2
    }
    img = px.image(draw(enc, threatened=ring, focus="Ogre", cell=px.cell))
    for label in ("D3", "F3", "H3", "D5", "H5", "D7", "F7", "H7"):
        assert px.at(img, px.square(label)) == TINT, label
    for label in ("E4", "F4", "G4", "E5", "G5", "E6", "F6", "G6"):
        assert px.at(img, px.square(label)) == FLOOR, label


def test_reach_weapon_ring_from_the_dnd35_ruleset_leaves_adjacent_squares_untinted(px):
    # 001 seed / SRD: with a reach weapon a creature threatens squares 10 ft away but not adjacent ones.
    from render import threat_overlay

    enc = px.enc(
        "dnd35",
        [
            {"name": "Ogre", "side": "monsters", "at": "F5", "reach_weapon": True},
            {"name": "Ethan", "side": "party", "at": "A1"},
        ],
    )
    ring = threat_overlay(enc, "Ogre")
    img = px.image(draw(enc, threatened=ring, focus="Ogre", cell=px.cell))
    for label in ("D3", "F3", "H3", "D5", "H5", "D7", "F7", "H7"):
        assert px.at(img, px.square(label)) == TINT, label
    for label in ("E4", "F4", "G4", "E5", "G5", "E6", "F6", "G6", "C5", "I5"):
        assert px.at(img, px.square(label)) == FLOOR, label


def test_tint_lies_over_terrain_colour(px):
    enc = party_vs_monsters(px, difficult=["C5"])
    img = px.image(draw(enc, threatened={(2, 4)}, cell=px.cell))
    assert px.at(img, px.square("C5")) == palette.tinted(DIFFICULT) != DIFFICULT


def test_blocked_and_difficult_are_distinct(px):
    enc = party_vs_monsters(px, blocked=["D4"], difficult=["D6"])
    img = px.image(draw(enc, cell=px.cell))
    blocked, difficult, floor = (px.at(img, px.square(s)) for s in ("D4", "D6", "D5"))
    assert blocked == BLOCKED
    assert difficult == DIFFICULT
    assert len({blocked, difficult, floor}) == 3


@pytest.mark.parametrize(
    ("size", "side"),
    [("large", 2), ("huge", 3), ("gargantuan", 4), ("colossal", 6)],
    ids=["large-2x2", "huge-3x3", "gargantuan-4x4", "colossal-6x6"],
)
def test_multi_square_creature_covers_its_whole_space(px, size, side):
    # SPEC §7.1: Large 2x2 ... Colossal 6x6 squares, `at` = top-left square.
    enc = px.enc(
        "dnd35",
        [
            {"name": "Ethan", "side": "party", "at": "A1"},
            {"name": "Beast", "side": "monsters", "at": "C3", "size": size},
        ],
    )
    img = px.image(draw(enc, cell=px.cell))
    half = px.cell // 2
    for dc in range(side):
        for dr in range(side):
            cx, cy = px.square("C3")
            x, y = cx + dc * px.cell, cy + dr * px.cell
            # Most of every square of the space is the side's colour (the initials cover some).
            assert px.count(img, (x - half, y - half, x + half, y + half), RED) > 0.5 * px.cell**2, (dc, dr)
    # Just outside the space: floor.
    assert px.at(img, px.square(f"{'CDEFGHIJK'[side]}3")) == FLOOR
    assert px.at(img, px.square(f"C{3 + side}")) == FLOOR


def test_large_creature_covers_exactly_2x2(px):
    enc = px.enc("dnd35", [{"name": "Ogre", "side": "monsters", "at": "D4", "size": "large"}])
    img = px.image(draw(enc, cell=px.cell))
    for label in ("D4", "E4", "D5", "E5"):
        assert px.dominant(img, px.square(label)) == BLUE, label
    for label in ("C4", "F4", "D3", "D6", "F6"):
        assert px.at(img, px.square(label)) == FLOOR, label


def test_tiny_creatures_share_a_square_drawn_smaller(px):
    enc = px.enc(
        "dnd35",
        [
            {"name": "Ethan", "side": "party", "at": "B2"},
            {"name": "Rat", "side": "vermin", "at": "D2", "size": "tiny"},
            {"name": "Bat", "side": "vermin", "at": "F2", "size": "tiny"},
            {"name": "Mouse", "side": "vermin", "at": "F2", "size": "tiny"},
        ],
    )
    img = px.image(draw(enc, cell=px.cell))
    # A medium token reaches 0.35 cells out from its centre; a tiny one does not.
    reach = round(px.cell * 0.35)
    x, y = px.square("B2")
    assert px.at(img, (x + reach, y)) == BLUE
    x, y = px.square("D2")
    assert px.dominant(img, (x, y)) == RED
    assert px.at(img, (x + reach, y)) == FLOOR
    # Two tiny creatures in one square: two tokens side by side, both inside the square.
    x, y = px.square("F2")
    half = px.cell // 2
    box = (x - half + 1, y - half + 1, x + half - 1, y + half - 1)
    assert px.count(img, box, RED) > 2 * px.count(img, (x - 3, y - 3, x + 4, y + 4), RED)
    assert px.dominant(img, (x - px.cell // 4, y - px.cell // 4), r=1) == RED


def test_conditions_are_marked(px):
    enc = px.enc(
        "dnd35",
        [
            {"name": "Ethan", "side": "party", "at": "B2", "conditions": ["stunned"]},
            {"name": "Ghost", "side": "party", "at": "D2", "conditions": ["invisible"]},
            {"name": "Lidda", "side": "party", "at": "F2", "conditions": ["prone"]},
            {"name": "Ogre", "side": "party", "at": "H2"},
        ],
    )
    img = px.image(draw(enc, cell=px.cell))
    stunned_badge = palette.CONDITION_BADGES["stunned"][1]
    prone_badge = palette.CONDITION_BADGES["prone"][1]
    half = px.cell // 2

    def upper_right(label):
        x, y = px.square(label)
        return (x, y - half, x + half, y)

    assert px.count(img, upper_right("B2"), stunned_badge) > 10
    assert px.count(img, upper_right("F2"), prone_badge) > 10
    assert (
        px.count(img, upper_right("H2"), stunned_badge) == px.count(img, upper_right("H2"), prone_badge) == 0
    )
    # Invisible: a faded token, not the side's full colour.
    faded = px.dominant(img, px.square("D2"))
    assert faded != BLUE and faded != FLOOR
    assert sum(faded) > sum(BLUE)


def test_initials_and_legend_names(px):
    enc = party_vs_monsters(px)
    out = render(enc, cell=px.cell)
    assert out.initials == {"Ethan": "ET", "Ogre": "OG", "Lidda": "LI", "Wolf": "WO"}
    # The legend sits under the grid, so the image is taller than the grid plus its margins.
    assert out.image.height > out.layout.image_size[1]


def test_column_letters_and_row_numbers_on_the_edges(px):
    enc = party_vs_monsters(px)
    img = px.image(draw(enc, cell=px.cell))
    x, _ = px.square("C1")
    _, y = px.square("A7")
    label = palette.LABEL
    # Some label-coloured ink above column C and left of row 7, none above a gridline between columns.
    assert px.count(img, (x - 8, 2, x + 8, 20), label) > 0
    assert px.count(img, (2, y - 8, 30, y + 8), label) > 0


def test_100x100_map_with_200_combatants_is_under_2_mb(px):
    combatants = [
        {
            "name": f"Goblin {i}",
            "side": ("a", "b", "c", "d")[i % 4],
            "at": f"{_col(i * 7 % 100)}{(i * 13 + 50 * (i // 100)) % 100 + 1}",
        }
        for i in range(200)
    ]
    assert len({c["at"] for c in combatants}) == 200
    enc = px.enc("dnd35", combatants, width=100, height=100, blocked=["A100", "B100"], difficult=["C99"])
    threatened = {(x, y) for x in range(30) for y in range(30)}
    png = draw(enc, threatened=threatened, region="full")
    assert len(png) < 2 * 1024 * 1024
    img = px.image(png)
    # The whole map, at a cell size that keeps initials legible.
    layout = plan(enc, region="full")
    assert (layout.cols, layout.rows) == (100, 100) and layout.cell >= 24
    assert img.width >= 100 * 24
    assert px.dominant(img, px.square("A1", layout.cell), r=4) == BLUE  # Goblin 0, side a
    # Without "full", an overlay in one corner crops the view to it (plus a margin).
    cropped = plan(enc, threatened=threatened)
    assert cropped.first == (0, 0) and 30 <= cropped.cols < 100 and 30 <= cropped.rows < 100
    assert len(draw(enc, threatened=threatened)) < 2 * 1024 * 1024


def test_big_map_is_cropped_to_the_ruling(px):
    from rules.engine import Opportunity, Ruling

    enc = px.enc(
        "dnd35",
        [
            {"name": "Ethan", "side": "party", "at": "BA60"},
            {"name": "Ogre", "side": "monsters", "at": "BC61"},
        ],
        width=100,
        height=100,
    )
    ruling = Ruling(
        ruleset="dnd35",
        who="Ethan",
        action="move",
        mode="normal",
        legal=True,
        path=["BA60", "BB61", "BB62"],
        opportunities=[Opportunity(attacker="Ogre", at="BB61", trigger="leave-threatened")],
    )
    layout = plan(enc, ruling=ruling)
    assert layout.cols < 40 and layout.rows < 40
    for label in ("BA60", "BB62", "BC61"):
        from rules.coords import parse_coord

        assert layout.contains(parse_coord(label))
    out = render(enc, ruling=ruling)
    img = out.image
    # Ethan's token is where the cropped layout puts BA60.
    first = out.layout.first
    assert px.dominant(img, px.square("BA60", out.layout.cell, first)) == BLUE
    assert len(out.png()) < 2 * 1024 * 1024


def _col(i: int) -> str:
    from rules.coords import column_letters

    return column_letters(i)
