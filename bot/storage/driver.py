"""The seam between storage's queries and a database: what a backend must provide.

Everything storage says to a database is written once, in SQLite's parameter style
(``?`` and ``:name``; bot/storage/dialect.py renumbers them for asyncpg), by the query
modules: games.py (games, moves, logs), leaderboard.py, league_queries.py and
shard_leases.py. They hold a `Driver` and call only what this protocol names, so a
backend is a driver and nothing more: bot/storage/sqlite.py (aiosqlite) and
bot/storage/postgres.py (asyncpg).

A write that reads as it goes (a move: update the game, learn its last event number,
append the events...) is written once as a `Plan` (plan.py): a generator that yields
steps and is sent each step's answer. The driver runs the whole plan in one transaction, in
its own way: SQLite on aiosqlite's worker thread in one hand-over (and with other
channels' moves in one group commit), PostgreSQL as one awaited round trip a step. The
plan cannot tell the two apart, so the logic of a write is never spelled twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.storage.dialect import Dialect
from bot.storage.health import Health
from bot.storage.plan import Params, Plan, T


class Transaction(Protocol):
    """One open transaction that holds a lock (`Driver.transaction`): SQL in SQLite's
    parameter style, as everywhere in storage."""

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def fetch_each(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """Several reads (positional ``?`` parameters), their rows in order: on SQLite one
        hand-over to the worker, on PostgreSQL one round trip."""
        ...

    async def write_each(self, writes: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> None:
        """Several statements, each run once per row of its rows (none for no rows): on
        SQLite one hand-over; on PostgreSQL one round trip when each is a one-row INSERT
        into a table of its own, as the league's writes are."""
        ...

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert whole rows into ``table`` the fastest way the database has: on SQLite
        one hand-over, on PostgreSQL ``COPY``."""
        ...


class Driver(Protocol):
    """The primitive operations a database backend provides; nothing else of storage
    knows which database it talks to.

    ``lock`` (of `run` and `transaction`): the keys of the lock that writers of one
    thing (a channel: `dialect.channel_lock`; a server's league: `dialect.guild_lock`)
    queue on. PostgreSQL takes it as a transaction-level advisory lock, sent with the
    BEGIN; SQLite, with one writer for the whole file, needs none and ignores it.

    A connection-level failure raises `DatabaseDownError` (a lost COMMIT
    `CommitUnknownError`), and `health` notes the outage and its end."""

    #: The SQL that differs between the databases, as data.
    dialect: Dialect
    health: Health

    @property
    def closed(self) -> bool: ...

    async def close(self) -> None:
        """Close the connection(s); safe to call twice."""
        ...

    async def schema_version(self) -> int: ...

    async def probe(self) -> None:
        """Raise if the database can't take a write now: a real write that changes
        nothing, for /health only, never on a move's path (README, Metrics and health)."""
        ...

    async def fetchone(self, sql: str, params: Params) -> Any:
        """One query outside any write: its first row, or None."""
        ...

    async def fetchall(self, sql: str, params: Params) -> list[Any]: ...

    async def run(self, plan: Plan[T], lock: Sequence[int] = (), *, grouped: bool = False) -> T:
        """Run ``plan`` in one transaction and return its result once committed; if it
        raises, nothing of it is written. ``grouped``: a move, which SQLite may commit
        with other channels' moves that wait at the same time (each in a savepoint of
        its own, answered only after the shared COMMIT); PostgreSQL commits every
        transaction alone."""
        ...

    def transaction(self, lock: Sequence[int]) -> AbstractAsyncContextManager[Transaction]:
        """A transaction whose caller reads, decides and writes as it goes, committed
        when the block ends and rolled back if it raises."""
        ...

    def is_channel_taken(self, exc: BaseException) -> bool:
        """Whether ``exc`` is the database refusing a second open game in a channel (the
        one_open_game_per_channel index)."""
        ...

    def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        """A long query's rows (no parameters), a batch at a time, from one snapshot."""
        ...
