"""/resetleaderboard's confirmation names everything the reset deletes (README,
Leaderboard and stats): read from the statements the storage runs, so a table added to
the reset without a word in the question makes this fail."""

from __future__ import annotations

import inspect
import re

from bot.present.i18n import talk
from bot.storage.leaderboard import LeaderboardQueries

#: The word the English question uses for what each wiped table holds.
WORDS = {
    "stat_buckets": "counters",
    "play_profiles": "counters",
    "claim_counts": "favourite claims",
    "catches": "nemeses",
    "ratings": "ratings",
    "rated_channel_players": "ratings",
    "rating_history": "ratings",
    "achievements": "achievements",
    "achievement_progress": "achievements",
    "seasons": "seasons",
    "closed_seasons": "champions",
}


def wiped_tables() -> set[str]:
    source = inspect.getsource(LeaderboardQueries.reset_guild_stats)
    return set(re.findall(r"DELETE FROM (\w+)", source))


def test_the_reset_wipes_the_tables_this_test_knows() -> None:
    assert wiped_tables() == set(WORDS)


def test_the_question_names_everything_the_reset_wipes() -> None:
    question = talk("en")("reset-sure")
    missing = sorted(
        {WORDS[table] for table in wiped_tables()}
        - {word for word in WORDS.values() if word in question}
    )
    assert missing == []
    assert "history stays" in question
