"""User-safe errors: every message here may be shown to a Discord user as is."""

from __future__ import annotations


class OpportunistError(Exception):
    """Base of all errors whose message is safe to show a user and says how to fix the input."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputError(OpportunistError):
    """The user typed something we cannot use (a bad coordinate, an unknown combatant, a bad stat)."""


class EncounterFileError(OpportunistError):
    """An encounter file (YAML or JSON) is malformed or invalid."""


class RuleError(OpportunistError):
    """The rules forbid what was asked (an illegal move, an action out of turn)."""


class LimitError(OpportunistError):
    """A documented limit was exceeded (map size, combatant count, path length, file size)."""
