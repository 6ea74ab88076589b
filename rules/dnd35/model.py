"""`dnd35` combatant fields and encounter type (SPEC §7.1)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.model import Combatant, Encounter

Size = Literal["fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"]
Feat = Literal[
    "combat_reflexes",
    "mobility",
    "spring_attack",
    "ride_by_attack",
    "improved_unarmed_strike",
    "improved_bull_rush",
    "improved_disarm",
    "improved_grapple",
    "improved_overrun",
    "improved_sunder",
    "improved_trip",
]
Sense = Literal["blindsight"]


class Dnd35Combatant(Combatant):
    """A D&D 3.5 combatant. ``reach`` None means "from size and shape" (SRD Creature Size and Scale)."""

    CONDITIONS: ClassVar[frozenset[str]] = frozenset(
        {
            "flat_footed",
            "grappling",
            "prone",
            "stunned",
            "unconscious",
            "helpless",
            "paralyzed",
            "blinded",
            "invisible",
            "dead",
        }
    )

    size: Size = "medium"
    shape: Literal["tall", "long"] = "tall"
    reach: int | None = Field(default=None, ge=0, le=100, multiple_of=5)
    speed: int = Field(default=30, ge=0, le=500, multiple_of=5)
    armed: bool = True
    reach_weapon: bool = False
    dex: int = Field(default=0, ge=-5, le=30)
    feats: list[Feat] = Field(default_factory=list)
    senses: list[Sense] = Field(default_factory=list)
    # Per-round state (SPEC §7.1): AoOs made this round, moved this turn, and the movers this
    # combatant has already had its one movement opportunity against this round.
    aoo_used: int = Field(default=0, ge=0)
    moved: bool = False
    stepped: bool = False  # took a 5-foot step this turn: no other movement (SRD "5-Foot Step")
    aoo_against: list[str] = Field(default_factory=list)


class Dnd35Encounter(Encounter):
    """An encounter on a square grid under D&D 3.5 rules."""

    VARIANTS: ClassVar[frozenset[str]] = frozenset({"tiny_reach_weapons", "reach_weapon_up_close"})

    ruleset: Literal["dnd35"] = "dnd35"
    combatants: list[Dnd35Combatant] = Field(default_factory=list, max_length=200)


ENCOUNTER_MODEL = Dnd35Encounter
COMBATANT_MODEL = Dnd35Combatant
