"""`aphex` combatant fields and encounter type (SPEC §7.2)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.model import Combatant, Encounter

Weapon = Literal["missile", "thrown", "polearm", "melee", "wand", "natural"]


class AphexCombatant(Combatant):
    """A combatant of the action-point hex system."""

    CONDITIONS: ClassVar[frozenset[str]] = frozenset({"stunned", "engaged"})

    ap: int = Field(default=5, ge=0, le=50)
    stride: int = Field(default=2, ge=0, le=50)
    weapon: Weapon = "melee"
    range: int = Field(default=10, ge=0, le=200)
    reach: int = Field(default=2, ge=0, le=20)
    loaded: bool = True
    in_hand: bool = True
    # Turn-scoped state the seed asks us to remember: a natural ability used for an AoO is barred on
    # the attacker's next turn; a stunned traveller sits out until its foes have moved again.
    natural_barred: bool = False
    # True once the barred turn has started; the bar lifts at the next turn start after it.
    natural_bar_served: bool = False
    # Turn starts until a stun from an interruption wears off (see rules.aphex.turns.start_turn).
    stun_turns: int = Field(default=0, ge=0)


class AphexEncounter(Encounter):
    """An encounter on a hex map under the action-point rules."""

    ruleset: Literal["aphex"] = "aphex"
    combatants: list[AphexCombatant] = Field(default_factory=list, max_length=200)


ENCOUNTER_MODEL = AphexEncounter
COMBATANT_MODEL = AphexCombatant
