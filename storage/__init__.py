"""Persistence: the aiosqlite repository and its schema migrations. No discord here."""

from storage.errors import EncounterExistsError, NoEncounterError, StaleVersionError
from storage.repository import Storage, StoredEncounter, StoredEvent

__all__ = [
    "EncounterExistsError",
    "NoEncounterError",
    "StaleVersionError",
    "Storage",
    "StoredEncounter",
    "StoredEvent",
]
