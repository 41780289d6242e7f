"""What every storage backend offers: the one `Storage` interface the bot talks to.

`Storage` is composed, not inherited: it holds a `Driver` (bot/storage/driver.py), the
narrow seam a backend implements, and the query modules built over it: games.py
(games, moves and logs), leaderboard.py (counters, leaderboards, history),
league_queries.py (ratings, seasons, achievements), web_queries.py (the web companion),
arena_queries.py (the bot arena's ladder) and shard_leases.py. Each public
method is answered by one of them, so every query and every write is written once;
`SqliteStorage` (bot/storage/sqlite.py) and `PostgresStorage` (bot/storage/postgres.py)
only open their driver.
"""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Concatenate, ParamSpec, Self, TypeVar

from bot.storage.arena_queries import ArenaQueries
from bot.storage.dialect import guild_lock
from bot.storage.driver import Driver, Transaction
from bot.storage.errors import (
    ChannelBusyError,
    Clock,
    CommitUnknownError,
    CopyCountError,
    DatabaseDownError,
    DatabaseUnavailableError,
    GameNotFoundError,
    SchemaTooNewError,
    StaleGameError,
    StorageError,
)
from bot.storage.games import GameQueries, parse_log
from bot.storage.health import Health
from bot.storage.leaderboard import LeaderboardQueries
from bot.storage.league_queries import LeagueQueries
from bot.storage.migrations import MIGRATIONS, Migration
from bot.storage.plan import Params, statements
from bot.storage.schema_rows import (
    DATA_TABLES,
    GAME_COLUMNS,
    KEY_COLUMNS,
    PROCESS_TABLES,
    TableRows,
)
from bot.storage.shard_leases import ShardLeaseQueries
from bot.storage.web_queries import WebQueries

__all__ = [
    "DATA_TABLES",
    "GAME_COLUMNS",
    "KEY_COLUMNS",
    "PROCESS_TABLES",
    "ChannelBusyError",
    "Clock",
    "CommitUnknownError",
    "CopyCountError",
    "DatabaseDownError",
    "DatabaseUnavailableError",
    "GameNotFoundError",
    "GuildTransaction",
    "SchemaTooNewError",
    "StaleGameError",
    "Storage",
    "StorageError",
    "parse_log",
]

#: One open transaction that holds a server's league lock (`Storage.guild_transaction`).
GuildTransaction = Transaction

Q = TypeVar("Q")
P = ParamSpec("P")
R = TypeVar("R")


def _via(
    part: str, method: Callable[Concatenate[Q, P], Awaitable[R]]
) -> Callable[Concatenate[Storage, P], Coroutine[Any, Any, R]]:
    """A `Storage` method answered by the same method of one of its query modules (the
    attribute ``part``), typed as that method. A coroutine function of its own, so the
    metrics time it by its name like any other (bot/runtime/metrics.py, `instrument`)."""
    name = method.__name__

    @functools.wraps(method)
    async def answered(self: Storage, /, *args: P.args, **kwargs: P.kwargs) -> R:
        answer: R = await getattr(getattr(self, part), name)(*args, **kwargs)
        return answer

    return answered


class Storage:
    """Async access to the bot's database; build one with `Storage.open(url or path)`."""

    #: ``"sqlite"`` or ``"postgresql"``: which SQL a migration step runs (migrations.py).
    dialect: ClassVar[str]
    #: Picks the backend for `open`: set by factory.py, which knows the backends, so
    #: neither this module nor a backend imports the factory (no import circle).
    opener: ClassVar[Callable[..., Awaitable[Storage]] | None] = None
    #: Whether the database answered the last call; logs each outage's start and end once.
    health: Health

    def __init__(self, driver: Driver, clock: Clock = time.time) -> None:
        self._driver = driver
        self._clock = clock
        self.health = driver.health
        self._games = GameQueries(driver, clock)
        self._boards = LeaderboardQueries(driver)
        self._league = LeagueQueries(driver)
        self._leases = ShardLeaseQueries(driver, clock)
        self._tables = TableRows(driver)
        self._web = WebQueries(driver)
        self._arena = ArenaQueries(driver)

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        target: Any,
        *,
        clock: Clock = time.time,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Self:
        """Open the database ``target`` names (a path or ``sqlite:///`` URL, or a
        ``postgresql://`` URL) and bring its schema up to date; see `open_storage`."""
        if Storage.opener is None:  # only if bot.storage.base was loaded on its own
            raise RuntimeError("import bot.storage to open a database")
        store = await Storage.opener(target, clock=clock, migrations=migrations)
        if not isinstance(store, cls):
            await store.close()
            raise TypeError(f"{target!r} is not a {cls.__name__} database")
        return store

    async def close(self) -> None:
        """Close the database; safe to call twice (shutdown paths may overlap)."""
        await self._driver.close()

    @property
    def closed(self) -> bool:
        return self._driver.closed

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def ping(self) -> None:
        """Raises if the database can't take a write now: a write that changes nothing,
        and for SQLite a check that the file opened is still the one at its path and its
        disk not full (README, Metrics and health). The caller bounds how long it may take."""
        await self._driver.probe()

    async def schema_version(self) -> int:
        return await self._driver.schema_version()

    # ------------------------------------------------------------ games (games.py)

    create_game = _via("_games", GameQueries.create_game)
    save_move = _via("_games", GameQueries.save_move)
    get_game = _via("_games", GameQueries.get_game)
    get_game_for_channel = _via("_games", GameQueries.get_game_for_channel)
    channel_head = _via("_games", GameQueries.channel_head)
    load_running_games = _via("_games", GameQueries.load_running_games)
    recently_finished = _via("_games", GameQueries.recently_finished)
    unshown_ends = _via("_games", GameQueries.unshown_ends)
    mark_shown = _via("_games", GameQueries.mark_shown)
    events = _via("_games", GameQueries.events)

    def finished_game_query(
        self, game_id: int, kinds: Sequence[str] = ()
    ) -> tuple[str, tuple[Any, ...]]:
        """The read of a finished game for a league transaction (`GameQueries`)."""
        return self._games.finished_game_query(game_id, kinds)

    finished_game_of = staticmethod(GameQueries.finished_game_of)
    unrated_games = _via("_games", GameQueries.unrated_games)
    finished_games = _via("_games", GameQueries.finished_games)
    event_log_texts = _via("_games", GameQueries.event_log_texts)

    def guild_transaction(self, guild_id: int) -> AbstractAsyncContextManager[GuildTransaction]:
        """Read, decide and write in one transaction that no other process can interleave
        with for the same server: what the league needs so that a game is rated, and a
        season closed, exactly once, and no rating update is lost when two processes rate
        games of one server at once (README, Ratings; Seasons).

        Committed when the block ends, rolled back if it raises. SQLite: ``BEGIN
        IMMEDIATE`` (one writer for the whole file); PostgreSQL: the server's
        transaction-level advisory lock. Storage knows nothing of ratings: the caller
        brings the SQL and the decisions."""
        return self._driver.transaction(guild_lock(guild_id))

    # ------------------------------------------------ counters (leaderboard.py)

    player_totals = _via("_boards", LeaderboardQueries.player_totals)
    leaderboard = _via("_boards", LeaderboardQueries.leaderboard)
    rank_of = _via("_boards", LeaderboardQueries.rank_of)
    player_records = _via("_boards", LeaderboardQueries.player_records)
    favourite_claim = _via("_boards", LeaderboardQueries.favourite_claim)
    nemesis = _via("_boards", LeaderboardQueries.nemesis)
    history = _via("_boards", LeaderboardQueries.history)
    reset_guild_stats = _via("_boards", LeaderboardQueries.reset_guild_stats)

    # --------------------------------------------------- the league (league_queries.py)

    season_row = _via("_league", LeagueQueries.season_row)
    season_top = _via("_league", LeagueQueries.season_top)
    closed_seasons = _via("_league", LeagueQueries.closed_seasons)
    ratings_of = _via("_league", LeagueQueries.ratings_of)
    rated_people = _via("_league", LeagueQueries.rated_people)
    achievement_counts = _via("_league", LeagueQueries.achievement_counts)
    rarest_held = _via("_league", LeagueQueries.rarest_held)
    season_rows = _via("_league", LeagueQueries.season_rows)
    unannounced = _via("_league", LeagueQueries.unannounced)
    claim_announcement = _via("_league", LeagueQueries.claim_announcement)

    # ------------------------------------------------- the web companion (web_queries.py)

    web_link = _via("_web", WebQueries.web_link)
    web_guild = _via("_web", WebQueries.web_guild)
    open_web_link = _via("_web", WebQueries.open_web_link)
    close_web_link = _via("_web", WebQueries.close_web_link)
    web_games = _via("_web", WebQueries.web_games)
    web_game = _via("_web", WebQueries.web_game)
    recent_states = _via("_web", WebQueries.recent_states)
    rating_history = _via("_web", WebQueries.rating_history)

    # ------------------------------------------------- the bot arena (arena_queries.py)

    record_arena_round = _via("_arena", ArenaQueries.record_arena_round)
    last_arena_round = _via("_arena", ArenaQueries.last_arena_round)
    arena_ladder = _via("_arena", ArenaQueries.arena_ladder)
    arena_bot = _via("_arena", ArenaQueries.arena_bot)
    arena_losses = _via("_arena", ArenaQueries.arena_losses)

    # ------------------------------------------------- shard leases (shard_leases.py)

    take_shard_leases = _via("_leases", ShardLeaseQueries.take_shard_leases)
    release_shard_leases = _via("_leases", ShardLeaseQueries.release_shard_leases)
    shard_leases = _via("_leases", ShardLeaseQueries.shard_leases)

    # ------------------------------------------------- copying (python -m bot migrate-db)

    async def count_rows(self, table: str) -> int:
        """How many rows one of `DATA_TABLES` holds."""
        return await self._tables.count_rows(table)

    def read_rows(self, table: str, batch: int = 5000) -> AsyncIterator[list[tuple[Any, ...]]]:
        """A table's rows in `DATA_TABLES` column order, a batch at a time (`TableRows`)."""
        return self._tables.read_rows(table, batch)

    async def load_rows(
        self,
        batches: AsyncIterator[tuple[str, list[tuple[Any, ...]]]],
        expected: Mapping[str, int],
    ) -> None:
        """Insert ``(table, rows)`` batches in one transaction, all or nothing (`TableRows`)."""
        await self._tables.load_rows(batches, expected)

    # ---------------------------------------------- raw SQL, for tests and tools only

    async def _fetchone(self, sql: str, params: Params) -> Any:
        return await self._driver.fetchone(sql, params)

    async def _fetchall(self, sql: str, params: Params) -> list[Any]:
        return await self._driver.fetchall(sql, params)

    async def _write(self, writes: Sequence[tuple[str, Params]]) -> list[int]:
        """The statements in one transaction; their row counts."""
        return await self._driver.run(statements(writes))
