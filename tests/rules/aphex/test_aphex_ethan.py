"""The seed's worked example, played through the engine from the first prompt to the final state."""

from __future__ import annotations

from aphex_support import archer, drive, encounter, events, final, move, rule, script, traveller

ARCHERS = ("First", "Second", "Third", "Fourth")


def ethan_field():
    # 000_700d95b3c74e1117.txt: "Ethan, with 4 AP, is running across a field within range of four
    # enemies, all of whom wish to make an attack of opportunity."
    return encounter(
        traveller("A6", ap=4, stride=2),
        *(archer(name, f"{col}1") for name, col in zip(ARCHERS, "DFHJ", strict=True)),
    )


def test_ethan_ruling_lists_every_ap_but_the_last():
    ruling = rule(ethan_field(), "Ethan", "I6")
    assert ruling.legal
    assert ruling.cost == 4  # 8 hexes at stride 2
    assert len(ruling.path) == 9
    # 000_...txt: "No attacker may make an attack of opportunity once the traveller's last AP is spent."
    assert [o.attacker for o in ruling.opportunities] == list(ARCHERS)
    for opp in ruling.to_json()["opportunities"]:
        assert opp == {
            "attacker": opp["attacker"],
            "at": None,
            "trigger": "interrupted-movement",
            "windows": [1, 2, 3],
        }
    assert [(p.detail["ap"], p.step) for p in ruling.points] == [(1, 2), (2, 4), (3, 6)]


def test_ethan_four_attackers_fire_after_ap_1_2_2_and_3():
    # 000_...txt: "The first attacker fires at the point when Ethan has spent 1 AP; the second and third
    # attackers choose to fire when Ethan has spent his 2nd AP; and the fourth attacker fires when Ethan
    # spends his 3rd AP."
    plan = {"First": (1, "miss"), "Second": (2, "hit"), "Third": (2, "miss"), "Fourth": (3, "hit")}
    enc = ethan_field()
    adj, asked = drive(enc, move("Ethan", "I6"), script(plan))

    interrupts = [(a.ap, a.asked, a.choice) for a in asked if a.kind == "interrupt"]
    assert interrupts == [
        (1, "First", "attack"),
        (1, "Second", "wait"),
        (1, "Third", "wait"),
        (1, "Fourth", "wait"),
        (2, "Second", "attack"),
        (2, "Third", "attack"),
        (2, "Fourth", "wait"),
        (3, "Fourth", "attack"),
    ]
    outcomes = [(a.ap, a.asked, a.choice) for a in asked if a.kind == "outcome"]
    assert outcomes == [
        (1, "First", "miss"),
        (2, "Second", "hit"),
        (2, "Third", "miss"),
        (3, "Fourth", "hit"),
    ]
    assert [(e["attacker"], e["ap"]) for e in events(adj, "interrupt")] == [
        ("First", 1),
        ("Second", 2),
        ("Third", 2),
        ("Fourth", 3),
    ]
    # "Each enemy that is able may do so only once"
    assert sorted(a.asked for a in asked if a.choice == "attack") == sorted(ARCHERS)

    assert adj.complete and adj.stop_step is None and not adj.foiled
    after = final(adj)
    assert after.get("Ethan").at == "I6"
    # "they have fired or thrown their weapon, and must therefore load or draw a new weapon"
    assert all(not after.get(name).loaded for name in ARCHERS)
    assert all(enc.get(name).loaded for name in ARCHERS)  # the encounter passed in is untouched
    assert events(adj, "moved") == [{"who": "Ethan", "to": "I6", "hexes": 8, "ap": 4}]


def test_ethan_nobody_attacks_after_his_last_ap():
    # 000_...txt: "Once Ethan's full move is made, it is now technically the attacker's turn; the
    # opportunity is lost."
    adj, asked = drive(ethan_field(), move("Ethan", "I6"), lambda q: "wait")
    assert max(a.ap for a in asked) == 3
    assert [a.asked for a in asked if a.ap == 3] == list(ARCHERS)
    lost = events(adj, "opportunity-lost")
    assert [(e["attacker"], e["ap"]) for e in lost] == [(name, 3) for name in ARCHERS]
    assert not events(adj, "interrupt")
    assert final(adj).get("Ethan").at == "I6"
    assert all(final(adj).get(name).loaded for name in ARCHERS)
