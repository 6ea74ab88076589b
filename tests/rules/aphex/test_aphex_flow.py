"""The interrupted-movement flow: attack / wait / decline at each AP, outcomes, after-effects, stun."""

from __future__ import annotations

import pytest
from aphex_support import archer, drive, encounter, events, final, move, roundtrip, script, traveller

from rules.engine import answer, begin

# Ethan runs A6 -> I6: 8 hexes, 4 AP at stride 2, standing on C6, E6, G6 after AP 1, 2, 3.
PATH = ["A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6", "I6"]


def field(*foes, blocked=()):
    return encounter(traveller("A6", ap=4, stride=2), *foes, blocked=blocked)


def asked_of(transcript, name, kind="interrupt"):
    return [(a.ap, a.choice) for a in transcript if a.asked == name and a.kind == kind]


def test_questions_use_the_interrupt_vocabulary():
    adj = begin(field(archer("Archer", "E2")), move("Ethan", "I6"))
    (q,) = adj.open
    assert (q.kind, q.asked, q.about) == ("interrupt", "Archer", "Ethan")
    assert q.choices == ["attack", "wait", "decline"]
    assert q.timeout_choice == "decline"
    assert q.trigger == "interrupted-movement"
    assert q.detail == {"ap": 1, "hex": "C6", "windows": [1, 2, 3], "last_window": False, "weapon": "missile"}
    adj = answer(adj, q.id, "attack")
    (out,) = adj.open
    assert (out.kind, out.asked, out.choices, out.timeout_choice) == (
        "outcome",
        "Archer",
        ["stunned", "hit", "miss"],
        "miss",
    )


def test_each_attacker_at_most_once():
    # 000_...txt: "Each enemy that is able may do so only once"
    enc = field(archer("Archer", "E2"), archer("Other", "G2"))
    adj, asked = drive(enc, move("Ethan", "I6"), script({"Archer": (1, "hit")}))
    assert asked_of(asked, "Archer") == [(1, "attack")]
    assert asked_of(asked, "Other") == [(1, "wait"), (2, "wait"), (3, "wait")]
    assert [e["attacker"] for e in events(adj, "interrupt")] == ["Archer"]


def test_decline_ends_the_opportunity():
    adj, asked = drive(field(archer("Archer", "E2")), move("Ethan", "I6"), lambda q: "decline")
    assert asked_of(asked, "Archer") == [(1, "decline")]
    assert not events(adj, "interrupt") and not events(adj, "opportunity-lost")
    assert final(adj).get("Ethan").at == "I6"
    assert final(adj).get("Archer").loaded


def test_wait_then_attack_later():
    # 000_...txt: "not all enemies need make their particular attack at the end of the same spent AP"
    adj, asked = drive(field(archer("Archer", "E2")), move("Ethan", "I6"), script({"Archer": (3, "miss")}))
    assert asked_of(asked, "Archer") == [(1, "wait"), (2, "wait"), (3, "attack")]
    assert [(e["ap"], e["hex"]) for e in events(adj, "interrupt")] == [(3, "G6")]
    assert [(e["ap"], e["next_ap"]) for e in events(adj, "interrupt-wait")] == [(1, 2), (2, 3)]


def test_wait_past_the_last_window_loses_the_opportunity():
    # Range 2 from C4 covers C6 (after AP 1) only. 000_...txt: "the opportunity is lost."
    enc = field(archer("Archer", "C4", range=2))
    adj = begin(enc, move("Ethan", "I6"))
    (q,) = adj.open
    assert q.detail["windows"] == [1] and q.detail["last_window"] is True
    adj = answer(adj, q.id, "wait")
    assert adj.complete and not adj.open
    assert events(adj, "opportunity-lost") == [
        {"attacker": "Archer", "ap": 1, "reason": "waited past its last window"}
    ]
    assert final(adj).get("Ethan").at == "I6"


def test_a_waiting_attacker_is_asked_again_at_its_next_window_only():
    # The wall at E4 hides E6 (after AP 2) from E2: windows 1 and 3.
    enc = field(archer("Archer", "E2"), blocked=("E4",))
    adj, asked = drive(enc, move("Ethan", "I6"), script({"Archer": (3, "hit")}))
    assert asked_of(asked, "Archer") == [(1, "wait"), (3, "attack")]


def test_several_attackers_after_the_same_ap():
    enc = field(archer("Left", "C2"), archer("Right", "G2"))
    adj, asked = drive(enc, move("Ethan", "I6"), script({"Left": (2, "hit"), "Right": (2, "miss")}))
    assert [(e["attacker"], e["ap"]) for e in events(adj, "interrupt")] == [("Left", 2), ("Right", 2)]
    assert [(a.asked, a.choice) for a in asked if a.kind == "outcome"] == [("Left", "hit"), ("Right", "miss")]


@pytest.mark.parametrize(
    ("weapon", "changed"),
    [
        # 000_...txt: "they have fired or thrown their weapon, and must therefore load or draw a new weapon"
        pytest.param("missile", {"loaded": False}, id="missile-unloaded"),
        pytest.param("thrown", {"in_hand": False}, id="thrown-out-of-hand"),
        # "the specific ability used cannot be used again on the attacker's turn following"
        pytest.param("natural", {"natural_barred": True}, id="natural-barred"),
        # "Wand, staves, rods ... without restriction of using the item again on the attacker's turn"
        pytest.param("wand", {}, id="wand-unchanged"),
        # "If the attack of opportunity was made with a pole-arm, then this weapon can be used"
        pytest.param("polearm", {}, id="polearm-unchanged"),
    ],
)
def test_after_effects(weapon, changed):
    foe = {"name": "Foe", "at": "E4", "weapon": weapon, "reach": 3}
    enc = field(foe)
    adj, _ = drive(enc, move("Ethan", "I6"), script({"Foe": (1, "hit")}))
    before = enc.get("Foe").model_dump()
    after = final(adj).get("Foe").model_dump()
    assert {k: v for k, v in after.items() if before[k] != v} == changed
    # "The attacker cannot travel any distance when making an attack of opportunity."
    assert after["at"] == "E4"


def test_declining_leaves_the_weapon_alone():
    enc = field(archer("Archer", "E2"), {"name": "Thrower", "at": "G2", "weapon": "thrown"})
    adj, _ = drive(enc, move("Ethan", "I6"), lambda q: "decline")
    assert final(adj).get("Archer") == enc.get("Archer")
    assert final(adj).get("Thrower") == enc.get("Thrower")


def test_stunned_traveller_stops_where_he_stands():
    # 000_...txt: "If a travelling combatant is hit and stunned while moving, then all further movement
    # is lost and the combatant is locked in place."
    enc = field(archer("Stunner", "E2"), archer("Patient", "G2"))
    adj, asked = drive(enc, move("Ethan", "I6"), script({"Stunner": (2, "stunned")}))
    assert adj.complete and adj.stop_step == 4
    assert asked_of(asked, "Patient") == [(1, "wait"), (2, "wait")]  # never asked after AP 3
    assert max(a.ap for a in asked) == 2
    ethan = final(adj).get("Ethan")
    assert ethan.at == PATH[4] == "E6"
    assert ethan.has("stunned") and ethan.stun_turns == 2
    assert events(adj, "stunned") == [{"who": "Ethan", "by": "Stunner", "ap": 2, "hex": "E6"}]
    assert events(adj, "moved") == [{"who": "Ethan", "to": "E6", "hexes": 4, "ap": 2}]
    lost = events(adj, "opportunity-lost")
    assert lost == [{"attacker": "Patient", "ap": 2, "reason": "the traveller was stopped"}]


def test_a_stun_moots_unanswered_prompts_but_not_attacks_already_made():
    enc = field(archer("A", "C2"), archer("B", "E2"), archer("C", "G2"))
    adj = begin(enc, move("Ethan", "I6"))
    qa, qb, qc = adj.open
    adj = roundtrip(answer(adj, qa.id, "attack"))
    adj = roundtrip(answer(adj, qb.id, "attack"))
    out_a, out_b = (q for q in adj.open if q.kind == "outcome")
    adj = roundtrip(answer(adj, out_a.id, "stunned"))
    # C had not yet answered: its prompt is moot. B already loosed its bolt: its outcome still counts.
    assert [q.id for q in adj.open] == [out_b.id]
    assert [e.data["question"] for e in adj.events if e.kind == "moot"] == [qc.id]
    assert not adj.complete
    adj = roundtrip(answer(adj, out_b.id, "hit"))
    assert adj.complete and adj.stop_step == 2
    after = final(adj)
    assert after.get("Ethan").at == "C6"
    assert not after.get("A").loaded and not after.get("B").loaded and after.get("C").loaded


def test_hit_and_miss_do_not_stop_the_move():
    enc = field(archer("A", "C2"), archer("B", "E2"))
    adj, _ = drive(enc, move("Ethan", "I6"), script({"A": (1, "hit"), "B": (2, "miss")}))
    assert adj.stop_step is None
    ethan = final(adj).get("Ethan")
    assert ethan.at == "I6" and not ethan.has("stunned") and ethan.stun_turns == 0


def test_before_is_untouched_and_moves_without_foes_finish_at_once():
    enc = field()
    adj = begin(enc, move("Ethan", "I6"))
    assert adj.complete and not adj.open
    assert final(adj).get("Ethan").at == "I6"
    assert adj.before.get("Ethan").at == "A6"


def test_a_stored_adjudication_keeps_its_reaction_points():
    # Prompts wait for hours across restarts (SPEC §6): the JSON in SQLite must carry the whole ruling.
    adj = begin(field(archer("Archer", "E2"), blocked=("E4",)), move("Ethan", "I6"))
    back = roundtrip(adj)
    assert back.ruling.points == adj.ruling.points and len(back.ruling.points) == 2
    assert [(o.point, o.detail) for o in back.ruling.opportunities] == [(0, {"weapon": "missile"})]
    assert back.ruling.to_json() == adj.ruling.to_json()
