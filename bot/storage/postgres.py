"""The PostgreSQL backend, through asyncpg: one database shared by several bot processes.

`PostgresDriver` implements storage's `Driver` (bot/storage/driver.py); the queries and
writes themselves are storage's, written once for both databases.

A small connection pool serves the process; each move is one transaction on one pooled
connection. Two guards keep processes that share the database (shards, or an old and a
new process overlapping in a rolling restart) from moving the same game twice: every
move's transaction first takes the channel's transaction-level advisory lock, so writers
of one channel queue up, and the game row's UPDATE only succeeds on the move number its
process read (`Storage.save_move`).
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any, Self

import asyncpg
import orjson

from bot.storage.base import Storage
from bot.storage.dialect import POSTGRESQL, arguments, numbered
from bot.storage.errors import (
    Clock,
    CommitUnknownError,
    DatabaseDownError,
    DatabaseUnavailableError,
    SchemaTooNewError,
    StorageError,
)
from bot.storage.health import Health
from bot.storage.migrations import MIGRATIONS, Migration, statements
from bot.storage.plan import Execute, ExecuteMany, FetchAll, FetchOne, Params, Plan, T
from bot.storage.url import DatabaseUrl

#: The session-level advisory lock (two-key form, apart from the channels' one-key locks)
#: that lets only one process migrate at a time: shard processes start together.
_MIGRATION_LOCK = (0x6D6578, 1)
#: Connections per process: moves of different channels run side by side, and
#: PostgreSQL's own limit (100 by default) leaves room for many processes.
POOL_SIZE = 8
#: What connecting at start-up raises when the server can't be used (`_unavailable`).
_START_FAILURES = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
#: Seconds a call waits for a pooled connection before it counts the database as down.
ACQUIRE_TIMEOUT = 10.0
#: What a connection-level failure raises (README, Running at scale: While the database
#: is down): refused or cut connections, a server shutting down or restarting, a pool
#: that can't hand out a connection in time. Errors of a statement (a constraint, bad
#: SQL) are not among them: they are bugs, and stay loud.
CONNECTION_LOST: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    # A connection the server's shutdown left half-closed refuses the next statement
    # with this ("cannot switch to state …; another operation is in progress"): seen in
    # the outage run of benchmarks/cluster_bench (README, Benchmarks).
    asyncpg.InternalClientError,
)


class PostgresStorage(Storage):
    """A PostgreSQL database; build it with `PostgresStorage.open(url)` (or `open_storage`)."""

    dialect = "postgresql"

    def __init__(self, driver: PostgresDriver, clock: Clock = time.time) -> None:
        super().__init__(driver, clock)
        self._postgres = driver

    @classmethod
    async def open(
        cls,
        url: Any,
        *,
        clock: Clock = time.time,
        migrations: Sequence[Migration] = MIGRATIONS,
        pool_size: int = POOL_SIZE,
    ) -> Self:
        """Connect, migrate to the latest schema, and check that writes work.

        A server that can't be reached, refuses the login or has no such database raises
        `DatabaseUnavailableError` here, at start-up, with the URL shown without its
        password.
        """
        if not isinstance(url, DatabaseUrl):
            if not isinstance(url, str) or not url.startswith(("postgres://", "postgresql://")):
                return await super().open(url, clock=clock, migrations=migrations)
            url = DatabaseUrl.parse(url)
        return cls(await PostgresDriver.open(url, migrations, pool_size), clock)

    @property
    def _pool(self) -> asyncpg.Pool:
        """The driver's pool, for tests that check its size."""
        return self._postgres._pool


class PostgresDriver:
    """`Driver` over an asyncpg pool: each call on one pooled connection, each write
    one transaction (module docstring: the locks)."""

    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, *, shown: str = "PostgreSQL") -> None:
        self._pool = pool
        self._closed = False
        self.health = Health(shown)

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls, url: DatabaseUrl, migrations: Sequence[Migration], pool_size: int = POOL_SIZE
    ) -> Self:
        """Connect to ``url`` (see `PostgresStorage.open`)."""
        try:
            # No JIT: the bot's queries are short, and compiling them cost more than they
            # took (about 45 ms of a 1,000,000-round leaderboard, in stats_bench).
            # No connection floor (min_size=0): while the database is down, asyncpg would
            # log a traceback each time it failed to restore one.
            pool = await asyncpg.create_pool(
                url.get_secret_value(),
                min_size=0,
                max_size=pool_size,
                timeout=10,
                command_timeout=60,
                server_settings={"jit": "off"},
                reset=_session_kept,
            )
        except _START_FAILURES as exc:
            raise DatabaseUnavailableError(_unavailable(url, exc)) from exc
        try:
            try:
                conn = await pool.acquire()
            except _START_FAILURES as exc:
                raise DatabaseUnavailableError(_unavailable(url, exc)) from exc
            try:
                await _migrate(conn, migrations)
                await _check_writable(conn)
            finally:
                await pool.release(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, shown=f"PostgreSQL at {url}")

    async def close(self) -> None:
        """Close the pool (waiting for moves under way); safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await self._pool.close()

    @property
    def closed(self) -> bool:
        return self._closed

    async def schema_version(self) -> int:
        async with self._connection() as conn:
            return await _version(conn)

    # --------------------------------------------------------------------- writes

    async def run(self, plan: Plan[T], lock: Sequence[int] = (), *, grouped: bool = False) -> T:
        """The plan on one pooled connection, a round trip a step (each round trip is
        most of a write's cost here, where SQLite's statements are in-process calls: the
        plans are written to need few). Every transaction commits alone."""
        async with self._connection() as conn, _committed(conn, *lock):
            return await _drive(conn, plan)

    def is_channel_taken(self, exc: BaseException) -> bool:
        return (
            isinstance(exc, asyncpg.UniqueViolationError)
            and getattr(exc, "table_name", None) == "games"
        )

    @contextlib.asynccontextmanager
    async def transaction(self, lock: Sequence[int]) -> AsyncIterator[_Transaction]:
        # Held until COMMIT or ROLLBACK; the statements after it see every league write
        # committed before the lock was granted (read committed).
        async with self._connection() as conn, _committed(conn, *lock):
            yield _Transaction(conn)

    # ---------------------------------------------------------------------- reads

    async def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        async with self._connection() as conn, conn.transaction():
            cursor = await conn.cursor(sql)
            while rows := await cursor.fetch(batch):
                yield [tuple(row) for row in rows]

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection for one call; a connection-level failure anywhere in the
        call (getting the connection included) raises `DatabaseDownError`, and the
        storage's health notes it, or notes that the database answered again."""
        if self._closed:
            raise StorageError("storage is closed")
        try:
            async with self._pool.acquire(timeout=ACQUIRE_TIMEOUT) as conn:
                yield conn
        except DatabaseDownError as exc:  # a commit whose answer was lost
            self.health.failed(exc.__cause__ or exc)
            raise
        except CONNECTION_LOST as exc:
            if self._closed:
                raise StorageError("storage is closed") from exc
            self.health.failed(exc)
            raise DatabaseDownError(f"the database stopped answering: {_reason(exc)}") from exc
        self.health.answered()

    async def probe(self) -> None:
        async with self._connection() as conn:
            await _check_writable(conn)

    async def fetchone(self, sql: str, params: Params) -> Any:
        async with self._connection() as conn:
            return await _fetchrow(conn, sql, params)

    async def fetchall(self, sql: str, params: Params) -> list[Any]:
        text, order = numbered(sql)
        async with self._connection() as conn:
            return list(await conn.fetch(text, *arguments(order, params)))


async def _drive(conn: asyncpg.Connection, plan: Plan[T]) -> T:
    """Run a plan's steps on one connection, a round trip each; a step's error ends the
    plan, and `_committed` rolls back."""
    answer: Any = None
    try:
        while True:
            step = plan.send(answer)
            if type(step) is FetchOne:
                answer = await _fetchrow(conn, step.sql, step.params)
            elif type(step) is ExecuteMany:
                if step.rows:
                    await conn.executemany(numbered(step.sql)[0], step.rows)
                answer = None
            elif type(step) is Execute:
                answer = _row_count(await _execute(conn, step.sql, step.params))
            elif type(step) is FetchAll:
                text, order = numbered(step.sql)
                answer = list(await conn.fetch(text, *arguments(order, step.params)))
            else:
                raise TypeError(f"not a step: {step!r}")
    except StopIteration as done:
        result: T = done.value
        return result


async def _session_kept(conn: asyncpg.Connection) -> None:
    """What a connection needs before it goes back to the pool, besides the rollback of
    an open transaction asyncpg always does: nothing. The bot sets no session state: its
    locks are transaction-level, the migration lock is released where it is taken, it
    listens to nothing and keeps no cursor past a transaction. asyncpg's default would
    send a reset query (unlock all, close all, unlisten, reset all), a round trip on
    every call (README, Benchmarks: The league)."""


class _Transaction:
    """`Transaction` on one pooled connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        text, order = numbered(sql)
        return list(await self._conn.fetch(text, *arguments(order, params)))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _row_count(await _execute(self._conn, sql, params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self._conn.executemany(numbered(sql)[0], rows)

    async def fetch_each(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        """One round trip for all the reads (a round trip is most of a read's cost here,
        README, Benchmarks: The league): each query's rows come back gathered by the
        server into one array of records, typed as the query's columns."""
        if len(queries) < 2:
            return [await self.fetchall(sql, params) for sql, params in queries]
        gathered = ", ".join(f"(SELECT array_agg(q) FROM ({sql}) AS q)" for sql, _ in queries)
        text, order = numbered(f"SELECT {gathered}")
        row = await self._conn.fetchrow(
            text, *arguments(order, [value for _, params in queries for value in params])
        )
        return [list(rows or ()) for rows in row]

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        if rows:
            await self._conn.copy_records_to_table(table, records=rows, columns=list(columns))

    async def write_each(self, writes: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> None:
        """One round trip for all the writes when each is a row INSERT into a table of
        its own (`_ROW_INSERT`; the league's are): one statement whose WITH clauses
        insert each table's rows from a JSON array (PostgreSQL runs every such clause
        once, and they write different tables, so their order does not matter)."""
        writes = [(sql, rows) for sql, rows in writes if rows]
        shapes = [_ROW_INSERT.fullmatch(sql) for sql, _ in writes]
        tables = [shape.group(1) for shape in shapes if shape]
        if len(writes) < 2 or len(tables) < len(writes) or len(set(tables)) < len(tables):
            for sql, rows in writes:
                await self.executemany(sql, rows)
            return
        clauses, texts = [], []
        for n, (shape, (_, rows)) in enumerate(zip(shapes, writes, strict=True), start=1):
            assert shape is not None
            table, columns, rest = shape.groups()
            names = [name.strip() for name in columns.split(",")]
            clauses.append(
                f"w{n} AS (INSERT INTO {table} ({columns}) SELECT {columns}"
                f" FROM json_populate_recordset(NULL::{table}, ${n}::json){rest})"
            )
            rows_json = orjson.dumps([dict(zip(names, row, strict=True)) for row in rows])
            texts.append(rows_json.decode())
        await self._conn.execute(f"WITH {', '.join(clauses)} SELECT 1", *texts)


#: A statement `write_each` can fold into one: an INSERT of one row of ``?``s into named
#: columns, and what follows (ON CONFLICT ...), which takes no parameters.
_ROW_INSERT = re.compile(r"INSERT INTO (\w+) \(([\w, ]+)\) VALUES \((?:\?, )*\?\)([^?]*)", re.S)


@contextlib.asynccontextmanager
async def _committed(conn: asyncpg.Connection, *lock: int) -> AsyncIterator[None]:
    """A transaction whose COMMIT, if its answer is lost with the connection, raises
    `CommitUnknownError`: the server may have committed it before the connection died,
    and only reading the game back can tell (bot/game/tables.py). A failure before COMMIT
    was sent is an ordinary one: the server rolls back what it had.

    ``lock``: the keys of a transaction-level advisory lock taken first, sent with the
    BEGIN in one round trip (README, Benchmarks: The league)."""
    keys = ", ".join(str(int(key)) for key in lock)  # ints only: nothing else is spliced
    await conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({keys})" if lock else "BEGIN")
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):  # a dead connection has nothing to roll back
            await conn.execute("ROLLBACK")
        raise
    try:
        await conn.execute("COMMIT")
    except CONNECTION_LOST as exc:
        raise CommitUnknownError(
            f"the connection was lost while committing: {_reason(exc)}"
        ) from exc


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _execute(conn: asyncpg.Connection, sql: str, params: Any) -> str:
    text, order = numbered(sql)
    status: str = await conn.execute(text, *arguments(order, params))
    return status


async def _fetchrow(conn: asyncpg.Connection, sql: str, params: Any) -> Any:
    text, order = numbered(sql)
    return await conn.fetchrow(text, *arguments(order, params))


def _row_count(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def _version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def _migrate(conn: asyncpg.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the steps this database has not seen, each in its own transaction with its
    version bump, under a lock that makes processes starting together take turns."""
    await conn.execute("SELECT pg_advisory_lock($1, $2)", *_MIGRATION_LOCK)
    try:
        async with conn.transaction():
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
        version = await _version(conn)
        if version > len(migrations):
            raise SchemaTooNewError(
                f"database schema version {version} is newer than this bot knows "
                f"({len(migrations)}); upgrade the bot or use another DATABASE_URL"
            )
        for number, steps in enumerate(migrations[version:], start=version + 1):
            async with conn.transaction():
                for sql in statements(steps, "postgresql"):
                    await conn.execute(sql)
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", *_MIGRATION_LOCK)


async def _check_writable(conn: asyncpg.Connection) -> None:
    """Prove that writes work (a read-only standby, or an up-to-date database on a user
    without rights, would otherwise start fine and fail every move): create a table in a
    transaction, then roll it back, as the SQLite backend does."""
    tx = conn.transaction()
    await tx.start()
    try:
        await conn.execute("CREATE TABLE _startup_write_check (x INTEGER)")
    finally:
        await tx.rollback()


def _unavailable(url: DatabaseUrl, exc: BaseException) -> str:
    """Why the server said no, in words that say what to fix; never the password."""
    shown = str(url)
    refused = asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
    if isinstance(exc, refused):
        return f"PostgreSQL at {shown} refused the login ({exc}): check the user and password"
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return f"PostgreSQL at {shown} has no such database ({exc}): create it (createdb)"
    if isinstance(exc, ConnectionError) and "rejected SSL upgrade" in str(exc):
        # asyncpg's words when the URL asks for TLS (sslmode=require or stricter) and the
        # server answers the TLS request with "no".
        return (
            f"PostgreSQL at {shown} does not accept TLS connections, but DATABASE_URL asks"
            " for them: enable TLS on the server, or check sslmode in DATABASE_URL"
        )
    if isinstance(exc, OSError | TimeoutError):
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        return f"cannot reach PostgreSQL at {shown} ({reason}): is the server running there?"
    return f"PostgreSQL at {shown} can't be used: {exc}"
