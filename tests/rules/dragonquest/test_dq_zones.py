"""Melee Zones, the stop rule, engagement and turn order. Every case cites seed 003_3defe2e1570abee3.txt."""

from __future__ import annotations

import pytest

from rules.coords import parse_coord
from rules.dragonquest import RULESET, zones
from rules.engine import Action, begin


def test_melee_zone_is_the_three_front_hexes(dq):
    # 003_...txt: "A figure may only Melee attack a hostile figure he is adjacent to and who occupies at least
    # one hex of his Melee Zone." (SPEC 7.3: the three hexes across the faced side and the two beside it)
    enc = dq.enc(dq.fig("Orc", "E10", side="foes", facing="S"))
    assert RULESET.threatened(enc, "Orc") == {parse_coord(h) for h in ("D10", "E11", "F10")}


def test_melee_zone_is_clipped_to_the_map(dq):
    enc = dq.enc(dq.fig("Orc", "A1", side="foes", facing="N"))
    assert RULESET.threatened(enc, "Orc") == frozenset()
    enc = dq.enc(dq.fig("Orc", "A1", side="foes", facing="SE"))
    # Facing SE from A1 (an even column): NE is off the map, SE is B1, S is A2.
    assert RULESET.threatened(enc, "Orc") == {parse_coord(h) for h in ("A2", "B1")}


def test_incapacitated_figure_has_no_zone(dq):
    # 003_...txt: "A figure who becomes incapacitated can do nothing."
    enc = dq.enc(dq.fig("Orc", "E10", side="foes", facing="S", conditions=["incapacitated"]))
    assert RULESET.threatened(enc, "Orc") == frozenset()


RANGED = [
    # 003_...txt: "Only targets who occupy one or more hexes of a figure's Ranged Zone may have a Missile of
    # Thrown weapon Fired at them."  Ranged Zone = the forward arc beyond the Melee Zone.
    ("straight-ahead-far", "E20", True),
    ("deep-in-the-arc", "H19", True),
    ("arc-edge-three-hexes-south-east", "H11", True),
    ("just-outside-the-arc-edge", "H10", False),
    ("melee-zone-is-not-ranged", "E11", False),
    ("behind-is-not-ranged", "E5", False),
    ("beside-outside-arc", "J10", False),
]


@pytest.mark.parametrize(("hex_", "inside"), [r[1:] for r in RANGED], ids=[r[0] for r in RANGED])
def test_ranged_zone(dq, hex_, inside):
    enc = dq.enc(dq.fig("Archer", "E10", facing="S"))
    assert zones.in_ranged_zone(enc.find("Archer"), parse_coord(hex_)) is inside


# Orc at E10 facing S: Melee Zone D10, E11, F10; rear hexes D9, E9, F9.
STOPS = [
    # 003_...txt: "If a figure enters the Melee Zone of any hostile figure, he must stop movement but may
    # change facing."
    ("front-hex-stops", "E14", "E13 E12 E11 D11 C11", "E11", ["D11", "C11"]),
    ("left-front-hex-stops", "B10", "C10 D10 D11", "D10", ["D11"]),
    ("right-front-hex-stops", "H10", "G10 F10 F11", "F10", ["F11"]),
    ("path-ending-in-zone-stops-there", "E14", "E13 E12 E11", "E11", []),
]


@pytest.mark.parametrize(
    ("start", "path", "stop", "dropped"), [s[1:] for s in STOPS], ids=[s[0] for s in STOPS]
)
def test_entering_a_melee_zone_stops_movement(dq, start, path, stop, dropped):
    enc = dq.enc(dq.fig("Hero", start, tmr=8), dq.fig("Orc", "E10", side="foes", facing="S"))
    ruling = dq.move(enc, "Hero", path)
    assert ruling.legal, ruling.error
    assert ruling.stop_at == stop
    assert ruling.path[-1] == stop
    assert ruling.path == [start, *path.split()[: len(path.split()) - len(dropped)]]
    assert ruling.cost == len(ruling.path) - 1
    if dropped:
        assert any(" ".join(dropped) in note and "dropped" in note for note in ruling.notes)
    assert ruling.to_json()["stop_at"] == stop


def test_passing_behind_a_figure_does_not_stop(dq):
    # 003_...txt: "If a figure enters the Melee Zone of any hostile figure, he must stop" - only the Melee
    # Zone: walking through the Orc's three rear hexes is free.
    enc = dq.enc(dq.fig("Hero", "C9", tmr=8), dq.fig("Orc", "E10", side="foes", facing="S"))
    ruling = dq.move(enc, "Hero", "D9 E9 F9 G9")
    assert ruling.legal and ruling.stop_at is None
    assert ruling.path == ["C9", "D9", "E9", "F9", "G9"]


def test_stop_may_still_change_facing(dq):
    # 003_...txt: "he must stop movement but may change facing."
    enc = dq.enc(dq.fig("Hero", "E14", tmr=8, facing="N"), dq.fig("Orc", "E10", side="foes", facing="S"))
    adj = begin(enc, Action(kind="move", who="Hero", path="E13 E12 E11 D11".split(), mode="move:NW"))
    hero = adj.working.find("Hero")
    assert adj.ruling.stop_at == "E11" and (hero.at, hero.facing) == ("E11", "NW")


def test_friendly_zone_does_not_stop(dq):
    enc = dq.enc(dq.fig("Hero", "E14", tmr=8), dq.fig("Ally", "E10", facing="S"))
    ruling = dq.move(enc, "Hero", "E13 E12 E11 D11")
    assert ruling.legal and ruling.stop_at is None


def test_first_zone_entered_stops(dq):
    enc = dq.enc(
        dq.fig("Hero", "E20", tmr=8),
        dq.fig("Orc", "E10", side="foes", facing="S"),
        dq.fig("Goblin", "E15", side="foes", facing="SE"),
    )
    # Goblin at E15 facing SE: its Melee Zone is F14, F15 and E16; the path reaches F15 long before the
    # Orc's zone (F10).
    ruling = dq.move(enc, "Hero", "F19 F18 F17 F16 F15 F14 F13 F12 F11 F10")
    assert ruling.stop_at == "F15"
    assert any("Goblin" in note for note in ruling.notes)


def test_path_finder_goes_around_a_melee_zone(dq):
    # "Find the path" prefers a route that no Melee Zone cuts short when one exists within reach.
    enc = dq.enc(dq.fig("Hero", "E14", tmr=10), dq.fig("Orc", "E10", side="foes", facing="S"))
    ruling = dq.move(enc, "Hero", "E7")
    orc_zone = RULESET.threatened(enc, "Orc")
    assert ruling.legal and ruling.stop_at is None and ruling.path[-1] == "E7"
    assert not any(parse_coord(h) in orc_zone for h in ruling.path)


def test_engaged_figures_act_first(dq):
    # 003_...txt: "all actions of non-engaged figures occur after all the actions of engaged figures have
    # been resolved."
    enc = dq.enc(
        dq.fig("Archer", "B2"),
        dq.fig("Wolf", "N20", side="foes"),
        dq.fig("Knight", "E10"),
        dq.fig("Orc", "E11", side="foes", facing="N"),
        dq.fig("Mage", "J5"),
        initiative=("Archer", "Wolf", "Knight", "Orc"),
    )
    # Knight and Orc are adjacent (engaged); the Mage is not in the initiative list and comes last.
    assert RULESET.turn_order(enc) == ["Knight", "Orc", "Archer", "Wolf", "Mage"]


def test_evading_ends_when_the_figure_acts_again(dq):
    # 003_...txt: "Evade as he moves. The figure ... while moving is much harder to hit."
    enc = dq.enc(dq.fig("Hero", "E20", tmr=8))
    adj = begin(enc, Action(kind="move", who="Hero", path=["E19", "E18"], mode="evade"))
    assert adj.working.find("Hero").has("evading")
    later = RULESET.start_turn(adj.working, "Hero")
    assert not later.find("Hero").has("evading")


def test_incapacitated_foe_engages_nobody(dq):
    # 003_...txt: "A figure who becomes incapacitated can do nothing." - so a figure next to it is free to
    # move, and its zone stops nobody (docs/rules/dragonquest.md).
    enc = dq.enc(
        dq.fig("Hero", "E12", tmr=5),
        dq.fig("Orc", "E11", side="foes", facing="S", conditions=["incapacitated"]),
    )
    assert not zones.is_engaged(enc, enc.find("Hero"))
    ruling = dq.move(enc, "Hero", "D12 D11 D10")
    assert ruling.legal and ruling.stop_at is None


def test_stunned_foe_still_engages_and_stops(dq):
    enc = dq.enc(
        dq.fig("Hero", "E14", tmr=5), dq.fig("Orc", "E10", side="foes", facing="S", conditions=["stunned"])
    )
    assert dq.move(enc, "Hero", "E13 E12 E11 D11").stop_at == "E11"
    next_to = dq.enc(dq.fig("Hero", "E12"), dq.fig("Orc", "E11", side="foes", conditions=["stunned"]))
    assert not dq.move(next_to, "Hero", "E13").legal
