"""The encounter model: the pydantic types behind the encounter file of SPEC §3.

Ruleset modules subclass `Combatant` and `Encounter` with their own fields; `rules.encounter_file`
loads and exports them. Validation messages name the field and the combatant.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.coords import MAX_SIDE, Coord, format_coord, parse_coord
from rules.errors import InputError

MAX_COMBATANTS = 200
MAX_NAME = 32
NAME_PATTERN = re.compile(r"^[^\W_](?:[\w '\-]*[\w'])?$")
"""1-32 chars of letters, digits, space, -, _ and ' (SPEC §3); no leading/trailing space."""


def check_name(name: str) -> str:
    """Validate a combatant name as SPEC §3 fixes it; return it unchanged."""
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"a name must be 1-{MAX_NAME} characters long")
    if not NAME_PATTERN.match(name):
        raise ValueError(
            "a name may only use letters, digits, spaces, -, _ and ', and must start with a letter or digit"
        )
    return name


class Strict(BaseModel):
    """Base of every file model: unknown keys are errors, values are re-validated on assignment."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class MapSpec(Strict):
    """The battlefield: size plus impassable and difficult squares/hexes."""

    width: int = Field(ge=1, le=MAX_SIDE)
    height: int = Field(ge=1, le=MAX_SIDE)
    blocked: list[str] = Field(default_factory=list)
    difficult: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _labels_on_map(self) -> MapSpec:
        for key in ("blocked", "difficult"):
            labels: list[str] = getattr(self, key)
            normalised = []
            for label in labels:
                try:
                    normalised.append(format_coord(parse_coord(label, self.width, self.height)))
                except InputError as exc:
                    raise ValueError(f"map.{key}: {exc.message}") from None
            if normalised != labels:
                object.__setattr__(self, key, normalised)
        return self

    def blocked_set(self) -> frozenset[Coord]:
        """Blocked squares as coordinates."""
        return frozenset(parse_coord(label) for label in self.blocked)

    def difficult_set(self) -> frozenset[Coord]:
        """Difficult squares as coordinates."""
        return frozenset(parse_coord(label) for label in self.difficult)

    def contains(self, coord: Coord) -> bool:
        """True if the coordinate is on the map."""
        return 0 <= coord[0] < self.width and 0 <= coord[1] < self.height


class EncounterSettings(Strict):
    """Per-encounter settings (SPEC §3)."""

    prompt_timeout: int = Field(default=120, ge=0, le=30 * 24 * 3600)
    on_timeout: Literal["decline", "gm"] = "decline"
    variants: list[str] = Field(default_factory=list)
    aoo_reset: Literal["turn", "round"] = "turn"


class Combatant(Strict):
    """Fields every ruleset shares. Rulesets subclass this with their own fields and conditions."""

    CONDITIONS: ClassVar[frozenset[str]] = frozenset()

    name: str
    side: str = Field(min_length=1, max_length=32)
    player: int | None = Field(default=None, ge=1, le=2**63 - 1)
    at: str
    conditions: list[str] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value)

    @field_validator("at")
    @classmethod
    def _at(cls, value: str) -> str:
        try:
            return format_coord(parse_coord(value))
        except InputError as exc:
            raise ValueError(exc.message) from None

    @field_validator("conditions")
    @classmethod
    def _conditions(cls, value: list[str]) -> list[str]:
        unknown = [c for c in value if c not in cls.CONDITIONS]
        if unknown:
            allowed = ", ".join(sorted(cls.CONDITIONS)) or "none"
            raise ValueError(f"unknown condition {unknown[0]!r}; this ruleset knows: {allowed}")
        # Keep the user's order but drop repeats, so a condition is either on or off.
        return list(dict.fromkeys(value))

    @property
    def pos(self) -> Coord:
        """Where the combatant stands (its top-left square for multi-square creatures)."""
        return parse_coord(self.at)

    def has(self, condition: str) -> bool:
        """True if the combatant has the condition."""
        return condition in self.conditions

    def hostile_to(self, other: Combatant) -> bool:
        """Combatants on different sides are hostile to each other (SPEC §3)."""
        return self.side != other.side


class Encounter(Strict):
    """One channel's encounter. Rulesets subclass it to fix `ruleset` and the combatant type."""

    VARIANTS: ClassVar[frozenset[str]] = frozenset()

    ruleset: str
    map: MapSpec
    round: int = Field(default=1, ge=1)
    initiative: list[str] = Field(default_factory=list)
    turn: str | None = None
    settings: EncounterSettings = Field(default_factory=EncounterSettings)
    combatants: list[Any] = Field(default_factory=list, max_length=MAX_COMBATANTS)

    @model_validator(mode="after")
    def _consistent(self) -> Encounter:
        seen: set[str] = set()
        for c in self.combatants:
            key = c.name.casefold()
            if key in seen:
                raise ValueError(f"combatants: the name {c.name!r} is used twice; names must be unique")
            seen.add(key)
            if not self.map.contains(c.pos):
                raise ValueError(
                    f"combatant {c.name!r}: at {c.at} is off the map (A1 to "
                    f"{format_coord((self.map.width - 1, self.map.height - 1))})"
                )
            if c.at in self.map.blocked:
                raise ValueError(f"combatant {c.name!r}: at {c.at} is a blocked square")
        names = {c.name for c in self.combatants}
        for name in self.initiative:
            if name not in names:
                raise ValueError(f"initiative: {name!r} is not a combatant")
        if len(set(self.initiative)) != len(self.initiative):
            raise ValueError("initiative: a combatant is listed twice")
        if self.turn is not None and self.turn not in names:
            raise ValueError(f"turn: {self.turn!r} is not a combatant")
        unknown = [v for v in self.settings.variants if v not in self.VARIANTS]
        if unknown:
            allowed = ", ".join(sorted(self.VARIANTS)) or "none"
            raise ValueError(
                f"settings.variants: unknown variant {unknown[0]!r}; this ruleset knows: {allowed}"
            )
        return self

    # -- lookups -------------------------------------------------------------------------------

    def find(self, name: str) -> Any:
        """The combatant called ``name`` (case-insensitive), or an `InputError` naming the choices."""
        wanted = name.strip().casefold()
        for c in self.combatants:
            if c.name.casefold() == wanted:
                return c
        # Names and the echoed input sit in code spans, so neither can turn into formatting; a typed
        # backtick is dropped so it cannot close the span early.
        known = ", ".join(f"`{c.name}`" for c in self.combatants[:10]) or "none yet"
        shown = name[:32].replace("`", "")
        raise InputError(f"No combatant called `{shown}` here. Combatants: {known}.")

    def get(self, name: str) -> Any | None:
        """The combatant called ``name`` exactly, or None."""
        for c in self.combatants:
            if c.name == name:
                return c
        return None

    def others(self, who: Combatant) -> Iterator[Any]:
        """Every combatant except ``who``."""
        return (c for c in self.combatants if c.name != who.name)

    def foes(self, who: Combatant) -> Iterator[Any]:
        """Every combatant hostile to ``who``."""
        return (c for c in self.combatants if c.hostile_to(who))

    def coord(self, label: str) -> Coord:
        """Parse a label against this map (off-map labels are `InputError`)."""
        return parse_coord(label, self.map.width, self.map.height)

    def replace_combatant(self, new: Combatant) -> Encounter:
        """A copy with the combatant of the same name replaced."""
        combatants = [new if c.name == new.name else c for c in self.combatants]
        return self.model_copy(update={"combatants": combatants})


def parse_stats(text: str) -> dict[str, Any]:
    """Parse ``key=value`` pairs (``size=large feats=combat_reflexes,mobility dex=3``) into raw data.

    Values stay strings (lists split on commas) for the ruleset's pydantic model to coerce, so its
    error names the exact bad key or value.
    """
    data: dict[str, Any] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise InputError(f"`{token[:40]}` is not `key=value`; write stats like `size=large dex=3`.")
        key = key.strip().lower()
        if key in data:
            raise InputError(f"`{key[:32]}` is given twice.")
        if key in ("feats", "senses", "conditions", "variants"):
            data[key] = [v for v in value.split(",") if v] if value else []
        elif value.lower() in ("yes", "true", "on"):
            data[key] = True
        elif value.lower() in ("no", "false", "off"):
            data[key] = False
        elif value.lower() in ("none", "default", ""):
            data[key] = None
        else:
            data[key] = value
    return data


def apply_stats(combatant: Combatant, text: str, *, protected: frozenset[str] = frozenset()) -> Combatant:
    """A copy of ``combatant`` with ``key=value`` stats applied; an `InputError` names the bad key/value."""
    from pydantic import ValidationError

    changes = parse_stats(text)
    model = type(combatant)
    for key in changes:
        if key in protected or key not in model.model_fields:
            known = ", ".join(k for k in model.model_fields if k not in protected)
            raise InputError(f"`{key[:32]}` is not a stat here. Stats: {known}.")
    data = combatant.model_dump()
    for key, value in changes.items():
        if value is None:
            field = model.model_fields[key]
            data[key] = field.get_default(call_default_factory=True)
        else:
            data[key] = value
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        key = ".".join(str(p) for p in err["loc"])
        shown = changes.get(str(err["loc"][0]), "")
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise InputError(f"`{key}={str(shown)[:40]}`: {msg}.") from None
