"""The `dragonquest` ruleset (SPEC §7.3, seed 003_3defe2e1570abee3.txt): TMR movement modes, Melee Zones
that stop movement, Charge and Close with the defender's Repulse, and the Concentration and Perception
rolls of acts. ``RULESET`` is the `rules.engine.Ruleset` the registry hands out."""

from __future__ import annotations

from rules.coords import Coord
from rules.dragonquest import acts, flow, movement, turns, zones
from rules.dragonquest.catalogue import CATALOGUE
from rules.dragonquest.model import COMBATANT_MODEL, ENCOUNTER_MODEL, DragonquestEncounter
from rules.dragonquest.modes import MODES
from rules.engine import Action, Ruleset, Ruling


def adjudicate(encounter: DragonquestEncounter, action: Action) -> Ruling:
    """Rule on a move or an act before anyone reacts."""
    if action.kind == "act":
        return acts.adjudicate_act(encounter, action)
    return movement.plan(encounter, action).ruling


def threatened(encounter: DragonquestEncounter, who: str) -> frozenset[Coord]:
    """The figure's Melee Zone on the map (empty for an incapacitated figure)."""
    figure = encounter.find(who)
    if not zones.has_zone(figure):
        return frozenset()
    return zones.melee_zone(encounter, figure)


RULESET = Ruleset(
    name="dragonquest",
    encounter_model=ENCOUNTER_MODEL,
    combatant_model=COMBATANT_MODEL,
    modes=MODES,
    catalogue=CATALOGUE,
    adjudicate=adjudicate,
    open_point=flow.open_point,  # the Repulse, Concentration or Perception question of a point
    on_answer=flow.on_answer,
    finish=flow.finish,
    threatened=threatened,
    start_turn=turns.start_turn,  # clears `evading`
    turn_order=turns.turn_order,  # engaged figures first, then the rest, each in initiative order
)

__all__ = ["RULESET"]
