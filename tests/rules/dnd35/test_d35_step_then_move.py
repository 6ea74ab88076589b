"""A 5-foot step is the whole of a turn's movement (SRD "5-Foot Step")."""

from __future__ import annotations

from d35 import c, enc, foe, move

from rules.dnd35 import RULESET
from rules.engine import Action, begin


def test_no_other_movement_after_a_five_foot_step():
    # 001_1e16989ecf5349e6.txt: "you can take a 5-foot step only if you don't perform any other movement
    # during your turn"; SRD: "You can't take a 5-foot step in the same round that you move any distance."
    e = enc(c("Ethan", "E6"), foe("Orc", "F6"))
    stepped = begin(e, Action(kind="move", who="Ethan", path=["D6"], mode="step"))
    after = stepped.working
    assert after.get("Ethan").stepped and after.get("Ethan").at == "D6"
    ruling = move(after, "Ethan", "C6")
    assert not ruling.legal and "5-foot step" in (ruling.error or "")
    # The next turn starts fresh.
    fresh = RULESET.start_turn(after, "Ethan")
    assert move(fresh, "Ethan", "C6").legal
