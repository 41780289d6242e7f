"""Seasons: a server's calendar month (or quarter, if an admin chooses), in UTC.

Pure: every function takes the moment it is asked about (the injected clock's reading),
so a season's end is the same in every process, before and after a restart (README,
Seasons).
"""

from __future__ import annotations

import calendar
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.league.ratings import Skill

LENGTHS: tuple[str, ...] = ("month", "quarter")
DEFAULT_LENGTH = "month"
#: How many champions a season crowns, per family of rule sets.
CHAMPIONS = 3
DAY = 86400.0


def season_key(stamp: float, length: str = DEFAULT_LENGTH) -> str:
    """The season a moment falls in: ``"2026-12"`` (a month) or ``"2026-Q4"``."""
    moment = time.gmtime(stamp)
    if length == "quarter":
        return f"{moment.tm_year}-Q{(moment.tm_mon - 1) // 3 + 1}"
    if length != "month":
        raise ValueError(f"season length must be one of {LENGTHS}, not {length!r}")
    return f"{moment.tm_year}-{moment.tm_mon:02d}"


def bounds(key: str) -> tuple[float, float]:
    """When a season starts and when the next one does (UTC seconds)."""
    year_text, part = key.split("-")
    year = int(year_text)
    if part.startswith("Q"):
        first, months = (int(part[1:]) - 1) * 3 + 1, 3
    else:
        first, months = int(part), 1
    end_year, end_month = year + (first - 1 + months) // 12, (first - 1 + months) % 12 + 1
    return (
        float(calendar.timegm((year, first, 1, 0, 0, 0))),
        float(calendar.timegm((end_year, end_month, 1, 0, 0, 0))),
    )


def days_left(stamp: float, key: str) -> int:
    """Whole days until the season ends, counting today (the last day shows 1)."""
    return max(0, math.ceil((bounds(key)[1] - stamp) / DAY))


def length_of(key: str) -> str:
    return "quarter" if "-Q" in key else "month"


@dataclass(frozen=True, slots=True)
class Champion:
    family: str
    place: int
    user_id: int
    rating: int


def champions(
    skills: Mapping[str, Mapping[int, Skill]], played: Mapping[str, Iterable[int]]
) -> list[Champion]:
    """A season's champions: per family, the top three people by rating among those who
    played a rated game of that family in the season (computers never are). Ordered by
    the conservative estimate, then more games, then id: the leaderboard's order."""
    crowned: list[Champion] = []
    for family, pool in skills.items():
        eligible = {uid for uid in played.get(family, ()) if uid > 0 and uid in pool}
        best = sorted(eligible, key=lambda u: (-pool[u].ordinal, -pool[u].games, u))
        crowned += [
            Champion(family, n, uid, pool[uid].shown)
            for n, uid in enumerate(best[:CHAMPIONS], start=1)
        ]
    return crowned
