"""What goes on a map, worked out from the encounter and a ruling before any pixel is drawn:
token initials, the numbered reaction markers, aphex AP boundaries, the region of interest and
the threat overlay."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from render.geometry import space
from rules.coords import Coord, format_coord, parse_coord
from rules.engine import Ruling
from rules.errors import InputError, OpportunistError
from rules.model import Encounter

HEX_RULESETS = frozenset({"aphex", "dragonquest"})

_WORDS = re.compile(r"[^\W\d_]+|\d+")


def is_hex(encounter: Encounter) -> bool:
    """True if the encounter's map is a hex map."""
    return encounter.ruleset in HEX_RULESETS


# -- initials ------------------------------------------------------------------------------------


def _candidates(name: str) -> list[str]:
    words = _WORDS.findall(name.upper())
    letters = [w for w in words if not w.isdigit()]
    digits = [w for w in words if w.isdigit()]
    out: list[str] = []
    if digits and letters and len(digits[-1]) <= 2:
        # "Goblin 2" -> G2, "Orc Archer 12" -> O12 / OA2-style clashes fall through to the next.
        num = digits[-1]
        room = 3 - len(num)
        out.append("".join(w[0] for w in letters)[:room] + num)
        out.append(letters[0][:room] + num)
    if len(letters) >= 2:
        out.append("".join(w[0] for w in letters[:3]))
        out.append(letters[0][0] + letters[-1][0])
        out.append(letters[0][:2] + letters[-1][0])
    word = "".join(letters) or "".join(digits) or name.upper()
    out.append(word[:2])
    out.extend(word[0] + ch for ch in word[2:])
    out.append(word[:3])
    out.extend(word[:2] + ch for ch in word[3:])
    if digits:
        out.append(digits[-1][-3:])
    return [c for c in dict.fromkeys(out) if c]


def initials(names: Sequence[str]) -> dict[str, str]:
    """Token text for each name: 1-3 characters, upper-case, different for every name.

    Earlier names get first pick, so adding a combatant never changes the initials of those before it.
    """
    taken: set[str] = set()
    out: dict[str, str] = {}
    for name in names:
        choice = next((c for c in _candidates(name) if c not in taken), None)
        n = 2
        head = (_candidates(name) or ["?"])[0][0]
        while choice is None:
            guess = f"{head}{n}"
            if guess not in taken:
                choice = guess
            n += 1
        taken.add(choice)
        out[name] = choice
    return out


# -- what a combatant occupies -------------------------------------------------------------------


def footprint(combatant: Any) -> list[Coord]:
    """Every square a combatant occupies (``at`` is the top-left of a multi-square dnd35 creature)."""
    col, row = combatant.pos
    n = space(getattr(combatant, "size", None))
    return [(col + dc, row + dr) for dr in range(n) for dc in range(n)]


# -- ruling overlays -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Marker:
    """A numbered reaction marker: ``number`` is 1-based, in the order the reactions resolve."""

    number: int
    coord: Coord | None  # None if the ruling gives no place (drawn in the legend only)
    who: str | None  # the reacting combatant
    trigger: str
    windows: tuple[int, ...] | None = None

    @property
    def label(self) -> str:
        """Legend text, e.g. ``Ogre at C3 (leave-threatened)``."""
        parts = [self.who or "reaction"]
        if self.coord is not None and not self.windows:
            parts.append(f"at {format_coord(self.coord)}")
        if self.windows:
            parts.append("after AP " + ", ".join(str(w) for w in self.windows))
        return f"{' '.join(parts)} ({self.trigger})"


def _coord(label: str | None) -> Coord | None:
    if label is None:
        return None
    try:
        return parse_coord(label)
    except OpportunistError:
        return None


def _path(ruling: Ruling) -> list[Coord]:
    return [c for c in (_coord(p) for p in ruling.path) if c is not None]


def _stride(encounter: Encounter, ruling: Ruling) -> int:
    mover = encounter.get(ruling.who)
    return int(getattr(mover, "stride", 0) or 0)


def ap_boundaries(encounter: Encounter, ruling: Ruling) -> list[tuple[int, Coord]]:
    """aphex: ``(k, hex)`` where the traveller stands after spending AP k, for every k before the last
    (the moments an enemy may interrupt; SPEC §7.2). Empty for other rulesets."""
    if encounter.ruleset != "aphex":
        return []
    path = _path(ruling)
    stride = _stride(encounter, ruling)
    if stride < 1 or len(path) < 2:
        return []
    hexes = len(path) - 1
    spent = math.ceil(hexes / stride)
    return [(k, path[k * stride]) for k in range(1, spent) if k * stride < len(path)]


def reaction_markers(encounter: Encounter, ruling: Ruling) -> list[Marker]:
    """The numbered reaction markers of a ruling: one per opportunity, numbered 1, 2, ... in the
    order of ``ruling.opportunities`` (falling back to ``ruling.points`` when a ruling lists points
    but no opportunities). Message texts should number reactions the same way.

    Each sits where the mover stands when it resolves: the opportunity's ``at``, else the square of
    its reaction point (``path[point.step]``), else (aphex) the hex after its first AP window.
    """
    path = _path(ruling)
    stride = _stride(encounter, ruling)

    def from_step(step: int) -> Coord | None:
        return path[step] if 0 <= step < len(path) else None

    out: list[Marker] = []
    if ruling.opportunities:
        for i, opp in enumerate(ruling.opportunities, start=1):
            where = _coord(opp.at)
            if where is None and 0 <= opp.point < len(ruling.points) and not opp.windows:
                point = ruling.points[opp.point]
                where = _coord(point.at) or from_step(point.step)
            if where is None and opp.windows and stride >= 1:
                where = from_step(min(opp.windows) * stride)
            windows = tuple(opp.windows) if opp.windows else None
            out.append(Marker(i, where, opp.attacker, opp.trigger, windows))
        return out
    for i, point in enumerate(ruling.points, start=1):
        where = _coord(point.at) or from_step(point.step)
        who = ", ".join(point.reactors) or None
        out.append(Marker(i, where, who, point.trigger))
    return out


def stop_coord(ruling: Ruling) -> Coord | None:
    """dragonquest: where movement must stop (``ruling.stop_at``), if anywhere."""
    return _coord(ruling.stop_at)


def ruling_path(ruling: Ruling) -> list[Coord]:
    """The ruling's path as coordinates (starting square first)."""
    return _path(ruling)


# -- threat overlays -----------------------------------------------------------------------------


def _threatened(encounter: Encounter, name: str) -> frozenset[Coord]:
    from rules.rulesets import get_ruleset

    try:
        ruleset = get_ruleset(encounter.ruleset)
    except (ImportError, AttributeError):
        raise InputError(f"Threat overlays for {encounter.ruleset} are not available yet.") from None
    return frozenset(ruleset.threatened(encounter, name))


def side_members(encounter: Encounter, side: str) -> list[str]:
    """Names of the combatants on a side (case-insensitive match of the side name)."""
    wanted = side.strip().casefold()
    return [c.name for c in encounter.combatants if c.side.casefold() == wanted]


def threat_overlay(encounter: Encounter, who_or_side: str) -> frozenset[Coord]:
    """Squares/hexes threatened by a combatant, or by every member of a side, per its ruleset.

    A combatant name wins over a side of the same name; an unknown name is an `InputError`.
    """
    wanted = who_or_side.strip().casefold()
    combatant = next((c for c in encounter.combatants if c.name.casefold() == wanted), None)
    names = [combatant.name] if combatant is not None else side_members(encounter, who_or_side)
    if not names:
        known = ", ".join(c.name for c in encounter.combatants[:10]) or "none"
        sides = ", ".join(dict.fromkeys(c.side for c in encounter.combatants)) or "none"
        raise InputError(
            f"No combatant or side called `{who_or_side.strip()[:32]}`. Combatants: {known}. Sides: {sides}."
        )
    out: set[Coord] = set()
    for name in names:
        out |= _threatened(encounter, name)
    return frozenset(c for c in out if encounter.map.contains(c))


def focus_names(encounter: Encounter, focus: str | None) -> list[str]:
    """The combatants a focus names: one combatant, or every member of a side; [] for None."""
    if focus is None:
        return []
    wanted = focus.strip().casefold()
    for c in encounter.combatants:
        if c.name.casefold() == wanted:
            return [c.name]
    return side_members(encounter, focus)


def interest(
    encounter: Encounter, threatened: Iterable[Coord], ruling: Ruling | None, focus: str | Coord | None
) -> set[Coord]:
    """The cells a cropped view must show: the ruling's path and reactors, the focus, the overlay."""
    cells: set[Coord] = set(threatened)
    if isinstance(focus, tuple):
        cells.add(focus)
    elif isinstance(focus, str):
        for name in focus_names(encounter, focus):
            cells.update(footprint(encounter.get(name)))
    if ruling is not None:
        cells.update(_path(ruling))
        mover = encounter.get(ruling.who)
        if mover is not None:
            cells.update(footprint(mover))
        for marker in reaction_markers(encounter, ruling):
            if marker.coord is not None:
                cells.add(marker.coord)
            reactor = encounter.get(marker.who) if marker.who else None
            if reactor is not None:
                cells.update(footprint(reactor))
    return {c for c in cells if encounter.map.contains(c)}
