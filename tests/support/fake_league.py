"""An in-memory stand-in for bot/league.py's `League`, with exactly the methods the cogs
call, so the league's talk (README, Ratings; Seasons) is tested through the real bot
before the storage-backed league is in.

Ratings are the real ones (bot/ratings.py `rate`, openskill), from the finished game's
`final_places`; seasons are the real calendar (bot/seasons.py) on the injected clock.
Everything is kept in dictionaries: one server's league per test.

`build` stands in for `League(storage, clock)` (tests/conftest.py), answering storage's
rating leaderboards (``rating_bluff`` / ``rating_open``) too; `rate_games(bot)` fills in
the `Outcome.result` of a game's last move (which the real table service does itself).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from bot.ai.personas import stats_id
from bot.league import AchievementView, GameResult, RatingChange, SeasonClose, SeasonView, Standing
from bot.ratings import FAMILY, PROVISIONAL_GAMES, Skill, rate, widened
from bot.seasons import DEFAULT_LENGTH, Champion, champions, days_left, season_key
from bot.storage import Ranked
from bot.tables import Outcome, Table, TableService

#: Achievements the fake knows, in listing order (the real list is bot/achievements.py).
KEYS = ("first-win", "hat-trick", "poker-face")


def rating_id(player: str) -> int | None:
    if player.isdigit():
        return int(player)
    return stats_id(player)


def ranked_people(pool: dict[int, Skill]) -> list[int]:
    """People (not computers) best first: the leaderboard's order."""
    return sorted((u for u in pool if u > 0), key=lambda u: (-pool[u].ordinal, -pool[u].games, u))


class FakeLeague:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        #: (guild, family) -> rating id -> skill.
        self.skills: dict[tuple[int, str], dict[int, Skill]] = defaultdict(dict)
        #: (guild, season) -> family -> people who played a rated game of it.
        self.played: dict[tuple[int, str], dict[str, set[int]]] = defaultdict(
            lambda: defaultdict(set)
        )
        self.length: dict[int, str] = {}
        self.current: dict[int, str] = {}
        self.closed: dict[int, list[tuple[str, list[Champion]]]] = defaultdict(list)
        self.channels: dict[tuple[int, str], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.claimed: set[tuple[int, str]] = set()
        self.results: dict[int, GameResult] = {}
        #: (guild, user) -> key -> when earned.
        self.earned: dict[tuple[int, int], dict[str, float]] = defaultdict(dict)
        self.wins: dict[tuple[int, int], int] = defaultdict(int)
        #: Award "first-win" to a person's first won game (off: no achievement lines).
        self.award_first_wins = False
        self.ticks = 0
        #: Raised by every call while set (a database outage, say).
        self.failing: BaseException | None = None

    # --- writes ---------------------------------------------------------------------------

    def _check(self) -> None:
        if self.failing is not None:
            raise self.failing

    def finish(self, table: Table) -> GameResult | None:
        """Rate a finished table, as the real league's `game_over` does from storage."""
        game, guild = table.game, table.guild_id
        if table.game_id in self.results:
            return self.results[table.game_id]
        self._roll_season(guild)
        family = FAMILY[game.preset]
        places = [(rid, place) for p, place in game.final_places()
                  if (rid := rating_id(p)) is not None]  # fmt: skip
        if len(places) < 2 or game.round_no == 0:
            return None
        pool = self.skills[guild, family]
        before = {rid: pool.get(rid, Skill()) for rid, _ in places}
        after = rate(places, pool)
        pool.update(after)
        season = self.current[guild]
        self.played[guild, season][family].update(rid for rid, _ in places if rid > 0)
        self.channels[guild, season][table.channel_id] += 1
        changes = {}
        for player, _ in game.final_places():
            rid = rating_id(player)
            if rid is None or rid not in after:
                continue
            new = after[rid]
            changes[player] = RatingChange(before[rid].shown, new.shown, new.games,
                                           new.games < PROVISIONAL_GAMES)  # fmt: skip
        earned: list[tuple[str, str]] = []
        if game.winner and game.winner.isdigit():
            uid = int(game.winner)
            self.wins[guild, uid] += 1
            if self.award_first_wins and "first-win" not in self.earned[guild, uid]:
                self.earned[guild, uid]["first-win"] = self.clock()
                earned.append((game.winner, "first-win"))
        result = GameResult(table.game_id, family, changes, earned)
        self.results[table.game_id] = result
        return result

    def _roll_season(self, guild: int) -> None:
        """Close the server's season if the clock has left it (widening every rating)."""
        length = self.length.get(guild, DEFAULT_LENGTH)
        now_key = season_key(self.clock(), length)
        old = self.current.setdefault(guild, now_key)
        if old == now_key:
            return
        skills = {f: dict(pool) for (g, f), pool in self.skills.items() if g == guild}
        crowned = champions(skills, self.played[guild, old])
        self.closed[guild].insert(0, (old, crowned))
        for (g, _), pool in self.skills.items():
            if g == guild:
                for rid in pool:
                    pool[rid] = widened(pool[rid])
        self.current[guild] = now_key

    async def game_over(self, game_id: int) -> GameResult | None:
        self._check()
        return self.results.get(game_id)

    async def tick(self, guild_ids: Iterable[int] | None = None) -> None:
        self._check()
        self.ticks += 1
        for guild in guild_ids if guild_ids is not None else list(self.current):
            self.current.setdefault(
                guild, season_key(self.clock(), self.length.get(guild, DEFAULT_LENGTH))
            )
            self._roll_season(guild)

    async def due_seasons(self, guild_ids: Iterable[int] | None = None) -> list[SeasonClose]:
        self._check()
        wanted = set(guild_ids) if guild_ids is not None else set(self.closed)
        due = []
        for guild in sorted(wanted):
            for season, crowned in self.closed.get(guild, []):
                if (guild, season) in self.claimed:
                    continue
                counts = self.channels.get((guild, season)) or {}
                channel = max(counts, key=lambda c: (counts[c], -c)) if counts else None
                due.append(SeasonClose(guild, season, crowned, channel))
        return due

    async def claim_announcement(self, guild_id: int, season: str) -> bool:
        self._check()
        if (guild_id, season) in self.claimed:
            return False
        self.claimed.add((guild_id, season))
        return True

    async def set_season_length(self, guild_id: int, length: str) -> str:
        self._check()
        self._roll_season(guild_id)
        self.length[guild_id] = length
        self.current[guild_id] = season_key(self.clock(), length)
        return self.current[guild_id]

    # --- reads ----------------------------------------------------------------------------

    async def season_view(self, guild_id: int) -> SeasonView:
        self._check()
        self.current.setdefault(
            guild_id, season_key(self.clock(), self.length.get(guild_id, DEFAULT_LENGTH))
        )
        key = self.current[guild_id]
        top: dict[str, list[Standing]] = {}
        for (g, family), pool in self.skills.items():
            if g != guild_id:
                continue
            people = ranked_people(pool)
            if people:
                top[family] = [Standing(u, pool[u].shown, pool[u].games, pool[u].provisional)
                               for u in people]  # fmt: skip
        length = self.length.get(guild_id, DEFAULT_LENGTH)
        return SeasonView(
            key, length, days_left(self.clock(), key), top, list(self.closed[guild_id])
        )

    async def skills_of(self, guild_id: int, user_id: int) -> dict[str, Skill]:
        self._check()
        return {f: pool[user_id] for (g, f), pool in sorted(self.skills.items())
                if g == guild_id and user_id in pool}  # fmt: skip

    def _players(self, guild_id: int) -> set[int]:
        return {u for (g, _), pool in self.skills.items() if g == guild_id for u in pool if u > 0}

    async def achievements_of(self, guild_id: int, user_id: int) -> list[AchievementView]:
        self._check()
        players = len(self._players(guild_id))
        views = []
        for key in KEYS:
            holders = sum(
                1 for (g, _), held in self.earned.items() if g == guild_id and key in held
            )
            views.append(
                AchievementView(key, self.earned[guild_id, user_id].get(key), holders, players)
            )
        return views

    async def card_achievements(self, guild_id: int, user_id: int) -> tuple[int, list[str]]:
        views = [
            v for v in await self.achievements_of(guild_id, user_id) if v.earned_at is not None
        ]
        views.sort(key=lambda v: (v.holders, KEYS.index(v.key)))
        return len(views), [v.key for v in views[:3]]

    # --- the rating leaderboards (storage's, in the real bot) ------------------------------

    def ranking(self, guild_id: int, stat: str) -> list[Ranked]:
        family = stat.removeprefix("rating_")
        pool = self.skills.get((guild_id, family), {})
        people = ranked_people(pool)
        rows, rank, last = [], 0, None
        for n, u in enumerate(people, start=1):
            if pool[u].shown != last:
                rank, last = n, pool[u].shown
            rows.append(Ranked(rank, u, float(pool[u].shown), pool[u].games))
        return rows


RATING_STATS = ("rating_bluff", "rating_open")


def build(storage: Any, clock: Callable[[], float]) -> FakeLeague:
    """What tests/conftest.py puts in the place of `bot.client.League` (the one place
    tests swap it in: remove that fixture and the real League is under test). The
    storage's leaderboards answer the rating stats from the fake."""
    fake = FakeLeague(clock)
    leaderboard, rank_of = storage.leaderboard, storage.rank_of

    async def ranked(guild: int, stat: str, **kw: Any) -> tuple[list[Ranked], int]:
        if stat not in RATING_STATS:
            return await leaderboard(guild, stat, **kw)
        rows = fake.ranking(guild, stat)
        offset, limit = kw.get("offset", 0), kw.get("limit", 10)
        return rows[offset : offset + limit], len(rows)

    async def place(guild: int, stat: str, user: int, **kw: Any) -> Ranked | None:
        if stat not in RATING_STATS:
            return await rank_of(guild, stat, user, **kw)
        return next((r for r in fake.ranking(guild, stat) if r.user_id == user), None)

    storage.leaderboard, storage.rank_of = ranked, place
    return fake


def rate_games(bot: Any) -> FakeLeague:
    """Rate every game that ends from now on: its last move's `Outcome.result` (the real
    table service asks the league itself). Off by default, so tests that read a final
    standing line by line keep reading an unrated game."""
    fake: FakeLeague = bot.league
    service: TableService = bot.tables
    apply = service._apply

    async def applied(*args: Any, **kwargs: Any) -> Outcome:
        outcome = await apply(*args, **kwargs)
        game = outcome.table.game
        if game.phase == "over" and outcome.result is None:
            outcome.result = fake.finish(outcome.table)
        return outcome

    service._apply = applied  # type: ignore[method-assign]
    return fake
