"""The `dnd35` ruleset (SPEC §7.1): D&D 3.5 attacks of opportunity on a square grid.

`RULESET` satisfies `rules.engine.Ruleset`; the modules behind it are small and have one job each:
geometry (space, reach, threatened squares, cover), creature (who threatens, who may react),
movement (modes, legality, cost), opportunities (who provokes where), actions (`/act`), catalogue
(`/provokes`), adjudicate (the `Ruling`), flow (questions, answers, the final state).
"""

from __future__ import annotations

from typing import Any

from rules.catalogue import CatalogueEntry
from rules.coords import Coord
from rules.dnd35 import flow
from rules.dnd35.adjudicate import adjudicate as _adjudicate
from rules.dnd35.catalogue import CATALOGUE
from rules.dnd35.creature import body, threat
from rules.dnd35.model import COMBATANT_MODEL, ENCOUNTER_MODEL, Dnd35Encounter
from rules.dnd35.movement import MODES
from rules.engine import Action, Adjudication, Answer, ReactionPoint, Ruling


class Dnd35Ruleset:
    """D&D 3.5 behind the `rules.engine.Ruleset` protocol."""

    name = "dnd35"
    encounter_model: type[Any] = ENCOUNTER_MODEL
    combatant_model: type[Any] = COMBATANT_MODEL
    modes: tuple[str, ...] = MODES

    def adjudicate(self, encounter: Dnd35Encounter, action: Action) -> Ruling:
        """Rule on an action before anyone reacts."""
        return _adjudicate(encounter, action)

    def open_point(self, adj: Adjudication, point: ReactionPoint) -> None:
        """Ask the questions a reaction point raises."""
        flow.open_point(adj, point)

    def on_answer(self, adj: Adjudication, answer: Answer) -> None:
        """Apply one answer."""
        flow.on_answer(adj, answer)

    def finish(self, adj: Adjudication) -> None:
        """Build the final encounter."""
        flow.finish(adj)

    @property
    def catalogue(self) -> list[CatalogueEntry]:
        """The `/provokes` entries."""
        return CATALOGUE

    def threatened(self, encounter: Dnd35Encounter, who: str) -> frozenset[Coord]:
        """Squares ``who`` threatens."""
        c = encounter.find(who)
        b = body(c, tuple(encounter.settings.variants))
        return frozenset(threat(b, encounter.map.width, encounter.map.height, encounter.map.blocked_set()))

    def start_turn(self, encounter: Dnd35Encounter, who: str) -> Dnd35Encounter:
        """Per-turn resets as ``who``'s turn starts."""
        return flow.start_turn(encounter, who)

    def turn_order(self, encounter: Dnd35Encounter) -> list[str]:
        """Initiative order."""
        return flow.turn_order(encounter)


RULESET = Dnd35Ruleset()
