"""Persistence on SQLite: games, event logs and player totals.

Knows nothing of Discord or of the engine's internals: the engine's state arrives as
JSON text and its events as `(kind, payload)` pairs.
"""

from .db import (
    ChannelBusyError,
    GameNotFoundError,
    SchemaTooNewError,
    Storage,
    StorageError,
)
from .migrations import MIGRATIONS, SCHEMA_VERSION, TOTALS_COLUMNS
from .models import (
    GAME_STATUSES,
    OPEN_STATUSES,
    Event,
    EventRecord,
    GameRecord,
    GameStatus,
    PlayerKey,
    PlayerTotals,
)

__all__ = [
    "GAME_STATUSES",
    "MIGRATIONS",
    "OPEN_STATUSES",
    "SCHEMA_VERSION",
    "TOTALS_COLUMNS",
    "ChannelBusyError",
    "Event",
    "EventRecord",
    "GameNotFoundError",
    "GameRecord",
    "GameStatus",
    "PlayerKey",
    "PlayerTotals",
    "SchemaTooNewError",
    "Storage",
    "StorageError",
]
