"""The registry of rulesets. Each is a package ``rules.<name>``: ``model.py`` holds its pydantic
types (``ENCOUNTER_MODEL``), ``__init__.py`` exposes ``RULESET`` (the `rules.engine.Ruleset`)."""

from __future__ import annotations

import importlib
from typing import Any

from rules.errors import InputError

RULESET_NAMES: tuple[str, ...] = ("dnd35", "aphex", "dragonquest")


def _check(name: str) -> str:
    if name not in RULESET_NAMES:
        raise InputError(f"Unknown ruleset `{str(name)[:20]}`; choose one of: {', '.join(RULESET_NAMES)}.")
    return name


def get_ruleset(name: str) -> Any:
    """The ruleset object called ``name``."""
    return importlib.import_module(f"rules.{_check(name)}").RULESET


def encounter_model(name: str) -> type[Any]:
    """The pydantic Encounter subclass of a ruleset (importing only its model module)."""
    model: type[Any] = importlib.import_module(f"rules.{_check(name)}.model").ENCOUNTER_MODEL
    return model
