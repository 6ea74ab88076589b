"""Who gets an attack of opportunity during a move (seed 001_1e16989ecf5349e6.txt, SRD)."""

from __future__ import annotations

import pytest
from d35 import attackers, c, enc, foe, move, who_provokes

from rules.dnd35 import RULESET


def test_leaving_provokes_entering_does_not():
    # 001 Misconception #1: "You provoke an attack of opportunity when you leave a threatened square,
    # not when you enter it."
    e = enc(c("Ethan", "C6"), foe("Orc", "F6"))
    assert attackers(move(e, "Ethan", "D6", "E6")) == []
    e2 = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    assert who_provokes(move(e2, "Ethan", "D6", "C6")) == [("Orc", "E6", "leave-threatened")]


def test_later_squares_only_matter_if_another_foe_threatens_them():
    # 001 Misconception #2: "If you get out of threatened square alive, you don't have to worry about
    # attacks of opportunity later - unless you've moved into another square that a foe threatens."
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "A7"))
    r = move(e, "Ethan", "D6", "C6", "B6", "B5")
    assert who_provokes(r) == [("Orc", "E6", "leave-threatened"), ("Gob", "B6", "leave-threatened")]


def test_moving_within_one_foes_area_gives_it_one_opportunity():
    # 001: "Note that moving out of more than one threatened square during a turn counts as only one
    # 'opportunity' for the moving creature's foes"
    e = enc(c("Ethan", "D5"), foe("Ogre", "F6", size="large"))
    r = move(e, "Ethan", "D6", "D7", "D8", "D9", "D10")
    assert who_provokes(r) == [("Ogre", "D5", "leave-threatened")]


def test_one_opportunity_per_foe_per_round_across_moves():
    # 001: "moving out of more than one threatened square during a turn counts as only one 'opportunity'"
    e = enc(c("Ethan", "D5"), foe("Ogre", "F6", size="large", aoo_against=["Ethan"]))
    r = move(e, "Ethan", "D6", "D7")
    assert attackers(r) == []
    assert any("already had its opportunity" in n for n in r.notes)
    fresh = RULESET.start_turn(e, "Ogre")
    assert attackers(move(fresh, "Ethan", "D6", "D7")) == ["Ogre"]


def test_five_foot_step_never_provokes():
    # 001: "If you leave a threatened square by taking a 5-foot step, your movement doesn't provoke an
    # attack of opportunity from any foe that threatens that square."
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "D7"))
    r = move(e, "Ethan", "D6", mode="step")
    assert r.legal and attackers(r) == [] and r.cost == 5


@pytest.mark.parametrize(
    ("orc", "ethan", "expected"),
    [
        # 001 Withdraw: "leave one threatened square without provoking attacks of opportunity"
        ({}, {}, []),
        # 001: "Foes you can't see (or discern through blindsight) can make attacks of opportunity against
        # you even when you leave that first square."
        ({"conditions": ["invisible"]}, {}, ["Orc"]),
        ({"conditions": ["invisible"]}, {"senses": ["blindsight"]}, []),
    ],
    ids=["seen-foe", "invisible-foe", "invisible-foe-blindsight"],
)
def test_withdraw_first_square(orc, ethan, expected):
    e = enc(c("Ethan", "E6", **ethan), foe("Orc", "F6", **orc))
    assert attackers(move(e, "Ethan", "D6", "C6", mode="withdraw")) == expected


def test_withdraw_protects_only_the_first_square():
    # 001: "you're safe only from attacks of opportunity you'd provoke when leaving your first square"
    e = enc(c("Ethan", "E6"), foe("Ogre", "F6", size="large"))
    assert who_provokes(move(e, "Ethan", "D6", "C6", mode="withdraw")) == [("Ogre", "D6", "leave-threatened")]


def test_tumble_dc_rises_by_two_per_extra_opponent():
    # 001: "With a DC 15 Tumble check, you can move at half speed without provoking"; SRD Tumble: "Each
    # additional enemy after the first adds +2 to the Tumble DC."
    e = enc(c("Ethan", "B2"), foe("A", "A1"), foe("B", "A3"), foe("C", "C1"))
    r = move(e, "Ethan", "C3", "D4", mode="tumble")
    assert attackers(r) == ["A", "B", "C"]
    assert [o.detail["dc"] for o in r.opportunities] == [15, 17, 19]
    assert r.cost == 15


def test_tumble_is_half_speed():
    e = enc(c("Ethan", "B2"))
    assert not move(e, "Ethan", "C2", "D2", "E2", "F2", mode="tumble").legal


def test_tumble_through_asks_dc_25_at_the_foes_space():
    # 001: "With a DC 25 Tumble check, you can pass right through a foe's space without provoking"
    e = enc(c("Ethan", "B2"), foe("Orc", "C2"))
    r = move(e, "Ethan", "C2", "D2", mode="tumble-through")
    assert who_provokes(r) == [("Orc", "B2", "enter-space")]
    assert r.opportunities[0].detail == {"dc": 25, "through": True}


def test_spring_attack_target_vs_other_foes():
    # 001 Spring Attack: "your movement before and after the attack doesn't provoke any attacks of
    # opportunity from that foe ... Other foes that threaten the squares you leave still can make attacks
    # of opportunity against you."
    e = enc(c("Ethan", "B2", feats=["spring_attack"]), foe("Orc", "E3"), foe("Gob", "C1"))
    normal = move(e, "Ethan", "C2", "D2", "D1")
    assert attackers(normal) == ["Gob", "Orc"]
    spring = move(e, "Ethan", "C2", "D2", "D1", mode="spring-attack", target="Orc")
    assert attackers(spring) == ["Gob"]
    assert any("Spring Attack" in n for n in spring.notes)


def test_spring_attack_needs_feat_target_and_attack_square():
    e = enc(c("Ethan", "B2", feats=["spring_attack"]), foe("Orc", "H8"))
    assert "pass a square" in (move(e, "Ethan", "C2", "D2", mode="spring-attack", target="Orc").error or "")
    e2 = enc(c("Ethan", "B2"), foe("Orc", "E3"))
    assert "Spring Attack feat" in (
        move(e2, "Ethan", "C2", "D2", "D1", mode="spring-attack", target="Orc").error or ""
    )


@pytest.mark.parametrize(
    ("orc", "note"),
    [
        # 001 Mobility: "it gives you a +4 dodge bonus to AC when you provoke an attack of opportunity for
        # leaving a threatened square"
        ({}, "Ethan has Mobility: +4 dodge bonus to AC against this attack"),
        # 001: "A dodge bonus, however, doesn't help you when you're denied your Dexterity bonus against an
        # attack, as you would be when moving past a foe you can't see."
        (
            {"conditions": ["invisible"], "senses": ["blindsight"]},
            "Ethan has Mobility but cannot see Orc: no dodge bonus against this attack",
        ),
    ],
    ids=["mobility", "mobility-unseen-foe"],
)
def test_mobility_note(orc, note):
    e = enc(c("Ethan", "E6", feats=["mobility"]), foe("Orc", "F6", **orc))
    r = move(e, "Ethan", "D6")
    assert r.opportunities[0].detail["mobility"] == note


@pytest.mark.parametrize(
    ("orc", "provokes"),
    [
        # 001: "Unless you have the Combat Reflexes feat ... you can make only one attack of opportunity"
        ({"aoo_used": 1}, False),
        # 001: "if you have Combat Reflexes and a Dexterity score of 15 you can make up the three attacks"
        ({"aoo_used": 2, "feats": ["combat_reflexes"], "dex": 2}, True),
        ({"aoo_used": 3, "feats": ["combat_reflexes"], "dex": 2}, False),
        ({"aoo_used": 1, "feats": ["combat_reflexes"], "dex": 0}, False),
        # 001: "you cannot make an attack of opportunity when you're flat-footed (unless you have the Combat
        # Reflexes feat)"
        ({"conditions": ["flat_footed"]}, False),
        ({"conditions": ["flat_footed"], "feats": ["combat_reflexes"]}, True),
    ],
    ids=[
        "one-per-round",
        "combat-reflexes-dex-2-third",
        "combat-reflexes-dex-2-spent",
        "combat-reflexes-dex-0",
        "flat-footed",
        "flat-footed-combat-reflexes",
    ],
)
def test_combat_reflexes_and_flat_footed(orc, provokes):
    e = enc(c("Ethan", "E6"), foe("Orc", "F6", **orc))
    r = move(e, "Ethan", "D6")
    assert (attackers(r) == ["Orc"]) is provokes
    if not provokes:
        assert any(n.startswith("No AoO from Orc") for n in r.notes)


def test_reach_weapon_provokes_when_a_foe_steps_adjacent():
    # 001: "if you're armed with a reach weapon and a foe steps into a square adjacent to you, that foe's
    # movement triggers an attack of opportunity from you."
    e = enc(c("Ethan", "F4"), foe("Guard", "F6", reach_weapon=True))
    assert who_provokes(move(e, "Ethan", "F5")) == [("Guard", "F4", "leave-threatened")]
    # The adjacent band is the hollow of the ring: leaving it provokes nothing.
    e2 = enc(c("Ethan", "E5"), foe("Guard", "F6", reach_weapon=True))
    assert attackers(move(e2, "Ethan", "E4")) == []
    # PHB: 10 feet of reach threatens the diagonal two squares away.
    e3 = enc(c("Ethan", "D4"), foe("Guard", "F6", reach_weapon=True))
    assert who_provokes(move(e3, "Ethan", "E5")) == [("Guard", "D4", "leave-threatened")]


@pytest.mark.parametrize(("shape", "provokes"), [("tall", True), ("long", False)])
def test_large_tall_vs_long_corner(shape, provokes):
    # SRD Creature Size and Scale: Large tall 10 ft reach (corners two squares out), Large long 5 ft.
    e = enc(c("Ethan", "D4"), foe("Ogre", "F6", size="large", shape=shape))
    assert (attackers(move(e, "Ethan", "C3")) == ["Ogre"]) is provokes


def test_huge_with_reach_weapon_ignores_a_foe_close_in():
    # 001: "When you wield a reach weapon, you no longer threaten the darker squares."
    e = enc(c("Ethan", "M10"), foe("Giant", "J10", size="huge", reach_weapon=True), width=30, height=30)
    assert attackers(move(e, "Ethan", "N10")) == []  # leaving a square 5 ft away: in the hollow
    e2 = enc(c("Ethan", "P10"), foe("Giant", "J10", size="huge", reach_weapon=True), width=30, height=30)
    assert attackers(move(e2, "Ethan", "Q10")) == ["Giant"]  # 20 ft away: in the ring


def test_tiny_foe_reacts_only_to_entering_its_space():
    # 001: "A Tiny or smaller creature cannot make an attack of opportunity unless a foe actually enters
    # its space ... (This is the only case when entering a space triggers an attack of opportunity.)"
    e = enc(c("Ethan", "E6"), foe("Pixie", "F6", size="tiny"))
    assert attackers(move(e, "Ethan", "E7", "F7", "G7")) == []
    e2 = enc(c("Rat", "E6", size="tiny"), foe("Pixie", "F6", size="tiny"))
    assert who_provokes(move(e2, "Rat", "F6", "G6")) == [("Pixie", "E6", "enter-space")]


def test_reach_zero_with_reach_weapon_still_zero():
    # 001: "If your natural reach is 0, your reach is still 0 when you wield a reach weapon."
    e = enc(c("Ethan", "E6"), foe("Pixie", "F6", size="tiny", reach_weapon=True))
    assert attackers(move(e, "Ethan", "D6")) == []
    e2 = enc(
        c("Ethan", "E6"), foe("Pixie", "F6", size="tiny", reach_weapon=True), variants=("tiny_reach_weapons",)
    )
    assert attackers(move(e2, "Ethan", "D6")) == ["Pixie"]


@pytest.mark.parametrize(
    ("orc", "provokes"),
    [
        # 001: "If you're grappling, however, you don't threaten an area"
        ({"conditions": ["grappling"]}, False),
        # 001: "A creature threatens all squares into which it can make an armed melee attack."
        ({"armed": False}, False),
        # 001: "If you have a natural weapon or the Improved Unarmed Strike feat, you threaten the area"
        ({"armed": False, "feats": ["improved_unarmed_strike"]}, True),
        ({"conditions": ["unconscious"]}, False),
    ],
    ids=["grappling", "unarmed", "improved-unarmed-strike", "unconscious"],
)
def test_grappling_and_unarmed(orc, provokes):
    e = enc(c("Ethan", "E6"), foe("Orc", "F6", **orc))
    assert (attackers(move(e, "Ethan", "D6")) == ["Orc"]) is provokes


def test_cover_through_a_blocked_square():
    # 001 Cover: "You threaten a creature that has cover against your attacks, but you cannot make an
    # attack of opportunity against such a foe."
    e = enc(c("Ethan", "D2"), foe("Guard", "B2", reach_weapon=True), blocked=("C2",))
    r = move(e, "Ethan", "E2")
    assert attackers(r) == []
    assert r.notes == ["Ethan has cover from Guard at D2."]
    open_ = enc(c("Ethan", "D2"), foe("Guard", "B2", reach_weapon=True))
    assert attackers(move(open_, "Ethan", "E2")) == ["Guard"]


@pytest.mark.parametrize(
    ("ethan", "orc", "provokes"),
    [
        # 001: "You cannot make an attack of opportunity against a foe that you cannot see (unless you have
        # the blindsight special quality)"
        ({"conditions": ["invisible"]}, {}, False),
        ({"conditions": ["invisible"]}, {"senses": ["blindsight"]}, True),
        ({}, {"conditions": ["blinded"]}, False),
        ({}, {"conditions": ["blinded"], "senses": ["blindsight"]}, True),
    ],
    ids=["invisible-mover", "invisible-mover-blindsight", "blinded-foe", "blinded-foe-blindsight"],
)
def test_invisible_mover_vs_blindsight(ethan, orc, provokes):
    e = enc(c("Ethan", "E6", **ethan), foe("Orc", "F6", **orc))
    assert (attackers(move(e, "Ethan", "D6")) == ["Orc"]) is provokes


def test_allies_never_provoke():
    e = enc(c("Ethan", "E6"), c("Friend", "F6"))
    assert attackers(move(e, "Ethan", "D6")) == []


def test_large_mover_provokes_for_squares_it_vacates():
    # 001: "You provoke an attack of opportunity when you're in a square ... that a foe threatens and you
    # leave that square." A Large mover sliding along a foe keeps some squares: only vacated ones count.
    e = enc(c("Ogre", "B2", size="large"), foe("Orc", "D4"))
    assert who_provokes(move(e, "Ogre", "B3")) == []  # keeps C3; vacates B2, C2 (not threatened)
    assert who_provokes(move(e, "Ogre", "A2")) == [("Orc", "B2", "leave-threatened")]  # vacates C3


def test_several_foes_at_one_square_share_a_reaction_point():
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "E7"))
    r = move(e, "Ethan", "D5")
    assert len(r.points) == 1 and r.points[0].reactors == ["Orc", "Gob"]


def test_tumbling_into_a_foes_square_still_provokes():
    # 001: "If you tumble into a foe's square, you still provoke an attack of opportunity from that foe."
    e = enc(c("Rat", "E6", size="tiny"), foe("Pixie", "F6", size="tiny"))
    r = move(e, "Rat", "F6", "G6", mode="tumble")
    assert who_provokes(r) == [("Pixie", "E6", "enter-space")]
    assert "dc" not in r.opportunities[0].detail
    through = move(e, "Rat", "F6", "G6", mode="tumble-through")
    assert through.opportunities[0].detail["dc"] == 25
