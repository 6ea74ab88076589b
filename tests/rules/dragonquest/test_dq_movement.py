"""Movement budgets of a non-engaged figure. Every case cites seed 003_3defe2e1570abee3.txt."""

from __future__ import annotations

import pytest

from rules.dragonquest import RULESET
from rules.engine import Action, begin
from rules.errors import InputError

# (id, figure fields, mode, hexes moved straight north, legal?)
BUDGETS = [
    # 003_...txt: "Then the Dwarf, whose modified Agility is 7 ... can only move one hex while he prepares his
    # Mattock instead of two." (preparing a weapon is a Pass action)
    ("pass-then-the-dwarf-agility-7-one-hex", {"agility": 7}, "pass", 1, True),
    ("pass-then-the-dwarf-agility-7-not-two", {"agility": 7}, "pass", 2, False),
    # 003_...txt: "Eaglewing the Elf, whose modified Agility is 25 ... can move three hexes while preparing
    # his Tulwar instead of two."
    ("pass-eaglewing-agility-25-three-hexes", {"agility": 25}, "pass", 3, True),
    ("pass-eaglewing-agility-25-not-four", {"agility": 25}, "pass", 4, False),
    # 003_...txt: "A non-engaged figure may move up to two hexes and perform any Pass action."
    ("pass-agility-15-two-hexes", {"agility": 15}, "pass", 2, True),
    ("pass-agility-15-not-three", {"agility": 15}, "pass", 3, False),
    ("pass-agility-22-three-hexes", {"agility": 22}, "pass", 3, True),
    # 003_...txt: "Figures with modified Agilities of 26 and above may increase its movement by two hexes."
    ("pass-agility-26-four-hexes", {"agility": 26}, "pass", 4, True),
    ("pass-agility-26-not-five", {"agility": 26}, "pass", 5, False),
    # 003_...txt: "A non-engaged figure may move any number of hexes up to its Tactical Movement Rate (TMR)."
    ("move-tmr-5-five-hexes", {"tmr": 5}, "move", 5, True),
    ("move-tmr-5-not-six", {"tmr": 5}, "move", 6, False),
    ("move-no-agility-bonus", {"tmr": 5, "agility": 26}, "move", 6, False),
    # 003_...txt: "may move up to 1/2 (rounded down) of his full TMR and Evade as he moves."
    ("evade-half-tmr-rounded-down", {"tmr": 9}, "evade", 4, True),
    ("evade-not-more-than-half", {"tmr": 9}, "evade", 5, False),
    # 003_...txt: "allowed one less hex of movement when executing any of the following actions: Melee
    # attack, Evade, Retreat, Pass, and Charge with a Pole Weapon."
    ("evade-agility-8-one-less", {"tmr": 9, "agility": 8}, "evade", 4, False),
    ("evade-agility-8-three", {"tmr": 9, "agility": 8}, "evade", 3, True),
    ("evade-agility-23-one-more", {"tmr": 9, "agility": 23}, "evade", 5, True),
    # 003_...txt: "may move up to 1/2 (rounded down) of his TMR and attempt to Melee attack with a non-pole
    # weapo and this action is a Charge."
    ("charge-non-pole-half-tmr", {"tmr": 9}, "charge", 4, True),
    ("charge-non-pole-not-more", {"tmr": 9}, "charge", 5, False),
    ("charge-non-pole-no-low-agility-penalty", {"tmr": 9, "agility": 7}, "charge", 4, True),
    # 003_...txt: "may move up to his full TMR and attempt to Melee attack with a Pole weapon"
    ("charge-pole-full-tmr", {"tmr": 9, "weapon": "pole"}, "charge", 9, True),
    ("charge-pole-not-beyond-tmr", {"tmr": 9, "weapon": "pole"}, "charge", 10, False),
    ("charge-pole-agility-7-one-less", {"tmr": 9, "weapon": "pole", "agility": 7}, "charge", 9, False),
    ("charge-pole-agility-7-eight", {"tmr": 9, "weapon": "pole", "agility": 7}, "charge", 8, True),
    ("charge-pole-agility-25-no-bonus", {"tmr": 9, "weapon": "pole", "agility": 25}, "charge", 10, False),
    # 003_...txt: "A figure may crawl at a rate of 1/4 of his TMR (round all fractions down)."
    ("crawl-quarter-tmr", {"tmr": 8}, "crawl", 2, True),
    ("crawl-not-more-than-quarter", {"tmr": 8}, "crawl", 3, False),
    ("crawl-rounds-down", {"tmr": 7}, "crawl", 2, False),
    # 003_...txt: "A figure may not move or change facing in the same Pulse as a weapon is Fired"
    ("fire-no-movement", {"tmr": 9}, "fire", 1, False),
    # 003_...txt: "(1) once a cross-bow is prepared and loaded ... movement of up to 2 hexes prior to or
    # after firing is allowed."
    ("fire-crossbow-two-hexes", {"tmr": 9, "weapon": "crossbow"}, "fire", 2, True),
    ("fire-crossbow-not-three", {"tmr": 9, "weapon": "crossbow"}, "fire", 3, False),
    # 003_...txt: "(2) If an Adept or his mount is flying ... may move up to 1/2 (rounded down) of his or
    # his mount's TMR"
    ("fire-flying-adept-half-tmr", {"tmr": 9, "adept": True, "flying": True}, "fire", 4, True),
    ("fire-flying-adept-not-more", {"tmr": 9, "adept": True, "flying": True}, "fire", 5, False),
    ("fire-adept-on-foot-no-move", {"tmr": 9, "adept": True}, "fire", 1, False),
    ("fire-flying-non-adept-no-move", {"tmr": 9, "flying": True}, "fire", 1, False),
]


@pytest.mark.parametrize(
    ("fields", "mode", "hexes", "legal"), [b[1:] for b in BUDGETS], ids=[b[0] for b in BUDGETS]
)
def test_mode_budget(dq, fields, mode, hexes, legal):
    enc = dq.enc(dq.fig("Hero", "E25", **fields), dq.fig("Orc", "O2", side="foes"))
    ruling = dq.move(enc, "Hero", dq.column("E", 25, hexes), mode)
    assert ruling.legal is legal, ruling.error
    assert ruling.path[0] == "E25"
    if legal:
        assert ruling.cost == hexes
    else:
        assert "hexes of TMR" in (ruling.error or "") or "Fired" in (ruling.error or "")


def test_fire_without_moving_is_legal(dq):
    # 003_...txt: "A non-engaged figure may fire a missile or thrown weapon or loose a Spell"
    enc = dq.enc(dq.fig("Archer", "E25", weapon="missile"))
    ruling = dq.move(enc, "Archer", "", "fire")
    assert ruling.legal and ruling.cost == 0 and ruling.path == ["E25"]


def test_fire_forbids_facing_change(dq):
    # 003_...txt: "A figure may not move or change facing in the same Pulse as a weapon is Fired"
    enc = dq.enc(dq.fig("Archer", "E25", weapon="missile"))
    assert not dq.move(enc, "Archer", "", "fire:S").legal
    assert dq.move(enc, "Archer", "", "fire:N").legal


# --- the one-hex minimum and difficult terrain ---------------------------------------------------


def test_minimum_one_hex_when_crawl_allows_none(dq):
    # 003_...txt: "a figure may always (if not Stunned, etc.) move one hex during a Pulse, no matter how
    # difficult the terrain."  TMR 3 crawls 3 // 4 = 0 hexes, yet one hex is allowed.
    enc = dq.enc(dq.fig("Hero", "E25", tmr=3))
    one = dq.move(enc, "Hero", "E24", "crawl")
    assert one.legal and one.cost == 1
    assert any("always move one hex" in n for n in one.notes)
    assert not dq.move(enc, "Hero", "E24 E23", "crawl").legal


def test_minimum_one_hex_into_difficult_terrain(dq):
    # 003_...txt: "a figure may always ... move one hex during a Pulse, no matter how difficult the terrain."
    enc = dq.enc(dq.fig("Hero", "E25", tmr=1), difficult=("E24",))
    ruling = dq.move(enc, "Hero", "E24")
    assert ruling.legal and ruling.cost == 2


def test_difficult_hex_costs_two(dq):
    # 003_...txt: "The GM is allowed to assign a penalty for movement attempted over terrain not conducive to
    # quick traversal."  (GM-marked difficult hexes cost 2; docs/rules/dragonquest.md)
    enc = dq.enc(dq.fig("Hero", "E25", tmr=4), difficult=("E23",))
    assert dq.move(enc, "Hero", "E24 E23 E22").cost == 4
    assert dq.move(enc, "Hero", "E24 E23 E22").legal
    assert not dq.move(enc, "Hero", "E24 E23 E22 E21").legal


# --- facing ---------------------------------------------------------------------------------------

TURNS = [
    # 003_...txt: "turning three hexsides (180") within one move is a fairly complex maneuver. The GM may
    # decide if the figure wishes to change facing to that degree, it may move two less hexes"
    ("turn-180-costs-two", "move:S", 3, True, 5),
    ("turn-180-over-budget", "move:S", 4, False, 6),
    ("turn-60-free", "move:NE", 5, True, 5),
    ("turn-120-free", "move:SE", 5, True, 5),
    ("no-turn-free", "move:N", 5, True, 5),
]


@pytest.mark.parametrize(
    ("mode", "hexes", "legal", "cost"), [t[1:] for t in TURNS], ids=[t[0] for t in TURNS]
)
def test_facing_change_cost(dq, mode, hexes, legal, cost):
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5, facing="N"))
    ruling = dq.move(enc, "Hero", dq.column("E", 25, hexes), mode)
    assert (ruling.legal, ruling.cost) == (legal, cost), ruling.error


def test_final_facing_is_applied(dq):
    # 003_...txt: "At the end of movement, a figure must unambiguously face one hex-side"
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5, facing="N"))
    adj = begin(enc, Action(kind="move", who="Hero", path=["E24", "E23"], mode="move:S"))
    assert adj.complete and not adj.open
    hero = adj.working.find("Hero")
    assert (hero.at, hero.facing) == ("E23", "S")
    # Without a facing the figure keeps its own.
    adj = begin(enc, Action(kind="move", who="Hero", path=["E24"], mode="move"))
    assert adj.working.find("Hero").facing == "N"


def test_turn_in_place(dq):
    # 003_...txt: "During movement, a figure may change facing as it desires"
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5, facing="N"))
    ruling = dq.move(enc, "Hero", "", "move:S")
    assert ruling.legal and ruling.cost == 2 and ruling.path == ["E25"]
    assert not dq.move(enc, "Hero", "", "move").legal  # nothing to do


def test_bad_facing_is_input_error(dq):
    enc = dq.enc(dq.fig("Hero", "E25"))
    with pytest.raises(InputError):
        dq.move(enc, "Hero", "E24", "move:W")
    with pytest.raises(InputError):
        dq.move(enc, "Hero", "E24", "sprint")


# --- other figures' hexes -------------------------------------------------------------------------


def test_friendly_hex_costs_two_extra(dq):
    # 003_...txt: "for one human to move through a hex containing another human will result in at least a TMR
    # penalty of two hexes"
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5), dq.fig("Friend", "E23"))
    ruling = dq.move(enc, "Hero", "E24 E23 E22")
    assert ruling.legal and ruling.cost == 5
    assert not dq.move(
        enc.replace_combatant(enc.find("Hero").model_copy(update={"tmr": 4})), "Hero", "E24 E23 E22"
    ).legal


def test_cannot_end_in_friendly_hex(dq):
    # 003_...txt: "need to squeeze past another figure in the same hex" (passing, not stopping: our reading)
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5), dq.fig("Friend", "E23"))
    ruling = dq.move(enc, "Hero", "E24 E23")
    assert not ruling.legal and "Friend" in (ruling.error or "")


def test_hostile_hex_cannot_be_entered(dq):
    # 003_...txt: "A figure may only Grapple a hostile figure in the same hex" - reached only by a Charge and
    # Close; an ordinary move may not enter a hostile hex. The Orc faces away, so no Melee Zone stops first.
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5), dq.fig("Orc", "E22", side="foes", facing="N"))
    ruling = dq.move(enc, "Hero", "E24 E23 E22 E21")
    assert not ruling.legal and "Orc" in (ruling.error or "")


def test_blocked_hex_cannot_be_entered(dq):
    enc = dq.enc(dq.fig("Hero", "E25"), blocked=("E24",))
    assert not dq.move(enc, "Hero", "E24").legal


def test_path_must_be_continuous(dq):
    enc = dq.enc(dq.fig("Hero", "E25"))
    ruling = dq.move(enc, "Hero", "E24 E22")
    assert not ruling.legal and "not next to" in (ruling.error or "")


def test_single_destination_finds_the_path(dq):
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5))
    ruling = dq.move(enc, "Hero", "E21")
    assert ruling.legal and ruling.path == ["E25", "E24", "E23", "E22", "E21"] and ruling.cost == 4


def test_path_finder_prefers_free_ground(dq):
    # A detour of equal length around a friend's hex beats the 2-hex penalty of walking through it.
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5), dq.fig("Friend", "E23"))
    ruling = dq.move(enc, "Hero", "E22")
    assert ruling.legal and "E23" not in ruling.path[1:]


# --- retreat --------------------------------------------------------------------------------------

RETREATS = [
    # 003_...txt: "A non-engaged figure may move up to 2 hexes directly backward, and this is a Retreat."
    ("retreat-two-back", {}, "E11 E12", True),
    ("retreat-not-three", {}, "E11 E12 E13", False),
    ("retreat-not-forward", {}, "E9", False),
    ("retreat-not-sideways", {}, "D10", False),
    ("retreat-not-back-then-sideways", {}, "E11 D11", False),
    ("retreat-destination-straight-back", {}, "E12", True),
    ("retreat-destination-not-behind", {}, "F12", False),
    ("retreat-facing-se-goes-nw", {"facing": "SE"}, "D9 C9", True),
    # 003_...txt: Agility 8 or less: "one less hex of movement when executing ... Retreat"
    ("retreat-agility-7-one", {"agility": 7}, "E11", True),
    ("retreat-agility-7-not-two", {"agility": 7}, "E11 E12", False),
    # 003_...txt: Agility 22 through 25: "one extra hex of movement when executing ... Retreat"
    ("retreat-agility-25-three", {"agility": 25}, "E11 E12 E13", True),
]


@pytest.mark.parametrize(("fields", "path", "legal"), [r[1:] for r in RETREATS], ids=[r[0] for r in RETREATS])
def test_retreat_only_backward(dq, fields, path, legal):
    enc = dq.enc(dq.fig("Hero", "E10", **{"facing": "N", **fields}))
    ruling = dq.move(enc, "Hero", path, "retreat")
    assert ruling.legal is legal, ruling.error


def test_retreat_keeps_facing(dq):
    enc = dq.enc(dq.fig("Hero", "E10", facing="N"))
    assert not dq.move(enc, "Hero", "E11", "retreat:S").legal
    adj = begin(enc, Action(kind="move", who="Hero", path=["E11", "E12"], mode="retreat"))
    assert adj.working.find("Hero").facing == "N" and adj.working.find("Hero").at == "E12"


# --- who may move ---------------------------------------------------------------------------------

REFUSALS = [
    # 003_...txt: "A figure who becomes stunned may attempt no other action except try to recover"
    ("stunned-refused", ["stunned"], "stunned"),
    # 003_...txt: "A figure who becomes incapacitated can do nothing."
    ("incapacitated-refused", ["incapacitated"], "incapacitated"),
]


@pytest.mark.parametrize(("conditions", "word"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
@pytest.mark.parametrize("mode", RULESET.modes)
def test_stunned_and_incapacitated_cannot_move(dq, conditions, word, mode):
    enc = dq.enc(dq.fig("Hero", "E25", conditions=conditions), dq.fig("Orc", "E20", side="foes"))
    ruling = dq.move(enc, "Hero", "E24", mode, target="Orc")
    assert not ruling.legal and word in (ruling.error or "")


@pytest.mark.parametrize("mode", RULESET.modes)
def test_engaged_figure_cannot_use_non_engaged_modes(dq, mode):
    # 003_...txt: "A non-engaged figure is one who is not adjacent to any hostile figure on the display."
    # The Orc stands behind the Hero (S of it) and faces away: adjacency alone engages.
    enc = dq.enc(dq.fig("Hero", "E25"), dq.fig("Orc", "E26", side="foes", facing="S"))
    ruling = dq.move(enc, "Hero", "E24", mode, target="Orc")
    assert not ruling.legal and "engaged" in (ruling.error or "")


def test_normal_is_move(dq):
    enc = dq.enc(dq.fig("Hero", "E25", tmr=5))
    ruling = RULESET.adjudicate(enc, Action(kind="move", who="Hero", path=["E24"]))
    assert ruling.legal and ruling.mode == "move"


def test_unknown_combatant_is_input_error(dq):
    enc = dq.enc(dq.fig("Hero", "E25"))
    with pytest.raises(InputError):
        dq.move(enc, "Nobody", "E24")
    with pytest.raises(InputError):
        dq.move(enc, "Hero", "Z99")
