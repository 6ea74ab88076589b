"""`/provokes` entries for `aphex`: only movement can be interrupted (seed 000)."""

from __future__ import annotations

from rules.catalogue import CatalogueEntry

SEED = "seed 000_700d95b3c74e1117.txt"

_ONLY_MOVEMENT = (
    f'{SEED}: "An attack of opportunity may occur if any combatant travels with a stride greater than '
    '1 hex per action point (AP)." Only travelling is ever paused.'
)

CATALOGUE: list[CatalogueEntry] = [
    CatalogueEntry(
        action="move",
        aliases=["travel", "run", "walk", "interrupted movement"],
        provokes="sometimes",
        reason=(
            "A traveller with a stride over 1 hex per AP may be paused once by each eligible enemy, "
            "after any AP spent except the last."
        ),
        exceptions=[
            "A stride of 1 hex per AP or less is never interrupted.",
            "No attack after the traveller's last AP is spent: the opportunity is lost.",
            "Only missile, thrown, wand and natural-ability attackers in range, or a pole-arm within "
            "reach, with line of effect; melee weapons cannot interrupt.",
            "The attacker needs its weapon in hand (loaded, if fired) and must be neither engaged in "
            "melee nor stunned.",
            "A hit that stuns ends the movement; the traveller loses its next turn.",
        ],
        source=(
            f"{SEED}: \"Each enemy within reach of the travelling combatant may, on the traveller's turn, "
            'pause the traveller after the expenditure of 1 AP" and "No attacker may make an attack of '
            "opportunity once the traveller's last AP is spent.\""
        ),
    ),
    CatalogueEntry(
        action="fire-missile",
        aliases=["fire", "shoot", "ranged attack", "ranged-attack", "missile attack"],
        provokes="no",
        reason="Only movement is interrupted in this system; firing provokes nothing.",
        exceptions=[
            "Fired as an interruption, the weapon is unloaded until the attacker reloads on its own turn."
        ],
        source=_ONLY_MOVEMENT,
    ),
    CatalogueEntry(
        action="throw-weapon",
        aliases=["throw", "thrown attack"],
        provokes="no",
        reason="Only movement is interrupted in this system; throwing provokes nothing.",
        exceptions=["Thrown as an interruption, the weapon is gone until the attacker draws another."],
        source=(
            f'{SEED}: "it should be noted that they have fired or thrown their weapon, and must therefore '
            'load or draw a new weapon to take its place."'
        ),
    ),
    CatalogueEntry(
        action="melee-attack",
        aliases=["attack", "melee", "strike"],
        provokes="no",
        reason="Only movement is interrupted in this system; a melee weapon can never interrupt.",
        source=(
            f'{SEED}: "pause the traveller after the expenditure of 1 AP, to attack with a missile weapon '
            'or sufficiently reaching pole arm."'
        ),
    ),
    CatalogueEntry(
        action="pole-arm-attack",
        aliases=["polearm", "pole arm", "polearm attack"],
        provokes="no",
        reason="Only movement is interrupted; a pole-arm within reach may itself interrupt a traveller.",
        exceptions=["After an interruption the pole-arm is still usable on the attacker's turn."],
        source=(
            f'{SEED}: "If the attack of opportunity was made with a pole-arm, then this weapon can be used '
            "on the attacker's normal turn.\""
        ),
    ),
    CatalogueEntry(
        action="cast-spell",
        aliases=["cast", "spell"],
        provokes="no",
        reason="Only movement is interrupted in this system; casting provokes nothing.",
        exceptions=["A spell can never be the interrupting attack."],
        source=f'{SEED}: "Spells cannot be cast." (of the attacker making an attack of opportunity)',
    ),
    CatalogueEntry(
        action="use-wand",
        aliases=["wand", "staff", "rod", "use staff", "use rod", "magic item"],
        provokes="no",
        reason="Only movement is interrupted; a wand, staff or rod may itself interrupt a traveller.",
        exceptions=["Used to interrupt, the item may still be used on the attacker's next turn."],
        source=(
            f'{SEED}: "Wand, staves, rods and other magic items that may be used similarly can be used to '
            "make an attack of opportunity, without restriction of using the item again on the attacker's "
            'turn."'
        ),
    ),
    CatalogueEntry(
        action="use-natural-ability",
        aliases=["natural ability", "natural attack", "breath weapon"],
        provokes="no",
        reason="Only movement is interrupted; a natural ability may itself interrupt a traveller.",
        exceptions=["Used to interrupt, that ability cannot be used on the attacker's next turn."],
        source=(
            f'{SEED}: "natural abilities can be employed, but with the proviso that the specific ability '
            "used cannot be used again on the attacker's turn following.\""
        ),
    ),
    CatalogueEntry(
        action="reload",
        aliases=["load", "load-weapon", "load crossbow", "draw-weapon", "draw", "draw weapon"],
        provokes="no",
        reason="Only movement is interrupted in this system; loading or drawing provokes nothing.",
        exceptions=["An unloaded missile weapon or an empty hand cannot interrupt until this is done."],
        source=(
            f'{SEED}: "the attacker must have the weapon used for the attack in hand. In the case of fired '
            'weapons, the weapon must be loaded."'
        ),
    ),
]
