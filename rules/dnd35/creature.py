"""Plain per-call snapshots of dnd35 combatants and the rules about who threatens and who may react.

The adjudicator reads each pydantic combatant once into a `Body` (a slotted dataclass) so the hot
loops never touch pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.coords import Coord, parse_coord
from rules.dnd35 import geometry
from rules.dnd35.model import Dnd35Combatant, Dnd35Encounter

# SPEC §7.1: "helpless/stunned/unconscious/paralyzed/dead creatures threaten nothing".
INCAPABLE = frozenset({"helpless", "stunned", "unconscious", "paralyzed", "dead"})
MANEUVERS = ("disarm", "trip", "grapple", "sunder")


@dataclass(frozen=True, slots=True)
class Body:
    """What the rules need to know about one combatant, read once per adjudication."""

    name: str
    side: str
    pos: Coord
    side_len: int
    size: str
    inner: int
    outer: int
    armed: bool
    reach_weapon: bool
    speed: int
    dex: int
    feats: frozenset[str]
    senses: frozenset[str]
    conditions: frozenset[str]
    aoo_used: int
    aoo_against: frozenset[str]
    moved: bool
    stepped: bool

    def has(self, condition: str) -> bool:
        """True if the combatant has the condition."""
        return condition in self.conditions

    def feat(self, feat: str) -> bool:
        """True if the combatant has the feat."""
        return feat in self.feats

    @property
    def squares(self) -> list[Coord]:
        """Every square of its space."""
        return geometry.space(self.pos, self.side_len)


@lru_cache(maxsize=4096)
def label_coord(label: str) -> Coord:
    """`parse_coord` of a stored (already validated) label, cached: labels repeat on every call."""
    return parse_coord(label)


def body(c: Dnd35Combatant, variants: list[str] | tuple[str, ...]) -> Body:
    """Snapshot a combatant."""
    inner, outer = geometry.reach_band(c.size, c.shape, c.reach, c.reach_weapon, variants)
    return Body(
        name=c.name,
        side=c.side,
        pos=label_coord(c.at),
        side_len=geometry.SPACE_SIDE[c.size],
        size=c.size,
        inner=inner,
        outer=outer,
        armed=c.armed,
        reach_weapon=c.reach_weapon,
        speed=c.speed,
        dex=c.dex,
        feats=frozenset(c.feats),
        senses=frozenset(c.senses),
        conditions=frozenset(c.conditions),
        aoo_used=c.aoo_used,
        aoo_against=frozenset(c.aoo_against),
        moved=c.moved,
        stepped=c.stepped,
    )


def bodies(enc: Dnd35Encounter) -> dict[str, Body]:
    """Snapshot every combatant, by name."""
    variants = tuple(enc.settings.variants)
    return {c.name: body(c, variants) for c in enc.combatants}


def threatens_anything(b: Body) -> str | None:
    """None if ``b`` threatens squares at all, else the reason it threatens nothing."""
    bad = sorted(b.conditions & INCAPABLE)
    if bad:
        return f"{b.name} is {bad[0]} and threatens nothing"
    if b.has("grappling"):
        # seed: "If you're grappling, however, you don't threaten an area, no matter how many weapons"
        return f"{b.name} is grappling and threatens nothing"
    if not b.armed and not b.feat("improved_unarmed_strike"):
        # seed: "A creature threatens all squares into which it can make an armed melee attack."
        return f"{b.name} is unarmed (no Improved Unarmed Strike) and threatens nothing"
    return None


def threat(b: Body, width: int, height: int, blocked: frozenset[Coord]) -> set[Coord]:
    """Squares ``b`` threatens (empty if it threatens nothing); blocked squares are left out."""
    if threatens_anything(b) is not None:
        return set()
    squares = geometry.threatened_squares(b.pos, b.side_len, b.inner, b.outer, width, height)
    if blocked:
        squares.difference_update(blocked)
    return squares


def allowance(b: Body) -> int:
    """AoOs per round: 1, or 1 + Dexterity bonus with Combat Reflexes (seed: "one extra attack of
    opportunity per point of Dexterity bonus")."""
    return 1 + max(0, b.dex) if b.feat("combat_reflexes") else 1


def sees(observer: Body, target: Body) -> bool:
    """Whether ``observer`` can see (or discern through blindsight) ``target``."""
    if "blindsight" in observer.senses:
        # seed: "The blindsight special quality negates foes' concealment when they're within range."
        return True
    return not observer.has("blinded") and not target.has("invisible")


def barred(foe: Body, mover: Body, used: int | None = None) -> str | None:
    """Why ``foe`` cannot take an AoO against ``mover`` whatever the square (None if it can).

    ``used`` overrides the stored AoO count (a chain spends AoOs while the action is in flight).
    """
    why = threatens_anything(foe)
    if why is not None:
        return why
    if foe.has("flat_footed") and not foe.feat("combat_reflexes"):
        # seed: "you cannot make an attack of opportunity when you're flat-footed (unless you have
        # the Combat Reflexes feat)"
        return f"{foe.name} is flat-footed"
    if not sees(foe, mover):
        # seed: "You cannot make an attack of opportunity against a foe that you cannot see (unless
        # you have the blindsight special quality)"
        if foe.has("blinded"):
            return f"{foe.name} is blinded and has no blindsight"
        return f"{foe.name} cannot see the invisible {mover.name}"
    spent = foe.aoo_used if used is None else used
    if spent >= allowance(foe):
        return f"{foe.name} has no attack of opportunity left this round"
    return None


def mobility_note(mover: Body, foe: Body) -> str | None:
    """The Mobility reminder for an AoO provoked by movement, or None without the feat."""
    if not mover.feat("mobility"):
        return None
    if not sees(mover, foe):
        # seed: "A dodge bonus, however, doesn't help you when you're denied your Dexterity bonus"
        return f"{mover.name} has Mobility but cannot see {foe.name}: no dodge bonus against this attack"
    return f"{mover.name} has Mobility: +4 dodge bonus to AC against this attack"


def occupying(bs: dict[str, Body], exclude: str) -> dict[Coord, list[Body]]:
    """Square -> the combatants whose space covers it (except ``exclude``)."""
    result: dict[Coord, list[Body]] = {}
    for b in bs.values():
        if b.name == exclude:
            continue
        for sq in b.squares:
            result.setdefault(sq, []).append(b)
    return result


def can_pass(mover: Body, other: Body) -> bool:
    """Whether ``mover`` may move through ``other``'s space (SRD "Moving Through a Square")."""
    if other.side == mover.side:
        return True
    if other.conditions & {"helpless", "unconscious", "paralyzed", "dead"}:
        return True
    if geometry.tiny_or_smaller(mover.size):
        return True
    return abs(geometry.size_index(mover.size) - geometry.size_index(other.size)) >= 3
