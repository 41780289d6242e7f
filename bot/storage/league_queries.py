"""The league's reads: ratings, seasons and achievements as /season, /achievements and
the card show them (README, Leaderboard and stats).

Read-only, and a few statements per view whatever the number of achievements: counts
are aggregated in SQL, not asked for one key at a time. Plain values come back; the
league (bot/league/service.py) builds its records from them. Storage knows no rule sets or
families: the caller names the families and keys it wants.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.driver import Driver
from bot.storage.games import chunks
from bot.storage.plan import statements


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One stored rating: openskill's μ and σ, the shown number, rated games."""

    family: str
    user_id: int
    mu: float
    sigma: float
    shown: int
    games: int


@dataclass(frozen=True, slots=True)
class AchievementCounts:
    """How one person stands against a server's achievements."""

    #: Key -> when this person earned it.
    earned: dict[str, float]
    #: Key -> how many people on the server hold it (keys nobody holds are absent).
    holders: dict[str, int]
    #: People on the server with a rating in any family: who has played a rated game.
    players: int


class LeagueQueries:
    """The league's reads (and its one write outside a server's lock, claiming a season's
    announcement) over one `Driver`. SQL in SQLite's parameter style, as everywhere."""

    def __init__(self, db: Driver) -> None:
        self._db = db

    async def season_row(self, guild_id: int) -> tuple[str, str] | None:
        """The server's stored season: (length, current key); None before its first."""
        row = await self._db.fetchone(
            "SELECT length, current FROM seasons WHERE guild_id = ?", (guild_id,)
        )
        return (str(row[0]), str(row[1])) if row else None

    async def season_top(
        self, guild_id: int, since: float, until: float, limit: int
    ) -> list[RatingRow]:
        """Per family, the best ``limit`` people (by shown rating, then more games, then
        id: the leaderboard's order) among those whose last rated game fell in
        [since, until): the season's players. Families with nobody are absent."""
        # One statement for both families, so both tops come from one snapshot.
        rows = await self._db.fetchall(
            "SELECT family, user_id, mu, sigma, shown, games FROM ("
            " SELECT family, user_id, mu, sigma, shown, games, ROW_NUMBER() OVER ("
            "  PARTITION BY family ORDER BY shown DESC, games DESC, user_id) AS place"
            " FROM ratings WHERE guild_id = ? AND user_id > 0"
            " AND last_game_at >= ? AND last_game_at < ?) AS ranked"
            " WHERE place <= ? ORDER BY family, place",
            (guild_id, since, until, limit),
        )
        return [_rating(row) for row in rows]

    async def closed_seasons(
        self, guild_id: int, limit: int
    ) -> list[tuple[str, list[dict[str, Any]]]]:
        """The server's closed seasons, newest first: (key, champions as stored)."""
        # By closing time: keys of a month and of a quarter do not sort by date.
        rows = await self._db.fetchall(
            "SELECT season, champions FROM closed_seasons WHERE guild_id = ?"
            " ORDER BY closed_at DESC, season DESC LIMIT ?",
            (guild_id, limit),
        )
        return [(str(row[0]), list(json.loads(row[1]))) for row in rows]

    async def ratings_of(
        self, guild_id: int, user_id: int, families: Sequence[str]
    ) -> list[RatingRow]:
        """One player's (or a computer's stats id's) ratings in these families."""
        if not families:
            return []
        # Named families: each is a lookup of the primary key (guild, family, user).
        marks = ", ".join("?" for _ in families)
        rows = await self._db.fetchall(
            "SELECT family, user_id, mu, sigma, shown, games FROM ratings"
            f" WHERE guild_id = ? AND family IN ({marks}) AND user_id = ? ORDER BY family",
            (guild_id, *families, user_id),
        )
        return [_rating(row) for row in rows]

    async def rated_people(self, guild_id: int, families: Sequence[str]) -> dict[str, int]:
        """How many people (not computers) on the server have a rating in each of these
        families; a family nobody is rated in is absent."""
        if not families:
            return {}
        marks = ", ".join("?" for _ in families)
        rows = await self._db.fetchall(
            "SELECT family, COUNT(*) FROM ratings"
            f" WHERE guild_id = ? AND family IN ({marks}) AND user_id > 0 GROUP BY family",
            (guild_id, *families),
        )
        return {str(row[0]): int(row[1]) for row in rows}

    async def achievement_counts(
        self, guild_id: int, user_id: int, keys: Sequence[str]
    ) -> AchievementCounts:
        """What this person earned of ``keys``, how many people hold each, and how many
        people play rated games on the server: one statement, one snapshot, so a
        holder count never leaves out the person's own badge read beside it."""
        if not keys:
            return AchievementCounts({}, {}, 0)
        marks = ", ".join("?" for _ in keys)
        # Holders are counted from the (guild_id, key) index alone.
        rows = await self._db.fetchall(
            "SELECT 'held', key, COUNT(*), NULL FROM achievements"
            f" WHERE guild_id = ? AND key IN ({marks}) AND user_id > 0 GROUP BY key"
            " UNION ALL SELECT 'mine', key, 0, earned_at FROM achievements"
            f" WHERE guild_id = ? AND user_id = ? AND key IN ({marks})"
            " UNION ALL SELECT 'players', '', COUNT(DISTINCT user_id), NULL FROM ratings"
            " WHERE guild_id = ? AND user_id > 0",
            (guild_id, *keys, guild_id, user_id, *keys, guild_id),
        )
        earned: dict[str, float] = {}
        holders: dict[str, int] = {}
        players = 0
        for kind, key, count, at in rows:
            if kind == "held":
                holders[str(key)] = int(count)
            elif kind == "mine":
                earned[str(key)] = float(at)
            else:
                players = int(count)
        return AchievementCounts(earned, holders, players)

    async def rarest_held(
        self, guild_id: int, user_id: int, keys: Sequence[str], limit: int
    ) -> tuple[int, list[str]]:
        """How many of ``keys`` this person holds, and the ``limit`` of them fewest people
        on the server hold (rarest first; equally rare ones by key)."""
        if not keys:
            return 0, []
        marks = ", ".join("?" for _ in keys)
        rows = await self._db.fetchall(
            "SELECT mine.key, (SELECT COUNT(*) FROM achievements everyone"
            "  WHERE everyone.guild_id = mine.guild_id AND everyone.key = mine.key"
            "  AND everyone.user_id > 0) AS holders"
            " FROM achievements mine"
            f" WHERE mine.guild_id = ? AND mine.user_id = ? AND mine.key IN ({marks})"
            " ORDER BY holders, mine.key",
            (guild_id, user_id, *keys),
        )
        return len(rows), [str(row[0]) for row in rows[:limit]]

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
        counts = await self._db.run(
            statements(
                [
                    (
                        "UPDATE closed_seasons SET announced_at = ?"
                        " WHERE guild_id = ? AND season = ? AND announced_at IS NULL",
                        (float(now), guild_id, season),
                    )
                ]
            )
        )
        return counts[0] == 1

    async def _guild_rows(
        self, sql: str, column: str, guild_ids: Sequence[int] | None
    ) -> list[Any]:
        if guild_ids is None:
            return await self._db.fetchall(sql, ())
        joiner = " AND " if " WHERE " in sql else " WHERE "
        rows: list[Any] = []
        for chunk in chunks(guild_ids):
            rows += await self._db.fetchall(
                f"{sql}{joiner}{column} IN ({', '.join('?' * len(chunk))})", chunk
            )
        return rows


def _rating(row: Any) -> RatingRow:
    return RatingRow(
        str(row[0]), int(row[1]), float(row[2]), float(row[3]), int(row[4]), int(row[5])
    )
