"""The schema, as an ordered list of migrations.

Index `i` of `MIGRATIONS` moves a database from `PRAGMA user_version` `i` to `i + 1`.
Never edit a released step: append a new one, so every older database file (and an empty
one) comes up to date by running the steps it has not seen yet, in order.
"""

from __future__ import annotations

Migration = tuple[str, ...]

# The counters created by step 3. Frozen with that step: a new counter gets its own
# `ALTER TABLE` step and is appended to `TOTALS_COLUMNS` below.
_V3_TOTALS_COLUMNS: tuple[str, ...] = (
    "sips",
    "shots",
    "chugs",
    "points",
    "lives_lost",
    "rounds_lost",
    "games_played",
    "games_won",
    "bluffs_made",
    "bluffs_caught",
    "calls_made",
    "calls_right",
    "mex_rolled",
    "rolls_made",
)

_V1_GAMES_AND_EVENTS: Migration = (
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        ruleset     TEXT    NOT NULL,
        status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'over')),
        state_json  TEXT    NOT NULL CHECK (json_valid(state_json)),
        created_at  REAL    NOT NULL,
        updated_at  REAL    NOT NULL
    )
    """,
    "CREATE INDEX games_by_status ON games (status)",
    """
    CREATE TABLE game_events (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL CHECK (seq >= 1),
        kind        TEXT    NOT NULL,
        payload     TEXT    NOT NULL CHECK (json_valid(payload)),
        created_at  REAL    NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
)

# One table only ever holds one unfinished game per channel: the index makes a second
# `create_game` in a busy channel fail inside SQLite, not just in Python.
_V2_ONE_OPEN_GAME_PER_CHANNEL: Migration = (
    "CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status != 'over'",
)

_V3_PLAYER_TOTALS: Migration = (
    "CREATE TABLE player_totals (\n"
    "    guild_id INTEGER NOT NULL,\n"
    "    user_id  INTEGER NOT NULL,\n"
    + "".join(
        f"    {column} INTEGER NOT NULL DEFAULT 0 CHECK ({column} >= 0),\n"
        for column in _V3_TOTALS_COLUMNS
    )
    + "    PRIMARY KEY (guild_id, user_id)\n"
    ") WITHOUT ROWID",
)

# Every per-player counter, in schema order. Also the whitelist `save_move` checks delta
# keys against, since a column name cannot be a bound SQL parameter.
TOTALS_COLUMNS: tuple[str, ...] = _V3_TOTALS_COLUMNS

MIGRATIONS: tuple[Migration, ...] = (
    _V1_GAMES_AND_EVENTS,
    _V2_ONE_OPEN_GAME_PER_CHANNEL,
    _V3_PLAYER_TOTALS,
)

SCHEMA_VERSION = len(MIGRATIONS)
