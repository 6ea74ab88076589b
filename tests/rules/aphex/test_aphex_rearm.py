"""Reloading and drawing on one's own turn re-arms an attacker (seed 000, "Conditions")."""

from __future__ import annotations

import pytest
from aphex_support import archer, encounter, traveller

from rules.engine import Action, begin


@pytest.mark.parametrize("name", ["reload", "load crossbow", "draw weapon"])
def test_reload_or_draw_makes_the_weapon_usable_again(name):
    # 000_700d95b3c74e1117.txt: "When the attacker gains their turn, it should be noted that they have fired
    # or thrown their weapon, and must therefore load or draw a new weapon to take its place."
    enc = encounter(traveller("A6"), archer("Archer", "D1", loaded=False, in_hand=False))
    adj = begin(enc, Action(kind="act", who="Archer", name=name))
    assert adj.complete and not adj.ruling.opportunities
    after = adj.working.get("Archer")
    assert after.loaded and after.in_hand
    assert [e.kind for e in adj.events if e.kind == "rearmed"] == ["rearmed"]


def test_other_actions_do_not_reload():
    enc = encounter(traveller("A6"), archer("Archer", "D1", loaded=False))
    adj = begin(enc, Action(kind="act", who="Archer", name="use-wand"))
    assert not adj.working.get("Archer").loaded
