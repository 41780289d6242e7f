"""The league: ratings, seasons and achievements kept in storage (README, Ratings,
seasons and achievements). No Discord here: the cogs render what it returns.

Every write is one transaction that checks it has not been done already (a game is rated
once, a season closes once, an announcement is claimed once), so several processes and
restarts can all call it and the work happens exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from . import seasons
from .achievements import ACHIEVEMENTS
from .ratings import FAMILIES, PROVISIONAL_GAMES, Skill
from .seasons import DEFAULT_LENGTH, Champion
from .storage import Storage

Clock = Callable[[], float]

#: How many people `/season` shows per family.
SEASON_TOP = 5
#: How many closed seasons `/season` lists: a year of monthly seasons, which one message
#: holds.
PAST_SEASONS = 12
#: How many of a person's rarest achievements the card shows.
CARD_RAREST = 3


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's shown rating before and after one game, in the game's family."""

    before: int
    after: int
    #: Rated games after this one, and whether that is still under `PROVISIONAL_GAMES`.
    games: int
    provisional: bool

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class GameResult:
    """What a finished game did to the league, for its final standing."""

    game_id: int
    family: str
    #: By engine player id (a person's Discord id as text, a computer's seat id).
    changes: dict[str, RatingChange] = field(default_factory=dict)
    #: (engine player id, achievement key): earned in this game, in announcement order.
    earned: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SeasonClose:
    """A season that ended: its champions, and where to announce them (the channel the
    server played most games in that season; None if it played none)."""

    guild_id: int
    season: str
    champions: list[Champion]
    channel_id: int | None


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    rating: int
    games: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class SeasonView:
    """What `/season` shows."""

    season: str
    length: str
    days_left: int
    #: Per family that has rated players: the current top (people only), best first.
    top: dict[str, list[Standing]]
    #: Closed seasons, newest first, with their champions.
    past: list[tuple[str, list[Champion]]]


@dataclass(frozen=True, slots=True)
class AchievementView:
    """One achievement as `/achievements` lists it for one person."""

    key: str
    earned_at: float | None
    #: People on this server who hold it, and people on this server who have played.
    holders: int
    players: int


class League:
    def __init__(self, storage: Storage, clock: Clock = time.time) -> None:
        self.storage = storage
        self.clock = clock

    async def game_over(self, game_id: int) -> GameResult | None:
        """Rate a finished game and award its achievements, once: a second call returns
        what the first stored. Closes the server's season first if the game ended in a
        new one. None: not a rated game (a lobby never started, fewer than two players)."""
        raise NotImplementedError

    async def catch_up(self) -> int:
        """Rate finished games that are not rated yet (the process died between a game's
        last move and its rating); how many."""
        raise NotImplementedError

    async def due_seasons(self, guild_ids: Iterable[int] | None = None) -> list[SeasonClose]:
        """Close every season that has ended (of these servers, or all), and return the
        closes whose announcement nobody has claimed yet."""
        raise NotImplementedError

    async def claim_announcement(self, guild_id: int, season: str) -> bool:
        """True exactly once per closed season, across every process: the caller posts."""
        raise NotImplementedError

    async def season_view(self, guild_id: int) -> SeasonView:
        """The server's current season (the stored one; before its first, this month by
        the league's clock), its top per family among those who played a rated game in
        it, and the seasons closed before, newest first."""
        now = self.clock()
        stored = await self.storage.season_row(guild_id)
        length, key = stored or (DEFAULT_LENGTH, seasons.season_key(now, DEFAULT_LENGTH))
        since, until = seasons.bounds(key)
        top: dict[str, list[Standing]] = {}
        for row in await self.storage.season_top(guild_id, since, until, SEASON_TOP):
            top.setdefault(row.family, []).append(
                Standing(row.user_id, row.shown, row.games, row.games < PROVISIONAL_GAMES)
            )
        past = [
            (season, [Champion(str(c["family"]), int(c["place"]), int(c["user_id"]),
                               int(c["rating"])) for c in champions])
            for season, champions in await self.storage.closed_seasons(guild_id, PAST_SEASONS)
        ]  # fmt: skip
        return SeasonView(key, length, seasons.days_left(now, key), top, past)

    async def set_season_length(self, guild_id: int, length: str) -> str:
        """A server admin's choice of month or quarter; the current season's key after."""
        raise NotImplementedError

    async def skills_of(self, guild_id: int, user_id: int) -> dict[str, Skill]:
        """A player's (or a computer's stats id's) rating per family they have played."""
        rows = await self.storage.ratings_of(guild_id, user_id, FAMILIES)
        return {row.family: Skill(row.mu, row.sigma, row.games) for row in rows}

    async def achievements_of(self, guild_id: int, user_id: int) -> list[AchievementView]:
        """Every achievement, earned or still open, with how rare it is on this server."""
        counts = await self.storage.achievement_counts(guild_id, user_id, list(ACHIEVEMENTS))
        return [
            AchievementView(key, counts.earned.get(key), counts.holders.get(key, 0),
                            counts.players)
            for key in ACHIEVEMENTS
        ]  # fmt: skip

    async def card_achievements(self, guild_id: int, user_id: int) -> tuple[int, list[str]]:
        """For the card: how many achievements the person holds, and the keys of the
        `CARD_RAREST` that fewest people on this server hold, rarest first (equally rare
        ones by key). Keys no longer in `ACHIEVEMENTS` are not counted."""
        return await self.storage.rarest_held(guild_id, user_id, list(ACHIEVEMENTS), CARD_RAREST)
