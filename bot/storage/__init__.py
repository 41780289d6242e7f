"""Persistence: games, event logs and player totals, on SQLite or PostgreSQL.

Knows nothing of Discord or of the engine's internals: the engine's state arrives as
JSON text and its events as `(kind, payload)` pairs. `open_storage(url)` picks the
backend; both answer the one `Storage` interface, whose queries and writes are written
once over a narrow driver seam (bot/storage/driver.py) that each backend implements.
"""

from bot.storage.base import (
    DATA_TABLES,
    PROCESS_TABLES,
    ChannelBusyError,
    CommitUnknownError,
    DatabaseDownError,
    DatabaseUnavailableError,
    GameNotFoundError,
    GuildTransaction,
    SchemaTooNewError,
    StaleGameError,
    Storage,
    StorageError,
)
from bot.storage.factory import database_url, open_storage
from bot.storage.health import Health
from bot.storage.leaderboard import MINIMUMS, STATS, Stat, period_key
from bot.storage.migrations import MIGRATIONS, PROFILE_COLUMNS, SCHEMA_VERSION, TOTALS_COLUMNS
from bot.storage.models import (
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
    StateJson,
)
from bot.storage.shard_leases import ShardLease
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import DatabaseUrl

__all__ = [
    "DATA_TABLES",
    "GAME_STATUSES",
    "MIGRATIONS",
    "MINIMUMS",
    "OPEN_STATUSES",
    "PROCESS_TABLES",
    "PROFILE_COLUMNS",
    "SCHEMA_VERSION",
    "STATS",
    "TOTALS_COLUMNS",
    "ChannelBusyError",
    "CommitUnknownError",
    "DatabaseDownError",
    "DatabaseUnavailableError",
    "DatabaseUrl",
    "Event",
    "EventRecord",
    "GameNotFoundError",
    "GameRecord",
    "GameStatus",
    "GuildTransaction",
    "Health",
    "MoveStats",
    "PlayerKey",
    "PlayerTotals",
    "Ranked",
    "RoundRecord",
    "SchemaTooNewError",
    "ShardLease",
    "SqliteStorage",
    "StaleGameError",
    "Stat",
    "StateJson",
    "Storage",
    "StorageError",
    "database_url",
    "open_storage",
    "period_key",
]
