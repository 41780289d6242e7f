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
from .leaderboard import MINIMUMS, STATS, Stat, period_key
from .migrations import MIGRATIONS, SCHEMA_VERSION, TOTALS_COLUMNS
from .models import (
    GAME_STATUSES,
    OPEN_STATUSES,
    Event,
    EventRecord,
    GameRecord,
    GameStatus,
    MoveStats,
    PlayerKey,
    PlayerTotals,
    Ranked,
    RoundRecord,
)

__all__ = [
    "GAME_STATUSES",
    "MIGRATIONS",
    "MINIMUMS",
    "OPEN_STATUSES",
    "SCHEMA_VERSION",
    "STATS",
    "TOTALS_COLUMNS",
    "ChannelBusyError",
    "Event",
    "EventRecord",
    "GameNotFoundError",
    "GameRecord",
    "GameStatus",
    "MoveStats",
    "PlayerKey",
    "PlayerTotals",
    "Ranked",
    "RoundRecord",
    "SchemaTooNewError",
    "Stat",
    "Storage",
    "StorageError",
    "period_key",
]
