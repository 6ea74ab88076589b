"""Charge and Close and the defender's Repulse, driven through rules.engine. Seed 003_3defe2e1570abee3.txt."""

from __future__ import annotations

import pytest

from rules.engine import Action, Adjudication, answer, begin


def _setup(dq, **hero):
    # Orc at E21 facing S: its Melee Zone holds E22, the hex the Hero enters just before the Orc's.
    return dq.enc(dq.fig("Hero", "E25", **{"tmr": 8, **hero}), dq.fig("Orc", "E21", side="foes", facing="S"))


def _close(path=("E24", "E23", "E22", "E21"), target="Orc"):
    return Action(kind="move", who="Hero", path=list(path), mode="charge-close", target=target)


def test_charge_close_counts_the_defenders_hex(dq):
    # 003_...txt: "the destination hex (the hex the defender occupies) is counted when figuring the TMR."
    ruling = dq.move(_setup(dq), "Hero", "E24 E23 E22 E21", "charge-close", target="Orc")
    assert ruling.legal and ruling.cost == 4 and ruling.path[-1] == "E21"
    far = dq.enc(dq.fig("Hero", "E25", tmr=8), dq.fig("Orc", "E20", side="foes", facing="S"))
    too_far = dq.move(far, "Hero", "E24 E23 E22 E21 E20", "charge-close", target="Orc")
    assert not too_far.legal and "costs 5" in (too_far.error or "")


def test_charge_close_ruling_json(dq):
    # 003_...txt: "If in the midst of executing a Charge and Close action, he may then be able to enter the
    # defender's hex, depending on the results of the defender's Repulse attempt."
    ruling = dq.move(_setup(dq), "Hero", "E21", "charge-close", target="Orc")  # one hex: find the path
    data = ruling.to_json()
    assert data["path"] == ["E25", "E24", "E23", "E22", "E21"]
    assert data["cost"] == 4
    assert data["opportunities"] == [{"attacker": "Orc", "at": "E22", "trigger": "repulse", "windows": None}]
    assert data["stop_at"] is None
    assert ruling.points[0].step == 3


def test_charge_close_path_to_the_hex_before_is_completed(dq):
    ruling = dq.move(_setup(dq), "Hero", "E24 E23 E22", "charge-close", target="Orc")
    assert ruling.legal and ruling.path[-1] == "E21" and ruling.cost == 4


def test_charge_close_needs_a_hostile_defender(dq):
    enc = dq.enc(dq.fig("Hero", "E25", tmr=8), dq.fig("Friend", "E21"))
    assert not dq.move(enc, "Hero", "E21", "charge-close").legal  # no target
    assert not dq.move(enc, "Hero", "E21", "charge-close", target="Friend").legal


def test_charge_close_allows_no_facing_change(dq):
    # 003_...txt: "No facing changes are allowed during this action"
    ruling = dq.move(_setup(dq), "Hero", "E24 E23 E22 E21", "charge-close:S", target="Orc")
    assert not ruling.legal and "facing" in (ruling.error or "")
    assert dq.move(_setup(dq), "Hero", "E24 E23 E22 E21", "charge-close:N", target="Orc").legal


REPULSE = [
    # 003_...txt: "depending on the results of the defender's Repulse attempt": a successful Repulse halts the
    # attacker in the hex before the defender's; a failed one lets it into the defender's hex.
    ("repulse-succeeds-attacker-halts", "repulsed", "E22"),
    ("repulse-fails-attacker-enters", "not_repulsed", "E21"),
]


@pytest.mark.parametrize(("choice", "final"), [r[1:] for r in REPULSE], ids=[r[0] for r in REPULSE])
def test_repulse_through_the_engine(dq, choice, final):
    enc = _setup(dq)
    adj = begin(enc, _close())
    assert adj.ruling.legal and not adj.complete
    [question] = adj.open
    assert (question.kind, question.asked, question.about) == ("repulse", "Orc", "Hero")
    assert question.choices == ["repulsed", "not_repulsed"]
    assert question.timeout_choice == "not_repulsed" and question.trigger == "repulse"
    done = answer(adj, question.id, choice)
    assert done.complete and not done.open
    hero = done.working.find("Hero")
    assert hero.at == final and hero.facing == "N"
    assert done.working.find("Orc").at == "E21"  # the defender never moves
    assert done.before.find("Hero").at == "E25"  # the original is untouched (undo)
    assert any(e.kind == choice for e in done.events)


def test_repulse_survives_a_json_round_trip(dq):
    # Adjudications wait in SQLite as JSON between button presses.
    adj = begin(_setup(dq), _close())
    stored = Adjudication.model_validate(adj.model_dump(mode="json"))
    done = answer(stored, stored.open[0].id, "not_repulsed")
    assert done.complete and done.working.find("Hero").at == "E21"
    assert Adjudication.model_validate(done.model_dump(mode="json")).complete


@pytest.mark.parametrize("condition", ["stunned", "incapacitated"])
def test_helpless_defender_gets_no_repulse(dq, condition):
    # 003_...txt: "A figure who becomes stunned may attempt no other action except try to recover";
    # "A figure who becomes incapacitated can do nothing."
    enc = dq.enc(
        dq.fig("Hero", "E25", tmr=8), dq.fig("Orc", "E21", side="foes", facing="S", conditions=[condition])
    )
    adj = begin(enc, _close())
    assert adj.complete and adj.ruling.opportunities == []
    assert adj.working.find("Hero").at == "E21"


def test_repulse_also_from_behind(dq):
    # The seed ties the Repulse to the Charge and Close, not to the side it comes from.
    enc = dq.enc(dq.fig("Hero", "E25", tmr=8), dq.fig("Orc", "E21", side="foes", facing="N"))
    ruling = dq.move(enc, "Hero", "E24 E23 E22 E21", "charge-close", target="Orc")
    assert ruling.legal and [o.at for o in ruling.opportunities] == ["E22"]


def test_another_zone_stops_the_charge_short(dq):
    # 003_...txt: "If a figure enters the Melee Zone of any hostile figure, he must stop movement": a second
    # foe's zone before the defender ends the charge there, with no Repulse.
    enc = dq.enc(
        dq.fig("Hero", "E25", tmr=8),
        dq.fig("Orc", "E21", side="foes", facing="S"),
        dq.fig("Goblin", "D23", side="foes", facing="SE"),
    )
    ruling = dq.move(enc, "Hero", "E24 E23 E22 E21", "charge-close", target="Orc")
    assert ruling.legal and ruling.stop_at == "E24" and ruling.opportunities == []
    adj = begin(enc, _close())
    assert adj.complete and adj.working.find("Hero").at == "E24"


def test_charge_close_destination_next_to_the_defender(dq):
    # A single destination beside the defender (here its rear hex E20) is found, then the defender's hex is
    # entered: 003_...txt: "the destination hex (the hex the defender occupies) is counted"
    enc = dq.enc(dq.fig("Hero", "E17", tmr=8), dq.fig("Orc", "E21", side="foes", facing="S"))
    ruling = dq.move(enc, "Hero", "E20", "charge-close", target="Orc")
    assert ruling.legal and ruling.path[-1] == "E21" and ruling.cost == 4
    assert [o.at for o in ruling.opportunities] == ["E20"]
    far = dq.move(enc, "Hero", "E15", "charge-close", target="Orc")
    assert not far.legal and "defender's hex" in (far.error or "")
