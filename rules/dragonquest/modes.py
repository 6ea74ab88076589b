"""Movement modes of a non-engaged figure and their budgets in hexes of TMR (seed 003).

A mode may carry the facing the figure ends with: ``move:S``, ``charge:NE``. Without one the figure
keeps its facing (a charge with a target turns to face it; see `rules.dragonquest.movement`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import hexgrid
from rules.dragonquest.model import DragonquestCombatant
from rules.errors import InputError

MODES: tuple[str, ...] = ("move", "charge", "charge-close", "evade", "retreat", "fire", "pass", "crawl")
"""The modes, default first."""

ALIASES: dict[str, str] = {
    "normal": "move",
    "walk": "move",
    "charge-and-close": "charge-close",
    "close": "charge-close",
}

# Seed 003: "Figures with a modified Agility of 8 or less are allowed one less hex of movement when
# executing any of the following actions: Melee attack, Evade, Retreat, Pass, and Charge with a Pole Weapon."
SLOW_MODES = frozenset({"evade", "retreat", "pass", "pole-charge"})
# Seed 003: "Figures with a modified Agility of 22 through 25 are allowed one extra hex of movement when
# executing any of the following actions: Melee attack. Evade. Withdraw, Pass, and Retreat."
QUICK_MODES = frozenset({"evade", "retreat", "pass"})


@dataclass(frozen=True)
class Mode:
    """A parsed mode: its name and the facing (index) the figure should end with, if given."""

    name: str
    facing: int | None


def parse_mode(text: str | None) -> Mode:
    """Parse ``move``, ``charge:NE`` ...; an unknown mode or facing is an `InputError` naming the choices."""
    raw = (text or "move").strip().lower()
    base, sep, facing_text = raw.partition(":")
    base = "-".join(base.replace("_", " ").split())
    base = ALIASES.get(base, base)
    if base not in MODES:
        raise InputError(
            f"`{str(text)[:30]}` is not a DragonQuest mode; choose one of: {', '.join(MODES)} "
            "(add a final facing like `move:S`)."
        )
    facing: int | None = None
    if sep:
        name = facing_text.strip().upper()
        if name not in hexgrid.FACINGS:
            raise InputError(
                f"`{facing_text.strip()[:10]}` is not a facing; write the mode as `{base}:F` "
                f"with F one of {', '.join(hexgrid.FACINGS)}."
            )
        facing = hexgrid.facing_index(name)
    return Mode(base, facing)


def agility_adjustment(agility: int, kind: str) -> int:
    """Hexes the modified Agility adds to (or takes from) a mode's movement (seed 003)."""
    if agility <= 8:
        return -1 if kind in SLOW_MODES else 0
    if kind not in QUICK_MODES:
        return 0
    if agility >= 26:
        # Seed 003: "Figures with modified Agilities of 26 and above may increase its movement by two hexes."
        return 2
    if agility >= 22:
        return 1
    return 0


def budget(figure: DragonquestCombatant, mode: str) -> int:
    """The hexes of TMR the figure may spend in ``mode`` (before the one-hex minimum)."""
    tmr = figure.tmr
    kind = mode
    if mode == "move":
        base = tmr  # "may move any number of hexes up to its Tactical Movement Rate (TMR)"
    elif mode == "charge":
        if figure.weapon == "pole":
            # "may move up to his full TMR and attempt to Melee attack with a Pole weapon"
            base, kind = tmr, "pole-charge"
        else:
            base = tmr // 2  # "move up to 1/2 (rounded down) of his TMR and attempt to Melee attack"
    elif mode in ("charge-close", "evade"):
        base = tmr // 2  # "move up to 1/2 of his TMR (rounded down) and attempt to Grapple" / "and Evade"
    elif mode == "retreat":
        base = 2  # "may move up to 2 hexes directly backward, and this is a Retreat"
    elif mode == "pass":
        base = 2  # "may move up to two hexes and perform any Pass action"
    elif mode == "crawl":
        base = tmr // 4  # "crawl at a rate of 1/4 of his TMR (round all fractions down)"
    elif mode == "fire":
        base = fire_budget(figure)
    else:  # pragma: no cover - parse_mode only yields MODES
        raise ValueError(mode)
    return max(0, base + agility_adjustment(figure.agility, kind))


def fire_budget(figure: DragonquestCombatant) -> int:
    """Movement allowed with a fire action: none, except the seed's two exceptions."""
    allowed = 0
    if figure.weapon == "crossbow":
        # "(1) once a cross-bow is prepared and loaded ... movement of up to 2 hexes prior to or after firing"
        allowed = 2
    if figure.adept and figure.flying:
        # "(2) If an Adept or his mount is flying ... may move up to 1/2 (rounded down) of his ... TMR"
        allowed = max(allowed, figure.tmr // 2)
    return allowed
