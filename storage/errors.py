"""Storage errors a user may read (they subclass `rules.errors.OpportunistError`)."""

from __future__ import annotations

from rules.errors import OpportunistError


class StaleVersionError(OpportunistError):
    """Someone else changed the encounter between our load and our save; nothing was saved."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or "The encounter changed while this was being worked out (someone else acted first). "
            "Nothing was changed; look at `/encounter show` and try again."
        )


class EncounterExistsError(OpportunistError):
    """The channel already holds an encounter."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or "This channel already has an encounter. End it with `/encounter end` first, "
            "or use another channel."
        )


class NoEncounterError(OpportunistError):
    """The channel holds no encounter."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message or "There is no encounter in this channel. Start one with `/encounter start`."
        )
