"""`aphex` rulings: AP spent, interruption windows, who is eligible, range and line of effect."""

from __future__ import annotations

import itertools

import pytest
from aphex_support import archer, encounter, rule, traveller, windows

from rules import hexgrid
from rules.aphex import RULESET
from rules.coords import parse_coord
from rules.engine import Action
from rules.errors import InputError

# Ethan runs A6 -> I6 along row 6: A6 B6 C6 D6 E6 F6 G6 H6 I6, 8 hexes, 4 AP at stride 2. After AP 1,
# 2 and 3 he stands on C6, E6 and G6.
RUN = ("I6",)


def run_past(*foes: dict, blocked: tuple[str, ...] = (), **ethan) -> object:
    enc = encounter(traveller("A6", **{"ap": 5, "stride": 2, **ethan}), *foes, blocked=blocked)
    return rule(enc, "Ethan", *RUN)


def test_the_run_used_below():
    ruling = run_past()
    assert ruling.path == ["A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6", "I6"]
    assert ruling.cost == 4


# -- AP spent and the windows they open ---------------------------------------------------------


@pytest.mark.parametrize(
    ("stride", "ap", "path", "cost", "steps"),
    [
        # SPEC §7.2: "A move of H hexes spends ceil(H / stride) AP"; the traveller is paused "after the
        # expenditure of 1 AP" (000_...txt) and never after the last (k = 1..N-1).
        pytest.param(2, 5, ("I6",), 4, [2, 4, 6], id="8-hexes-stride-2-is-4-ap"),
        pytest.param(2, 5, ("H6",), 4, [2, 4, 6], id="7-hexes-stride-2-rounds-up-to-4-ap"),
        pytest.param(3, 5, ("J6",), 3, [3, 6], id="9-hexes-stride-3-is-3-ap"),
        pytest.param(2, 5, ("C6",), 1, [], id="one-ap-move-has-no-window"),
        pytest.param(2, 5, ("B6",), 1, [], id="one-hex-move-has-no-window"),
        pytest.param(2, 5, ("D6",), 2, [2], id="two-ap-move-has-one-window"),
        pytest.param(5, 5, ("K6",), 2, [5], id="stride-5"),
    ],
)
def test_ap_cost_and_window_positions(stride, ap, path, cost, steps):
    enc = encounter(traveller("A6", ap=ap, stride=stride), archer("Archer", "E2"))
    ruling = rule(enc, "Ethan", *path)
    assert ruling.legal, ruling.error
    assert ruling.cost == cost
    assert [p.step for p in ruling.points] == steps
    assert [p.detail["ap"] for p in ruling.points] == list(range(1, len(steps) + 1))
    assert windows(ruling) == ({"Archer": list(range(1, cost))} if steps else {})
    for point in ruling.points:
        assert point.at is None and point.trigger == "interrupted-movement"
        assert point.detail["hex"] == ruling.path[point.step]


@pytest.mark.parametrize("stride", [1, 0], ids=["stride-1", "stride-0"])
def test_no_interruption_at_stride_one_or_less(stride):
    # 000_...txt: "An attack of opportunity may occur if any combatant travels with a stride greater
    # than 1 hex per action point (AP)."
    enc = encounter(traveller("A6", ap=10, stride=stride), archer("Archer", "E2"))
    ruling = rule(enc, "Ethan", "B6", "C6", "D6")
    if stride == 1:
        assert ruling.legal and ruling.cost == 3
        assert ruling.opportunities == [] and ruling.points == []
        assert any("stride" in n for n in ruling.notes)
    else:
        assert not ruling.legal and "stride of 0" in ruling.error


def test_more_ap_than_the_traveller_has_is_illegal():
    enc = encounter(traveller("A6", ap=3, stride=2))
    ruling = rule(enc, "Ethan", "H6")
    assert not ruling.legal
    assert (
        ruling.error == "Moving 7 hexes at 2 hexes per AP takes 4 AP, but Ethan has 3 AP (at most 6 hexes)."
    )
    assert rule(enc, "Ethan", "G6").legal


# -- eligibility (000_...txt, "Conditions") -------------------------------------------------------

ALL = [1, 2, 3]


@pytest.mark.parametrize(
    ("fields", "expected", "note"),
    [
        pytest.param({"weapon": "missile"}, ALL, None, id="loaded-missile-in-hand"),
        # "In the case of fired weapons, the weapon must be loaded."
        pytest.param({"weapon": "missile", "loaded": False}, None, "not loaded", id="unloaded-crossbow"),
        # "the attacker must have the weapon used for the attack in hand"
        pytest.param({"weapon": "missile", "in_hand": False}, None, "in hand", id="missile-not-in-hand"),
        pytest.param({"weapon": "thrown", "in_hand": False}, None, "in hand", id="thrown-not-in-hand"),
        pytest.param({"weapon": "wand", "in_hand": False}, None, "in hand", id="wand-not-in-hand"),
        pytest.param(
            {"weapon": "polearm", "reach": 5, "in_hand": False}, None, "in hand", id="pole-not-in-hand"
        ),
        # A thrown weapon is not fired: `loaded` does not matter (docs/rules/aphex.md).
        pytest.param({"weapon": "thrown", "loaded": False}, ALL, None, id="thrown-needs-no-loading"),
        # "Wand, staves, rods and other magic items ... can be used to make an attack of opportunity"
        pytest.param({"weapon": "wand"}, ALL, None, id="wand"),
        # "natural abilities can be employed": not held, so no hand needed.
        pytest.param({"weapon": "natural", "in_hand": False}, ALL, None, id="natural-needs-no-hand"),
        # "... cannot be used again on the attacker's turn following"
        pytest.param(
            {"weapon": "natural", "natural_barred": True}, None, "natural ability", id="natural-barred"
        ),
        # "The attacker cannot be engaged in melee, nor be stunned."
        pytest.param({"conditions": ["stunned"]}, None, "stunned", id="stunned-attacker"),
        pytest.param({"conditions": ["engaged"]}, None, "engaged", id="engaged-condition"),
        # "to attack with a missile weapon or sufficiently reaching pole arm": melee never interrupts.
        pytest.param({"weapon": "melee"}, None, False, id="melee-weapon"),
    ],
)
def test_who_may_interrupt(fields, expected, note):
    foe = {"name": "Foe", "at": "E2", "range": 30, "weapon": "missile", **fields}
    ruling = run_past(foe)
    assert windows(ruling) == ({"Foe": expected} if expected else {})
    if note:
        assert any(n.startswith("Foe cannot interrupt") and note in n for n in ruling.notes), ruling.notes
    elif note is False:
        assert not any("Foe" in n for n in ruling.notes)


def test_engaged_by_adjacent_hostile_other_than_the_traveller():
    # 000_...txt: "The attacker cannot be engaged in melee"; SPEC §7.2: "adjacent to a hostile other
    # than the traveller". Brute (Ethan's side) stands next to the archer.
    brute = {"name": "Brute", "side": "party", "at": "E1"}
    ruling = run_past(archer("Archer", "E2"), brute)
    assert windows(ruling) == {}
    assert any("engaged in melee with Brute" in n for n in ruling.notes)


def test_adjacent_to_the_traveller_alone_is_not_engaged():
    # B5 touches A6 (and B6 on the path); the only adjacent hostile is the traveller himself.
    assert parse_coord("B5") in hexgrid.neighbours(parse_coord("A6"))
    ruling = run_past(archer("Archer", "B5"))
    assert windows(ruling) == {"Archer": ALL}


def test_allies_of_the_traveller_never_interrupt():
    ruling = run_past(archer("Friend", "E2", side="party"))
    assert windows(ruling) == {}


# -- range and reach in hexes, with line of effect ------------------------------------------------


@pytest.mark.parametrize(
    ("foe", "blocked", "expected"),
    [
        # 000_...txt: "Each enemy within reach of the travelling combatant may ... pause the traveller"
        pytest.param(archer("X", "C4", range=2), (), [1], id="range-2-covers-C6-only"),
        pytest.param(archer("X", "E2", range=4), (), [2], id="range-4-covers-E6-only"),
        pytest.param(archer("X", "E2", range=5), (), ALL, id="range-5-covers-all"),
        # "or sufficiently reaching pole arm"
        pytest.param({"name": "X", "at": "E4", "weapon": "polearm", "reach": 2}, (), [2], id="pole-reach-2"),
        pytest.param({"name": "X", "at": "E4", "weapon": "polearm", "reach": 3}, (), ALL, id="pole-reach-3"),
        pytest.param({"name": "X", "at": "E5", "weapon": "polearm", "reach": 1}, (), [2], id="pole-reach-1"),
        pytest.param({"name": "X", "at": "E2", "weapon": "polearm"}, (), None, id="pole-out-of-reach"),
        pytest.param({"name": "X", "at": "E4", "weapon": "wand", "range": 2}, (), [2], id="wand-range"),
        # SPEC §3: blocked hexes "also block line of effect": E4 stands between E2 and E6 only.
        pytest.param(archer("X", "E2"), ("E4",), [1, 3], id="wall-blocks-the-middle-window"),
        pytest.param(archer("X", "E2"), ("E3", "D3", "F3"), None, id="wall-blocks-every-window"),
        pytest.param(archer("X", "E2"), ("B2", "H2"), ALL, id="walls-off-the-line-do-not"),
        # Distance is counted in hexes, not along a path round the wall: a pole reaches over nothing.
        pytest.param(
            {"name": "X", "at": "E4", "weapon": "polearm", "reach": 2}, ("E5",), None, id="pole-behind-wall"
        ),
    ],
)
def test_range_reach_and_line_of_effect(foe, blocked, expected):
    ruling = run_past(foe, blocked=blocked)
    assert windows(ruling) == ({"X": expected} if expected else {})


def test_the_wall_is_really_on_the_line():
    e2, e4 = parse_coord("E2"), parse_coord("E4")
    assert e4 in hexgrid.line(e2, parse_coord("E6"))
    assert e4 not in hexgrid.line(e2, parse_coord("C6")) + hexgrid.line(e2, parse_coord("G6"))


def test_figures_do_not_block_line_of_effect():
    ruling = run_past(archer("X", "E2"), {"name": "Shield", "at": "E4"})
    assert windows(ruling) == {"X": ALL}


def test_opportunities_in_resolution_order():
    # SPEC §4: opportunities "in the order they resolve": by each attacker's first window.
    late = {"name": "Late", "at": "G4", "weapon": "polearm", "reach": 2}
    early = archer("Early", "C4", range=2)
    ruling = run_past(late, early)
    assert [(o.attacker, o.windows) for o in ruling.opportunities] == [("Early", [1]), ("Late", [3])]
    assert [p.reactors for p in ruling.points] == [["Early"], ["Late"]]
    assert [p.detail["ap"] for p in ruling.points] == [1, 3]


# -- path legality --------------------------------------------------------------------------------

CONTIGUOUS = "a path must be contiguous hexes."
THROUGH_ORC = "Ethan cannot move through Orc, a hostile figure, at D5."


@pytest.mark.parametrize(
    ("path", "error"),
    [
        pytest.param(
            ("B6", "D6"), "D6 is not next to B6: a path must be contiguous hexes.", id="not-contiguous"
        ),
        pytest.param(("C6",), None, id="single-far-hex-finds-a-path"),
        pytest.param(("B6", "C6", "D6"), "D6 is blocked.", id="through-blocked"),
        pytest.param(
            ("B6", "C6", "D5", "E5"), "Ethan cannot move through Orc, a hostile figure, at D5.", id="hostile"
        ),
        pytest.param(("B5", "C5", "C4"), "A move cannot end on C4: Pal stands there.", id="end-on-ally"),
        pytest.param(("B5", "C5", "C4", "D4"), None, id="through-ally"),
        pytest.param(("A6",), "Ethan is already on A6.", id="already-there"),
        pytest.param(("D5",), "A move cannot end on D5: Orc stands there.", id="goal-is-hostile"),
        pytest.param(("D6",), "D6 is blocked.", id="goal-is-blocked"),
    ],
)
def test_path_legality(path, error):
    enc = encounter(
        traveller("A6"),
        {"name": "Orc", "at": "D5"},
        {"name": "Pal", "side": "party", "at": "C4"},
        blocked=("D6",),
    )
    ruling = rule(enc, "Ethan", *path)
    assert ruling.error == error
    assert ruling.legal is (error is None)
    if error is not None:
        assert ruling.opportunities == [] and ruling.points == []


def test_single_hex_goes_round_blocked_hexes_and_foes():
    enc = encounter(traveller("A6", ap=10), {"name": "Orc", "at": "C5"}, blocked=("C6", "C7", "C4"))
    ruling = rule(enc, "Ethan", "E6")
    assert ruling.legal
    hexes = [parse_coord(h) for h in ruling.path]
    assert hexes[0] == parse_coord("A6") and hexes[-1] == parse_coord("E6")
    assert all(hexgrid.distance(a, b) == 1 for a, b in itertools.pairwise(hexes))
    assert not {"C4", "C5", "C6", "C7"} & set(ruling.path)
    assert ruling.cost == -(-(len(hexes) - 1) // 2)


def test_single_hex_unreachable():
    enc = encounter(traveller("A1"), blocked=("B1", "A2"))
    ruling = rule(enc, "Ethan", "C3")
    assert not ruling.legal and "no open path" in ruling.error


def test_stunned_traveller_cannot_move():
    # 000_...txt: "The combatant will then take no action for full round after the enemy's next round."
    ruling = rule(encounter(traveller("A6", conditions=["stunned"])), "Ethan", "C6")
    assert not ruling.legal and "stunned" in ruling.error


@pytest.mark.parametrize(
    "action",
    [
        pytest.param(Action(kind="move", who="Nobody", path=["B6"]), id="unknown-combatant"),
        pytest.param(Action(kind="move", who="Ethan", path=["Z99"]), id="off-map"),
        pytest.param(Action(kind="move", who="Ethan", path=["B6"], mode="run"), id="unknown-mode"),
        pytest.param(Action(kind="move", who="Ethan", path=[]), id="empty-path"),
        pytest.param(Action(kind="act", who="Ethan"), id="act-without-name"),
    ],
)
def test_bad_input_is_an_input_error(action):
    with pytest.raises(InputError):
        RULESET.adjudicate(encounter(traveller("A6")), action)


def test_other_actions_provoke_nothing():
    enc = encounter(traveller("A6"), archer("Archer", "C5"))
    ruling = RULESET.adjudicate(enc, Action(kind="act", who="Ethan", name="use-wand"))
    assert ruling.legal and ruling.opportunities == [] and ruling.points == []
    assert ruling.path == ["A6"]
