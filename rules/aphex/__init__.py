"""The `aphex` ruleset: action points on a hex map, interrupted movement (seed 000; SPEC §7.2)."""

from __future__ import annotations

from rules.aphex import eligibility, flow, turns
from rules.aphex.adjudicate import MODES, adjudicate
from rules.aphex.catalogue import CATALOGUE
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.engine import Ruleset

RULESET = Ruleset(
    name="aphex",
    encounter_model=AphexEncounter,
    combatant_model=AphexCombatant,
    modes=MODES,
    catalogue=CATALOGUE,
    adjudicate=adjudicate,
    open_point=flow.open_point,  # the attackers who may pause the traveller after an AP
    on_answer=flow.on_answer,
    finish=flow.finish,
    threatened=eligibility.threatened,  # hexes where a figure could interrupt a traveller
    start_turn=turns.start_turn,  # stuns and barred natural abilities expire
    turn_order=turns.turn_order,
)

__all__ = ["RULESET"]
