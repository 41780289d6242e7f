"""The bot's tables as `python -m bot migrate-db` copies them, and the games row's columns."""

from __future__ import annotations

from bot.storage.migrations import PROFILE_COLUMNS, TOTALS_COLUMNS

GAME_COLUMNS = (
    "id, guild_id, channel_id, ruleset, status, state_json, created_at, updated_at, move_no"
)
GAME_NAMES = tuple(GAME_COLUMNS.split(", "))

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
