"""What every storage backend offers, and what they share.

`Storage` is the one interface the bot talks to; `SqliteStorage` (bot/storage/sqlite.py) and
`PostgresStorage` (bot/storage/postgres.py) implement it. The reads, the leaderboard
queries and the checks done before a move is written live here once, written in SQLite's
parameter style (``?`` and ``:name``): the PostgreSQL backend translates them to ``$1``
(bot/storage/dialect.py), so both backends answer the very same SQL.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Protocol, Self

import orjson

from bot.storage.health import Health
from bot.storage.leaderboard import LeaderboardQueries, period_key
from bot.storage.league_queries import LeagueQueries
from bot.storage.migrations import MIGRATIONS, PROFILE_COLUMNS, TOTALS_COLUMNS, Migration
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
)
from bot.storage.shard_leases import ShardLeaseQueries

Clock = Callable[[], float]


class StorageError(Exception):
    """Base class for storage failures the bot can explain to a user or operator."""


class SchemaTooNewError(StorageError):
    """The database was written by a newer bot; running old code on it could corrupt it."""


class ChannelBusyError(StorageError):
    """The channel already has an unfinished game (one game per channel)."""


class GameNotFoundError(StorageError):
    """No unfinished game has that id; finished games are read-only."""


class StaleGameError(StorageError):
    """The game moved on since this process read it: another process (a shard in a
    rolling restart, or an old copy still running) saved a move first. Nothing was
    written; the caller reloads the game and refuses the move."""


class CopyCountError(StorageError):
    """A copy's row counts differ from the source's; the copy was rolled back."""

    def __init__(self, counted: Mapping[str, int], expected: Mapping[str, int]) -> None:
        self.counted, self.expected = dict(counted), dict(expected)
        super().__init__(f"row counts differ: {self.counted} copied, {self.expected} expected")


class DatabaseUnavailableError(StorageError):
    """The database server can't be reached or refuses us; the message says what to fix
    and never contains the password."""


class DatabaseDownError(DatabaseUnavailableError):
    """The database stopped answering while the bot runs (connection refused or cut, a
    server shutting down, a lock held past its timeout): nothing of the call was written,
    and the same call may work again shortly (README, Running at scale)."""


class CommitUnknownError(DatabaseDownError):
    """The connection died while a transaction was being committed: the database may
    have kept the move or not. Only reading it back, once the database answers, can
    tell; the tables layer does that (bot/game/tables.py)."""


GAME_COLUMNS = (
    "id, guild_id, channel_id, ruleset, status, state_json, created_at, updated_at, move_no"
)
_GAME_NAMES = tuple(GAME_COLUMNS.split(", "))
_GAME_OF_G = ", ".join(f"g.{name}" for name in _GAME_NAMES)

#: The tables that hold the bot's data at the latest schema, parents before children, and
#: their columns: what `python -m bot migrate-db` copies (tests check it against the schema).
DATA_TABLES: dict[str, tuple[str, ...]] = {
    "games": tuple(GAME_COLUMNS.split(", ")),
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
    "ratings": ("guild_id", "family", "user_id", "mu", "sigma", "shown", "games",
                "last_game_at"),
    "rated_games": ("game_id", "guild_id", "family", "ended_at", "result"),
    "achievements": ("guild_id", "user_id", "key", "game_id", "earned_at"),
    "achievement_progress": ("guild_id", "user_id", "fact", "n"),
    "seasons": ("guild_id", "length", "current"),
    "closed_seasons": ("guild_id", "season", "closed_at", "champions", "channel_id",
                       "announced_at"),
    "rated_channel_players": ("guild_id", "family", "channel_id", "user_id", "last_game_at"),
}  # fmt: skip
#: Tables about the processes running now, not the bot's data: migrate-db leaves them.
PROCESS_TABLES: tuple[str, ...] = ("shard_leases",)
#: How many of each table's leading columns are its primary key: a copy reads rows in
#: key order, so PostgreSQL stores each leaderboard bucket's rows together on disk (as
#: SQLite's WITHOUT ROWID tables always do), which keeps a leaderboard's scan short.
KEY_COLUMNS = {"games": 1, "game_events": 2, "stat_buckets": 4, "rounds": 1,
               "claim_counts": 3, "catches": 3, "play_profiles": 2, "ratings": 3,
               "rated_games": 1, "achievements": 3, "achievement_progress": 3, "seasons": 1,
               "closed_seasons": 2, "rated_channel_players": 4}  # fmt: skip


class GuildTransaction(Protocol):
    """One open transaction that holds a server's league lock (`Storage.guild_transaction`):
    SQL in SQLite's parameter style, as everywhere in storage."""

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


class Storage(LeaderboardQueries, LeagueQueries, ShardLeaseQueries):
    """Async access to the bot's database; build one with `Storage.open(url or path)`.

    A backend provides the writes of a move (each in one transaction), the migrations and
    the low-level `_fetchone` / `_fetchall` / `_write`; everything else is shared here.
    """

    #: ``"sqlite"`` or ``"postgresql"``: which SQL a migration step runs (migrations.py).
    dialect: ClassVar[str]
    #: Picks the backend for `open`: set by factory.py, which knows the backends, so
    #: neither this module nor a backend imports the factory (no import circle).
    opener: ClassVar[Callable[..., Awaitable[Storage]] | None] = None
    #: Whether the database answered the last call; logs each outage's start and end once.
    health: Health

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
        raise NotImplementedError

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def ping(self) -> None:
        """One trivial query: raises if the database can't answer now (README, Metrics
        and health). The caller bounds how long it may take."""
        await self._fetchone("SELECT 1", ())

    async def schema_version(self) -> int:
        raise NotImplementedError

    # --------------------------------------------------------------------- writes

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        ruleset: str,
        state_json: str,
        *,
        status: GameStatus = "lobby",
        now: float | None = None,
        events: Iterable[Event] = (),
    ) -> GameRecord:
        """Start a game record with its first events, all or nothing; raises
        `ChannelBusyError` if the channel has an open game."""
        raise NotImplementedError

    async def save_move(
        self,
        game_id: int,
        state_json: str,
        status: GameStatus,
        events: Iterable[Event] = (),
        totals_deltas: Mapping[PlayerKey, Mapping[str, int]] | None = None,
        *,
        now: float | None = None,
        channel_id: int | None = None,
        stats: MoveStats | None = None,
        expect_move_no: int | None = None,
    ) -> list[int]:
        """Record one move: new state, its events and totals changes, all or nothing.

        Everything is validated and serialised before the transaction starts, and any
        failure inside it rolls the whole move back, so a crash can never leave a state
        without its events or totals counted twice. Returns the new events' seq numbers.

        Counters go to the server-wide buckets (all time, this month, this week) and, with
        ``channel_id``, to the same buckets of that channel.

        Every saved move adds one to the game's ``move_no``. With ``expect_move_no`` (the
        number this process last read) the move is written only if nobody saved another
        one since; otherwise nothing is written and `StaleGameError` is raised, so two
        processes can never both move the same game.
        """
        raise NotImplementedError

    def guild_transaction(self, guild_id: int) -> AbstractAsyncContextManager[GuildTransaction]:
        """Read, decide and write in one transaction that no other process can interleave
        with for the same server: what the league needs so that a game is rated, and a
        season closed, exactly once, and no rating update is lost when two processes rate
        games of one server at once (README, Ratings; Seasons).

        Committed when the block ends, rolled back if it raises. SQLite: ``BEGIN
        IMMEDIATE`` (one writer for the whole file); PostgreSQL: the server's
        transaction-level advisory lock. Storage knows nothing of ratings: the caller
        brings the SQL and the decisions."""
        raise NotImplementedError

    # ---------------------------------------------------------------------- reads

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self._fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_record(row) if row is not None else None

    async def get_game_for_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's unfinished game (lobby or running), if any."""
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status != 'over'",
            (channel_id,),
        )
        return game_record(row) if row is not None else None

    async def channel_head(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, move number) of the channel's unfinished game, if any: what a process
        compares its copy with before it refuses a move (README, Running at scale). Reads
        only the one-open-game index and two numbers, not the game's state."""
        row = await self._fetchone(
            "SELECT id, move_no FROM games WHERE channel_id = ? AND status != 'over'",
            (channel_id,),
        )
        return (int(row[0]), int(row[1])) if row is not None else None

    async def load_running_games(self) -> list[GameRecord]:
        """Every unfinished game (lobby and running), oldest first, to resume after a restart."""
        rows = await self._fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status != 'over' ORDER BY id", ()
        )
        return [game_record(row) for row in rows]

    async def recently_finished(self, since: float) -> list[tuple[int, int]]:
        """(channel id, game id) of games that ended since ``since`` in channels that have
        no open game now: after a restart their channels may still show live buttons."""
        rows = await self._fetchall(
            "SELECT channel_id, MAX(id) FROM games WHERE status = 'over' AND updated_at >= ?"
            " AND channel_id NOT IN (SELECT channel_id FROM games WHERE status != 'over')"
            " GROUP BY channel_id",
            (float(since),),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def events(self, game_id: int) -> list[EventRecord]:
        rows = await self._fetchall(
            "SELECT game_id, seq, kind, payload, created_at FROM game_events"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [EventRecord(row[0], row[1], row[2], orjson.loads(row[3]), row[4]) for row in rows]

    async def player_totals(self, guild_id: int, user_id: int) -> PlayerTotals:
        """A player's counters in one guild; all zero for someone who never played there."""
        row = await self._fetchone(
            f"SELECT {', '.join(TOTALS_COLUMNS)} FROM stat_buckets"
            " WHERE guild_id = ? AND channel_id = 0 AND period = 'all' AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return PlayerTotals(guild_id, user_id)
        return PlayerTotals(guild_id, user_id, **{k: int(row[k]) for k in TOTALS_COLUMNS})

    # ------------------------------------------------------ the league's reads (league.py)

    def finished_game_query(
        self, game_id: int, kinds: Sequence[str] = ()
    ) -> tuple[str, tuple[Any, ...]]:
        """The read of a game, its `rated_games.result` if the league has processed it,
        and its log (``kinds`` only; as `event_log_texts` gives one): everything a game's
        end reads of the game, for the league to send with its own reads under the
        server's lock (`GuildTransaction.fetch_each`; `finished_game_of` reads the rows)."""
        only = _only_kinds(kinds)
        return (
            f"SELECT {_GAME_OF_G}, r.result, {_LOG_OF[self.dialect].format(only=only)}"
            " FROM games g LEFT JOIN rated_games r ON r.game_id = g.id WHERE g.id = ?",
            (*kinds, game_id),
        )

    @staticmethod
    def finished_game_of(
        rows: Sequence[Sequence[Any]],
    ) -> tuple[GameRecord | None, str | None, bytes]:
        """`finished_game_query`'s rows: the game (None if there is none), its stored
        result (None if not processed yet) and its log text."""
        if not rows:
            return None, None, b""
        *game, result, text = rows[0]
        record = game_record(dict(zip(_GAME_NAMES, game, strict=True)))
        return record, None if result is None else str(result), b"" if text is None else bytes(text)

    async def unrated_games(self, since: float | None = None) -> list[tuple[int, int]]:
        """(game id, guild id) of finished games the league has not processed, oldest end
        first; ``since``: only those that ended since then (index games_over_by_end)."""
        rows = await self._fetchall(
            "SELECT id, guild_id FROM games g WHERE status = 'over' AND updated_at >= ?"
            " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
            " ORDER BY updated_at, id",
            (float("-inf") if since is None else float(since),),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def finished_games(self, game_ids: Sequence[int]) -> list[GameRecord]:
        """These games if finished, in the order they ended."""
        found: list[GameRecord] = []
        for chunk in _chunks(game_ids):
            found += [
                game_record(row)
                for row in await self._fetchall(
                    f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'over'"
                    f" AND id IN ({', '.join('?' * len(chunk))})",
                    chunk,
                )
            ]
        found.sort(key=lambda record: (record.updated_at, record.id))
        return found

    async def event_log_texts(
        self, game_ids: Sequence[int], kinds: Sequence[str] = ()
    ) -> dict[int, bytes]:
        """The event logs of many games, each as one text for `parse_log`, a query per
        thousand games: the database joins each game's entries (payloads are stored as
        JSON already), so Python handles a row per game, not per entry, and a caller
        that may not need a log (the league's backfill) parses it only if it does.

        ``kinds``: only the entries of these kinds (none: all). The achievements read a
        third of a log's entries; leaving the rest in the database halves the backfill."""
        logs: dict[int, bytes] = {}
        only = _only_kinds(kinds)
        for chunk in _chunks(game_ids):
            rows = await self._fetchall(
                _EVENT_LOGS[self.dialect].format(marks=", ".join("?" * len(chunk)), only=only),
                (*kinds, *chunk),
            )
            logs.update((int(game_id), bytes(text)) for game_id, text in rows if text is not None)
        return logs

    async def season_rows(self, guild_ids: Sequence[int] | None) -> list[tuple[int, str, str]]:
        """(guild id, length, current season) of these servers (None: all)."""
        return [
            (int(row[0]), str(row[1]), str(row[2]))
            for row in await self._guild_rows(
                "SELECT guild_id, length, current FROM seasons", "guild_id", guild_ids
            )
        ]

    async def unannounced(
        self, guild_ids: Sequence[int] | None
    ) -> list[tuple[int, str, str, int | None]]:
        """(guild id, season, champions JSON, channel id) of closed seasons nobody has
        claimed the announcement of, oldest first."""
        rows = await self._guild_rows(
            "SELECT guild_id, season, champions, channel_id, closed_at FROM closed_seasons"
            " WHERE announced_at IS NULL",
            "guild_id",
            guild_ids,
        )
        rows.sort(key=lambda row: (float(row[4]), int(row[0]), str(row[1])))
        return [
            (int(r[0]), str(r[1]), str(r[2]), None if r[3] is None else int(r[3])) for r in rows
        ]

    async def claim_announcement(self, guild_id: int, season: str, now: float) -> bool:
        """Mark a closed season announced; True for the one caller whose UPDATE did it."""
        counts = await self._write([(
            "UPDATE closed_seasons SET announced_at = ?"
            " WHERE guild_id = ? AND season = ? AND announced_at IS NULL",
            (float(now), guild_id, season),
        )])  # fmt: skip
        return counts[0] == 1

    async def _guild_rows(
        self, sql: str, column: str, guild_ids: Sequence[int] | None
    ) -> list[Any]:
        if guild_ids is None:
            return await self._fetchall(sql, ())
        joiner = " AND " if " WHERE " in sql else " WHERE "
        rows: list[Any] = []
        for chunk in _chunks(guild_ids):
            rows += await self._fetchall(
                f"{sql}{joiner}{column} IN ({', '.join('?' * len(chunk))})", chunk
            )
        return rows

    # ------------------------------------------------- copying (python -m bot migrate-db)

    async def count_rows(self, table: str) -> int:
        """How many rows one of `DATA_TABLES` holds."""
        if table not in DATA_TABLES:
            raise ValueError(f"unknown table {table!r}")
        row = await self._fetchone(f"SELECT COUNT(*) FROM {table}", ())
        return int(row[0])

    def read_rows(self, table: str, batch: int = 5000) -> AsyncIterator[list[tuple[Any, ...]]]:
        """A table's rows in `DATA_TABLES` column order, a batch at a time, so a copy
        never holds a whole million-round history in memory."""
        raise NotImplementedError

    async def load_rows(
        self, batches: AsyncIterator[tuple[str, list[tuple[Any, ...]]]],
        expected: Mapping[str, int],
    ) -> None:  # fmt: skip
        """Insert ``(table, rows)`` batches, all in one transaction: a copy that fails
        half-way leaves the target as empty as it was. Ids are kept as they are, and the
        next new game or round is numbered after the highest copied one. The rows of each
        table are counted inside the transaction too: if they differ from ``expected``
        (the source changed while it was read), nothing is committed (`CopyCountError`)."""
        raise NotImplementedError

    # `_fetchone`, `_fetchall` and `_write` are declared by LeaderboardQueries, which
    # uses them too; each backend provides them.


#: Each game's log as one JSON text, its entries laid flat: ``seq, kind, payload, seq,
#: ...`` (`event_log_texts`). Flat rather than an array per entry: fewer concatenations
#: per row in the database, and no list per entry in Python (a third of the read's time
#: in SQLite; README, Benchmarks: The league).
_ENTRY = "seq || ',' || {kind} || ',' || payload"
#: As bytes (a BLOB, a bytea): the text is handed over as it is stored, UTF-8, for
#: orjson, without being decoded into a Python str on the way. One subquery per game,
#: driven by the games' primary key, so each reads its game's entries in key order (a
#: plain ``IN`` over the events let PostgreSQL scan the whole table in parallel). In no
#: particular order: each entry carries its seq, and `parse_log` sorts them if need be
#: (sorting in PostgreSQL cost a sixth of a game end's read of its log).
_LOG_OF = {
    "sqlite": "(SELECT CAST(group_concat("
    + _ENTRY.format(kind="json_quote(kind)")
    + ") AS BLOB) FROM game_events e WHERE e.game_id = g.id{only})",
    "postgresql": "(SELECT convert_to(string_agg("
    + _ENTRY.format(kind="to_json(kind)::text")
    + ", ','), 'UTF8') FROM game_events e WHERE e.game_id = g.id{only})",
}
_EVENT_LOGS = {
    dialect: f"SELECT g.id, {log_of} FROM games g WHERE g.id IN ({{marks}})"
    for dialect, log_of in _LOG_OF.items()
}


def _only_kinds(kinds: Sequence[str]) -> str:
    """The condition of `_LOG_OF` that keeps a log's entries of these kinds (all: none)."""
    return f" AND e.kind IN ({', '.join('?' * len(kinds))})" if kinds else ""


def parse_log(text: bytes) -> list[tuple[str, Any]]:
    """One game's log from `Storage.event_log_texts`: ``(kind, payload)`` in order."""
    items = orjson.loads(b"[" + text + b"]")
    # Neither database's aggregate promises an order: each entry carries its seq. (Split
    # and paired by slices and zip, at C speed: a Python loop over every entry cost a
    # tenth of the backfill.)
    seqs, kinds, payloads = items[0::3], items[1::3], items[2::3]
    if seqs != sorted(seqs):
        order = sorted(range(len(seqs)), key=seqs.__getitem__)
        kinds, payloads = [kinds[i] for i in order], [payloads[i] for i in order]
    return list(zip(kinds, payloads, strict=True))


def _chunks(ids: Sequence[int], size: int = 1000) -> list[list[int]]:
    """Ids in lists short enough for one ``IN (...)`` (a bound parameter each)."""
    ids = list(ids)
    return [ids[n : n + size] for n in range(0, len(ids), size)]


def game_record(row: Any) -> GameRecord:
    return GameRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        ruleset=row["ruleset"],
        status=row["status"],
        state_json=row["state_json"],
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        move_no=int(row["move_no"]),
    )


def stale_or_missing(game_id: int, row: Any, expected: int | None) -> StorageError:
    """Why a move's UPDATE changed no row, from the game row (status, move_no) read in
    the same transaction: another process moved first, or there is no open game."""
    if row is not None and expected is not None and int(row[1]) != expected:
        return StaleGameError(
            f"game {game_id} is at move {int(row[1])}, not {expected}: another process moved it"
        )
    return GameNotFoundError(f"no unfinished game with id {game_id}")


#: The UPDATE of a move; the move-number condition is appended when one is expected.
UPDATE_GAME = (
    "UPDATE games SET state_json = ?, status = ?, updated_at = ?, move_no = move_no + 1"
    " WHERE id = ? AND status != 'over'"
)
GAME_STATE = "SELECT status, move_no FROM games WHERE id = ?"


def update_game(
    game_id: int, state_json: str, status: str, stamp: float, expected: int | None
) -> tuple[str, tuple[Any, ...]]:
    if expected is None:
        return UPDATE_GAME, (state_json, status, stamp, game_id)
    return UPDATE_GAME + " AND move_no = ?", (state_json, status, stamp, game_id, expected)


INSERT_EVENT = (
    "INSERT INTO game_events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)"
)
LAST_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game_id = ?"
INSERT_CLAIM = (
    "INSERT INTO claim_counts (guild_id, user_id, claim, n) VALUES (?, ?, ?, 1)"
    " ON CONFLICT (guild_id, user_id, claim) DO UPDATE SET n = claim_counts.n + 1"
)
INSERT_CATCH = (
    "INSERT INTO catches (guild_id, caught_id, catcher_id, n) VALUES (?, ?, ?, 1)"
    " ON CONFLICT (guild_id, caught_id, catcher_id) DO UPDATE SET n = catches.n + 1"
)
INSERT_ROUND = (
    "INSERT INTO rounds (guild_id, channel_id, game_id, round_no, ruleset, loser_id,"
    " reason, summary, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def claim_rows(guild_id: int, stats: MoveStats) -> list[tuple[Any, ...]]:
    # Sorted: concurrent moves then take their row locks in one order (PostgreSQL).
    return sorted((guild_id, user, claim) for user, claim in stats.claims)


def catch_rows(guild_id: int, stats: MoveStats) -> list[tuple[Any, ...]]:
    return sorted((guild_id, caught, catcher) for catcher, caught in stats.catches)


def round_rows(guild_id: int, channel_id: int, game_id: int, stats: MoveStats,
               stamp: float) -> list[tuple[Any, ...]]:  # fmt: skip
    return [
        (guild_id, channel_id, game_id, r.round_no, r.ruleset, r.loser_id, r.reason,
         dump(r.summary), stamp)
        for r in stats.rounds
    ]  # fmt: skip


def check_status(status: str, allowed: Sequence[str], what: str) -> None:
    if status not in allowed:
        raise ValueError(f"{what} must be one of {tuple(allowed)}, not {status!r}")


def check_json(text: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"state_json must be a str, not {type(text).__name__}")
    orjson.loads(text)  # raises ValueError early, with a better message than the database's


def check_kind(kind: str) -> str:
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"event kind must be a non-empty str, got {kind!r}")
    return kind


def dump(payload: Mapping[str, Any]) -> str:
    if not isinstance(payload, Mapping):
        raise TypeError(f"event payload must be a mapping, not {type(payload).__name__}")
    # orjson: the stdlib encoder was the largest single cost of a move under load.
    return orjson.dumps(dict(payload), option=orjson.OPT_SORT_KEYS).decode()


def event_rows(events: Iterable[Event]) -> list[tuple[str, str]]:
    return [(check_kind(kind), dump(payload)) for kind, payload in events]


def bucket_periods(stamp: float) -> tuple[str, str, str]:
    """The periods a moment counts in: all time, its UTC month and its ISO week."""
    # By the whole second (time.gmtime floors, and periods start on whole seconds): the
    # moves of one second share the two strftime calls.
    return _bucket_periods(math.floor(stamp))


@functools.lru_cache(maxsize=8)
def _bucket_periods(second: int) -> tuple[str, str, str]:
    return ("all", period_key("month", second), period_key("week", second))


def totals_upserts(
    totals_deltas: Mapping[PlayerKey, Mapping[str, int]] | None,
    stamp: float,
    channel_id: int | None,
) -> list[tuple[str, tuple[Any, ...]]]:
    """Every bucket upsert of a move, in key order (so concurrent moves on PostgreSQL lock
    shared rows in the same order and never deadlock), then each player's profile upsert
    (`play_profiles`), in key order too."""
    scopes = [0] if channel_id is None else [0, channel_id]
    periods = bucket_periods(stamp)
    upserts: list[tuple[str, tuple[Any, ...]]] = []
    profiles: list[tuple[str, tuple[Any, ...]]] = []
    for (guild_id, user_id), deltas in sorted((totals_deltas or {}).items()):
        counters, profile = split_deltas(deltas)
        if counters:
            sql, values = totals_upsert(counters)
            upserts += [
                (sql, (guild_id, scope, period, user_id, *values))
                for scope in scopes
                for period in periods
            ]
        if profile:
            sql, values = profile_upsert(profile)
            profiles.append((sql, (guild_id, user_id, *values)))
    upserts.sort(key=lambda upsert: upsert[1][:4])
    return upserts + profiles


_PROFILE_SET = frozenset(PROFILE_COLUMNS)


def split_deltas(deltas: Mapping[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """A player's changes to the leaderboards' counters, and to their play profile."""
    counters = {c: n for c, n in deltas.items() if c not in _PROFILE_SET}
    profile = {c: n for c, n in deltas.items() if c in _PROFILE_SET}
    return counters, profile


def profile_rows(
    totals_deltas: Mapping[PlayerKey, Mapping[str, int]] | None,
) -> list[tuple[int, ...]]:
    """The profile changes of a move as whole `play_profiles` rows (key, then every
    counter in `PROFILE_COLUMNS` order, 0 where unchanged), in key order."""
    rows = []
    for (guild_id, user_id), deltas in sorted((totals_deltas or {}).items()):
        _, profile = split_deltas(deltas)
        if profile:
            profile_upsert(profile)  # the same checks
            rows.append((guild_id, user_id, *(int(profile.get(c, 0)) for c in PROFILE_COLUMNS)))
    return rows


def profile_upsert(deltas: Mapping[str, int]) -> tuple[str, tuple[int, ...]]:
    """One player's profile changes as an upsert and its values (after the key)."""
    columns = tuple(c for c in PROFILE_COLUMNS if c in deltas)
    _check_counts(deltas)
    return _profile_sql(columns), tuple(deltas[c] for c in columns)


@functools.lru_cache(maxsize=256)
def _profile_sql(columns: tuple[str, ...]) -> str:
    names = ", ".join(columns)
    marks = ", ".join("?" for _ in columns)
    updates = ", ".join(f"{c} = play_profiles.{c} + excluded.{c}" for c in columns)
    return (
        f"INSERT INTO play_profiles (guild_id, user_id, {names}) VALUES (?, ?, {marks})"
        f" ON CONFLICT (guild_id, user_id) DO UPDATE SET {updates}"
    )


def bucket_rows(
    totals_deltas: Mapping[PlayerKey, Mapping[str, int]] | None,
    stamp: float,
    channel_id: int | None,
) -> list[tuple[int, ...]]:
    """The same changes as `totals_upserts`, as whole bucket rows (key, then every
    counter in `TOTALS_COLUMNS` order, 0 where unchanged), in key order: for a backend
    that upserts them all in one statement."""
    scopes = [0] if channel_id is None else [0, channel_id]
    periods = bucket_periods(stamp)
    rows: list[tuple[Any, ...]] = []
    for (guild_id, user_id), every in (totals_deltas or {}).items():
        deltas, _ = split_deltas(every)
        if not deltas:
            continue
        totals_upsert(deltas)  # the same checks
        values = tuple(int(deltas.get(c, 0)) for c in TOTALS_COLUMNS)
        rows += [
            (guild_id, scope, period, user_id, *values) for scope in scopes for period in periods
        ]
    rows.sort(key=lambda row: row[:4])
    return rows


def totals_upsert(deltas: Mapping[str, int]) -> tuple[str, tuple[int, ...]]:
    """One player's counter changes as an upsert and its values (the key comes first in
    the parameters); column names come only from the whitelist. Checked once per player,
    then used for each of its buckets."""
    columns = _ordered_columns(tuple(deltas))
    _check_counts(deltas)
    return upsert_sql(columns), tuple(deltas[c] for c in columns)


def _check_counts(deltas: Mapping[str, int]) -> None:
    for column, value in deltas.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"delta for {column!r} must be an int, got {value!r}")


_TOTALS_SET = frozenset(TOTALS_COLUMNS)


@functools.lru_cache(maxsize=256)
def _ordered_columns(names: tuple[str, ...]) -> tuple[str, ...]:
    """The counters a move changes, in `TOTALS_COLUMNS` order; whitelisted once per set of
    names rather than by scanning every column for every player of every move."""
    unknown = set(names) - _TOTALS_SET
    if unknown:
        raise ValueError(f"unknown totals column(s): {', '.join(sorted(unknown))}")
    return tuple(c for c in TOTALS_COLUMNS if c in names)


@functools.lru_cache(maxsize=256)
def upsert_sql(columns: tuple[str, ...]) -> str:
    """The upsert for one set of counters; a move touches only a few distinct sets, so the
    text is built once each instead of six times a player a move."""
    if not columns:
        return (
            "INSERT INTO stat_buckets (guild_id, channel_id, period, user_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
    return (
        f"INSERT INTO stat_buckets (guild_id, channel_id, period, user_id, {', '.join(columns)})"
        f" VALUES (?, ?, ?, ?, {', '.join('?' for _ in columns)})"
        " ON CONFLICT (guild_id, channel_id, period, user_id) DO UPDATE SET "
        + ", ".join(f"{c} = stat_buckets.{c} + excluded.{c}" for c in columns)
    )


def new_game_checks(status: str, state_json: str) -> None:
    if status not in OPEN_STATUSES:
        raise ValueError(f"a new game must be one of {OPEN_STATUSES}, not {status!r}")
    check_json(state_json)


def move_checks(status: str, state_json: str) -> None:
    check_status(status, GAME_STATUSES, "status")
    check_json(state_json)
