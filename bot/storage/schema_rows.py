"""The bot's tables as `python -m bot migrate-db` copies them, and the games row's columns.

`TableRows` reads and loads whole tables over a `Driver`, written once for both
databases: each driver brings only its bulk paths (`Driver.stream`,
`Transaction.copy_rows`), and the dialect what else a load needs (`Dialect.after_copy`,
`Dialect.refresh_statistics`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from bot.storage.driver import Driver
from bot.storage.errors import CopyCountError
from bot.storage.migrations import PROFILE_COLUMNS, TOTALS_COLUMNS
from bot.storage.plan import statements

GAME_COLUMNS = (
    "id, guild_id, channel_id, ruleset, status, state_json, created_at, updated_at, move_no"
)
GAME_NAMES = tuple(GAME_COLUMNS.split(", "))

#: The tables that hold the bot's data at the latest schema, parents before children, and
#: their columns: what `python -m bot migrate-db` copies (tests check it against the schema).
DATA_TABLES: dict[str, tuple[str, ...]] = {
    "games": (*GAME_COLUMNS.split(", "), "shown_at"),
    "game_events": ("game_id", "seq", "kind", "payload", "created_at"),
    "stat_buckets": ("guild_id", "channel_id", "period", "user_id", *TOTALS_COLUMNS),
    "rounds": (
        "id",
        "guild_id",
        "channel_id",
        "game_id",
        "round_no",
        "ruleset",
        "loser_id",
        "reason",
        "summary",
        "ended_at",
    ),
    "claim_counts": ("guild_id", "user_id", "claim", "n"),
    "catches": ("guild_id", "caught_id", "catcher_id", "n"),
    "play_profiles": ("guild_id", "user_id", *PROFILE_COLUMNS),
    "ratings": ("guild_id", "family", "user_id", "mu", "sigma", "shown", "games", "last_game_at"),
    "rated_games": ("game_id", "guild_id", "family", "ended_at", "result", "seats"),
    "achievements": ("guild_id", "user_id", "key", "game_id", "earned_at"),
    "achievement_progress": ("guild_id", "user_id", "fact", "n"),
    "seasons": ("guild_id", "length", "current"),
    "closed_seasons": (
        "guild_id",
        "season",
        "closed_at",
        "champions",
        "channel_id",
        "announced_at",
    ),
    "rated_channel_players": ("guild_id", "family", "channel_id", "user_id", "last_game_at"),
    "web_links": ("guild_id", "token", "created_at"),
    "rating_history": ("guild_id", "family", "user_id", "ended_at", "game_id", "shown"),
    "arena_bots": ("name", "mu", "sigma", "shown", "rounds", "points", "last_round"),
    "arena_losses": ("name", "reason", "n"),
    "arena_rounds": ("round_no", "ended_at", "seats", "losers", "reason"),
}
#: Tables about the processes running now, not the bot's data: migrate-db leaves them.
PROCESS_TABLES: tuple[str, ...] = ("shard_leases",)
#: How many of each table's leading columns are its primary key: a copy reads rows in
#: key order, so PostgreSQL stores each leaderboard bucket's rows together on disk (as
#: SQLite's WITHOUT ROWID tables always do), which keeps a leaderboard's scan short.
KEY_COLUMNS = {
    "games": 1,
    "game_events": 2,
    "stat_buckets": 4,
    "rounds": 1,
    "claim_counts": 3,
    "catches": 3,
    "play_profiles": 2,
    "ratings": 3,
    "rated_games": 1,
    "achievements": 3,
    "achievement_progress": 3,
    "seasons": 1,
    "closed_seasons": 2,
    "rated_channel_players": 4,
    "web_links": 1,
    "rating_history": 5,
    "arena_bots": 1,
    "arena_losses": 2,
    "arena_rounds": 1,
}


class TableRows:
    """Whole tables, for copying (python -m bot migrate-db)."""

    def __init__(self, db: Driver) -> None:
        self._db = db

    async def count_rows(self, table: str) -> int:
        """How many rows one of `DATA_TABLES` holds."""
        if table not in DATA_TABLES:
            raise ValueError(f"unknown table {table!r}")
        row = await self._db.fetchone(f"SELECT COUNT(*) FROM {table}", ())
        return int(row[0])

    def read_rows(self, table: str, batch: int = 5000) -> AsyncIterator[list[tuple[Any, ...]]]:
        """A table's rows in `DATA_TABLES` column order, a batch at a time, so a copy
        never holds a whole million-round history in memory. In key order: a copy then
        stores each leaderboard bucket's rows together (`KEY_COLUMNS`)."""
        columns = DATA_TABLES[table]
        key = ", ".join(columns[: KEY_COLUMNS[table]])
        return self._db.stream(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {key}", batch)

    async def load_rows(
        self,
        batches: AsyncIterator[tuple[str, list[tuple[Any, ...]]]],
        expected: Mapping[str, int],
    ) -> None:
        """Insert ``(table, rows)`` batches, all in one transaction: a copy that fails
        half-way leaves the target as empty as it was. Ids are kept as they are, and the
        next new game or round is numbered after the highest copied one. The rows of each
        table are counted inside the transaction too: if they differ from ``expected``
        (the source changed while it was read), nothing is committed (`CopyCountError`)."""
        async with self._db.transaction(()) as tx:
            async for table, rows in batches:
                await tx.copy_rows(table, DATA_TABLES[table], rows)
            counted = {
                table: int(rows[0][0])
                for table, rows in zip(
                    expected,
                    await tx.fetch_each([(f"SELECT COUNT(*) FROM {t}", ()) for t in expected]),
                    strict=True,
                )
            }
            if counted != dict(expected):
                raise CopyCountError(counted, expected)  # rolls the whole copy back
            for sql in self._db.dialect.after_copy:
                await tx.execute(sql)
        refresh = self._db.dialect.refresh_statistics
        if refresh is not None:
            await self._db.run(statements([(refresh.format(table=t), ()) for t in DATA_TABLES]))
