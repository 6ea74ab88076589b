"""`dragonquest` combatant fields and encounter type (SPEC §7.3)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.model import Combatant, Encounter

Facing = Literal["N", "NE", "SE", "S", "SW", "NW"]


class DragonquestCombatant(Combatant):
    """A DragonQuest figure."""

    CONDITIONS: ClassVar[frozenset[str]] = frozenset({"stunned", "incapacitated", "evading"})

    tmr: int = Field(default=5, ge=0, le=50)
    agility: int = Field(default=15, ge=0, le=60)
    facing: Facing = "N"
    weapon: Literal["melee", "pole", "missile", "crossbow"] = "melee"
    flying: bool = False
    adept: bool = False
    wp: int = Field(default=15, ge=0, le=60)
    perception: int = Field(default=10, ge=0, le=60)


class DragonquestEncounter(Encounter):
    """An encounter on a hex map under DragonQuest tactical rules."""

    ruleset: Literal["dragonquest"] = "dragonquest"
    combatants: list[DragonquestCombatant] = Field(default_factory=list, max_length=200)


ENCOUNTER_MODEL = DragonquestEncounter
COMBATANT_MODEL = DragonquestCombatant
