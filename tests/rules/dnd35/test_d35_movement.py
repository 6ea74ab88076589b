"""dnd35 movement legality and cost: modes, terrain, corners, occupied squares, straight lines."""

from __future__ import annotations

import pytest
from d35 import c, enc, foe, move

BUDGETS = [
    # SPEC §7.1 Modes: normal (speed), run (4x), charge (2x), withdraw (2x), step (5), tumble (half).
    ("normal", 30),
    ("run", 120),
    ("charge", 60),
    ("withdraw", 60),
    ("step", 5),
    ("tumble", 15),
    ("tumble-through", 15),
    ("spring-attack", 30),
]


@pytest.mark.parametrize(("mode", "feet"), BUDGETS)
def test_mode_budgets(mode, feet):
    from rules.dnd35.movement import budget_ft

    assert budget_ft(mode, 30) == feet


@pytest.mark.parametrize(
    ("path", "difficult", "cost"),
    [
        # SRD "Measuring Distance": diagonals count 1, 2, 1, 2
        (["C3", "D4", "E5"], (), 20),
        (["C3", "D4", "E5", "F6"], (), 30),
        (["C2", "D2"], (), 10),
        # SRD "Difficult Terrain": "Each square of difficult terrain counts as 2 squares of movement. Each
        # diagonal move into a difficult terrain square counts as 3 squares."
        (["C2", "D2"], ("C2",), 15),
        (["C3"], ("C3",), 15),
        (["C3", "D4"], ("D4",), 20),
    ],
    ids=[
        "three-diagonals",
        "four-diagonals",
        "straight",
        "difficult-straight",
        "difficult-diagonal",
        "diagonal-then-difficult-diagonal",
    ],
)
def test_cost_with_diagonals_and_difficult_terrain(path, difficult, cost):
    e = enc(c("Ethan", "B2"), difficult=difficult)
    r = move(e, "Ethan", *path)
    assert r.legal, r.error
    assert r.cost == cost


@pytest.mark.parametrize("wall", ["C2", "B3"], ids=["wall-right", "wall-below"])
def test_no_diagonal_past_a_blocked_corner(wall):
    # SPEC §7.1 Movement: "no diagonal past the corner of a blocked square"
    e = enc(c("Ethan", "B2"), blocked=(wall,))
    r = move(e, "Ethan", "C3")
    assert not r.legal and "corner" in (r.error or "")


def test_cannot_enter_a_blocked_square():
    e = enc(c("Ethan", "B2"), blocked=("C2",))
    r = move(e, "Ethan", "C2")
    assert not r.legal and "blocked" in (r.error or "")


def test_path_must_be_contiguous():
    e = enc(c("Ethan", "B2"))
    r = move(e, "Ethan", "C2", "E2")
    assert not r.legal and "not next to" in (r.error or "")


def test_over_budget_is_refused():
    e = enc(c("Ethan", "B2", speed=20))
    r = move(e, "Ethan", "C2", "D2", "E2", "F2", "G2")
    assert not r.legal and "25 ft" in (r.error or "")


@pytest.mark.parametrize(
    ("others", "path", "legal"),
    [
        # SPEC §7.1: "through allies but not enemies (unless helpless, or three size categories apart);
        # never ending in an occupied square"
        ([c("Ally", "C2")], ["C2", "D2"], True),
        ([c("Ally", "C2")], ["C2"], False),
        ([foe("Orc", "C2")], ["C2", "D2"], False),
        ([foe("Orc", "C2")], ["C2"], False),
        ([foe("Orc", "C2", conditions=["helpless"])], ["C2", "D2"], True),
        ([foe("Orc", "C2", conditions=["unconscious"])], ["C2"], False),
        ([foe("Rat", "C2", size="fine")], ["C2", "D2"], True),
        ([foe("Rat", "C2", size="tiny")], ["C2", "D2"], False),
    ],
    ids=[
        "through-ally",
        "end-on-ally",
        "through-foe",
        "end-on-foe",
        "through-helpless-foe",
        "end-on-unconscious-foe",
        "three-sizes-smaller",
        "two-sizes-smaller",
    ],
)
def test_occupied_squares(others, path, legal):
    e = enc(c("Ethan", "B2"), *others)
    r = move(e, "Ethan", *path)
    assert r.legal is legal, r.error
    if not legal and path[-1] == "C2" and len(path) == 1:
        assert "cannot end its move" in (r.error or "") or "blocks the way" in (r.error or "")


def test_ending_in_an_occupied_square_is_refused_with_the_reason():
    # SRD "Ending Your Movement": "You can't end your movement in the same square as another creature"
    e = enc(c("Ethan", "B2"), c("Ally", "D2"))
    r = move(e, "Ethan", "C2", "D2")
    assert not r.legal
    assert r.error == (
        "Ethan cannot end its move at D2: Ally is there (you can pass through an ally but never stop in an "
        "occupied square)."
    )


def test_tiny_creatures_share_a_square():
    # SPEC §7.1 Geometry: "Tiny and smaller share a square"
    e = enc(c("Rat", "B2", size="tiny"), c("Bat", "C2", size="tiny"))
    assert move(e, "Rat", "C2").legal


def test_large_mover_needs_room_and_pays_for_its_space():
    e = enc(c("Ogre", "B2", size="large"), blocked=("E3",))
    assert move(e, "Ogre", "C2").legal
    r = move(e, "Ogre", "C2", "D2")
    assert not r.legal and "E3" in (r.error or "")
    assert not move(e, "Ogre", "L2").legal  # L2 is the last column: a 2x2 space does not fit


@pytest.mark.parametrize(
    ("fields", "path", "error"),
    [
        # 001: "you can take a 5-foot step only if you don't perform any other movement during your turn"
        ({"moved": True}, ["C2"], "already moved"),
        # SRD: "You can't take a 5-foot step into difficult terrain"
        ({}, ["C3"], "difficult terrain"),
        ({"speed": 5}, ["C2"], "speed 5"),
        ({}, ["C2", "D2"], "exactly one square"),
        ({}, ["D2"], "adjacent square"),
    ],
    ids=["after-moving", "into-difficult", "speed-5", "two-squares", "far-square"],
)
def test_step_refusals(fields, path, error):
    e = enc(c("Ethan", "B2", **fields), difficult=("C3",))
    r = move(e, "Ethan", *path, mode="step")
    assert not r.legal and error in (r.error or ""), r.error


def test_withdraw_refused_when_blinded():
    # SRD Withdraw: "You can't withdraw if you're blinded."
    e = enc(c("Ethan", "B2", conditions=["blinded"]))
    r = move(e, "Ethan", "C2", mode="withdraw")
    assert not r.legal and "blinded" in (r.error or "")


@pytest.mark.parametrize(
    ("mode", "path", "legal"),
    [
        # SRD Run: "you can move up to four times your speed in a straight line"
        ("run", ["C2", "D2", "E2", "F2"], True),
        ("run", ["C3", "D4", "E5"], True),
        ("run", ["C2", "D3"], True),  # the line from B2 to D3 passes C2 or C3 equally
        ("run", ["C3", "D3", "E2"], False),
        ("run", ["C2", "D2", "E2", "F2", "G2", "H2", "I2", "J2", "K2", "L2"], True),
    ],
    ids=["run-straight", "run-diagonal", "run-half-step", "run-bent", "run-long"],
)
def test_run_straight_line(mode, path, legal):
    e = enc(c("Ethan", "B2"))
    r = move(e, "Ethan", *path, mode=mode)
    assert r.legal is legal, r.error


def test_run_refuses_difficult_terrain():
    # SRD Run: "You can't run across difficult terrain"
    e = enc(c("Ethan", "B2"), difficult=("D2",))
    assert not move(e, "Ethan", "C2", "D2", "E2", mode="run").legal


@pytest.mark.parametrize(
    ("path", "target", "error"),
    [
        # SRD Charge: "You must move to the closest space from which you can attack the opponent."
        (["C2", "D2", "E2", "F2"], "Orc", None),
        (["C2", "D2", "E2"], "Orc", "can attack"),
        (["C2", "D2", "E2", "F2", "G3"], "Orc", "straight line"),
        (["C2", "D2", "E2", "F3", "G3"], "Orc", "straight line"),
        # SRD Charge: "You must move at least 10 feet (2 squares)"
        (["F2"], "Orc", None),  # one far square: the straight line is found
        (["C2", "D2", "E2", "F2"], None, "needs the foe"),
    ],
    ids=["charge-legal", "charge-short", "charge-past", "charge-bent", "charge-found", "charge-no-target"],
)
def test_charge(path, target, error):
    e = enc(c("Ethan", "B2"), foe("Orc", "G2"))
    r = move(e, "Ethan", *path, mode="charge", target=target)
    if error is None:
        assert r.legal, r.error
        assert r.path[-1] == "F2"
    else:
        assert not r.legal and error in (r.error or ""), r.error


def test_charge_needs_two_squares_and_a_clear_line():
    e = enc(c("Ethan", "B2"), foe("Orc", "D2"), c("Ally", "D4"))
    r = move(e, "Ethan", "C2", mode="charge", target="Orc")
    assert not r.legal and "10 feet" in (r.error or "")
    e2 = enc(c("Ethan", "B2"), foe("Orc", "G2"), c("Ally", "D2"))
    r2 = move(e2, "Ethan", "C2", "D2", "E2", "F2", mode="charge", target="Orc")
    # SRD Charge: "... or contains a creature (even an ally), you can't charge."
    assert not r2.legal and "Ally" in (r2.error or "")


def test_charge_ends_in_the_closest_square_a_reach_weapon_allows():
    e = enc(c("Ethan", "B2", reach_weapon=True), foe("Orc", "H2"))
    assert move(e, "Ethan", "C2", "D2", "E2", "F2", mode="charge", target="Orc").legal
    assert not move(e, "Ethan", "C2", "D2", "E2", "F2", "G2", mode="charge", target="Orc").legal


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"conditions": ["prone"]}, "prone"),
        ({"conditions": ["grappling"]}, "grappling"),
        ({"conditions": ["stunned"]}, "stunned"),
        ({"speed": 0}, "speed 0"),
    ],
)
def test_movers_that_cannot_move(fields, error):
    e = enc(c("Ethan", "B2", **fields))
    r = move(e, "Ethan", "C2")
    assert not r.legal and error in (r.error or "")


def test_unknown_mode_is_illegal_not_a_crash():
    e = enc(c("Ethan", "B2"))
    r = move(e, "Ethan", "C2", mode="teleport")
    assert not r.legal and "Unknown mode" in (r.error or "")


def test_bad_input_raises_input_error():
    from rules.errors import InputError

    e = enc(c("Ethan", "B2"))
    with pytest.raises(InputError):
        move(e, "Nobody", "C2")
    with pytest.raises(InputError):
        move(e, "Ethan", "Z99")
    with pytest.raises(InputError):
        move(e, "Ethan", "C2", target="Nobody")
