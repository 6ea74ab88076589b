"""Non-move actions (`/act`) and the `/provokes` catalogue for dnd35."""

from __future__ import annotations

import pytest
from d35 import act, attackers, c, enc, foe

from rules.catalogue import lookup, suggest
from rules.dnd35 import RULESET
from rules.errors import InputError

# SPEC §7.1: the provoking non-move actions of the SRD table "Actions in Combat".
PROVOKING = [
    "cast-spell",
    "ranged-attack",
    "drink-potion",
    "stand-up",
    "pick-up-item",
    "retrieve-stored-item",
    "sheathe-weapon",
    "load-light-crossbow",
    "load-heavy-crossbow",
    "read-scroll",
    "use-spell-like-ability",
    "light-torch",
    "move-heavy-object",
    "deliver-coup-de-grace",
    "escape-net",
    "stabilize-dying-friend",
    "use-skill",
]
NOT_PROVOKING = ["melee-attack", "draw-weapon", "total-defense", "full-attack", "drop-item", "speak", "feint"]


def two_foes():
    return enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "D7"), foe("Far", "K11"))


@pytest.mark.parametrize("name", PROVOKING)
def test_provoking_actions_provoke_from_every_threatening_foe(name):
    # 001: "You provoke an attack of opportunity when you're in a square on the battlefield that a foe
    # threatens and you take some other action that provokes an attack of opportunity."
    r = act(two_foes(), "Ethan", name)
    assert [(o.attacker, o.at, o.trigger) for o in r.opportunities] == [
        ("Orc", "E6", "action"),
        ("Gob", "E6", "action"),
    ]
    assert r.path == ["E6"] and r.cost == 0


@pytest.mark.parametrize("name", NOT_PROVOKING)
def test_non_provoking_actions(name):
    r = act(two_foes(), "Ethan", name)
    assert r.legal and attackers(r) == [] and r.notes[0].startswith("Does not provoke")


def test_unthreatened_actor_provokes_nothing():
    # 001: "When no foes threaten you ... you can get away with an action that normally provokes an attack
    # of opportunity without actually provoking one."
    r = act(enc(c("Ethan", "A1"), foe("Orc", "F6")), "Ethan", "cast-spell")
    assert r.legal and attackers(r) == []


@pytest.mark.parametrize(
    ("name", "ethan", "expected"),
    [
        # SRD Unarmed Attacks: "provokes an attack of opportunity from the character you attack"
        ("unarmed-attack", {}, ["Orc"]),
        # SRD Improved Unarmed Strike: "You are considered to be armed even when unarmed"
        ("unarmed-attack", {"feats": ["improved_unarmed_strike"]}, []),
        ("disarm", {}, ["Orc"]),
        ("disarm", {"feats": ["improved_disarm"]}, []),
        ("grapple", {}, ["Orc"]),
        ("grapple", {"feats": ["improved_grapple"]}, []),
        ("sunder", {}, ["Orc"]),
        ("sunder", {"feats": ["improved_sunder"]}, []),
        ("overrun", {}, ["Orc"]),
        ("overrun", {"feats": ["improved_overrun"]}, []),
        # SRD Trip: "If you are using a weapon to trip, you don't provoke"; unarmed trips provoke.
        ("trip", {}, []),
        ("trip", {"armed": False}, ["Orc"]),
        ("trip", {"armed": False, "feats": ["improved_trip"]}, []),
        # SRD Bull Rush: "you provoke an attack of opportunity from each foe that threatens you, including
        # the defender"; Improved Bull Rush: not from the defender.
        ("bull-rush", {}, ["Gob", "Orc"]),  # the defender reacts to the entry into its space, last
        ("bull-rush", {"feats": ["improved_bull_rush"]}, ["Gob"]),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_targeted_maneuvers_provoke_only_from_the_target(name, ethan, expected):
    e = enc(c("Ethan", "E6", **ethan), foe("Orc", "F6"), foe("Gob", "D7"))
    assert attackers(act(e, "Ethan", name, target="Orc")) == expected


def test_targeted_maneuver_needs_a_target():
    r = act(two_foes(), "Ethan", "disarm")
    assert not r.legal and "target" in (r.error or "")


def test_cast_defensively_never_provokes():
    r = act(two_foes(), "Ethan", "cast-defensively")
    assert r.legal and attackers(r) == [] and "DC 15 + spell level" in r.notes[0]


def test_movement_names_point_to_move():
    r = act(two_foes(), "Ethan", "withdraw")
    assert not r.legal and "mode withdraw" in (r.error or "")


def test_aliases_are_understood():
    assert attackers(act(two_foes(), "Ethan", "stand up")) == ["Orc", "Gob"]
    assert attackers(act(two_foes(), "Ethan", "Drink Potion")) == ["Orc", "Gob"]


def test_unknown_action_is_input_error_with_suggestions():
    with pytest.raises(InputError, match="Did you mean"):
        act(two_foes(), "Ethan", "cast spel")


def test_barred_foes_are_noted():
    e = enc(c("Ethan", "E6", conditions=["invisible"]), foe("Orc", "F6"))
    r = act(e, "Ethan", "drink-potion")
    assert attackers(r) == [] and "cannot see" in r.notes[0]


def test_catalogue_covers_the_spec_actions():
    names = {e.action for e in RULESET.catalogue}
    assert set(PROVOKING) <= names
    assert {"unarmed-attack", "trip", "disarm", "grapple", "sunder", "bull-rush", "overrun"} <= names
    assert {"cast-defensively", "5-foot-step", "withdraw", "move"} <= names
    assert len(names) == len(RULESET.catalogue)  # no duplicates
    for entry in RULESET.catalogue:
        assert entry.reason and entry.source


@pytest.mark.parametrize(
    ("text", "action", "provokes"),
    [
        ("stand up", "stand-up", "yes"),
        ("drink potion", "drink-potion", "yes"),
        ("Cast a spell", "cast-spell", "yes"),
        ("5-foot step", "5-foot-step", "no"),
        ("trip", "trip", "sometimes"),
    ],
)
def test_provokes_lookup(text, action, provokes):
    entry = lookup("dnd35", text)
    assert (entry.action, entry.provokes) == (action, provokes)


def test_catalogue_exceptions_name_the_feats():
    assert any("Cast defensively" in x for x in lookup("dnd35", "cast-spell").exceptions)
    assert any("Improved Trip" in x for x in lookup("dnd35", "trip").exceptions)
    assert "001_1e16989ecf5349e6" in lookup("dnd35", "move").source
    assert suggest("dnd35", "dri")[0] == "drink-potion"


@pytest.mark.parametrize("name", ["overrun", "bull-rush"])
def test_overrun_and_bull_rush_enter_the_defenders_space(name):
    # 001: "A Tiny or smaller creature cannot make an attack of opportunity unless a foe actually enters its
    # space, such as when a foe tries to make an overrun or bull rush attack."
    e = enc(c("Ethan", "E6"), foe("Pixie", "F6", size="tiny"))
    r = act(e, "Ethan", name, target="Pixie")
    assert [(o.attacker, o.at, o.trigger) for o in r.opportunities] == [("Pixie", "E6", "enter-space")]


def test_bull_rush_defender_reacts_to_the_entry_after_the_others():
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"), foe("Gob", "D7"))
    r = act(e, "Ethan", "bull-rush", target="Orc")
    assert [(o.attacker, o.trigger) for o in r.opportunities] == [("Gob", "action"), ("Orc", "enter-space")]
