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

# Counters added by step 4: what a player made others take (hand-outs, Knight's sips,
# calls and bluffs that cost someone else).
_V4_CAUSED_COLUMNS: tuple[str, ...] = (
    "sips_caused",
    "shots_caused",
    "chugs_caused",
    "points_caused",
    "lives_caused",
)

# Every per-player counter, in schema order. Also the whitelist `save_move` checks delta
# keys against, since a column name cannot be a bound SQL parameter.
TOTALS_COLUMNS: tuple[str, ...] = _V3_TOTALS_COLUMNS + _V4_CAUSED_COLUMNS

# Step 4: leaderboards by channel and by period. Every counter is kept per bucket:
# (guild, channel or 0 for the whole server, period: 'all', 'm2026-11' or 'w2026-W48').
# A leaderboard then reads one bucket's rows (one per player) instead of adding up
# history, which keeps it fast however long a server has played. The old per-guild
# totals become the (channel 0, 'all') bucket.
_V4_STAT_BUCKETS: Migration = (
    "CREATE TABLE stat_buckets (\n"
    "    guild_id   INTEGER NOT NULL,\n"
    "    channel_id INTEGER NOT NULL,\n"
    "    period     TEXT    NOT NULL,\n"
    "    user_id    INTEGER NOT NULL,\n"
    + "".join(
        f"    {column} INTEGER NOT NULL DEFAULT 0 CHECK ({column} >= 0),\n"
        for column in TOTALS_COLUMNS
    )
    + "    PRIMARY KEY (guild_id, channel_id, period, user_id)\n"
    ") WITHOUT ROWID",
    f"INSERT INTO stat_buckets (guild_id, channel_id, period, user_id, "
    f"{', '.join(_V3_TOTALS_COLUMNS)}) SELECT guild_id, 0, 'all', user_id, "
    f"{', '.join(_V3_TOTALS_COLUMNS)} FROM player_totals",
    "DROP TABLE player_totals",
    """
    CREATE TABLE rounds (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        game_id     INTEGER NOT NULL,
        round_no    INTEGER NOT NULL,
        ruleset     TEXT    NOT NULL,
        loser_id    INTEGER,
        reason      TEXT    NOT NULL,
        summary     TEXT    NOT NULL CHECK (json_valid(summary)),
        ended_at    REAL    NOT NULL
    )
    """,
    "CREATE INDEX rounds_by_channel ON rounds (channel_id, id)",
    """
    CREATE TABLE claim_counts (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        claim    TEXT    NOT NULL,
        n        INTEGER NOT NULL CHECK (n >= 0),
        PRIMARY KEY (guild_id, user_id, claim)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE catches (
        guild_id   INTEGER NOT NULL,
        caught_id  INTEGER NOT NULL,
        catcher_id INTEGER NOT NULL,
        n          INTEGER NOT NULL CHECK (n >= 0),
        PRIMARY KEY (guild_id, caught_id, catcher_id)
    ) WITHOUT ROWID
    """,
)

MIGRATIONS: tuple[Migration, ...] = (
    _V1_GAMES_AND_EVENTS,
    _V2_ONE_OPEN_GAME_PER_CHANNEL,
    _V3_PLAYER_TOTALS,
    _V4_STAT_BUCKETS,
)

SCHEMA_VERSION = len(MIGRATIONS)
