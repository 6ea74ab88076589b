"""The `aphex` ruleset: action points on a hex map, interrupted movement (seed 000; SPEC §7.2)."""

from __future__ import annotations

from typing import Any

from rules.aphex import eligibility, flow, turns
from rules.aphex.adjudicate import MODES, adjudicate
from rules.aphex.catalogue import CATALOGUE
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.catalogue import CatalogueEntry
from rules.coords import Coord
from rules.engine import Action, Adjudication, Answer, ReactionPoint, Ruling


class AphexRuleset:
    """`rules.engine.Ruleset` for `aphex`."""

    name = "aphex"
    encounter_model: type[Any] = AphexEncounter
    combatant_model: type[Any] = AphexCombatant
    modes: tuple[str, ...] = MODES

    def adjudicate(self, encounter: Any, action: Action) -> Ruling:
        """Rule on an action before anyone reacts."""
        return adjudicate(encounter, action)

    def open_point(self, adj: Adjudication, point: ReactionPoint) -> None:
        """Ask the attackers who may pause the traveller after this AP."""
        flow.open_point(adj, point)

    def on_answer(self, adj: Adjudication, answer: Answer) -> None:
        """Apply an interrupt or outcome answer."""
        flow.on_answer(adj, answer)

    def finish(self, adj: Adjudication) -> None:
        """Move the traveller to where its movement ended."""
        flow.finish(adj)

    @property
    def catalogue(self) -> list[CatalogueEntry]:
        """The `/provokes` entries."""
        return CATALOGUE

    def threatened(self, encounter: Any, who: str) -> frozenset[Coord]:
        """Hexes where ``who`` could interrupt a traveller."""
        return eligibility.threatened(encounter, who)

    def start_turn(self, encounter: Any, who: str) -> Any:
        """The encounter as ``who``'s turn starts (stuns and barred natural abilities expire)."""
        return turns.start_turn(encounter, who)

    def turn_order(self, encounter: Any) -> list[str]:
        """Initiative order."""
        return turns.turn_order(encounter)


RULESET = AphexRuleset()

__all__ = ["RULESET", "AphexRuleset"]
