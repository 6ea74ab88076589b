"""The `dnd35` ruleset (SPEC §7.1): D&D 3.5 attacks of opportunity on a square grid.

`RULESET` satisfies `rules.engine.Ruleset`; the modules behind it are small and have one job each:
geometry (space, reach, threatened squares, cover), creature (who threatens, who may react),
movement (modes, legality, cost), opportunities (who provokes where), actions (`/act`), catalogue
(`/provokes`), adjudicate (the `Ruling`), flow (questions, answers, the final state).
"""

from __future__ import annotations

from rules.coords import Coord
from rules.dnd35 import flow
from rules.dnd35.adjudicate import adjudicate
from rules.dnd35.catalogue import CATALOGUE
from rules.dnd35.creature import body, threat
from rules.dnd35.model import COMBATANT_MODEL, ENCOUNTER_MODEL, Dnd35Encounter
from rules.dnd35.movement import MODES
from rules.engine import Ruleset


def threatened(encounter: Dnd35Encounter, who: str) -> frozenset[Coord]:
    """Squares ``who`` threatens."""
    c = encounter.find(who)
    b = body(c, tuple(encounter.settings.variants))
    return frozenset(threat(b, encounter.map.width, encounter.map.height, encounter.map.blocked_set()))


RULESET = Ruleset(
    name="dnd35",
    encounter_model=ENCOUNTER_MODEL,
    combatant_model=COMBATANT_MODEL,
    modes=MODES,
    catalogue=CATALOGUE,
    adjudicate=adjudicate,
    open_point=flow.open_point,
    on_answer=flow.on_answer,
    finish=flow.finish,
    threatened=threatened,
    start_turn=flow.start_turn,
    turn_order=flow.turn_order,
)
