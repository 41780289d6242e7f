"""What differs between the backends' SQL, as data: parameters, logs, locks, counters.

Queries are written once in SQLite's style, ``?`` for positional and ``:name`` for named
parameters; asyncpg wants ``$1``, ``$2``… Translating at the edge keeps a single copy of
every query, so the leaderboard cannot drift apart between the two databases.

The few places where the two databases' SQL really differs are the fields of a
`Dialect` (`SQLITE`, `POSTGRESQL`): how a game's log is joined into one text, how a move
that names no channel takes its channel's lock, whether a write's reads ride on its
statements (a round trip each on PostgreSQL), and how rows of counters are added
(`Counters`: a statement per set of counters on SQLite, whose statements are
in-process calls; one statement over arrays on PostgreSQL, where each is a round trip).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.plan import Execute, ExecuteMany, Step

# A parameter outside quotes: ``?`` or ``:name`` (not PostgreSQL's ``::type`` cast).
_TOKEN = re.compile(r"'(?:[^']|'')*'|(?<![:\w]):([A-Za-z_]\w*)|\?")


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> tuple[str, tuple[str, ...] | int]:
    """``sql`` with ``$n`` parameters, and how to order the arguments: the names in
    ``$n`` order for named parameters (a name used twice keeps one number), or the
    count of ``?`` for positional ones. A query never mixes the two styles."""
    names: list[str] = []
    count = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text.startswith("'"):
            return text  # a string literal is left alone
        name = match.group(1)
        if name is None:
            count += 1
            return f"${count}"
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    out = _TOKEN.sub(swap, sql)
    if names and count:
        raise ValueError("a query mixes ? and :name parameters")
    return out, tuple(names) if names else count


def arguments(order: tuple[str, ...] | int, params: Any) -> Sequence[Any]:
    """The arguments of a `numbered` query, in ``$n`` order."""
    if isinstance(order, tuple):
        if not isinstance(params, Mapping):
            raise TypeError("a query with :name parameters needs a mapping of values")
        return [params[name] for name in order]
    values = list(params or ())
    if len(values) != order:
        raise ValueError(f"the query takes {order} parameter(s), {len(values)} given")
    return values


# ------------------------------------------------------------------------ locks


#: The class (first key) of the league's per-server locks (`guild_lock`): two keys, so
#: apart from the channels' one-key locks, and a class of its own beside the migration
#: lock's (bot/storage/postgres.py).
LEAGUE_LOCK_CLASS = 0x6C6561
#: The bot arena's one lock (README, Bot arena: The ladder): two arena servers on one
#: database take turns to score their rounds, so neither loses the other's update.
ARENA_LOCK: tuple[int, int] = (0x6172656E, 0)


def channel_lock(channel_id: int) -> tuple[int]:
    """The lock the writers of one channel's games queue on."""
    return (channel_id,)


def guild_lock(guild_id: int) -> tuple[int, int]:
    """The lock of one server's league (`Storage.guild_transaction`)."""
    return (LEAGUE_LOCK_CLASS, lock_key(guild_id))


def lock_key(guild_id: int) -> int:
    """A server id (64 bits) folded into the lock's 32-bit second key: two servers that
    share a key only take turns, which is safe."""
    folded = (guild_id ^ (guild_id >> 32)) & 0xFFFFFFFF
    return folded - (1 << 32) if folded >= 1 << 31 else folded


# --------------------------------------------------------------------- counters


@dataclass(frozen=True, slots=True)
class Counters:
    """A table of counters that writes add to: its key columns with their PostgreSQL
    types, and its counter columns (``bigint``, 0 by default)."""

    table: str
    key: tuple[tuple[str, str], ...]
    columns: tuple[str, ...]


#: One row's changes to a `Counters` table: its key, and the counters it adds to (in
#: the table's column order) with how much.
Change = tuple[tuple[Any, ...], tuple[str, ...], tuple[int, ...]]


@functools.lru_cache(maxsize=256)
def sparse_upsert(counters: Counters, columns: tuple[str, ...]) -> str:
    """The upsert of one row that adds to these counters only; built once per set of
    counters (a move touches only a few distinct sets)."""
    key = ", ".join(name for name, _ in counters.key)
    marks = ", ".join("?" for _ in (*counters.key, *columns))
    if not columns:
        return f"INSERT INTO {counters.table} ({key}) VALUES ({marks}) ON CONFLICT DO NOTHING"
    return (
        f"INSERT INTO {counters.table} ({key}, {', '.join(columns)}) VALUES ({marks})"
        f" ON CONFLICT ({key}) DO UPDATE SET "
        + ", ".join(f"{c} = {counters.table}.{c} + excluded.{c}" for c in columns)
    )


@functools.lru_cache(maxsize=16)
def array_upsert(counters: Counters) -> str:
    """The upsert of any number of whole rows, given column by column as arrays."""
    names = [name for name, _ in counters.key] + list(counters.columns)
    types = [kind for _, kind in counters.key] + ["bigint"] * len(counters.columns)
    return (
        f"INSERT INTO {counters.table} ({', '.join(names)}) SELECT * FROM unnest("
        + ", ".join(f"?::{kind}[]" for kind in types)
        + f") ON CONFLICT ({', '.join(names[: len(counters.key)])}) DO UPDATE SET "
        + ", ".join(f"{c} = {counters.table}.{c} + excluded.{c}" for c in counters.columns)
    )


@functools.lru_cache(maxsize=256)
def _places(counters: Counters, columns: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(counters.columns.index(c) for c in columns)


def sparse_steps(counters: Counters, changes: Sequence[Change]) -> list[Step]:
    """Changes as one statement per set of counters, each run once per row."""
    groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
    for key, columns, values in changes:
        groups.setdefault(columns, []).append((*key, *values))
    return [ExecuteMany(sparse_upsert(counters, cols), rows) for cols, rows in groups.items()]


def array_steps(counters: Counters, changes: Sequence[Change]) -> list[Step]:
    """Changes as one statement: every row whole (0 where unchanged), in the order given
    (key order: concurrent writers then lock shared rows in one order), column by
    column. A player's buckets share one set of values, made whole once."""
    if not changes:
        return []
    width = len(counters.columns)
    whole: dict[tuple[tuple[str, ...], tuple[int, ...]], list[int]] = {}
    rows = []
    for key, columns, values in changes:
        row = whole.get((columns, values))
        if row is None:
            row = whole[columns, values] = [0] * width
            for place, value in zip(_places(counters, columns), values, strict=True):
                row[place] = value
        rows.append((*key, *row))
    return [Execute(array_upsert(counters), list(zip(*rows, strict=True)))]


# ---------------------------------------------------------------------- dialects


#: Each game's log as one JSON text, its entries laid flat: ``seq, kind, payload, seq,
#: ...`` (`Dialect.log_of`). Flat rather than an array per entry: fewer concatenations
#: per row in the database, and no list per entry in Python (a third of the read's time
#: in SQLite; README, Benchmarks: The league).
_ENTRY = "seq || ',' || {kind} || ',' || payload"


@dataclass(frozen=True, slots=True)
class Dialect:
    """What one database's SQL says differently from the other's."""

    #: ``"sqlite"`` or ``"postgresql"``: which SQL a migration step runs (migrations.py).
    name: str
    #: A game's log (``g``: its games row) as one text of its entries joined by commas
    #: (bot/storage/games.py, `parse_log`); ``{only}``: a condition on its entries.
    #: As bytes (a BLOB, a bytea): the text is handed over as it is stored, UTF-8, for
    #: orjson, without being decoded into a Python str on the way. One subquery per game,
    #: driven by the games' primary key, so each reads its game's entries in key order (a
    #: plain ``IN`` over the events let PostgreSQL scan the whole table in parallel). In
    #: no particular order: each entry carries its seq, and `parse_log` sorts them if need
    #: be (sorting in PostgreSQL cost a sixth of a game end's read of its log).
    log_of: str
    #: The statement that takes the lock of a game's channel (``?``: the game's id), for a
    #: move whose caller did not name the channel; None where writers need no lock.
    lock_game_channel: str | None
    #: Whether each statement is a round trip to a server, so a write should fold its
    #: reads into its statements (``RETURNING``, subqueries) rather than read apart.
    round_trips: bool
    #: How rows of counters are added: a statement per row, or one over arrays.
    add_counters: Callable[[Counters, Sequence[Change]], list[Step]]
    #: What a copy runs after its rows, in their transaction: ids were copied as they
    #: were, so the next game and round must be numbered after them. (SQLite's
    #: AUTOINCREMENT moves sqlite_sequence past every id inserted without a word.)
    after_copy: tuple[str, ...] = ()
    #: What a copy runs for each table once committed (``{table}``): fresh statistics
    #: for the planner, rather than waiting for autovacuum to notice.
    refresh_statistics: str | None = None


SQLITE = Dialect(
    name="sqlite",
    log_of="(SELECT CAST(group_concat("
    + _ENTRY.format(kind="json_quote(kind)")
    + ") AS BLOB) FROM game_events e WHERE e.game_id = g.id{only})",
    lock_game_channel=None,
    round_trips=False,
    add_counters=sparse_steps,
)
POSTGRESQL = Dialect(
    name="postgresql",
    log_of="(SELECT convert_to(string_agg("
    + _ENTRY.format(kind="to_json(kind)::text")
    + ", ','), 'UTF8') FROM game_events e WHERE e.game_id = g.id{only})",
    lock_game_channel="SELECT pg_advisory_xact_lock(channel_id) FROM games WHERE id = ?",
    round_trips=True,
    add_counters=array_steps,
    after_copy=tuple(
        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
        f" FROM {table}"
        for table in ("games", "rounds")
    ),
    refresh_statistics="ANALYZE {table}",
)
