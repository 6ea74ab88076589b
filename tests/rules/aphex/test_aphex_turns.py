"""Turns in `aphex`: a stun lasting through the enemies' next turn, natural abilities barred for a turn,
no automatic reloading, initiative order."""

from __future__ import annotations

import pytest
from aphex_support import archer, drive, encounter, final, move, rule, script, traveller, windows

from rules.aphex import RULESET
from rules.errors import InputError


def stunned_ethan():
    """Ethan, stunned after AP 1 of his run by the Orc (who holds a second, loaded crossbow ready)."""
    enc = encounter(
        traveller("A6", ap=4, stride=2, weapon="missile", range=30),
        archer("Orc", "E2"),
    )
    adj, _ = drive(enc, move("Ethan", "I6"), script({"Orc": (1, "stunned")}))
    after = final(adj)
    # The Orc reloads on its own turn in these tests so that only the stun is being checked.
    return after.replace_combatant(after.get("Orc").model_copy(update={"loaded": True}))


def test_stun_lasts_through_the_enemies_next_turn():
    # 000_...txt: "Ethan is hit and stunned, ending his turn. His four enemies may then advance upon him
    # for their turn; after they have moved, Ethan will remained stunned, until his enemies move again.
    # Thereafter, if Ethan is not stunned again, he will be able to take action."
    enc = stunned_ethan()
    assert enc.get("Ethan").at == "C6" and enc.get("Ethan").has("stunned")

    # The enemies' turn: Ethan is stunned, so he cannot interrupt the Orc's run either.
    enc = RULESET.start_turn(enc, "Orc")
    assert enc.get("Ethan").has("stunned")
    assert windows(rule(enc, "Orc", "E10")) == {}

    # Ethan's own turn: still stunned, no action ("no action for full round after the enemy's next round").
    enc = RULESET.start_turn(enc, "Ethan")
    assert enc.get("Ethan").has("stunned")
    refused = rule(enc, "Ethan", "D6")
    assert not refused.legal and "stunned" in refused.error

    # "until his enemies move again": the stun is over when their next turn starts.
    enc = RULESET.start_turn(enc, "Orc")
    ethan = enc.get("Ethan")
    assert not ethan.has("stunned") and ethan.stun_turns == 0
    assert windows(rule(enc, "Orc", "E10")) != {}

    enc = RULESET.start_turn(enc, "Ethan")
    assert rule(enc, "Ethan", "D6").legal


def test_a_hand_set_stun_stays_until_removed():
    enc = encounter(traveller("A6", conditions=["stunned"]), archer("Orc", "E2"))
    for who in ("Orc", "Ethan", "Orc", "Ethan", "Orc"):
        enc = RULESET.start_turn(enc, who)
    assert enc.get("Ethan").has("stunned")


def barred_beast(weapon):
    """Beast (on the foes' side) has just interrupted Ethan with ``weapon``; Pal moves next."""
    enc = encounter(
        traveller("A6", ap=4, stride=2),
        {"name": "Pal", "side": "party", "at": "A8", "ap": 4, "stride": 2},
        {"name": "Beast", "at": "E4", "weapon": weapon, "range": 10},
    )
    adj, _ = drive(enc, move("Ethan", "I6"), script({"Beast": (1, "hit")}))
    return final(adj)


def test_natural_ability_barred_through_the_attackers_next_turn():
    # 000_...txt: "natural abilities can be employed, but with the proviso that the specific ability used
    # cannot be used again on the attacker's turn following."
    enc = barred_beast("natural")
    assert enc.get("Beast").natural_barred
    enc = RULESET.start_turn(enc, "Pal")
    assert windows(rule(enc, "Pal", "I8")) == {}  # still barred before its turn
    enc = RULESET.start_turn(enc, "Beast")
    assert enc.get("Beast").natural_barred  # barred on "the attacker's turn following"
    enc = RULESET.start_turn(enc, "Ethan")
    assert not enc.get("Beast").natural_barred
    assert windows(rule(enc, "Pal", "I8")) == {"Beast": [1, 2, 3]}


def test_wand_usable_again_at_once():
    # 000_...txt: "Wand, staves, rods ... without restriction of using the item again on the attacker's turn."
    enc = barred_beast("wand")
    assert not enc.get("Beast").natural_barred
    enc = RULESET.start_turn(enc, "Pal")
    assert windows(rule(enc, "Pal", "I8")) == {"Beast": [1, 2, 3]}


@pytest.mark.parametrize(("weapon", "field"), [("missile", "loaded"), ("thrown", "in_hand")])
def test_reloading_and_redrawing_are_the_players_job(weapon, field):
    # 000_...txt: "When the attacker gains their turn, it should be noted that they have fired or thrown
    # their weapon, and must therefore load or draw a new weapon to take its place."
    enc = barred_beast(weapon)
    for who in ("Pal", "Beast", "Ethan", "Beast"):
        enc = RULESET.start_turn(enc, who)
    assert getattr(enc.get("Beast"), field) is False
    assert windows(rule(enc, "Pal", "I8")) == {}


def test_start_turn_does_not_change_its_input():
    enc = barred_beast("natural")
    RULESET.start_turn(enc, "Beast")
    assert enc.get("Beast").natural_bar_served is False


def test_start_turn_unknown_combatant():
    with pytest.raises(InputError):
        RULESET.start_turn(encounter(traveller()), "Nobody")


def test_turn_order_follows_initiative_then_the_file():
    enc = encounter(traveller("A6"), archer("Orc", "E2"), archer("Gob", "G2"))
    assert RULESET.turn_order(enc) == ["Ethan", "Orc", "Gob"]
    enc = enc.model_copy(update={"initiative": ["Gob", "Ethan"]})
    assert RULESET.turn_order(enc) == ["Gob", "Ethan", "Orc"]
