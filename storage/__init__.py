"""Persistence: the aiosqlite repository and its schema migrations. No discord here."""

from storage.errors import EncounterExistsError, NoEncounterError, StaleVersionError
from storage.repository import PendingImport, Storage, StoredEncounter, StoredEvent

__all__ = [
    "EncounterExistsError",
    "NoEncounterError",
    "PendingImport",
    "StaleVersionError",
    "Storage",
    "StoredEncounter",
    "StoredEvent",
]
