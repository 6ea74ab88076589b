"""The dnd35 reaction flow driven through `rules.engine.begin/answer` to completion."""

from __future__ import annotations

import pytest
from d35 import c, drive, enc, foe, scripted

from rules.dnd35 import RULESET
from rules.engine import Action, Adjudication, answer, begin


def mv(who: str, *path: str, mode: str = "normal", target: str | None = None) -> Action:
    return Action(kind="move", who=who, path=list(path), mode=mode, target=target)


def kinds(adj: Adjudication) -> list[str]:
    return [e.kind for e in adj.events]


def test_aoo_resolves_before_the_move_and_a_drop_stops_it():
    # 001 Misconception #3: "Resolve an attack of opportunity before you resolve the action that
    # triggered it ... Sometimes, the attack of opportunity will prevent the triggering action (such as
    # when the attack of opportunity proves lethal to a moving character)."
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = begin(e, mv("Ethan", "D6", "C6"))
    q = adj.open[0]
    assert (q.kind, q.asked, q.about, q.trigger) == ("aoo", "Orc", "Ethan", "leave-threatened")
    assert q.choices == ["take", "decline", "disarm", "trip", "grapple", "sunder"]
    assert q.timeout_choice == "decline"
    adj = answer(adj, q.id, "take")
    q = adj.open[0]
    assert (q.kind, q.asked, q.choices, q.timeout_choice) == (
        "outcome",
        "Orc",
        ["down", "hit", "miss"],
        "miss",
    )
    adj = answer(adj, q.id, "down")
    assert adj.complete and adj.foiled and adj.stop_step == 0
    ethan = adj.working.get("Ethan")
    assert ethan.at == "E6"  # SPEC §7.1: "the mover stays in the square it was leaving"
    assert "unconscious" in ethan.conditions and ethan.moved
    orc = adj.working.get("Orc")
    assert orc.aoo_used == 1 and orc.aoo_against == ["Ethan"]
    assert adj.before.get("Ethan").at == "E6" and adj.before.get("Orc").aoo_used == 0
    assert kinds(adj)[0] == "ruling" and kinds(adj)[-1] == "resolved"
    assert "down" in kinds(adj) and "moved" in kinds(adj)


@pytest.mark.parametrize("result", ["hit", "miss"])
def test_a_survived_aoo_lets_the_move_finish(result):
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = drive(e, mv("Ethan", "D6", "C6"), scripted({"aoo": "take", "outcome": result}))
    assert not adj.foiled and adj.stop_step is None
    assert adj.working.get("Ethan").at == "C6"
    assert adj.working.get("Orc").aoo_used == 1


def test_declined_aoo_is_lost_and_not_spent():
    # 001: "You always can opt not to make an attack of opportunity, but if you do ... that particular
    # attack of opportunity is lost to you."
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = drive(e, mv("Ethan", "D6", "C6"), scripted({"aoo": "decline"}))
    orc = adj.working.get("Orc")
    assert orc.aoo_used == 0 and orc.aoo_against == ["Ethan"]
    assert adj.working.get("Ethan").at == "C6"
    # The opportunity for this round is gone: moving on past the Orc gives it nothing more.
    again = RULESET.adjudicate(adj.working, mv("Ethan", "D7"))
    assert again.legal


def test_drop_at_a_later_square_stops_there():
    # SPEC §7.1 Timing: "If it drops the mover, the mover stays in the square it was leaving"
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "A7"))
    policy = scripted({"aoo:Orc": "decline", "aoo:Gob": "take", "outcome:Gob": "down"})
    adj = drive(e, mv("Ethan", "D6", "C6", "B6", "B5"), policy)
    assert adj.working.get("Ethan").at == "B6" and adj.stop_step == 3


def test_entering_a_space_drop_sends_the_mover_back():
    # 001: "If you have a reach of 0, you still can make attack of opportunity against foes entering your
    # space ... if you slay your target or render the target unconscious, the foe goes back to the space
    # it left."
    e = enc(c("Rat", "E6", size="tiny"), foe("Pixie", "F6", size="tiny"))
    adj = drive(e, mv("Rat", "F6", "G6"), scripted({"aoo": "take", "outcome": "down"}))
    assert adj.working.get("Rat").at == "E6"


@pytest.mark.parametrize(("check", "asked_aoo"), [("passed", False), ("failed", True)])
def test_tumble_check_comes_before_the_aoo_question(check, asked_aoo):
    # 001: "With a DC 15 Tumble check, you can move at half speed without provoking attacks of
    # opportunity for that movement. If you fail the check, you still move, but you provoke"
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = begin(e, mv("Ethan", "D6", mode="tumble"))
    q = adj.open[0]
    assert (q.kind, q.asked, q.detail["dc"], q.choices, q.timeout_choice) == (
        "tumble",
        "Ethan",
        15,
        ["passed", "failed"],
        "failed",
    )
    adj = answer(adj, q.id, check)
    assert bool(adj.open and adj.open[0].kind == "aoo") is asked_aoo
    if asked_aoo:
        adj = answer(adj, adj.open[0].id, "decline")
    assert adj.complete and adj.working.get("Ethan").at == "D6"


@pytest.mark.parametrize(("check", "end"), [("passed", "D2"), ("failed", "B2")])
def test_tumble_through_failure_stops_before_the_space(check, end):
    # 001: "If you fail the check, you stop before entering the foe's space and you provoke an attack of
    # opportunity from that foe."
    e = enc(c("Ethan", "B2"), foe("Orc", "C2"))
    policy = scripted({"tumble": check, "aoo": "take", "outcome": "miss"})
    adj = drive(e, mv("Ethan", "C2", "D2", mode="tumble-through"), policy)
    assert adj.working.get("Ethan").at == end
    assert adj.working.get("Orc").aoo_used == (1 if check == "failed" else 0)
    assert not adj.foiled


def test_mobility_note_is_in_the_question():
    e = enc(c("Ethan", "E6", feats=["mobility"]), foe("Orc", "F6"))
    adj = begin(e, mv("Ethan", "D6"))
    assert adj.open[0].detail["mobility"] == "Ethan has Mobility: +4 dodge bonus to AC against this attack"


def test_five_aoo_chain_resolves_last_first():
    # 001 "Attack of Opportunity Chains": "You make a disarm attempt when your opponent moves past you
    # (attack of opportunity #1) ... You decide to disarm yet again (attack of opportunity #5 and your
    # third and last attack of opportunity). Your foe would like to disarm you again, but he's out of
    # attacks of opportunity ... Resolve attack of opportunity #5 first"
    you = foe("You", "F6", feats=["combat_reflexes"], dex=2)  # three AoOs
    them = c("Foe", "E6", feats=["combat_reflexes"], dex=1)  # two AoOs
    e = enc(them, you)
    adj = begin(e, mv("Foe", "D6"))
    order = []
    for expected in ["You", "Foe", "You", "Foe", "You"]:
        q = adj.open[0]
        assert (q.kind, q.asked) == ("aoo", expected)
        order.append(q.trigger)
        adj = answer(adj, q.id, "disarm")
    assert order == ["leave-threatened", "action", "action", "action", "action"]
    resolved = []
    while not adj.complete:
        q = adj.open[0]
        assert q.kind == "outcome" and q.choices == ["success", "failure"]
        resolved.append((q.asked, q.detail["link"]))
        adj = answer(adj, q.id, "failure")
    assert resolved == [("You", 5), ("Foe", 4), ("You", 3), ("Foe", 2), ("You", 1)]
    assert adj.working.get("You").aoo_used == 3 and adj.working.get("Foe").aoo_used == 2
    assert adj.working.get("Foe").at == "D6"


def test_chain_success_ends_the_whole_process():
    # 001: "Resolve attack of opportunity #5 first; if you succeed, your foe no longer threatens you and
    # can't continue, bringing the whole process to an end."
    you = foe("You", "F6", feats=["combat_reflexes"], dex=2)
    them = c("Foe", "E6", feats=["combat_reflexes"], dex=1)
    e = enc(them, you)
    adj = begin(e, mv("Foe", "D6"))
    for _ in range(5):
        adj = answer(adj, adj.open[0].id, "disarm")
    adj = answer(adj, adj.open[0].id, "success")
    assert adj.complete
    assert adj.working.get("Foe").armed is False
    assert [e.data["link"] for e in adj.events if e.kind == "aoo_foiled"] == [4, 3, 2, 1]
    assert adj.working.get("Foe").at == "D6"  # a disarm does not stop the move


def test_improved_disarm_does_not_extend_the_chain():
    # SRD Improved Disarm: "You do not provoke an attack of opportunity when you attempt to disarm"
    e = enc(c("Foe", "E6"), foe("You", "F6", feats=["improved_disarm"]))
    adj = begin(e, mv("Foe", "D6"))
    adj = answer(adj, adj.open[0].id, "disarm")
    assert adj.open[0].kind == "outcome"


def test_trip_as_aoo_with_a_weapon_provokes_nothing_and_stops_the_mover():
    # 001: "In the case of a trip attack, you must make the trip attack with whatever weapon you're using
    # to threaten"; SRD Trip: "If you are using a weapon to trip, you don't provoke"
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = begin(e, mv("Ethan", "D6", "C6"))
    adj = answer(adj, adj.open[0].id, "trip")
    assert adj.open[0].kind == "outcome"
    adj = answer(adj, adj.open[0].id, "success")
    assert adj.complete and adj.working.get("Ethan").at == "E6"
    assert "prone" in adj.working.get("Ethan").conditions


def test_movers_counter_aoo_can_drop_the_attacker():
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = begin(e, mv("Ethan", "D6"))
    adj = answer(adj, adj.open[0].id, "grapple")  # provokes Ethan in turn
    q = adj.open[0]
    assert (q.kind, q.asked, q.about, q.trigger) == ("aoo", "Ethan", "Orc", "action")
    adj = answer(adj, q.id, "take")
    adj = answer(adj, adj.open[0].id, "down")  # Ethan's counter resolves first and drops the Orc
    assert adj.complete and not adj.foiled
    assert adj.working.get("Ethan").at == "D6"
    assert "unconscious" in adj.working.get("Orc").conditions


def test_spell_hit_asks_concentration_and_failure_loses_the_spell():
    # 001: "Even if the target survives the attack, the damage you deal might still disrupt the spell or
    # spell-like ability if the target fails a Concentration check."
    e = enc(c("Mage", "E6"), foe("Orc", "F6"))
    adj = begin(e, Action(kind="act", who="Mage", name="cast-spell"))
    adj = answer(adj, adj.open[0].id, "take")
    adj = answer(adj, adj.open[0].id, "hit")
    q = adj.open[0]
    assert (q.kind, q.asked, q.choices, q.timeout_choice) == (
        "concentration",
        "Mage",
        ["passed", "failed"],
        "failed",
    )
    assert q.detail["dc_base"] == 10 and q.detail["formula"] == "10 + damage dealt + spell level"
    failed = answer(adj, q.id, "failed")
    assert failed.complete and failed.foiled and "spell_lost" in kinds(failed)
    passed = answer(adj, q.id, "passed")
    assert passed.complete and not passed.foiled


@pytest.mark.parametrize(("result", "foiled"), [("down", True), ("miss", False)])
def test_spell_disrupted_by_a_drop(result, foiled):
    # 001: "If you slay your target or render the target unconscious, the spell or spell-like ability is
    # disrupted."
    e = enc(c("Mage", "E6"), foe("Orc", "F6"))
    adj = drive(
        e, Action(kind="act", who="Mage", name="cast-spell"), scripted({"aoo": "take", "outcome": result})
    )
    assert adj.foiled is foiled


def test_cast_defensively_asks_only_concentration():
    # SPEC §7.1: "`cast-defensively` never provokes (it calls for a Concentration check, DC 15 + spell level)"
    e = enc(c("Mage", "E6"), foe("Orc", "F6"))
    adj = begin(e, Action(kind="act", who="Mage", name="cast-defensively"))
    assert adj.ruling.opportunities == []
    q = adj.open[0]
    assert (
        q.kind == "concentration" and q.detail["dc_base"] == 15 and q.detail["formula"] == "15 + spell level"
    )
    assert answer(adj, q.id, "failed").foiled
    assert not answer(adj, q.id, "passed").foiled


def test_adjudication_round_trips_through_json_mid_flight():
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "A7"))
    adj = begin(e, mv("Ethan", "D6", "C6", "B6", "B5"))
    adj = answer(adj, adj.open[0].id, "take")
    stored = Adjudication.model_validate(adj.model_dump(mode="json"))
    stored = answer(stored, stored.open[0].id, "miss")
    stored = answer(stored, stored.open[0].id, "take")
    stored = answer(stored, stored.open[0].id, "hit")
    assert stored.complete
    assert stored.working.get("Ethan").at == "B5"
    assert stored.working.get("Orc").aoo_used == 1 and stored.working.get("Gob").aoo_used == 1


def test_budget_spent_in_flight_is_rechecked_when_a_point_opens():
    # 001: "Unless you have the Combat Reflexes feat ... you can make only one attack of opportunity"
    # Ethan's counter-attack spends his only AoO at the first point; he cannot be offered another.
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    adj = begin(e, mv("Ethan", "D6"))
    adj = answer(adj, adj.open[0].id, "disarm")
    adj = answer(adj, adj.open[0].id, "disarm")  # Ethan's counter: his one AoO
    q = adj.open[0]
    assert q.kind == "outcome" and q.asked == "Ethan"  # the Orc, out of AoOs, is not asked again
    assert adj.working.get("Ethan").aoo_used == 1


def test_start_turn_resets_and_turn_order():
    # SPEC §7.1: "budgets reset at the start of the combatant's own turn, setting aoo_reset: turn|round"
    e = enc(
        c("Ethan", "B2", aoo_used=1, moved=True, conditions=["flat_footed"], aoo_against=["Orc"]),
        foe("Orc", "F6", aoo_used=1),
        initiative=("Orc", "Ethan"),
    )
    assert RULESET.turn_order(e) == ["Orc", "Ethan"]
    t = RULESET.start_turn(e, "Ethan")
    ethan = t.get("Ethan")
    assert (ethan.aoo_used, ethan.moved, ethan.conditions, ethan.aoo_against) == (0, False, [], [])
    assert t.get("Orc").aoo_used == 1
    assert e.get("Ethan").aoo_used == 1  # the input is not changed
    r = enc(
        c("Ethan", "B2", aoo_used=1),
        foe("Orc", "F6", aoo_used=1),
        initiative=("Orc", "Ethan"),
        aoo_reset="round",
    )
    assert RULESET.start_turn(r, "Ethan").get("Ethan").aoo_used == 1  # not the round's first turn
    first = RULESET.start_turn(r, "Orc")
    assert first.get("Ethan").aoo_used == 0 and first.get("Orc").aoo_used == 0
    assert RULESET.turn_order(enc(c("B", "B2"), c("A", "A1"))) == ["B", "A"]
