"""Who may interrupt a traveller, and from where (seed 000, "Conditions"; SPEC §7.2)."""

from __future__ import annotations

from rules import hexgrid
from rules.aphex.model import AphexCombatant, AphexEncounter
from rules.coords import Coord

# Weapons that may pause a traveller. Seed 000: "to attack with a missile weapon or sufficiently
# reaching pole arm"; natural abilities and wands "can be employed"/"can be used".
INTERRUPTING = frozenset({"missile", "thrown", "polearm", "wand", "natural"})
# Seed 000: "the attacker must have the weapon used for the attack in hand". A natural ability is
# not held, so it needs no hand.
HELD = frozenset({"missile", "thrown", "polearm", "wand"})


def interrupt_distance(attacker: AphexCombatant) -> int:
    """How far, in hexes, the attacker's interrupting weapon reaches: `reach` for a polearm, else `range`."""
    return attacker.reach if attacker.weapon == "polearm" else attacker.range


def engaged_with(encounter: AphexEncounter, attacker: AphexCombatant) -> list[AphexCombatant]:
    """The hostile figures adjacent to the attacker (the melee it is engaged in)."""
    around = set(hexgrid.neighbours(attacker.pos))
    return [c for c in encounter.foes(attacker) if c.pos in around]


def barred_reason(
    encounter: AphexEncounter, attacker: AphexCombatant, traveller: AphexCombatant | None
) -> str | None:
    """Why ``attacker`` cannot interrupt ``traveller`` at all (None if it can, range aside).

    With ``traveller`` None (a map overlay: any traveller) an attacker next to one foe is not
    engaged against that foe, so only two or more adjacent foes count.
    """
    if attacker.weapon not in INTERRUPTING:
        return "has only a melee weapon, which cannot interrupt movement"
    if attacker.weapon in HELD and not attacker.in_hand:
        return f"has no {attacker.weapon} weapon in hand"
    # Seed 000: "In the case of fired weapons, the weapon must be loaded." A thrown weapon is not
    # fired: it only needs to be in hand.
    if attacker.weapon == "missile" and not attacker.loaded:
        return "has a missile weapon that is not loaded"
    if attacker.has("stunned"):
        return "is stunned"
    if attacker.has("engaged"):
        return "is engaged in melee"
    adjacent = engaged_with(encounter, attacker)
    if traveller is not None:
        others = [c.name for c in adjacent if c.name != traveller.name]
        if others:
            return f"is engaged in melee with {', '.join(others)}"
    elif len(adjacent) >= 2:
        return "is engaged in melee"
    if attacker.weapon == "natural" and attacker.natural_barred:
        return "used its natural ability to interrupt and may not use it again until after its next turn"
    return None


def covers(
    encounter: AphexEncounter,
    attacker: AphexCombatant,
    target: Coord,
    blocked: frozenset[Coord] | None = None,
) -> bool:
    """True if ``target`` is within the attacker's range/reach in hexes, with line of effect."""
    here = attacker.pos
    if target == here or hexgrid.distance(here, target) > interrupt_distance(attacker):
        return False
    # SPEC §3: blocked hexes "also block line of effect"; figures do not.
    walls = encounter.map.blocked_set() if blocked is None else blocked
    return hexgrid.has_line_of_effect(here, target, walls)


def windows(encounter: AphexEncounter, attacker: AphexCombatant, stops: dict[int, Coord]) -> list[int]:
    """The AP counts k (keys of ``stops``: where the traveller stands after k AP) the attacker covers."""
    blocked = encounter.map.blocked_set()
    return [k for k, where in sorted(stops.items()) if covers(encounter, attacker, where, blocked)]


def threatened(encounter: AphexEncounter, who: str) -> frozenset[Coord]:
    """Hexes of the map where ``who`` could interrupt a traveller (empty if it cannot interrupt)."""
    attacker: AphexCombatant = encounter.find(who)
    if barred_reason(encounter, attacker, None) is not None:
        return frozenset()
    blocked = encounter.map.blocked_set()
    return frozenset(
        h
        for h in hexgrid.within(attacker.pos, interrupt_distance(attacker))
        if encounter.map.contains(h) and h not in blocked and covers(encounter, attacker, h, blocked)
    )
