"""The SQLite backend: games, their event logs and per-guild player totals in one file.

`SqliteDriver` implements storage's `Driver` (bot/storage/driver.py); the queries and
writes themselves are storage's, written once for both databases.

One aiosqlite connection per process, guarded by an asyncio lock: SQLite allows one
writer anyway, and a shared connection would otherwise let one coroutine's statements
land inside another coroutine's open transaction. Several processes may share the file:
``BEGIN IMMEDIATE`` serialises their writers, and a move is written only on the move
number its process read (`Storage.save_move`).

Group commit: moves that arrive while the worker thread is busy wait together and are
then written in one transaction, each in a savepoint of its own (a move that fails rolls
back alone), with one hand-over to the worker and one COMMIT for all of them. Each
caller is answered only after that COMMIT, so a move is still durable before it is
answered; with no other move waiting, a move is written at once, alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, Self, TypeVar

import aiosqlite

from bot.storage import sqlite_files as files
from bot.storage.base import Storage
from bot.storage.dialect import SQLITE
from bot.storage.errors import (
    Clock,
    DatabaseDownError,
    SchemaTooNewError,
    StorageError,
)
from bot.storage.games import bucket_periods
from bot.storage.health import Health
from bot.storage.migrations import MIGRATIONS, Migration, statements
from bot.storage.plan import Execute, ExecuteMany, FetchAll, FetchOne, Params, Plan, T

R = TypeVar("R")

log = logging.getLogger("bot.storage")

__all__ = [
    "DatabasePathError",
    "SqliteDriver",
    "SqliteStorage",
    "bucket_periods",
    "describe_sqlite_problem",
]


class DatabasePathError(StorageError):
    """The database can't be created, opened or written where it is. The message says
    plainly what is wrong with the path (a parent is a file, the folder is read-only...);
    the caller adds which setting holds the path."""


#: SQLite's words for a database it can't use right now (README, Running at scale: While
#: the database is down): another process holding the lock past ``busy_timeout``, or the
#: disk failing, full or read-only under it. Any other error is a bug and stays loud.
UNAVAILABLE = (
    "database is locked",
    "database table is locked",
    "disk i/o error",
    "unable to open database file",
    "database or disk is full",
    "attempt to write a readonly database",
)
#: The same by SQLite's error names (extended codes: SQLITE_IOERR_WRITE...).
UNAVAILABLE_CODES = (
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_IOERR",
    "SQLITE_FULL",
    "SQLITE_READONLY",
)
#: Seconds a call waits for another process's write lock before it counts the database
#: as down. No longer than the answer margin and its sweep's tick, so a move refused for
#: it is mostly answered before the deferral; never longer than a deferred answer can
#: wait (README, Running at scale: While the database is down).
BUSY_SECONDS = 2.0


def is_unavailable(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    name = getattr(exc, "sqlite_errorname", None)
    if isinstance(name, str) and name.startswith(UNAVAILABLE_CODES):
        return True
    return str(exc).lower().startswith(UNAVAILABLE)


class SqliteStorage(Storage):
    """The bot's SQLite file; build it with `SqliteStorage.open(path)` (or `open_storage`)."""

    dialect = "sqlite"

    def __init__(self, driver: SqliteDriver, clock: Clock = time.time) -> None:
        super().__init__(driver, clock)
        self._sqlite = driver

    @classmethod
    async def open(
        cls,
        path: Any,
        *,
        clock: Clock = time.time,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Self:
        """Open (creating folder and file if needed) and migrate to the latest schema.

        `migrations` exists for tests that need a database at an older version.
        A path that can't hold a writable database raises `DatabasePathError` here, at
        start-up, rather than every move failing later. A URL or settings go through
        `open_storage`, which comes back here with the file's path.
        """
        if not isinstance(path, str | os.PathLike) or "://" in str(path):
            return await super().open(path, clock=clock, migrations=migrations)
        return cls(await SqliteDriver.open(path, migrations), clock)

    @property
    def _conn(self) -> aiosqlite.Connection:
        """The driver's connection, for tests that set a PRAGMA on it."""
        return self._sqlite._conn


class SqliteDriver:
    """`Driver` over one aiosqlite connection (module docstring: the lock, group commit)."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path | None = None) -> None:
        self._conn = conn
        #: The file and its sidecars as opened (device, inode): a path that no longer
        #: leads to them means the database was deleted, moved or replaced under the bot.
        self._path = path
        self._files = files.identities(path) if path is not None else {}
        #: Where the bot saved a copy of its file when another file stood at its path.
        self._saved: Path | None = None
        self._lock = asyncio.Lock()
        self._closed = False
        #: Moves waiting for the next group commit, and whether a commit is under way.
        self._group: list[tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]]] = []
        self._committing = False
        self._committer: asyncio.Task[None] | None = None
        self.health = Health("SQLite")

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | os.PathLike[str], migrations: Sequence[Migration]) -> Self:
        """Open the file at ``path`` (see `SqliteStorage.open`)."""
        in_memory = str(path) == ":memory:"
        if not in_memory:
            _prepare_location(Path(path))
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, so DDL and DML share
        # one transaction and nothing is committed behind our back.
        try:
            conn = await _connect(str(path))
        except sqlite3.Error as exc:
            problem = None if in_memory else describe_sqlite_problem(Path(path), exc)
            if problem is None:
                raise
            raise DatabasePathError(problem) from exc
        try:
            await _configure(conn, wal=not in_memory)
            await _migrate(conn, migrations)
            await _check_writable(conn)
        except BaseException as exc:
            await conn.close()
            problem = None
            if isinstance(exc, sqlite3.Error) and not in_memory:
                problem = describe_sqlite_problem(Path(path), exc)
            if problem is None:
                raise
            raise DatabasePathError(problem) from exc
        return cls(conn, None if in_memory else Path(path))

    async def close(self) -> None:
        """Close the connection; safe to call twice (shutdown paths may overlap).

        A file deleted or moved away is saved first (`_save`), so a stop right after
        loses nothing; a connection whose files can't be written, or whose path another
        file now holds, is left to the system (`sqlite_files.abandon`)."""
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            if self._path is not None and files.gone(self._files) is not None:
                with contextlib.suppress(DatabaseDownError):
                    await self._save()
            if self._path is not None and (
                files.gone(self._files) is not None or files.unwritable(self._files)
            ):
                await self._abandon()
                return
            await self._conn.close()

    @property
    def closed(self) -> bool:
        return self._closed

    async def schema_version(self) -> int:
        async with self._lock, self._reaching(writes=False):
            await self._guard(writes=False)
            return await _user_version(self._conn)

    async def probe(self) -> None:
        """The files are still the ones at their paths and can be written, and a write
        that changes nothing (the schema version set to itself) is committed: SQLite
        answers ``SELECT 1`` without its file, and a write rolled back never reaches the
        disk. Like every write it turns the storage's health down or up at once."""
        await self._run_in_worker(_write_nothing)

    async def _guard(self, *, writes: bool = True) -> None:
        """Before every reach of the file (sqlite_files module docstring): a file
        deleted or moved away is saved (`_save`) before a write; a file that can't be
        written is an outage, logged once with what keeps it from being written. Reads
        of a file gone from its path go on from the file the bot holds."""
        if self._path is None:
            return
        if files.gone(self._files) is not None:
            if writes:
                await self._save()
            return
        self._saved = None  # its file is back: a later loss needs a copy of its own
        blocked = files.unwritable(self._files)
        if blocked is not None:
            self._refuse(
                f"the file {_shown(blocked)} can't be written, {files.why_unwritable(blocked)}; "
                "nothing is written to it or read from it until it can be"
            )

    def _refuse(self, reason: str) -> NoReturn:
        self.health.failed(reason)
        raise DatabaseDownError(f"SQLite can't be used right now: {reason}")

    async def _save(self) -> None:
        """The database file was deleted, moved away or replaced under the bot, which
        still holds it open: write a complete copy of it back to its path if nothing
        stands there and go on with that copy, else beside it and refuse, so the
        operator chooses (docs/operations.md). Called under the lock."""
        assert self._path is not None
        path, gone = self._path, files.gone(self._files)
        if self._saved is None and gone != path and await self._repair(path):
            log.warning(
                "database file %s was deleted or replaced while the bot had it open; the bot "
                "wrote everything it held into %s, which is still its file, and goes on",
                _shown(gone or path),
                _shown(path),
            )
            return
        if self._saved is None:
            try:
                beside = await on_worker(
                    self._conn, files.save_copy, self._conn._conn, path, self._files
                )
            except (sqlite3.Error, OSError) as exc:
                self._refuse(
                    f"the file {_shown(path)} was deleted, moved or replaced while the bot "
                    f"(process {os.getpid()}) had it open, and the bot could not save a copy "
                    f"of it ({exc}): copy it out of /proc/{os.getpid()}/fd/ before a restart"
                )
            if beside is None:
                try:
                    await self._reopen(path)
                except sqlite3.Error as exc:
                    self._refuse(
                        f"the file {_shown(path)} was deleted or moved away while the bot had "
                        f"it open; the bot saved a complete copy of it back to {_shown(path)} "
                        f"but could not open that copy ({exc}): restart the bot"
                    )
                log.warning(
                    "database file %s was deleted or moved away while the bot had it open; "
                    "the bot saved a complete copy of it back to %s and goes on with it",
                    _shown(gone or path),
                    _shown(path),
                )
                return
            self._saved = beside
        self._refuse(
            f"the file {_shown(gone or path)} was deleted, moved or replaced while the bot "
            f"had it open, and another file now stands at {_shown(path)}; the bot saved a "
            f"complete copy of the database it had open at {_shown(self._saved)} and writes "
            "nothing more: keep the file you want at that path and restart the bot"
        )

    async def _repair(self, path: Path) -> bool:
        """Only a ``-wal`` or ``-shm`` went, and the file at ``path`` is still the bot's:
        move every page of its WAL into that file (a full checkpoint through the files
        the bot holds) and go on with it; False if the checkpoint could not finish (a
        reader in another process), and nothing was changed."""
        raw = self._conn._conn
        try:
            busy, _, _ = await on_worker(
                self._conn, lambda: raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            )
        except sqlite3.Error:
            return False
        if busy:
            return False
        # Its own file at the path: its close removes only its own -wal and -shm.
        await self._conn.close()
        await self._reopen(path, abandon=False)
        return True

    async def _reopen(self, path: Path, *, abandon: bool = True) -> None:
        """Go on with the file now at ``path``; the old connection is left to the system,
        since its close would delete the new file's ``-wal`` and ``-shm`` by name."""
        conn = await _connect(str(path))
        try:
            await _configure(conn, wal=True)
            await _check_writable(conn)  # and the -wal and -shm are there to be watched
        except BaseException:
            await conn.close()
            raise
        if abandon:
            await self._abandon()
        self._conn = conn
        self._files = files.identities(path)

    async def _abandon(self) -> None:
        """Stop the connection's worker thread without closing its SQLite handle."""
        raw = self._conn._connection
        if raw is not None:
            files.abandon(raw)
            self._conn._connection = None
        stopped = self._conn.stop()
        if stopped is not None:
            await stopped

    # --------------------------------------------------------------------- writes

    async def run(self, plan: Plan[T], lock: Sequence[int] = (), *, grouped: bool = False) -> T:
        """The whole plan in one hand-over to the worker thread: under load each
        hand-over waits for the event loop (and the GIL), so the number of hand-overs
        and commits, not SQLite, sets the ceiling on moves per second. ``grouped``: in
        the next group commit (module docstring). One writer for the whole file: no
        ``lock`` needed."""
        if grouped:
            result: T = await self._commit_grouped(lambda db: _drive(db, plan))
            return result

        def write(db: sqlite3.Connection) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                done = _drive(db, plan)
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return done

        answer: T = await self._run_in_worker(write)
        return answer

    def is_channel_taken(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError) and "games.channel_id" in str(exc)

    async def _commit_grouped(self, write: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``write`` in the next group commit and return its result once that
        transaction is committed; raise its error (nothing of it written) if it failed,
        or the commit's if the commit failed (nothing of the group written).

        The commit runs in a task of its own, so a caller cancelled meanwhile does not
        cut it short: its move is then written or not as a whole, like any other."""
        if self._closed:
            raise StorageError("storage is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._group.append((write, future))
        if not self._committing:
            self._committing = True
            # Held here: the event loop keeps only a weak reference to a task.
            self._committer = asyncio.get_running_loop().create_task(self._commit_groups())
        return await future

    async def _commit_groups(self) -> None:
        """Commit the waiting moves, a group at a time, until none wait."""
        try:
            while self._group:
                group, self._group = self._group, []
                writes = [write for write, _ in group]
                try:
                    results = await self._run_in_worker(
                        functools.partial(_write_group, writes=writes)
                    )
                except BaseException as exc:
                    for _, future in group:
                        if future.done():
                            continue
                        if isinstance(exc, asyncio.CancelledError):
                            future.cancel()  # the loop is shutting down
                        else:
                            future.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for (_, future), (ok, value) in zip(group, results, strict=True):
                    if future.done():
                        continue  # its caller was cancelled; the move is stored all the same
                    if ok:
                        future.set_result(value)
                    elif is_unavailable(value):
                        self.health.failed(value)
                        down = DatabaseDownError(f"SQLite can't be used right now: {value}")
                        down.__cause__ = value
                        future.set_exception(down)
                    else:
                        future.set_exception(value)
        finally:
            self._committing = False
            for _, future in self._group:  # only if this task itself was cut short
                if not future.done():
                    future.cancel()
            self._group = []

    async def _run_in_worker(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``fn(sqlite3_connection)`` on aiosqlite's worker thread, under the lock.

        If the awaiting task is cancelled, ``fn`` still runs to its end (commit or
        rollback) on the worker, before any later statement of this connection.
        """
        async with self._lock, self._reaching():
            if self._closed:
                raise StorageError("storage is closed")
            await self._guard()
            conn = self._conn
            return await on_worker(conn, fn, conn._conn)

    @contextlib.asynccontextmanager
    async def _reaching(self, *, writes: bool = True) -> AsyncIterator[None]:
        """One call on the database: SQLite's "can't now" errors raise
        `DatabaseDownError`, and the storage's health notes the outage or its end. Only
        a write says the database is back: in WAL mode reads go on while another process
        holds the write lock, and would make the log say "back" between failed moves."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            if not is_unavailable(exc):
                raise
            self.health.failed(exc)
            raise DatabaseDownError(f"SQLite can't be used right now: {exc}") from exc
        if writes:
            self.health.answered()

    # ------------------------------------------------------------- the league's writes

    @contextlib.asynccontextmanager
    async def transaction(self, lock: Sequence[int]) -> AsyncIterator[_Transaction]:
        # BEGIN IMMEDIATE takes the file's write lock before the first read, so what the
        # caller reads is still true when it writes; every server shares that one lock.
        async with self._lock:
            if self._closed:
                raise StorageError("storage is closed")
            await self._guard()
            conn = self._conn
            raw = conn._conn
            async with self._reaching():
                await on_worker(conn, raw.execute, "BEGIN IMMEDIATE")
            try:
                yield _Transaction(self)
            except BaseException:
                if raw.in_transaction:
                    async with self._reaching():
                        await asyncio.shield(on_worker(conn, raw.execute, "ROLLBACK"))
                raise
            async with self._reaching():
                await on_worker(conn, raw.execute, "COMMIT")

    # ---------------------------------------------------------------------- reads

    async def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        async with self._lock:
            await self._guard(writes=False)
            async with self._conn.execute(sql) as cursor:
                while rows := await cursor.fetchmany(batch):
                    yield [tuple(row) for row in rows]

    async def fetchone(self, sql: str, params: Params) -> Any:
        # Under the lock, so a read never sees another coroutine's half-done transaction.
        async with self._lock, self._reaching(writes=False):
            await self._guard(writes=False)
            async with self._conn.execute(sql, params) as cursor:
                return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Params) -> list[Any]:
        async with self._lock, self._reaching(writes=False):
            await self._guard(writes=False)
            async with self._conn.execute(sql, params) as cursor:
                return list(await cursor.fetchall())


def _drive(db: sqlite3.Connection, plan: Plan[T]) -> T:
    """Run a plan's steps on the worker thread, one after the other; a step's error ends
    the plan, and its caller rolls back."""
    answer: Any = None
    try:
        while True:
            step = plan.send(answer)
            if type(step) is FetchOne:
                answer = db.execute(step.sql, step.params).fetchone()
            elif type(step) is ExecuteMany:
                if step.rows:
                    db.executemany(step.sql, step.rows)
                answer = None
            elif type(step) is Execute:
                answer = db.execute(step.sql, step.params).rowcount
            elif type(step) is FetchAll:
                answer = db.execute(step.sql, step.params).fetchall()
            else:
                raise TypeError(f"not a step: {step!r}")
    except StopIteration as done:
        result: T = done.value
        return result


class _Transaction:
    """`Transaction` on the connection's worker thread: one hand-over a call. Each call
    is one reach of the database (`SqliteDriver._reaching`): an error of the caller's
    own between calls (a copy's source failing while it is read) is not this
    database's outage."""

    def __init__(self, driver: SqliteDriver) -> None:
        self._driver = driver
        self._conn = driver._conn
        self._raw = driver._conn._conn

    async def _call(self, fn: Callable[[], R]) -> R:
        async with self._driver._reaching():
            return await on_worker(self._conn, fn)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raw = self._raw
        return await self._call(lambda: raw.execute(sql, params).fetchall())

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        raw = self._raw
        return await self._call(lambda: raw.execute(sql, params).rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            raw = self._raw
            await self._call(lambda: raw.executemany(sql, rows))

    async def fetch_each(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Any]]:
        raw = self._raw
        return await self._call(
            lambda: [raw.execute(sql, params).fetchall() for sql, params in queries]
        )

    async def write_each(self, writes: Sequence[tuple[str, Sequence[Sequence[Any]]]]) -> None:
        raw = self._raw

        def write() -> None:
            for sql, rows in writes:
                if rows:
                    raw.executemany(sql, rows)

        await self._call(write)

    async def copy_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" for _ in columns)
        await self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


async def on_worker(conn: aiosqlite.Connection, fn: Callable[..., R], *args: Any) -> R:
    """``fn(*args)`` on the connection's worker thread, through aiosqlite's own hook for
    it (a test checks the hook is still there): one hand-over, however much ``fn`` does."""
    hook: Callable[..., Awaitable[R]] = conn._execute
    return await hook(fn, *args)


def _write_group(
    db: sqlite3.Connection, writes: Sequence[Callable[[sqlite3.Connection], Any]]
) -> list[tuple[bool, Any]]:
    """One transaction for a group of moves, each in a savepoint: ``(True, result)`` for
    a move written, ``(False, error)`` for one rolled back alone. If SQLite rolled the
    whole transaction back by itself (disk full, I/O error), or the COMMIT fails, the
    error is raised: nothing of the group was written."""
    db.execute("BEGIN IMMEDIATE")
    results: list[tuple[bool, Any]] = []
    try:
        for write in writes:
            db.execute("SAVEPOINT move")
            try:
                results.append((True, write(db)))
            except Exception as exc:
                if not db.in_transaction:
                    raise  # SQLite rolled back the whole group: the moves before are gone too
                db.execute("ROLLBACK TO move")
                results.append((False, exc))
            db.execute("RELEASE move")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return results


def _write_nothing(db: sqlite3.Connection) -> None:
    """A committed write that changes nothing: the schema version set to what it is."""
    db.execute("BEGIN IMMEDIATE")
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        db.execute(f"PRAGMA user_version = {version}")  # our own int: nothing spliced
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


async def _connect(path: str) -> aiosqlite.Connection:
    """An aiosqlite connection to a file that is already open.

    The file is opened here, and only then handed to aiosqlite, whose worker thread
    therefore never sees an open fail. When `aiosqlite.connect` itself fails, it stops its
    worker without waiting for it, and a start-up that then ends at once (a read-only
    folder, say) closes the event loop under that worker: a second, "Event loop is
    closed" traceback after the one line for the operator, in most runs. Opening takes no
    lock and reads nothing, so doing it on the event loop's thread costs no waiting;
    check_same_thread=False lets the connection move on to aiosqlite's worker, which is
    then the only thread that uses it.
    """
    raw = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        return await aiosqlite.Connection(lambda: raw, iter_chunk_size=64)
    except BaseException:
        raw.close()
        raise


async def _configure(conn: aiosqlite.Connection, *, wal: bool) -> None:
    """The connection's settings, the same at start-up and when the bot goes on with a
    copy it saved (`SqliteDriver._save`)."""
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    if wal:
        await conn.execute("PRAGMA journal_mode = WAL")
        # Safe with WAL: a power cut may lose the last commit, never corrupt.
        await conn.execute("PRAGMA synchronous = NORMAL")


async def _user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def _migrate(conn: aiosqlite.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the steps this file has not seen, each in its own transaction.

    The version bump is part of each step's transaction, so a crash mid-upgrade leaves
    the file at the last completed step and the next start resumes from there.
    """
    version = await _user_version(conn)
    if version > len(migrations):
        raise SchemaTooNewError(
            f"database schema version {version} is newer than this bot knows "
            f"({len(migrations)}); upgrade the bot or use another DATABASE_PATH or DATABASE_URL"
        )
    for number, steps in enumerate(migrations[version:], start=version + 1):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            for sql in statements(steps, "sqlite"):
                await conn.execute(sql)
            # PRAGMA takes no bound parameters; `number` is our own int, never user input.
            await conn.execute(f"PRAGMA user_version = {int(number)}")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        await conn.execute("COMMIT")


# ------------------------------------------------------------------ start-up checks


async def _check_writable(conn: aiosqlite.Connection) -> None:
    """Prove that writes work: create a table in a transaction, then roll it back.

    SQLite opens a file it may not write read-only without a word, and a database that
    is already in WAL mode and up to date needs no write to start; without this check a
    read-only file would start fine and then fail every move. BEGIN IMMEDIATE alone is
    not enough: it succeeds on a read-only file, only the write itself fails.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute("CREATE TABLE _startup_write_check (x)")
    finally:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")


def _prepare_location(path: Path) -> None:
    """Check that `path` can be a database file and create its folder if missing.

    The checks use the path as given (a relative one from the working directory, which
    needs no permission on the folders above it); messages show it absolute.
    """
    try:
        if path.is_dir():
            raise DatabasePathError(
                f"{_shown(path)} is a folder, not a file: name the database file inside it, "
                f"e.g. {_shown(path / 'mexican.db')}"
            )
        if path.exists() and not path.is_file():
            raise DatabasePathError(f"{_shown(path)} is not a regular file: name a database file")
        # The nearest part of the path that exists must be a folder ("." and "/" exist).
        existing = next(p for p in path.parents if p.exists())
    except PermissionError:
        raise DatabasePathError(
            f"no permission to look inside the folder {_shown(_closed_folder(path))}, which "
            f"leads to {_shown(path)}: make it accessible to the user the bot runs as"
        ) from None
    if not existing.is_dir():
        raise DatabasePathError(
            f"{_shown(existing)} is a file, not a folder, so it can't hold the database: "
            "put the database in a folder"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except PermissionError as exc:
        raise DatabasePathError(
            f"no permission to create the folder {_shown(Path(exc.filename or path.parent))}: "
            f"create it, or make {_shown(existing)} writable for the user the bot runs as"
        ) from exc
    except OSError as exc:
        raise DatabasePathError(
            f"cannot create the folder {_shown(path.parent)}: {exc.strerror or exc}"
        ) from exc


def describe_sqlite_problem(path: Path, exc: sqlite3.Error) -> str | None:
    """What is wrong with the database at `path`, in plain words, for an SQLite error met
    while opening or checking it; None for errors that are not about the file (a bug in
    a migration, say), which are better shown as they are."""
    name = _sqlite_error_name(exc)
    folder = path.parent
    file_shown, folder_shown = _shown(path), _shown(folder)
    sidecars = f"{path.name}-wal and {path.name}-shm"
    if name == "SQLITE_READONLY_DIRECTORY":
        return _read_only_folder(folder_shown, sidecars)
    if name.startswith("SQLITE_READONLY"):
        if _on_read_only_file_system(folder):
            return (
                f"{file_shown} is on a read-only file system: put the database on a writable disk"
            )
        if path.exists() and not os.access(path, os.W_OK):
            return (
                f"the file {file_shown} is read-only: make it writable for the user the bot "
                "runs as (e.g. chmod u+w, or chown it to that user)"
            )
        for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
            if extra.exists() and not os.access(extra, os.W_OK):
                return (
                    f"{_shown(extra)} is read-only: make it writable for the user the bot runs as"
                )
        if not os.access(folder, os.W_OK):
            return _read_only_folder(folder_shown, sidecars)
        return (
            f"SQLite may not write to {file_shown} ({exc}): the file, its folder and the "
            f"{sidecars} files next to it must be writable for the user the bot runs as"
        )
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM")):
        if path.exists() and not os.access(path, os.R_OK):
            return (
                f"no permission to read {file_shown}: make it readable and writable for the "
                "user the bot runs as"
            )
        if not path.exists() and not os.access(folder, os.W_OK):
            return (
                f"the folder {folder_shown} is read-only, so the database file can't be "
                "created in it: make the folder writable for the user the bot runs as"
            )
        return f"SQLite can't open {file_shown} ({exc})"
    if name == "SQLITE_NOTADB":
        return f"{file_shown} is not an SQLite database: point to the bot's database or a new file"
    if name.startswith("SQLITE_CORRUPT"):
        return f"{file_shown} is damaged ({exc}): restore it from a backup"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return (
            f"another program keeps {file_shown} locked for writing: is another copy of the "
            "bot running on the same file?"
        )
    if name == "SQLITE_FULL":
        return f"the disk holding {file_shown} is full"
    if name.startswith("SQLITE_IOERR"):
        return f"the disk failed reading or writing {file_shown} ({exc})"
    return None


# SQLite's messages for the primary codes, for errors without `sqlite_errorname` (raised by
# hand, or by another driver).
_ERROR_NAMES = {
    "attempt to write a readonly database": "SQLITE_READONLY",
    "unable to open database file": "SQLITE_CANTOPEN",
    "file is not a database": "SQLITE_NOTADB",
    "database disk image is malformed": "SQLITE_CORRUPT",
    "database is locked": "SQLITE_BUSY",
    "database or disk is full": "SQLITE_FULL",
    "disk I/O error": "SQLITE_IOERR",
    "access permission denied": "SQLITE_PERM",
}


def _sqlite_error_name(exc: sqlite3.Error) -> str:
    name = getattr(exc, "sqlite_errorname", None)
    if isinstance(name, str) and name:
        return name
    return _ERROR_NAMES.get(str(exc), "")


def _read_only_folder(folder: Path, sidecars: str) -> str:
    return (
        f"the folder {folder} is read-only: SQLite must create {sidecars} next to the "
        "database, so make the folder writable for the user the bot runs as"
    )


def _on_read_only_file_system(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):  # no statvfs on Windows
        return False


def _closed_folder(file: Path) -> Path:
    """The folder on the way to `file` that may not be entered (the one whose child
    can't even be looked at)."""
    for folder in reversed(file.parents):
        try:
            os.stat(folder)
        except PermissionError:
            return folder.parent
        except OSError:
            break
    return file.parent


def _shown(path: Path) -> Path:
    """A path as the operator should read it: absolute, without resolving links."""
    return Path(os.path.abspath(path))
