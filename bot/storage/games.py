"""Games, their moves and event logs: every write and read of them, written once.

The writes are plans (bot/storage/plan.py) that a driver runs in one transaction:
`new_game` and `move`. Everything they need is validated and serialised before the
transaction starts, so a bad value never reaches the database, and any failure inside
rolls the whole write back: a crash can never leave a state without its events, or
totals counted twice.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from bot.storage.dialect import Change, Counters, Dialect, channel_lock
from bot.storage.driver import Driver
from bot.storage.errors import (
    ChannelBusyError,
    Clock,
    GameNotFoundError,
    StaleGameError,
    StorageError,
)
from bot.storage.leaderboard import period_key
from bot.storage.migrations import PROFILE_COLUMNS, TOTALS_COLUMNS
from bot.storage.models import (
    GAME_STATUSES,
    OPEN_STATUSES,
    Event,
    EventRecord,
    GameRecord,
    GameStatus,
    MoveStats,
    PlayerKey,
    StateJson,
)
from bot.storage.plan import Execute, ExecuteMany, FetchOne, Plan, statements
from bot.storage.schema_rows import GAME_COLUMNS, GAME_NAMES

_GAME_OF_G = ", ".join(f"g.{name}" for name in GAME_NAMES)


class GameQueries:
    """Games, moves and logs over one `Driver`; `Storage` hands its callers these."""

    def __init__(self, db: Driver, clock: Clock = time.time) -> None:
        self._db = db
        self._clock = clock

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
        new_game_checks(status, state_json)
        rows = event_rows(events)
        stamp = float(self._clock() if now is None else now)
        plan = new_game(guild_id, channel_id, ruleset, status, state_json, stamp, rows)
        try:
            game_id = await self._db.run(plan, channel_lock(channel_id))
        except Exception as exc:
            if self._db.is_channel_taken(exc):
                raise ChannelBusyError(
                    f"channel {channel_id} already has an unfinished game"
                ) from exc
            raise
        # A plain str out (orjson, which readers parse it with, takes no StateJson).
        text = str(state_json)
        return GameRecord(game_id, guild_id, channel_id, ruleset, status, text, stamp, stamp)

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
        Returns the new events' seq numbers.

        Counters go to the server-wide buckets (all time, this month, this week) and, with
        ``channel_id``, to the same buckets of that channel.

        Every saved move adds one to the game's ``move_no``. With ``expect_move_no`` (the
        number this process last read) the move is written only if nobody saved another
        one since; otherwise nothing is written and `StaleGameError` is raised, so two
        processes can never both move the same game.
        """
        move_checks(status, state_json)
        rows = event_rows(events)
        stamp = float(self._clock() if now is None else now)
        buckets, profiles = counter_changes(totals_deltas, stamp, channel_id)
        plan = move(
            self._db.dialect,
            game_id,
            state_json,
            status,
            stamp,
            expect_move_no,
            rows,
            buckets,
            profiles,
            stats,
            lock_by_game=channel_id is None,
        )
        # Writers of one channel queue on its lock until the one before them commits.
        lock = () if channel_id is None else channel_lock(channel_id)
        try:
            return await self._db.run(plan, lock, grouped=True)
        except Exception as exc:
            if self._db.is_channel_taken(exc):
                raise ChannelBusyError("that channel already has an unfinished game") from exc
            raise

    # ---------------------------------------------------------------------- reads

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self._db.fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_record(row) if row is not None else None

    async def get_game_for_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's unfinished game (lobby or running), if any."""
        row = await self._db.fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status != 'over'",
            (channel_id,),
        )
        return game_record(row) if row is not None else None

    async def channel_head(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, move number) of the channel's unfinished game, if any: what a process
        compares its copy with before it refuses a move (README, Running at scale). Reads
        only the one-open-game index and two numbers, not the game's state."""
        row = await self._db.fetchone(
            "SELECT id, move_no FROM games WHERE channel_id = ? AND status != 'over'",
            (channel_id,),
        )
        return (int(row[0]), int(row[1])) if row is not None else None

    async def load_running_games(self) -> list[GameRecord]:
        """Every unfinished game (lobby and running), oldest first, to resume after a restart."""
        rows = await self._db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status != 'over' ORDER BY id", ()
        )
        return [game_record(row) for row in rows]

    async def recently_finished(self, since: float) -> list[tuple[int, int]]:
        """(channel id, game id) of games that ended since ``since`` in channels that have
        no open game now: after a restart their channels may still show live buttons."""
        rows = await self._db.fetchall(
            "SELECT channel_id, MAX(id) FROM games WHERE status = 'over' AND updated_at >= ?"
            " AND channel_id NOT IN (SELECT channel_id FROM games WHERE status != 'over')"
            " GROUP BY channel_id",
            (float(since),),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def unshown_ends(self, since: float) -> list[GameRecord]:
        """Games that ended since ``since`` whose final standing the bot has not posted
        (a process stopped between a game's end and its answer), oldest end first."""
        rows = await self._db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'over' AND shown_at IS NULL"
            " AND updated_at >= ? ORDER BY updated_at, id",
            (float(since),),
        )
        return [game_record(row) for row in rows]

    async def mark_shown(self, game_id: int) -> None:
        """The finished game's final standing reached its channel."""
        await self._db.run(
            statements(
                [
                    (
                        "UPDATE games SET shown_at = ?"
                        " WHERE id = ? AND status = 'over' AND shown_at IS NULL",
                        (float(self._clock()), game_id),
                    )
                ]
            )
        )

    async def events(self, game_id: int) -> list[EventRecord]:
        rows = await self._db.fetchall(
            "SELECT game_id, seq, kind, payload, created_at FROM game_events"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [EventRecord(row[0], row[1], row[2], orjson.loads(row[3]), row[4]) for row in rows]

    # ------------------------------------------------------ the league's reads (league.py)

    def finished_game_query(
        self, game_id: int, kinds: Sequence[str] = ()
    ) -> tuple[str, tuple[Any, ...]]:
        """The read of a game, its `rated_games.result` if the league has processed it,
        and its log (``kinds`` only; as `event_log_texts` gives one): everything a game's
        end reads of the game, for the league to send with its own reads under the
        server's lock (`Transaction.fetch_each`; `finished_game_of` reads the rows)."""
        only = _only_kinds(kinds)
        return (
            f"SELECT {_GAME_OF_G}, r.result, {self._db.dialect.log_of.format(only=only)}"
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
        record = game_record(dict(zip(GAME_NAMES, game, strict=True)))
        return record, None if result is None else str(result), b"" if text is None else bytes(text)

    async def unrated_games(self, since: float | None = None) -> list[tuple[int, int]]:
        """(game id, guild id) of finished games the league has not processed, oldest end
        first; ``since``: only those that ended since then (index games_over_by_end)."""
        rows = await self._db.fetchall(
            "SELECT id, guild_id FROM games g WHERE status = 'over' AND updated_at >= ?"
            " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id)"
            " ORDER BY updated_at, id",
            (float("-inf") if since is None else float(since),),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def finished_games(self, game_ids: Sequence[int]) -> list[GameRecord]:
        """These games if finished, in the order they ended."""
        found: list[GameRecord] = []
        for chunk in chunks(game_ids):
            found += [
                game_record(row)
                for row in await self._db.fetchall(
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
        log_of = self._db.dialect.log_of.format(only=only)
        for chunk in chunks(game_ids):
            rows = await self._db.fetchall(
                f"SELECT g.id, {log_of} FROM games g WHERE g.id IN ({', '.join('?' * len(chunk))})",
                (*kinds, *chunk),
            )
            logs.update((int(game_id), bytes(text)) for game_id, text in rows if text is not None)
        return logs


# ---------------------------------------------------------------------- plans


INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, ruleset, status, state_json, created_at,"
    " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"
)
#: The UPDATE of a move; the move-number condition is appended when one is expected.
UPDATE_GAME = (
    "UPDATE games SET state_json = ?, status = ?, updated_at = ?, move_no = move_no + 1"
    " WHERE id = ? AND status != 'over'"
)
#: What the rest of a move needs, returned by its UPDATE where a read is a round trip:
#: the game's guild and channel, and its last event number.
_RETURNING = (
    " RETURNING guild_id, channel_id,"
    " (SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game_id = games.id)"
)
#: The same, each read on its own.
GAME_PLACE = "SELECT guild_id, channel_id FROM games WHERE id = ?"
LAST_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM game_events WHERE game_id = ?"
GAME_STATE = "SELECT status, move_no FROM games WHERE id = ?"
INSERT_EVENT = (
    "INSERT INTO game_events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)"
)
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
#: The counters a move adds to: the leaderboards' buckets and the players' profiles.
BUCKETS = Counters(
    "stat_buckets",
    (("guild_id", "bigint"), ("channel_id", "bigint"), ("period", "text"), ("user_id", "bigint")),
    TOTALS_COLUMNS,
)
PROFILES = Counters(
    "play_profiles", (("guild_id", "bigint"), ("user_id", "bigint")), PROFILE_COLUMNS
)


def new_game(
    guild_id: int,
    channel_id: int,
    ruleset: str,
    status: str,
    state_json: str,
    stamp: float,
    rows: Sequence[tuple[str, str]],
) -> Plan[int]:
    """A new game row and its first events; the game's id."""
    found = yield FetchOne(
        INSERT_GAME, (guild_id, channel_id, ruleset, status, state_json, stamp, stamp)
    )
    game_id = int(found[0])
    yield from append_events(game_id, rows, stamp, 0)
    return game_id


def move(
    dialect: Dialect,
    game_id: int,
    state_json: str,
    status: str,
    stamp: float,
    expected: int | None,
    rows: Sequence[tuple[str, str]],
    buckets: Sequence[Change],
    profiles: Sequence[Change],
    stats: MoveStats | None,
    *,
    lock_by_game: bool,
) -> Plan[list[int]]:
    """One move: the state, its events, its counters and its statistics; the events' seq
    numbers. ``lock_by_game``: the caller named no channel, so the move takes the lock
    of the game's channel itself, where the database has such locks."""
    if lock_by_game and dialect.lock_game_channel is not None:
        yield Execute(dialect.lock_game_channel, (game_id,))
    # Its own statement after the lock's, so its snapshot sees every move committed
    # before the lock was granted.
    sql, params = update_game(game_id, state_json, status, stamp, expected)
    if dialect.round_trips:
        # What the rest of the move needs comes back with the UPDATE: one round trip.
        found = yield FetchOne(sql + _RETURNING, params)
        if found is None:
            state = yield FetchOne(GAME_STATE, (game_id,))
            raise stale_or_missing(game_id, state, expected)
        guild_id, channel_id, last = int(found[0]), int(found[1]), int(found[2])
    else:
        # In-process statements, each read only if needed: SQLite ran the UPDATE with
        # _RETURNING five times slower than the UPDATE and its reads apart (22 µs
        # against 4 µs, on a game of 200 events).
        if (yield Execute(sql, params)) != 1:
            state = yield FetchOne(GAME_STATE, (game_id,))
            raise stale_or_missing(game_id, state, expected)
        last = int((yield FetchOne(LAST_SEQ, (game_id,)))[0]) if rows else 0
        guild_id = channel_id = 0
        if stats is not None:
            place = yield FetchOne(GAME_PLACE, (game_id,))
            guild_id, channel_id = int(place[0]), int(place[1])
    seqs = yield from append_events(game_id, rows, stamp, last)
    yield from add_totals(dialect, buckets, profiles)
    if stats is not None:
        yield from add_stats(game_id, guild_id, channel_id, stats, stamp)
    return seqs


def append_events(
    game_id: int, rows: Sequence[tuple[str, str]], stamp: float, last: int
) -> Plan[list[int]]:
    """A game's new events, numbered after its ``last``; their numbers."""
    if not rows:
        return []
    seqs = list(range(last + 1, last + 1 + len(rows)))
    yield ExecuteMany(
        INSERT_EVENT,
        [
            (game_id, seq, kind, payload, stamp)
            for seq, (kind, payload) in zip(seqs, rows, strict=True)
        ],
    )
    return seqs


def add_totals(
    dialect: Dialect, buckets: Sequence[Change], profiles: Sequence[Change]
) -> Plan[None]:
    """A move's counters: its buckets, then its players' profiles."""
    for step in dialect.add_counters(BUCKETS, buckets):
        yield step
    for step in dialect.add_counters(PROFILES, profiles):
        yield step


def add_stats(
    game_id: int, guild_id: int, channel_id: int, stats: MoveStats, stamp: float
) -> Plan[None]:
    if stats.claims:
        yield ExecuteMany(INSERT_CLAIM, claim_rows(guild_id, stats))
    if stats.catches:
        yield ExecuteMany(INSERT_CATCH, catch_rows(guild_id, stats))
    if stats.rounds:
        yield ExecuteMany(INSERT_ROUND, round_rows(guild_id, channel_id, game_id, stats, stamp))


def update_game(
    game_id: int, state_json: str, status: str, stamp: float, expected: int | None
) -> tuple[str, tuple[Any, ...]]:
    if expected is None:
        return UPDATE_GAME, (state_json, status, stamp, game_id)
    return UPDATE_GAME + " AND move_no = ?", (state_json, status, stamp, game_id, expected)


# ------------------------------------------------------------------------- logs


def _only_kinds(kinds: Sequence[str]) -> str:
    """The condition of `Dialect.log_of` that keeps a log's entries of these kinds (all: none)."""
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


def chunks(ids: Sequence[int], size: int = 1000) -> list[list[int]]:
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


def claim_rows(guild_id: int, stats: MoveStats) -> list[tuple[Any, ...]]:
    # Sorted: concurrent moves then take their row locks in one order (PostgreSQL).
    return sorted((guild_id, user, claim) for user, claim in stats.claims)


def catch_rows(guild_id: int, stats: MoveStats) -> list[tuple[Any, ...]]:
    return sorted((guild_id, caught, catcher) for catcher, caught in stats.catches)


def round_rows(
    guild_id: int, channel_id: int, game_id: int, stats: MoveStats, stamp: float
) -> list[tuple[Any, ...]]:
    return [
        (
            guild_id,
            channel_id,
            game_id,
            r.round_no,
            r.ruleset,
            r.loser_id,
            r.reason,
            dump(r.summary),
            stamp,
        )
        for r in stats.rounds
    ]


# ------------------------------------------------------------- checks and values


def check_status(status: str, allowed: Sequence[str], what: str) -> None:
    if status not in allowed:
        raise ValueError(f"{what} must be one of {tuple(allowed)}, not {status!r}")


def check_json(text: str) -> None:
    if type(text) is StateJson:
        return  # serialised by orjson: JSON already
    if not isinstance(text, str):
        raise TypeError(f"state_json must be a str, not {type(text).__name__}")
    orjson.loads(text)  # raises ValueError early, with a better message than the database's


def check_kind(kind: str) -> str:
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"event kind must be a non-empty str, got {kind!r}")
    return kind


def new_game_checks(status: str, state_json: str) -> None:
    if status not in OPEN_STATUSES:
        raise ValueError(f"a new game must be one of {OPEN_STATUSES}, not {status!r}")
    check_json(state_json)


def move_checks(status: str, state_json: str) -> None:
    check_status(status, GAME_STATUSES, "status")
    check_json(state_json)


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


def counter_changes(
    totals_deltas: Mapping[PlayerKey, Mapping[str, int]] | None,
    stamp: float,
    channel_id: int | None,
) -> tuple[list[Change], list[Change]]:
    """A move's changes to the leaderboards' counters, and to its players' play profiles
    (`play_profiles`), both in key order, so concurrent moves on PostgreSQL lock shared
    rows in the same order and never deadlock. A player's counters go to the server's
    buckets (all time, this month, this week) and, with ``channel_id``, the channel's.
    Column names come only from the whitelists, checked once per set of names."""
    scopes = [0] if channel_id is None else [0, channel_id]
    periods = bucket_periods(stamp)
    buckets: list[Change] = []
    profiles: list[Change] = []
    for (guild_id, user_id), deltas in sorted((totals_deltas or {}).items()):
        _check_counts(deltas)
        counters, profile = _split_columns(tuple(deltas))
        if counters:
            values = tuple(deltas[c] for c in counters)
            buckets += [
                ((guild_id, scope, period, user_id), counters, values)
                for scope in scopes
                for period in periods
            ]
        if profile:
            profiles.append(((guild_id, user_id), profile, tuple(deltas[c] for c in profile)))
    buckets.sort(key=lambda change: change[0])
    return buckets, profiles


_PROFILE_SET = frozenset(PROFILE_COLUMNS)
_TOTALS_SET = frozenset(TOTALS_COLUMNS)


@functools.lru_cache(maxsize=256)
def _split_columns(names: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The counters and the profile's columns among ``names``, each in its table's
    order: whitelisted once per set of names rather than for every player of every
    move."""
    unknown = set(names) - _TOTALS_SET - _PROFILE_SET
    if unknown:
        raise ValueError(f"unknown totals column(s): {', '.join(sorted(unknown))}")
    return (
        tuple(c for c in TOTALS_COLUMNS if c in names),
        tuple(c for c in PROFILE_COLUMNS if c in names),
    )


def _check_counts(deltas: Mapping[str, int]) -> None:
    for column, value in deltas.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"delta for {column!r} must be an int, got {value!r}")
