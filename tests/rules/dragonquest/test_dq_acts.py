"""Acts: Concentration, Perception, Close combat, attack positions, the catalogue.

Every case cites seed 003_3defe2e1570abee3.txt.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.catalogue import lookup
from rules.dragonquest import RULESET
from rules.engine import Action, answer, begin
from rules.errors import InputError

# The seeds live beside the repository in the team's shared folder, not in the package.
SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "003_3defe2e1570abee3.txt"

# The Mage at E10 facing N; foes placed around it per case.
UNDER_ATTACK = [
    # 003_...txt: "If an Adept attempts to cast a spell while either being Ranged attacked or Melee attacked,
    # he must perform a Concentration Check 4 X WP."
    ("melee-attacker-facing-the-mage", [("Orc", "E11", "N", "melee")], True),
    ("adjacent-foe-facing-away", [("Orc", "E11", "S", "melee")], False),
    ("archer-with-mage-in-ranged-zone", [("Archer", "E15", "N", "missile")], True),
    ("archer-facing-away", [("Archer", "E15", "S", "missile")], False),
    ("swordsman-at-range-cannot-attack", [("Orc", "E15", "N", "melee")], False),
    ("no-foes", [], False),
]


@pytest.mark.parametrize(("foes", "check"), [u[1:] for u in UNDER_ATTACK], ids=[u[0] for u in UNDER_ATTACK])
def test_cast_spell_concentration_when_attacked(dq, foes, check):
    figures = [dq.fig("Mage", "E10", adept=True, wp=14)]
    figures += [dq.fig(n, at, side="foes", facing=f, weapon=w) for n, at, f, w in foes]
    ruling = dq.act(dq.enc(*figures), "Mage", "cast-spell")
    assert ruling.legal, ruling.error
    assert ruling.opportunities == []  # DragonQuest has no attacks of opportunity
    if check:
        [point] = ruling.points
        assert point.detail["check"] == "concentration" and point.detail["target"] == 56
        assert any("56" in note and "4 x WP" in note for note in ruling.notes)
    else:
        assert ruling.points == []


@pytest.mark.parametrize(("choice", "foiled"), [("passed", False), ("failed", True)])
def test_concentration_through_the_engine(dq, choice, foiled):
    # 003_...txt: "If either check results in the Adept's concentration being broken, the spell may not be
    # cast."
    enc = dq.enc(dq.fig("Mage", "E10", adept=True, wp=14), dq.fig("Orc", "E11", side="foes", facing="N"))
    adj = begin(enc, Action(kind="act", who="Mage", name="cast-spell"))
    [q] = adj.open
    assert (q.kind, q.asked, q.choices, q.timeout_choice) == (
        "concentration",
        "Mage",
        ["passed", "failed"],
        "failed",
    )
    assert q.detail["target"] == 56
    done = answer(adj, q.id, choice)
    assert done.complete and done.foiled is foiled


def test_no_spells_in_close_combat(dq):
    # 003_...txt: "No spell work of any kind is allowed in Close combat, but Talent Magic may be activated at
    # any time"
    enc = dq.enc(dq.fig("Mage", "E10", adept=True), dq.fig("Orc", "E10", side="foes"))
    ruling = dq.act(enc, "Mage", "cast-spell")
    assert not ruling.legal and "Close combat" in (ruling.error or "")
    assert dq.act(enc, "Mage", "talent-magic").legal


def test_only_adepts_cast(dq):
    enc = dq.enc(dq.fig("Fighter", "E10"))
    assert not dq.act(enc, "Fighter", "cast-spell").legal


@pytest.mark.parametrize(("choice", "foiled"), [("passed", False), ("failed", True)])
def test_obscured_attack_needs_perception(dq, choice, foiled):
    # 003_...txt: "he may attempt to strike if he first rolls less than or equal to four times his Perception
    # on D100. If the roll is above this result, the attack may not take place"
    enc = dq.enc(dq.fig("Hero", "E10", perception=12), dq.fig("Orc", "E9", side="foes"))
    ruling = dq.act(enc, "Hero", "melee-attack-obscured", target="Orc")
    assert ruling.legal and ruling.points[0].detail == {"check": "perception", "target": 48}
    adj = begin(enc, Action(kind="act", who="Hero", name="melee-attack-obscured", target="Orc"))
    [q] = adj.open
    assert q.kind == "perception" and q.detail["target"] == 48
    assert answer(adj, q.id, choice).foiled is foiled


POSITIONS = [
    # 003_...txt: "A figure may only Melee attack a hostile figure he is adjacent to and who occupies at least
    # one hex of his Melee Zone."
    ("melee-attack-in-melee-zone", "melee-attack", "E9", True),
    ("melee-attack-behind", "melee-attack", "E11", False),
    ("melee-attack-not-adjacent", "melee-attack", "E8", False),
    # 003_...txt: "A figure may only Grapple a hostile figure in the same hex."
    ("grapple-same-hex", "grapple", "E10", True),
    ("grapple-adjacent", "grapple", "E9", False),
    # 003_...txt: "A figure may only Fire at a hostile figure who occupies at least one hex of his Ranged
    # Zone."
    ("fire-ranged-zone", "fire", "E5", True),
    ("fire-melee-zone", "fire", "E9", False),
    ("fire-behind", "fire", "E14", False),
]


@pytest.mark.parametrize(
    ("act", "foe_at", "legal"), [p[1:] for p in POSITIONS], ids=[p[0] for p in POSITIONS]
)
def test_attack_positions(dq, act, foe_at, legal):
    enc = dq.enc(dq.fig("Hero", "E10", facing="N", weapon="missile"), dq.fig("Orc", foe_at, side="foes"))
    ruling = dq.act(enc, "Hero", act, target="Orc")
    assert ruling.legal is legal, ruling.error
    assert ruling.points == []


STUN = [
    # 003_...txt: "A figure who becomes stunned may attempt no other action except try to recover from being
    # Stunned. A figure who becomes incapacitated can do nothing."
    ("stunned-may-recover", ["stunned"], "recover", True),
    ("stunned-may-not-cast", ["stunned"], "cast-spell", False),
    ("stunned-may-not-attack", ["stunned"], "melee-attack", False),
    ("incapacitated-may-not-recover", ["incapacitated"], "recover", False),
    ("incapacitated-may-not-use-talent", ["incapacitated"], "talent-magic", False),
    ("not-stunned-nothing-to-recover", [], "recover", False),
]


@pytest.mark.parametrize(("conditions", "act", "legal"), [s[1:] for s in STUN], ids=[s[0] for s in STUN])
def test_stunned_and_incapacitated_acts(dq, conditions, act, legal):
    enc = dq.enc(dq.fig("Mage", "E10", adept=True, conditions=conditions))
    ruling = dq.act(enc, "Mage", act)
    assert ruling.legal is legal, ruling.error


def test_unknown_act_is_input_error(dq):
    enc = dq.enc(dq.fig("Hero", "E10"))
    with pytest.raises(InputError):
        dq.act(enc, "Hero", "juggle")


# --- the catalogue behind /provokes ---------------------------------------------------------------


def test_catalogue_covers_every_mode_and_act():
    names = {e.action for e in RULESET.catalogue}
    assert set(RULESET.modes) <= names
    assert {"cast-spell", "melee-attack", "melee-attack-obscured", "grapple", "recover"} <= names


@pytest.mark.skipif(not SEED.exists(), reason="the seed text is not beside this checkout")
def test_catalogue_sources_quote_the_seed():
    seed = " ".join(SEED.read_text().split())
    for entry in RULESET.catalogue:
        quoted = re.search(r'"(.+)"', entry.source)
        assert quoted and entry.source.startswith("003_3defe2e1570abee3.txt"), entry.action
        assert " ".join(quoted.group(1).split()) in seed, entry.action


@pytest.mark.parametrize(
    ("text", "action", "provokes"),
    [
        ("charge and close", "charge-close", "yes"),  # the Repulse
        ("Move", "move", "sometimes"),  # the Melee Zone stop
        ("cast", "cast-spell", "no"),  # a Concentration check, not a reaction
        ("prepare weapon", "pass", "sometimes"),
    ],
)
def test_catalogue_lookup(text, action, provokes):
    entry = lookup("dragonquest", text)
    assert (entry.action, entry.provokes) == (action, provokes)
