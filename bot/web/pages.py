"""What each page shows, read from storage and the league and worded by the presenter:
plain values for the templates, nothing of HTTP (bot/web/app.py serves them).

The figures are the bot's own: a leaderboard reads the same query and formats each value
with the same function as `/leaderboard` (bot/present/figures.py), the card's figures are
`/stats`'s, and the season and achievements are `/season`'s and `/achievements`'s replies.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import orjson

from bot.engine import Game
from bot.engine.result import winners
from bot.league.ratings import FAMILIES
from bot.league.service import League
from bot.present import ranking
from bot.present.figures import RATING_STATS, board_value, card_data
from bot.present.i18n import Talk
from bot.present.message import Reply
from bot.storage import MINIMUMS, STATS, Storage
from bot.web.build import Built, build
from bot.web.names import GAMES_READ, NameCache, Names, names_in
from bot.web.replays import Replays, pool

PAGE = 10
#: What a board's address may name: every stat of `/leaderboard`, and "rating" for the
#: server's main family (README, Ratings).
RATING = "rating"
BOARDS = (*STATS, RATING)
PERIODS = ("all", "month", "week")
#: The games a server's page lists, and the rated games a rating chart reads.
GAMES_LISTED = 20
HISTORY_GAMES = 200
#: A percentage board's minimum, by stat (as `/leaderboard`'s footer says it).
MINIMUM_OF = {"winrate": "min_games", "bluffing": "min_bluffs", "calls": "min_calls"}


@dataclass(frozen=True, slots=True)
class BoardLine:
    rank: int
    user_id: int
    value: str


@dataclass(frozen=True, slots=True)
class Board:
    stat: str
    period: str
    title: str
    lines: list[BoardLine]
    page: int
    pages: int
    footer: str


@dataclass(frozen=True, slots=True)
class GameItem:
    game_id: int
    ruleset: str
    ended_at: float
    #: Who sat at the table, and who won (bot/engine/result.py), by player id.
    players: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Chart:
    """A rating history as an SVG polyline's points, with its lowest and highest values
    and the rating now, written as `/stats` writes them (grouped, '?' while provisional)."""

    family: str
    points: str
    low: str
    high: str
    now: str
    games: int


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    headline: str
    figures: list[tuple[str, str]]
    charts: list[Chart]
    achievements: Reply | None


class Reader:
    """One server's pages for one reader: the storage, the league, the reader's words."""

    def __init__(
        self,
        storage: Storage,
        league: League,
        guild_id: int,
        t: Talk,
        names: Names,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage, self.league, self.guild_id, self.t = storage, league, guild_id, t
        self.names = names
        self.clock = clock

    @classmethod
    async def open(
        cls,
        storage: Storage,
        league: League,
        guild_id: int,
        t: Talk,
        cache: NameCache,
        clock: Callable[[], float] = time.time,
    ) -> Reader:
        held = cache.get(guild_id)
        if held is None:
            known = names_in(await storage.recent_states(guild_id, GAMES_READ))
            held = known, cache.put(guild_id, known)
        return cls(storage, league, guild_id, t, Names(held[0], t, held[1]), clock)

    async def board(self, stat: str, period: str, page: int) -> Board:
        """One page of a leaderboard of the whole server, as `/leaderboard` reads it."""
        t = self.t
        if stat == RATING:
            family = await self.league.main_family(self.guild_id)
            stat = next(key for key, of in RATING_STATS.items() if of == family)
        rows, total = await self.storage.leaderboard(
            self.guild_id,
            stat,
            channel_id=0,
            period=period,
            now=self.clock(),
            offset=page * PAGE,
            limit=PAGE,
        )
        pages = max(1, math.ceil(total / PAGE))
        lines = [
            BoardLine(r.rank, r.user_id, board_value(stat, r.value, r.games_played, t))
            for r in rows
        ]
        if stat in RATING_STATS:
            footer = t("leaderboard-page-rating", page=page + 1, pages=pages)
        elif STATS[stat].percent:
            minimum = MINIMUMS[MINIMUM_OF[stat]]
            footer = t("leaderboard-page-minimum", page=page + 1, pages=pages, minimum=minimum)
        else:
            footer = t("leaderboard-page", page=page + 1, pages=pages)
        title = t(
            "leaderboard-title",
            stat=t(f"stat-{stat}"),
            scope=t("leaderboard-scope", scope="server"),
            period=t("leaderboard-period", period=period),
        )
        return Board(stat, period, title, lines, page, pages, footer)

    async def games(self) -> list[GameItem]:
        """The last finished games, with their players and winners read from each final
        state (nothing else of it: it holds the last cup)."""
        items = []
        for g in await self.storage.web_games(self.guild_id, GAMES_LISTED):
            players: tuple[str, ...] = ()
            won: tuple[str, ...] = ()
            try:
                game = Game.from_dict(orjson.loads(g.state_json)["engine"])
            except (ValueError, KeyError, TypeError):
                pass
            else:
                players = tuple(game.players)
                won = tuple(p for p in players if p in winners(game))
            items.append(GameItem(g.game_id, g.ruleset, g.ended_at, players, won))
        return items

    async def season(self) -> Reply:
        """`/season`'s reply, the same words."""
        return ranking.season(await self.league.season_view(self.guild_id), self.t)

    async def profile(self, user_id: int) -> Profile:
        """`/stats`'s figures, `/achievements`' list, and a chart per family rated in."""
        t, guild, store = self.t, self.guild_id, self.storage
        name = self.names.shown(user_id)
        said = self.names.chat(user_id)
        totals = await store.player_totals(guild, user_id)
        favourite = await store.favourite_claim(guild, user_id)
        nemesis = await store.nemesis(guild, user_id)
        nemesis_name = self.names.shown(nemesis[0]) if nemesis else None
        skills = await self.league.skills_of(guild, user_id)
        # A computer earns no achievements: its profile shows what `/stats computer:` does.
        computer = user_id < 0
        held = None if computer else await self.league.card_achievements(guild, user_id)
        card = card_data(
            name, totals, favourite, nemesis, nemesis_name, t, skills=skills, achievements=held
        )
        charts = []
        for family in FAMILIES:
            if family not in skills:
                continue
            history = await store.rating_history(guild, family, user_id, HISTORY_GAMES)
            skill = skills[family]
            now = ranking.rating(skill.shown, skill.provisional, t)
            chart = _chart(family, [shown for _, shown in history], now, t)
            if chart is not None:
                charts.append(chart)
        shown = None
        if not computer:
            views = await self.league.achievements_of(guild, user_id)
            shown = ranking.achievements(said, views, t)
        return Profile(name, card.headline, card.figures, charts, shown)

    async def replay(self, game_id: int, link: str, replays: Replays) -> Built | None:
        """A finished game of this server, built in the worker (bot/web/replays.py) or
        kept from before; None if there is none such."""
        key = (self.guild_id, game_id, self.t.language, self.names.stamp)
        built = replays.cached(key)
        if built is None:
            found = await self.storage.web_game(self.guild_id, game_id)
            if found is None:
                return None
            record, entries = found
            work = partial(
                build,
                record.ruleset,
                record.state_json,
                entries,
                self.t.language,
                dict(self.names.known),
                link,
            )

            async def make() -> Built:
                return await asyncio.get_running_loop().run_in_executor(pool(), work)

            built = await replays.get(key, make)
        return built


#: The chart's drawing box, in the SVG's own units.
WIDTH, HEIGHT, PAD = 300, 100, 4


def _chart(family: str, values: Sequence[int], now: str, t: Talk) -> Chart | None:
    if not values:
        return None
    low, high = min(values), max(values)
    span = max(1, high - low)
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{PAD + (HEIGHT - 2 * PAD) * (high - v) / span:.1f}"
        for i, v in enumerate(values)
    )
    low_text, high_text = (ranking.rating(v, False, t) for v in (low, high))
    return Chart(family, points, low_text, high_text, now, len(values))
