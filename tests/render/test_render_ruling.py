"""A ruling on the map: the path, numbered reaction markers, dragonquest stop_at, aphex AP boundaries."""

from __future__ import annotations

import pytest

from render import draw, palette, reaction_markers, render
from render.sprites import marker, sprite_box
from rules.coords import parse_coord
from rules.engine import Opportunity, ReactionPoint, Ruling


def dnd_encounter(px):
    return px.enc(
        "dnd35",
        [
            {"name": "Ethan", "side": "party", "at": "B2"},
            {"name": "Ogre", "side": "monsters", "at": "D2", "size": "large"},
            {"name": "Goblin", "side": "monsters", "at": "B6"},
        ],
    )


def move(path, opportunities=(), **kw):
    return Ruling(
        ruleset=kw.pop("ruleset", "dnd35"),
        who=kw.pop("who", "Ethan"),
        action="move",
        mode=kw.pop("mode", "normal"),
        legal=kw.pop("legal", True),
        path=path,
        opportunities=list(opportunities),
        **kw,
    )


def leave(attacker, at):
    return Opportunity(attacker=attacker, at=at, trigger="leave-threatened")


def number_shown(img, layout, label, slot=0):
    """Which marker sprite (1-9) exactly matches the image where the marker for ``label`` sits, or None."""
    centre = layout.marker_centre(parse_coord(label), slot)
    for n in range(1, 10):
        sprite = marker(str(n), layout.marker_diameter)
        box = sprite_box(centre, *sprite.size)
        crop = img.crop(box)
        alpha = sprite.getchannel("A")
        solid = [(i % sprite.width, i // sprite.width) for i, a in enumerate(alpha.tobytes()) if a == 255]
        if all(crop.getpixel(p) == sprite.getpixel(p)[:3] for p in solid):
            return n
    return None


def in_upper_right_of(px, layout, label, slot=0):
    x, y = layout.marker_centre(parse_coord(label), slot)
    cx, cy = px.square(label, layout.cell)
    half = layout.cell / 2
    return cx <= x <= cx + half and cy - half <= y <= cy


def test_markers_are_numbered_in_the_order_of_the_opportunities(px):
    enc = dnd_encounter(px)
    ruling = move(["B2", "C3", "C4", "C5"], [leave("Ogre", "C3"), leave("Goblin", "C5")])
    out = render(enc, ruling=ruling, cell=px.cell)
    img = px.image(out.png())
    assert [(m.number, m.who) for m in out.markers] == [(1, "Ogre"), (2, "Goblin")]
    assert number_shown(img, out.layout, "C3") == 1
    assert number_shown(img, out.layout, "C5") == 2
    assert number_shown(img, out.layout, "C4") is None
    assert in_upper_right_of(px, out.layout, "C3")
    # Swapping the resolution order swaps the numbers on the map.
    swapped = move(["B2", "C3", "C4", "C5"], [leave("Goblin", "C5"), leave("Ogre", "C3")])
    out = render(enc, ruling=swapped, cell=px.cell)
    img = px.image(out.png())
    assert number_shown(img, out.layout, "C3") == 2
    assert number_shown(img, out.layout, "C5") == 1


def test_two_reactions_at_one_square_get_two_markers(px):
    enc = dnd_encounter(px)
    ruling = move(["B2", "C3", "C4"], [leave("Ogre", "B2"), leave("Goblin", "B2")])
    out = render(enc, ruling=ruling, cell=px.cell)
    img = px.image(out.png())
    assert number_shown(img, out.layout, "B2", slot=0) == 1
    assert number_shown(img, out.layout, "B2", slot=1) == 2
    for slot in (0, 1):
        x, y = out.layout.marker_centre(parse_coord("B2"), slot)
        cx, cy = px.square("B2")
        assert abs(x - cx) < px.cell / 2 and abs(y - cy) < px.cell / 2


def test_marker_from_reaction_point_step_when_at_is_missing(px):
    enc = dnd_encounter(px)
    ruling = move(
        ["B2", "C3", "C4"],
        [Opportunity(attacker="Ogre", at=None, trigger="leave-threatened", point=0)],
        points=[ReactionPoint(index=0, step=1, at=None, trigger="leave-threatened", reactors=["Ogre"])],
    )
    assert [m.coord for m in reaction_markers(enc, ruling)] == [parse_coord("C3")]
    # No opportunities but points: the points are numbered.
    only_points = move(
        ["B2", "C3", "C4"],
        points=[ReactionPoint(index=0, step=2, at=None, trigger="leave-threatened", reactors=["Goblin"])],
    )
    assert [(m.number, m.coord) for m in reaction_markers(enc, only_points)] == [(1, parse_coord("C4"))]


def test_path_is_drawn_and_an_illegal_one_is_grey(px):
    enc = dnd_encounter(px)
    # B2 -> B3 -> B4: the segment between B3 and B4 runs through their shared edge.
    x3, y3 = px.square("B3")
    x4, y4 = px.square("B4")
    between = ((x3 + x4) // 2, (y3 + y4) // 2)
    img = px.image(draw(enc, ruling=move(["B2", "B3", "B4"], cost=10), cell=px.cell))
    assert px.at(img, between) == palette.PATH
    img = px.image(draw(enc, ruling=move(["B2", "B3", "B4"], legal=False, error="no"), cell=px.cell))
    assert px.at(img, between) == palette.PATH_ILLEGAL
    img = px.image(draw(enc, cell=px.cell))
    assert px.at(img, between) == palette.GRID  # no ruling: just the grid line between the squares


def test_dragonquest_stop_at_is_marked(px):
    # 003 seed: entering a hostile Melee Zone stops movement there (`stop_at`).
    enc = px.enc(
        "dragonquest",
        [
            {"name": "Ethan", "side": "party", "at": "B2", "facing": "S"},
            {"name": "Ogre", "side": "monsters", "at": "D5", "facing": "N"},
        ],
    )
    ruling = move(["B2", "B3", "C4", "D4"], ruleset="dragonquest", stop_at="C4", mode="move")
    img = px.image(draw(enc, ruling=ruling, cell=px.cell))
    half = round(px.cell * 0.6)  # inside the hex, clear of its neighbours' outlines

    def stop_pixels(label):
        x, y = px.hex(label)
        return px.count(img, (x - half, y - half, x + half, y + half), palette.STOP)

    assert stop_pixels("C4") > 100  # the stop sign
    assert stop_pixels("B3") == stop_pixels("D4") == stop_pixels("B2") == 0
    # C4's outline: just inside the middle of its top edge.
    x, y = px.hex("C4")
    assert px.at(img, (x, y - round(0.866 * px.cell) + 2)) == palette.STOP
    # The rest of the path beyond stop_at is drawn faded.
    (x0, y0), (x1, y1) = px.hex("C4"), px.hex("D4")
    assert px.at(img, ((x0 + 3 * x1) // 4, (y0 + 3 * y1) // 4)) == palette.PATH_FADED


@pytest.mark.parametrize(("stride", "boundaries"), [(2, [2, 4]), (3, [3]), (1, [1, 2, 3, 4, 5])])
def test_aphex_ap_boundaries_every_stride_hexes(px, stride, boundaries):
    # 000 seed: a move spends an AP per `stride` hexes; enemies may interrupt after each AP but the last.
    enc = px.enc(
        "aphex",
        [
            {"name": "Trav", "side": "a", "at": "A2", "stride": stride},
            {"name": "Archer", "side": "b", "at": "H9"},
        ],
    )
    path = ["A2", "B2", "C2", "D2", "E2", "F2", "G2"]
    out = render(enc, ruling=move(path, ruleset="aphex", who="Trav"), cell=px.cell)
    img = px.image(out.png())

    def ap_pixels(label):
        x, y = px.hex(label)
        return px.count(img, (x - px.cell, y - px.cell // 4, x, y + px.cell), palette.AP)

    for i, label in enumerate(path):
        if i in boundaries:
            assert ap_pixels(label) > 30, label
        else:
            assert ap_pixels(label) == 0, label


def test_aphex_windows_marker_sits_after_the_first_window(px):
    enc = px.enc(
        "aphex", [{"name": "Trav", "side": "a", "at": "A2"}, {"name": "Archer", "side": "b", "at": "H9"}]
    )
    ruling = move(
        ["A2", "B2", "C2", "D2", "E2"],
        [Opportunity(attacker="Archer", at=None, trigger="interrupted-movement", windows=[1])],
        ruleset="aphex",
        who="Trav",
    )
    markers = reaction_markers(enc, ruling)
    assert [(m.number, m.coord, m.windows) for m in markers] == [(1, parse_coord("C2"), (1,))]
    assert "after AP 1" in markers[0].label
