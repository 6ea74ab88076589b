"""Facing, zones and engagement (seed 003: "Melee Zone", "Ranged Zone", "non-engaged figure").

A figure's Melee Zone is the three hexes across its faced side and the two sides beside it; its
Ranged Zone is the rest of the same 120-degree forward arc. A figure is engaged when it stands next
to (or in the hex of) a hostile figure.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules import hexgrid
from rules.coords import Coord
from rules.dragonquest.model import DragonquestCombatant, DragonquestEncounter


def facing_of(figure: DragonquestCombatant) -> int:
    """The figure's facing as an index into `rules.hexgrid.FACINGS`."""
    return hexgrid.facing_index(figure.facing)


def melee_zone(encounter: DragonquestEncounter, figure: DragonquestCombatant) -> frozenset[Coord]:
    """The figure's Melee Zone hexes that lie on the map."""
    front = hexgrid.front_hexes(figure.pos, facing_of(figure))
    return frozenset(h for h in front if encounter.map.contains(h))


def in_melee_zone(figure: DragonquestCombatant, hex_: Coord) -> bool:
    """True if ``hex_`` is one of the three hexes of the figure's Melee Zone."""
    return hex_ in hexgrid.front_hexes(figure.pos, facing_of(figure))


def in_ranged_zone(figure: DragonquestCombatant, hex_: Coord) -> bool:
    """True if ``hex_`` lies in the forward arc beyond the Melee Zone."""
    return hexgrid.distance(figure.pos, hex_) >= 2 and hexgrid.in_forward_arc(
        figure.pos, facing_of(figure), hex_
    )


def can_act(figure: DragonquestCombatant) -> bool:
    """False for figures the seed lets do (almost) nothing: stunned or incapacitated."""
    return not (figure.has("stunned") or figure.has("incapacitated"))


def has_zone(figure: DragonquestCombatant) -> bool:
    """True if the figure's Melee Zone stops movement (an incapacitated figure "can do nothing")."""
    return not figure.has("incapacitated")


def hostiles(encounter: DragonquestEncounter, figure: DragonquestCombatant) -> Iterator[DragonquestCombatant]:
    """Every figure hostile to ``figure``."""
    return (c for c in encounter.combatants if c.hostile_to(figure))


def engaged_with(encounter: DragonquestEncounter, figure: DragonquestCombatant) -> list[DragonquestCombatant]:
    """The hostile figures adjacent to (or sharing the hex of) ``figure``; an incapacitated figure, which
    "can do nothing", engages nobody."""
    return [
        c
        for c in hostiles(encounter, figure)
        if not c.has("incapacitated") and hexgrid.distance(c.pos, figure.pos) <= 1
    ]


def is_engaged(encounter: DragonquestEncounter, figure: DragonquestCombatant) -> bool:
    """Seed 003: "A non-engaged figure is one who is not adjacent to any hostile figure"."""
    return bool(engaged_with(encounter, figure))


def in_close_combat(encounter: DragonquestEncounter, figure: DragonquestCombatant) -> bool:
    """True if a hostile figure shares the figure's hex (Close combat)."""
    return any(c.pos == figure.pos for c in hostiles(encounter, figure))


def zones_holding(
    encounter: DragonquestEncounter, figure: DragonquestCombatant, hex_: Coord
) -> list[DragonquestCombatant]:
    """The hostile figures (to ``figure``) whose Melee Zone contains ``hex_``."""
    return [c for c in hostiles(encounter, figure) if has_zone(c) and in_melee_zone(c, hex_)]
