"""Leaderboard, player card and history queries.

Each leaderboard reads one bucket (guild, scope, period): one row per player, never the
whole history, so its cost grows with the number of players, not with games played.

Places use standard competition ranking (1, 2, 2, 4): a player's place is one more than
the number of players with a strictly better value, so equal values share a place on
every page and in "Your place" alike. Within a tie the list runs by more games played
first, then by user id: a total order, so paging never repeats or skips anyone.

A rating (README, Ratings) is one number per person and family,
whatever the scope: its leaderboards list the people who played a rated game of the
family in the scope and period, by their one rating, so "this channel, this week" lists
the people who played a rated game of it in this channel this week. Who played is read
beside the rating, never from the counters' buckets: on the whole server the rating's
own last game, in a channel the person's row of rated_channel_players (schema step 9).
"""

from __future__ import annotations

import calendar
import json
import time
from dataclasses import dataclass
from typing import Any

from bot.storage.driver import Driver
from bot.storage.migrations import PROFILE_COLUMNS, TOTALS_COLUMNS
from bot.storage.models import PlayerTotals, Ranked, RoundRecord
from bot.storage.plan import statements


@dataclass(frozen=True, slots=True)
class Stat:
    """A ranked statistic: an SQL expression over one bucket row, and who qualifies."""

    #: The English name, to read this table by. Players see the catalog's ``stat-<key>``
    #: in their language (cogs/stats.py): storage knows nothing of languages.
    title: str
    expr: str
    #: Rows must satisfy this (e.g. a minimum number of games for a rate).
    where: str = "TRUE"
    percent: bool = False
    #: The family whose stored rating is the value (`expr` and `games` then read the
    #: ratings row joined to the bucket's); None for a counter of the bucket itself.
    family: str | None = None
    #: What ranks a tie and fills `Ranked.games_played`: games in the bucket, or rated
    #: games in the family (fewer than ten is a provisional rating: bot/league/ratings.py).
    games: str = "games_played"


#: The leaderboard's statistics. Expressions use only column names of stat_buckets.
STATS: dict[str, Stat] = {
    "wins": Stat("Wins", "games_won", "games_played > 0"),
    "winrate": Stat(
        "Win rate",
        "CAST(games_won AS DOUBLE PRECISION) / games_played",
        "games_played >= :min_games",
        percent=True,
    ),
    "sips": Stat("Sips taken", "sips", "sips > 0"),
    "shots": Stat("Shots taken", "shots", "shots > 0"),
    "chugs": Stat("Chugs taken", "chugs", "chugs > 0"),
    "points": Stat("Points taken", "points", "points > 0"),
    "handed_out": Stat(
        "Sips handed out", "sips_caused + points_caused", "sips_caused + points_caused > 0"
    ),
    "lives_lost": Stat("Lives lost", "lives_lost", "lives_lost > 0"),
    "bluffing": Stat(
        "Bluff success",
        "CAST(bluffs_made - bluffs_caught AS DOUBLE PRECISION) / bluffs_made",
        "bluffs_made >= :min_bluffs",
        percent=True,
    ),
    "calls": Stat(
        "Call accuracy",
        "CAST(calls_right AS DOUBLE PRECISION) / calls_made",
        "calls_made >= :min_calls",
        percent=True,
    ),
    "mex": Stat("21s rolled", "mex_rolled", "mex_rolled > 0"),
    "rating_bluff": Stat("Rating (bluffing games)", "shown", family="bluff", games="games"),
    "rating_open": Stat("Rating (open rolls)", "shown", family="open", games="games"),
}

#: How many games / bluffs / calls before a rate counts (a 1-for-1 is no record).
MINIMUMS = {"min_games": 5, "min_bluffs": 5, "min_calls": 5}

#: The list's order: best value first; within a tie, more games first, then user id.
_ORDER = "value DESC, games_played DESC, user_id"


def _bucket(spec: Stat) -> str:
    """The FROM and WHERE of every ranking query, so the page, the total and a player's
    own place always count exactly the same players."""
    # user_id > 0: computer players' figures are kept under negative ids, and people
    # rank among people (README, Playing against the computer).
    # USING: one user_id and guild_id column, so the queries name them as for the bucket
    # alone; the family is a constant of `STATS`, never a player's text.
    rated = " JOIN ratings USING (guild_id, user_id)" if spec.family else ""
    family = f" AND family = '{spec.family}'" if spec.family else ""
    return (
        f"FROM stat_buckets{rated} WHERE guild_id = :guild AND channel_id = :channel"
        f" AND period = :period AND user_id > 0{family} AND ({spec.where})"
    )


def _played(spec: Stat, server: bool) -> str:
    """Whether the rating row ``r`` belongs to someone who played a rated game of its
    family in the scope since the period began. On the whole server that is the rating's
    own last game, read from the same row; in a channel, the person's last game there
    (one primary key lookup in rated_channel_players, which the league writes with the
    rating). Both read only what the league wrote, so a channel's list and the server's
    agree on who played, and neither asks the counters' buckets."""
    if server:
        return "r.last_game_at >= :since"
    return (
        "EXISTS (SELECT 1 FROM rated_channel_players AS c WHERE c.guild_id = :guild"
        f" AND c.family = '{spec.family}' AND c.channel_id = :channel"
        " AND c.user_id = r.user_id AND c.last_game_at >= :since)"
    )


def _rated(spec: Stat) -> str:
    return (
        "FROM ratings AS r WHERE r.guild_id = :guild"
        f" AND r.family = '{spec.family}' AND r.user_id > 0"
    )


def _rated_total(spec: Stat, server: bool) -> str:
    """How many people a rating's leaderboard lists, each one index range. On the server:
    a count of the family's ratings. In a channel: a count of the channel's
    rated_channel_players rows, without looking at the ratings, since every row has its
    rating (the league writes both in one transaction, /resetleaderboard deletes both,
    schema step 9 copied only people with a rating). PostgreSQL took 31-32 ms p95 on
    stats_bench to intersect a channel's bucket (8,000 people) with the ratings."""
    if server:
        return f"SELECT COUNT(*) {_rated(spec)} AND {_played(spec, True)}"
    return (
        "SELECT COUNT(*) FROM rated_channel_players WHERE guild_id = :guild"
        f" AND family = '{spec.family}' AND channel_id = :channel AND last_game_at >= :since"
    )


def _rated_page(spec: Stat, server: bool) -> str:
    """`leaderboard`'s statement for a rating: the same columns, places and total as the
    counters' one, in a shape that looks up few rows.

    Joining every bucket row to its rating and sorting them all costs a lookup per
    person in the scope. Instead the page walks ratings_ranked best first and stops once
    it has its rows, checking each played in the scope (on stats_bench's data, a few
    hundred checks for page 50). On the whole server the check is the rating row's own
    last game, so nothing but ratings is read (PostgreSQL took 20-30 ms joining a
    server's bucket to its ratings); in a channel, a primary key lookup in
    rated_channel_players. Everyone ranked above the page is among the rows walked to
    reach it, so they are counted in that walk rather than by a second one
    (PostgreSQL hashed the channel's whole list against the ratings for it).
    """
    rated, played = _rated(spec), _played(spec, server)
    return (
        f"WITH walk AS (SELECT * FROM (SELECT user_id, {spec.expr} AS value,"
        f"  {spec.games} AS games_played {rated} AND {played}"
        f"  ORDER BY {_ORDER} LIMIT :walk) AS top),"
        f" page AS (SELECT * FROM walk ORDER BY {_ORDER} LIMIT :limit OFFSET :offset)"
        " SELECT counts.total, counts.above, page.user_id, page.value, page.games_played"
        f" FROM (SELECT ({_rated_total(spec, server)}) AS total,"
        "  (SELECT COUNT(*) FROM walk WHERE value > (SELECT MAX(value) FROM page)) AS above)"
        f" AS counts LEFT JOIN page ON TRUE ORDER BY {_ORDER}"
    )


def period_start(period: str, stamp: float) -> float:
    """When the period a moment falls in began (UTC): its month, its ISO week (from
    Monday), or the beginning of time."""
    moment = time.gmtime(stamp)
    if period == "month":
        return float(calendar.timegm((moment.tm_year, moment.tm_mon, 1, 0, 0, 0)))
    if period == "week":
        day = calendar.timegm((moment.tm_year, moment.tm_mon, moment.tm_mday, 0, 0, 0))
        return float(day - moment.tm_wday * 86400)
    return 0.0


def period_key(period: str, stamp: float) -> str:
    moment = time.gmtime(stamp)
    if period == "month":
        return time.strftime("m%Y-%m", moment)
    if period == "week":
        return time.strftime("w%G-W%V", moment)
    return "all"


class LeaderboardQueries:
    """The leaderboards, a player's counters and history, over one `Driver`.

    The SQL is written once, in SQLite's parameter style, and only in what SQLite and
    PostgreSQL both understand (``DOUBLE PRECISION``, ``TRUE``, ``FILTER``, aliased
    subqueries): the PostgreSQL driver only renumbers the parameters.
    """

    def __init__(self, db: Driver) -> None:
        self._db = db

    async def player_totals(self, guild_id: int, user_id: int) -> PlayerTotals:
        """A player's counters in one guild; all zero for someone who never played there."""
        row = await self._db.fetchone(
            f"SELECT {', '.join(TOTALS_COLUMNS)} FROM stat_buckets"
            " WHERE guild_id = ? AND channel_id = 0 AND period = 'all' AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return PlayerTotals(guild_id, user_id)
        return PlayerTotals(guild_id, user_id, **{k: int(row[k]) for k in TOTALS_COLUMNS})

    async def leaderboard(
        self,
        guild_id: int,
        stat: str,
        *,
        channel_id: int = 0,
        period: str = "all",
        now: float | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> tuple[list[Ranked], int]:
        """One page of the ranking, and how many players are ranked in all.

        One statement, so the rows, their places and the total come from one snapshot
        even if a move is saved in between. Only the page's first row needs a count of
        the players above it, since its tie may have begun on an earlier page; each later
        row shares the place of the row before it or, with a new value, takes its own
        position. RANK() over the bucket would sort every row a second time (3-4x the
        time on stats_bench's data), and a count for every row would scan it once a row.
        """
        spec = STATS[stat]
        params = self._params(guild_id, channel_id, period, now)
        base = _bucket(spec)
        # `page` is read twice, so SQLite materialises it; the inner SELECT keeps its
        # LIMIT a top-N sort there (without it, 1 ms more a page on stats_bench's data).
        # LEFT JOIN: a page past the end still returns one row, carrying the total.
        sql = (
            "WITH page AS (SELECT * FROM ("
            f"  SELECT user_id, {spec.expr} AS value, games_played {base}"
            f"  ORDER BY {_ORDER} LIMIT :limit OFFSET :offset) AS top)"
            " SELECT counts.total, counts.above, page.user_id, page.value, page.games_played"
            " FROM (SELECT COUNT(*) AS total,"
            f"  COUNT(*) FILTER (WHERE {spec.expr} > (SELECT MAX(value) FROM page)) AS above"
            f"  {base}) AS counts"
            f" LEFT JOIN page ON TRUE ORDER BY {_ORDER}"
        )
        if spec.family:
            sql = _rated_page(spec, channel_id == 0)
        rows = await self._db.fetchall(
            sql, {**params, "limit": limit, "offset": offset, "walk": offset + limit}
        )
        total, above = int(rows[0][0]), int(rows[0][1])
        ranked: list[Ranked] = []
        for i, (_, _, user_id, value, games_played) in enumerate(rows):
            if user_id is None:
                break
            if not ranked:
                rank = above + 1
            elif value == ranked[-1].value:
                rank = ranked[-1].rank
            else:
                rank = offset + i + 1
            ranked.append(Ranked(rank, int(user_id), float(value), int(games_played)))
        return ranked, total

    async def rank_of(
        self,
        guild_id: int,
        stat: str,
        user_id: int,
        *,
        channel_id: int = 0,
        period: str = "all",
        now: float | None = None,
    ) -> Ranked | None:
        """The player's own place, even when it is far below the page shown.

        Counted by the same rule as `leaderboard`'s places, in one statement, so the value
        compared is the one SQLite computed rather than a copy passed back in.
        """
        spec = STATS[stat]
        params = {**self._params(guild_id, channel_id, period, now), "user": user_id}
        base = _bucket(spec)
        above = f"SELECT COUNT(*) {base} AND {spec.expr} > mine.value"
        if spec.family:
            # Only the ratings above, from ratings_ranked, each checked as a page checks
            # its rows: fewer lookups than the rating of everyone in the scope.
            played = _played(spec, channel_id == 0)
            base = f"{_rated(spec)} AND {played}"
            above = f"SELECT COUNT(*) {base} AND r.{spec.expr} > mine.value"
        mine = await self._db.fetchone(
            f"SELECT mine.value, mine.games_played, ({above})"
            f" FROM (SELECT {spec.expr} AS value, {spec.games} AS games_played {base}"
            " AND user_id = :user) AS mine",
            params,
        )
        if mine is None:
            return None
        return Ranked(int(mine[2]) + 1, user_id, float(mine[0]), int(mine[1]))

    async def player_records(
        self, guild_id: int, user_ids: list[int]
    ) -> dict[int, tuple[dict[str, int], int]]:
        """Per player in a server, all time: their stored counters (column -> value, the
        play profile's included) and how many claims they made. What a computer player
        reads of the others at its table (README, Playing against the computer): public
        statistics only."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        names = (*TOTALS_COLUMNS, *PROFILE_COLUMNS)
        columns = ", ".join(
            [*(f"b.{c}" for c in TOTALS_COLUMNS), *(f"COALESCE(p.{c}, 0)" for c in PROFILE_COLUMNS)]
        )
        rows = await self._db.fetchall(
            f"SELECT b.user_id, COALESCE(c.n, 0), {columns} FROM stat_buckets b"
            " LEFT JOIN (SELECT user_id, SUM(n) AS n FROM claim_counts WHERE guild_id = ?"
            " GROUP BY user_id) c ON c.user_id = b.user_id"
            " LEFT JOIN play_profiles p ON p.guild_id = b.guild_id AND p.user_id = b.user_id"
            " WHERE b.guild_id = ? AND b.channel_id = 0 AND b.period = 'all'"
            f" AND b.user_id IN ({marks})",
            (guild_id, guild_id, *user_ids),
        )
        return {
            int(row[0]): ({c: int(v) for c, v in zip(names, row[2:], strict=True)}, int(row[1]))
            for row in rows
        }

    async def favourite_claim(self, guild_id: int, user_id: int) -> tuple[str, int] | None:
        row = await self._db.fetchone(
            "SELECT claim, n FROM claim_counts WHERE guild_id = ? AND user_id = ?"
            " ORDER BY n DESC, claim DESC LIMIT 1",
            (guild_id, user_id),
        )
        return (str(row[0]), int(row[1])) if row else None

    async def nemesis(self, guild_id: int, user_id: int) -> tuple[int, int] | None:
        """Who caught this player bluffing most often, and how often."""
        row = await self._db.fetchone(
            "SELECT catcher_id, n FROM catches WHERE guild_id = ? AND caught_id = ?"
            " ORDER BY n DESC, catcher_id LIMIT 1",
            (guild_id, user_id),
        )
        return (int(row[0]), int(row[1])) if row else None

    async def history(self, channel_id: int, count: int = 10) -> list[RoundRecord]:
        rows = await self._db.fetchall(
            "SELECT round_no, ruleset, loser_id, reason, summary, ended_at, game_id, channel_id"
            " FROM rounds WHERE channel_id = ? ORDER BY id DESC LIMIT ?",
            (channel_id, count),
        )
        return [
            RoundRecord(int(r[0]), r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7])
            for r in rows
        ]

    async def reset_guild_stats(self, guild_id: int) -> int:
        """Wipe a server's leaderboard (counters, claims, nemeses, play profiles) and its
        league (ratings and where they were played, achievements and their progress,
        seasons and their champions): a fresh start for everyone. History stays, and so
        does the list of rated games, so a game from before the reset is never rated
        again (`League.catch_up`)."""
        counts = await self._db.run(
            statements(
                [
                    ("DELETE FROM stat_buckets WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM claim_counts WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM catches WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM play_profiles WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM ratings WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM achievements WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM achievement_progress WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM seasons WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM closed_seasons WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM rated_channel_players WHERE guild_id = ?", (guild_id,)),
                    ("DELETE FROM rating_history WHERE guild_id = ?", (guild_id,)),
                ]
            )
        )
        return counts[0]

    @staticmethod
    def _params(guild_id: int, channel_id: int, period: str, now: float | None) -> dict[str, Any]:
        stamp = time.time() if now is None else now
        return {
            "guild": guild_id,
            "channel": channel_id,
            "period": period_key(period, stamp),
            "since": period_start(period, stamp),
            **MINIMUMS,
        }
