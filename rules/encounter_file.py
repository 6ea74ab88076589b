"""The encounter file of SPEC §3: load YAML or JSON, validate with messages a GM can act on, export.

Export is canonical: the same encounter always gives the same bytes, and load -> export -> load is
the identity. Per-combatant fields left at their default are omitted so files stay short.
"""

from __future__ import annotations

import json
from typing import Any

import yaml
from pydantic import ValidationError

from rules.errors import EncounterFileError
from rules.model import Encounter
from rules.rulesets import RULESET_NAMES, encounter_model

MAX_FILE_BYTES = 1024 * 1024


MAX_NESTING = 64


class _SafeLoader(yaml.SafeLoader):
    """SafeLoader that also refuses YAML aliases, so a tiny file cannot expand into a huge one, and
    nesting deeper than `MAX_NESTING` (composing is recursive: `[[[[...` would hit Python's limit)."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise EncounterFileError("YAML aliases (*name) are not allowed in an encounter file.")
        if self._depth >= MAX_NESTING:
            raise EncounterFileError(
                f"The file is nested more than {MAX_NESTING} levels deep; an encounter file needs a few."
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def parse_text(text: str | bytes) -> Any:
    """Parse YAML or JSON (JSON is YAML) into plain data; a syntax error names the line."""
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            raise EncounterFileError(f"The file is {len(text) // 1024} KB; the limit is 1 MB.")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise EncounterFileError("The file is not UTF-8 text; save it as UTF-8 YAML or JSON.") from None
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise EncounterFileError("The file is over 1 MB; the limit is 1 MB.")
    try:
        return yaml.load(text, Loader=_SafeLoader)  # noqa: S506 - _SafeLoader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise EncounterFileError(f"The file is not valid YAML or JSON{where}: {exc.problem}.") from None
    except yaml.YAMLError as exc:
        raise EncounterFileError(f"The file is not valid YAML or JSON: {str(exc)[:120]}.") from None


def _where(data: Any, loc: tuple[int | str, ...]) -> str:
    """Name a pydantic error location the way a GM reads it: combatant 'Ogre': size."""
    parts: list[str] = []
    if len(loc) >= 2 and loc[0] == "combatants" and isinstance(loc[1], int):
        index = loc[1]
        name = None
        try:
            name = data["combatants"][index].get("name")
        except (KeyError, IndexError, TypeError, AttributeError):
            name = None
        parts.append(f"combatant {name!r}" if isinstance(name, str) else f"combatant #{index + 1}")
        loc = loc[2:]
    field = ".".join(str(p) for p in loc)
    if field:
        parts.append(field)
    return ": ".join(parts)


def _message(exc: ValidationError, data: Any) -> str:
    err = exc.errors(include_url=False)[0]
    msg = str(err["msg"]).removeprefix("Value error, ")
    where = _where(data, tuple(err["loc"]))
    more = f" (and {len(exc.errors()) - 1} more problem(s))" if len(exc.errors()) > 1 else ""
    return f"{where}: {msg}{more}" if where else f"{msg}{more}"


def load_data(data: Any) -> Encounter:
    """Validate plain data as an encounter of its ruleset."""
    if not isinstance(data, dict):
        raise EncounterFileError(
            "An encounter file must be a mapping with `ruleset`, `map` and `combatants`."
        )
    ruleset = data.get("ruleset")
    if ruleset not in RULESET_NAMES:
        choices = ", ".join(RULESET_NAMES)
        raise EncounterFileError(f"ruleset: must be one of {choices} (got {str(ruleset)[:20]!r}).")
    combatants = data.get("combatants")
    if isinstance(combatants, list) and len(combatants) > 200:
        raise EncounterFileError(f"combatants: {len(combatants)} combatants; the limit is 200.")
    try:
        encounter: Encounter = encounter_model(ruleset).model_validate(data)
    except ValidationError as exc:
        raise EncounterFileError(_message(exc, data)) from None
    return encounter


def load_text(text: str | bytes) -> Encounter:
    """Load an encounter file (YAML or JSON)."""
    return load_data(parse_text(text))


def to_data(encounter: Encounter) -> dict[str, Any]:
    """The canonical plain-data form of an encounter (SPEC §3 field order)."""
    data = encounter.model_dump(mode="json", exclude={"combatants"})
    data["combatants"] = [
        {
            **c.model_dump(mode="json", include={"name", "side", "player", "at", "conditions"}),
            **c.model_dump(
                mode="json", exclude_defaults=True, exclude={"name", "side", "player", "at", "conditions"}
            ),
        }
        for c in encounter.combatants
    ]
    for c in data["combatants"]:
        if c["player"] is None:
            del c["player"]
    if data.get("turn") is None:
        data.pop("turn", None)
    return data


def export_yaml(encounter: Encounter) -> str:
    """The encounter file as YAML (canonical)."""
    return yaml.safe_dump(to_data(encounter), sort_keys=False, allow_unicode=True, width=100)


def export_json(encounter: Encounter) -> str:
    """The encounter file as JSON (canonical)."""
    return json.dumps(to_data(encounter), indent=2, ensure_ascii=False) + "\n"


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the encounter file: one of the rulesets' encounter types."""
    from pydantic import TypeAdapter

    union: Any = None
    for name in RULESET_NAMES:
        model = encounter_model(name)
        union = model if union is None else union | model
    schema: dict[str, Any] = TypeAdapter(union).json_schema()
    schema["title"] = "Opportunist encounter file"
    return schema
