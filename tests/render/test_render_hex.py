"""Hex maps (aphex, dragonquest): tokens on the hex their label names, facing, terrain, overlays."""

from __future__ import annotations

import math

import pytest

from render import draw, palette, render
from render.palette import BLOCKED, DIFFICULT, FLOOR, SIDE_PALETTE, THREAT, THREAT_ALPHA

BLUE, RED = SIDE_PALETTE[0], SIDE_PALETTE[1]
TINT = tuple(round(255 * (1 - THREAT_ALPHA) + c * THREAT_ALPHA) for c in THREAT)
EDGE = (25, 25, 30)  # token rims and facing wedges


@pytest.mark.parametrize("ruleset", ["aphex", "dragonquest"])
@pytest.mark.parametrize("label", ["A1", "B1", "B2", "C3", "D4", "G7", "H2", "L10"])
def test_hex_token_lands_on_the_hex_its_label_names(px, ruleset, label):
    enc = px.enc(ruleset, [{"name": "Ethan", "side": "party", "at": label}], width=12, height=10)
    img = px.image(draw(enc, cell=px.cell))
    x, y = px.hex(label)
    assert px.dominant(img, (x, y)) == BLUE
    # Not where an even-q layout (odd columns raised instead of lowered) would have put it.
    half_row = math.sqrt(3) * px.cell / 2
    shifted = y - half_row if label[0] in "BDFHJL" else y + half_row
    assert px.dominant(img, (x, shifted), r=3) != BLUE
    # The hexes above and below in the same column are empty floor.
    col, row = label[0], int(label[1:])
    for other in (f"{col}{row - 1}", f"{col}{row + 1}"):
        if 1 <= int(other[1:]) <= 10:
            assert px.at(img, px.hex(other)) == FLOOR, other


def test_hex_terrain_and_threat_tint(px):
    enc = px.enc(
        "aphex",
        [{"name": "Ethan", "side": "party", "at": "A1"}],
        blocked=["C3"],
        difficult=["D3"],
    )
    threatened = {(4, 4), (5, 4)}  # E5, F5
    img = px.image(draw(enc, threatened=threatened, cell=px.cell))
    assert px.at(img, px.hex("C3")) == BLOCKED
    assert px.at(img, px.hex("D3")) == DIFFICULT
    assert px.at(img, px.hex("E5")) == TINT
    assert px.at(img, px.hex("F5")) == TINT
    assert px.at(img, px.hex("E4")) == FLOOR
    assert px.at(img, px.hex("G5")) == FLOOR


@pytest.mark.parametrize(
    ("facing", "ahead"),
    # The hex across each side of D4 (odd column): written out from the odd-q layout.
    [("N", "D3"), ("NE", "E4"), ("SE", "E5"), ("S", "D5"), ("SW", "C5"), ("NW", "C4")],
)
def test_dragonquest_facing_wedge_points_across_the_faced_side(px, facing, ahead):
    enc = px.enc("dragonquest", [{"name": "Ethan", "side": "party", "at": "D4", "facing": facing}])
    img = px.image(draw(enc, cell=px.cell))
    (x0, y0), (x1, y1) = px.hex("D4"), px.hex(ahead)
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy)
    radius = 0.42 * math.sqrt(3) * px.cell  # a one-hex token fills 84% of the hex's height
    out = 1.15 * radius
    assert px.at(img, (x0 + dx / norm * out, y0 + dy / norm * out)) == EDGE
    assert px.at(img, (x0 - dx / norm * out, y0 - dy / norm * out)) == FLOOR
    assert px.dominant(img, (x0, y0)) == BLUE


def test_dragonquest_melee_zone_overlay_from_the_ruleset(px):
    # 003 seed: "Melee Zone" = the three hexes in front of the figure; render tints them, not the rest.
    from render import threat_overlay

    enc = px.enc(
        "dragonquest",
        [
            {"name": "Ogre", "side": "monsters", "at": "D4", "facing": "N"},
            {"name": "Ethan", "side": "party", "at": "H8"},
        ],
    )
    zone = threat_overlay(enc, "Ogre")
    assert zone  # the ruleset answered
    img = px.image(draw(enc, threatened=zone, focus="Ogre", cell=px.cell))
    for label in ("D3", "C4", "E4"):  # N, NW, NE of D4 (odd column D sits half a hex low)
        assert px.at(img, px.hex(label)) == TINT, label
    for label in ("D5", "C5", "E5", "C3", "E3", "D2"):
        assert px.at(img, px.hex(label)) == FLOOR, label
    # The side's overlay is the union of its members' zones.
    assert threat_overlay(enc, "monsters") == zone


def test_focus_combatant_gets_a_ring(px):
    enc = px.enc(
        "aphex", [{"name": "Ethan", "side": "party", "at": "C3"}, {"name": "Ogre", "side": "b", "at": "F3"}]
    )
    plain = px.image(draw(enc, cell=px.cell))
    ringed = px.image(draw(enc, cell=px.cell, focus="Ethan"))
    x, y = px.hex("C3")
    box = (x - px.cell, y - px.cell, x + px.cell, y + px.cell)
    assert px.count(plain, box, palette.FOCUS) == 0
    assert px.count(ringed, box, palette.FOCUS) > 50
    x, y = px.hex("F3")
    assert px.count(ringed, (x - px.cell, y - px.cell, x + px.cell, y + px.cell), palette.FOCUS) == 0


def test_odd_first_column_crop_keeps_parity(px):
    enc = px.enc("aphex", [{"name": "Ethan", "side": "party", "at": "D4"}], width=20, height=20)
    out = render(enc, cell=px.cell, region=((3, 2), (9, 8)))
    assert out.layout.first == (3, 2)
    x, y = px.hex("D4", first=(3, 2))
    assert px.dominant(out.image, (x, y)) == BLUE


def test_focused_cell_is_outlined(px):
    enc = px.enc("aphex", [{"name": "Ethan", "side": "party", "at": "A1"}])
    img = px.image(draw(enc, focus=(3, 3), cell=px.cell))  # D4
    x, y = px.hex("D4")
    assert px.at(img, (x, y - round(0.866 * px.cell) + 2)) == palette.FOCUS
    x, y = px.hex("F4")
    assert px.at(img, (x, y - round(0.866 * px.cell) + 2)) != palette.FOCUS


def test_100x100_hex_map_with_200_combatants_is_under_2_mb(px):
    from rules.coords import column_letters

    combatants = [
        {
            "name": f"Orc {i}",
            "side": "ab"[i % 2],
            "at": f"{column_letters(i % 100)}{i // 100 * 50 + i % 37 + 1}",
        }
        for i in range(200)
    ]
    enc = px.enc("dragonquest", combatants, width=100, height=100)
    png = draw(enc, region="full")
    assert len(png) < 2 * 1024 * 1024
    assert px.image(png).width > 100 * 1.5 * 14
