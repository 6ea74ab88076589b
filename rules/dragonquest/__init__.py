"""The `dragonquest` ruleset (SPEC §7.3, seed 003_3defe2e1570abee3.txt): TMR movement modes, Melee Zones
that stop movement, Charge and Close with the defender's Repulse, and the Concentration and Perception
rolls of acts. ``RULESET`` is the `rules.engine.Ruleset` the registry hands out."""

from __future__ import annotations

from typing import Any

from rules.catalogue import CatalogueEntry
from rules.coords import Coord
from rules.dragonquest import acts, flow, movement, turns, zones
from rules.dragonquest.catalogue import CATALOGUE
from rules.dragonquest.model import COMBATANT_MODEL, ENCOUNTER_MODEL, DragonquestEncounter
from rules.dragonquest.modes import MODES
from rules.engine import Action, Adjudication, Answer, ReactionPoint, Ruling


class DragonquestRuleset:
    """DragonQuest tactical rules behind the `rules.engine.Ruleset` protocol."""

    name = "dragonquest"
    encounter_model: type[Any] = ENCOUNTER_MODEL
    combatant_model: type[Any] = COMBATANT_MODEL
    modes: tuple[str, ...] = MODES

    def adjudicate(self, encounter: DragonquestEncounter, action: Action) -> Ruling:
        """Rule on a move or an act before anyone reacts."""
        if action.kind == "act":
            return acts.adjudicate_act(encounter, action)
        return movement.plan(encounter, action).ruling

    def open_point(self, adj: Adjudication, point: ReactionPoint) -> None:
        """Ask the Repulse, Concentration or Perception question of a point."""
        flow.open_point(adj, point)

    def on_answer(self, adj: Adjudication, answer: Answer) -> None:
        """Apply one answer."""
        flow.on_answer(adj, answer)

    def finish(self, adj: Adjudication) -> None:
        """Build the final state."""
        flow.finish(adj)

    @property
    def catalogue(self) -> list[CatalogueEntry]:
        """The `/provokes` entries of this ruleset."""
        return CATALOGUE

    def threatened(self, encounter: DragonquestEncounter, who: str) -> frozenset[Coord]:
        """The figure's Melee Zone on the map (empty for an incapacitated figure)."""
        figure = encounter.find(who)
        if not zones.has_zone(figure):
            return frozenset()
        return zones.melee_zone(encounter, figure)

    def start_turn(self, encounter: DragonquestEncounter, who: str) -> DragonquestEncounter:
        """The encounter as ``who`` starts to act."""
        return turns.start_turn(encounter, who)

    def turn_order(self, encounter: DragonquestEncounter) -> list[str]:
        """Engaged figures first, then non-engaged ones, each in initiative order."""
        return turns.turn_order(encounter)


RULESET = DragonquestRuleset()

__all__ = ["RULESET", "DragonquestRuleset"]
