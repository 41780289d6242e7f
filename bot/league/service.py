"""The league: ratings, seasons and achievements kept in storage (README,
Leaderboard and stats). No Discord here: the cogs render what it returns.

Every write is one transaction that checks it has not been done already (a game is rated
once, a season closes once, an announcement is claimed once), so several processes and
restarts can all call it and the work happens exactly once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.engine import Game
from bot.engine.result import counts
from bot.engine.result import places as result_places
from bot.league import achievements, ratings, seasons
from bot.league.achievements import ACHIEVEMENTS, Finished
from bot.league.ratings import FAMILIES, FAMILY, PROVISIONAL_GAMES, Skill
from bot.league.seasons import DEFAULT_LENGTH, Champion
from bot.league.stats import stored_id
from bot.storage import GameRecord, GuildTransaction, Storage
from bot.storage.base import parse_log

log = logging.getLogger(__name__)

Clock = Callable[[], float]

#: How many people `/season` shows per family.
SEASON_TOP = 5
#: How many closed seasons `/season` lists (README, Seasons: the last three).
PAST_SEASONS = 3
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
    #: The game counted, but some pair at it had played `PAIR_GAMES` rated games together
    #: in the day before it: their ratings rested against each other (docs/league.md).
    rests: bool = False


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


#: Finished games read, and then rated in one transaction, per batch of `League.catch_up`.
BATCH = 2000
#: How far before its last complete look the periodic catch-up looks again (seconds): a
#: game's end is stamped by the clock of the process that stored it, and its COMMIT may
#: land a little after a look that started later.
LOOKBACK = 3600.0
#: A season closed this long after it ended is recorded as announced already: a bot that
#: was down for a week, or the backfill of old games, posts no late champions.
LATE = seasons.DAY
#: Rated games one pair of participants (two people, or a person and a computer persona)
#: plays together in 24 hours, in one family, before the game moves that pair's ratings
#: no more until the day has passed: a seat swapped starts no new count (docs/league.md,
#: Farming).
PAIR_GAMES = 10

_RATINGS = "SELECT family, user_id, mu, sigma, games, last_game_at FROM ratings WHERE guild_id = ?"
_PROGRESS = "SELECT user_id, fact, n FROM achievement_progress WHERE guild_id = ?"
_HELD = "SELECT user_id, key FROM achievements WHERE guild_id = ?"
_UPSERT_SEASON = (
    "INSERT INTO seasons (guild_id, length, current) VALUES (?, ?, ?)"
    " ON CONFLICT (guild_id) DO UPDATE SET length = excluded.length, current = excluded.current"
)
_UPSERT_RATING = (
    "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, shown, games, last_game_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, family, user_id) DO UPDATE SET"
    " mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown,"
    " games = excluded.games, last_game_at = excluded.last_game_at"
)
_ADD_PROGRESS = (
    "INSERT INTO achievement_progress (guild_id, user_id, fact, n) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, fact) DO UPDATE SET n = achievement_progress.n + excluded.n"
)
_INSERT_EARNED = (
    "INSERT INTO achievements (guild_id, user_id, key, game_id, earned_at)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, key) DO NOTHING"
)
# No ON CONFLICT: the guild's lock and the check before it make a clash impossible, and
# if one happened anyway it must undo the whole transaction, not be skipped.
_INSERT_CLOSED = (
    "INSERT INTO closed_seasons (guild_id, season, closed_at, champions, channel_id,"
    " announced_at) VALUES (?, ?, ?, ?, ?, ?)"
)
_INSERT_RATED = (
    "INSERT INTO rated_games (game_id, guild_id, family, ended_at, result, seats)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
# A family's counted games of the day, by the range of `seats` that starts with it.
_FAMILY_DAY = (
    "SELECT seats, ended_at FROM rated_games WHERE guild_id = ? AND seats >= ? AND seats < ?"
    " AND ended_at > ? ORDER BY ended_at"
)
# Where a person last played the family (README, Ratings: a channel's board lists who
# played a rated game there): the later of the stored and the new time, so batches
# written in any order keep the latest.
_UPSERT_CHANNEL_PLAYER = (
    "INSERT INTO rated_channel_players (guild_id, family, channel_id, user_id, last_game_at)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, family, channel_id, user_id) DO UPDATE SET"
    " last_game_at = CASE WHEN excluded.last_game_at > rated_channel_players.last_game_at"
    " THEN excluded.last_game_at ELSE rated_channel_players.last_game_at END"
)
_INSERT_HISTORY = (
    "INSERT INTO rating_history (guild_id, family, user_id, ended_at, game_id, shown)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
_BUSIEST_CHANNEL = (
    "SELECT channel_id FROM games WHERE guild_id = ? AND status = 'over'"
    " AND updated_at >= ? AND updated_at < ? GROUP BY channel_id"
    " ORDER BY COUNT(*) DESC, channel_id LIMIT 1"
)


def _marks(n: int) -> str:
    return ", ".join("?" * n)


# ----------------------------------------------------------------- deciding (pure)


class _Log(Sequence[tuple[str, Mapping[str, Any]]]):
    """A game's stored event log, parsed the first time it is read: a few hundred
    entries a game are most of the backfill's cost, and only achievements read them."""

    __slots__ = ("_entries", "_text")

    def __init__(self, text: bytes) -> None:
        self._text = text
        self._entries: list[tuple[str, Mapping[str, Any]]] | None = None

    def _parsed(self) -> list[tuple[str, Mapping[str, Any]]]:
        if self._entries is None:
            self._entries = parse_log(self._text) if self._text else []
        return self._entries

    def __getitem__(self, index: Any) -> Any:
        return self._parsed()[index]

    def __len__(self) -> int:
        return len(self._parsed())

    def __iter__(self) -> Iterator[tuple[str, Mapping[str, Any]]]:
        return iter(self._parsed())


def finished_of(record: GameRecord, log: Sequence[tuple[str, Mapping[str, Any]]]) -> Finished:
    """A stored finished game as ratings and achievements read it; it ended at its last
    stored move."""
    engine = orjson.loads(record.state_json)["engine"]
    return Finished(
        record.id,
        record.guild_id,
        record.channel_id,
        record.ruleset,
        record.updated_at,
        Game.from_dict(engine),
        log,
    )


def seats_of(places: Sequence[tuple[str, int]]) -> list[tuple[str, int, int]]:
    """(engine player id, rating id, place) of every rated entrant of a game's
    `result.places`, best first: people under their Discord ids, computers under their
    persona's negative id (rated in the same pool); names without a stored id (engine
    tests) are left out."""
    return [
        (player, rid, place) for player, place in places if (rid := stored_id(player)) is not None
    ]


def is_rated(game: Game, seats: Sequence[tuple[str, int, int]]) -> bool:
    """A game is rated if it counts (README, Ratings: when a game counts) and at least
    two different rating ids sat at it."""
    return counts(game) and len({rid for _, rid, _ in seats}) >= 2


def result_json(result: GameResult) -> str:
    """`rated_games.result`, the format the final standing and the season reads expect."""
    data: dict[str, Any] = {
        "family": result.family,
        "changes": {
            pid: [c.before, c.after, c.games, c.provisional] for pid, c in result.changes.items()
        },
        "earned": [[pid, key] for pid, key in result.earned],
    }
    if result.rests:
        data["rests"] = True
    return orjson.dumps(data).decode()


def result_of(game_id: int, text: str) -> GameResult | None:
    """The stored result of a processed game; None for a game that did not count."""
    data = orjson.loads(text)
    rests = bool(data.get("rests"))
    if not data["changes"] and not rests:
        return None
    return GameResult(
        game_id,
        data["family"],
        {
            pid: RatingChange(int(b), int(a), int(g), bool(p))
            for pid, (b, a, g, p) in data["changes"].items()
        },
        [(pid, key) for pid, key in data["earned"]],
        rests,
    )


def table_key(family: str, seats: Sequence[tuple[str, int, int]]) -> str:
    """`rated_games.seats`: the family and the rating ids at a game, sorted, so the same
    table is the same text however it was seated."""
    return family + ":" + ",".join(str(rid) for rid in sorted({rid for _, rid, _ in seats}))


def _rids_of(seats: str) -> frozenset[int]:
    """The rating ids of a `table_key`."""
    return frozenset(int(rid) for rid in seats.partition(":")[2].split(",") if rid)


def champions_json(crowned: Sequence[Champion]) -> str:
    return orjson.dumps(
        [
            {"family": c.family, "place": c.place, "user_id": c.user_id, "rating": c.rating}
            for c in crowned
        ]
    ).decode()


def champions_of(stored: str | Sequence[Mapping[str, Any]]) -> list[Champion]:
    """`closed_seasons.champions` as stored (its JSON text, or that text parsed)."""
    rows = orjson.loads(stored) if isinstance(stored, str) else stored
    return [
        Champion(str(c["family"]), int(c["place"]), int(c["user_id"]), int(c["rating"]))
        for c in rows
    ]


@dataclass(slots=True)
class _Rating:
    skill: Skill
    last_game_at: float


class _Ledger:
    """One server's league state inside one `Storage.guild_transaction`: read once,
    changed in memory game by game, written back once (`flush`). The same code rates one
    game at its end and a whole batch in the backfill, so both give the same numbers."""

    def __init__(self, guild_id: int, now: float) -> None:
        self.guild_id = guild_id
        self.now = now
        self.length = seasons.DEFAULT_LENGTH
        self.current: str | None = None
        self.season_changed = False
        self.ratings: dict[tuple[str, int], _Rating] = {}
        #: Whether `ratings` holds every rating of the server (a season's close needs all).
        self.every_rating = False
        #: Whose ratings, progress and achievements were read (None: everyone's).
        self.read: set[int] | None = set()
        self.progress: dict[int, dict[str, int]] = {}
        self.held: dict[int, set[str]] = {}
        self.changed: set[tuple[str, int]] = set()
        self.added: dict[tuple[int, str], int] = {}
        self.earned_rows: list[tuple[Any, ...]] = []
        self.closed_rows: list[tuple[Any, ...]] = []
        self.rated_rows: list[tuple[Any, ...]] = []
        #: A person's rating after each game that moved it (README, Web companion).
        self.history_rows: list[tuple[Any, ...]] = []
        #: (family, channel, person) -> their last rated game there, for channel boards.
        self.channel_players: dict[tuple[str, int, int], float] = {}
        #: family -> (when, rating ids) of its counted games of the day (those read, those
        #: rated here), for the rest of a pair after `PAIR_GAMES` in a day.
        self.day: dict[str, list[tuple[float, frozenset[int]]]] = {}
        #: An opponent account younger than this many days lends less (`ratings.lend`).
        self.lend_days = ratings.FULL_LEND_DAYS

    @classmethod
    async def load(
        cls,
        tx: GuildTransaction,
        guild_id: int,
        now: float,
        ids: set[int] | None,
        first: Sequence[tuple[str, Sequence[Any]]] = (),
    ) -> tuple[_Ledger, list[list[Any]]]:
        """The server's season, and the ratings, progress and achievements of ``ids``
        (None: of everyone on the server), read together: one hand-over on SQLite, one
        round trip on PostgreSQL. ``first``: the caller's own reads, sent along in the
        same go; their rows are returned beside the ledger."""
        ledger = cls(guild_id, now)
        season = ("SELECT length, current FROM seasons WHERE guild_id = ?", (guild_id,))
        if ids is None:
            queries = ledger._queries("", ())
            ledger.every_rating = True
        else:
            queries = ledger._queries_of(ids)
        ledger.read = None if ids is None else set(ids)
        found = await tx.fetch_each([*first, season, *queries])
        mine, found = found[: len(first)], found[len(first) :]
        if found[0]:
            ledger.length, ledger.current = str(found[0][0][0]), str(found[0][0][1])
        ledger._absorb(found[1:])
        return ledger, mine

    async def add_people(self, tx: GuildTransaction, ids: set[int]) -> None:
        """Read the ratings, progress and achievements of those of ``ids`` the ledger has
        not read yet (none, when the caller's hint of who played was right)."""
        if self.read is None or not (ids := ids - self.read):
            return
        self._absorb(await tx.fetch_each(self._queries_of(ids)))
        self.read |= ids

    def _queries_of(self, ids: set[int]) -> list[tuple[str, Sequence[Any]]]:
        """The reads of the ratings of ``ids``, and of the progress and achievements of
        the people among them; none for no ids."""
        if not ids:
            return []
        people = sorted(i for i in ids if i > 0)
        return self._queries(f" AND user_id IN ({_marks(len(ids))})", sorted(ids), people)

    def _queries(
        self, where: str, ids: Sequence[int], people: Sequence[int] | None = None
    ) -> list[tuple[str, Sequence[Any]]]:
        """The reads of ratings (``where``/``ids``), then of progress and achievements
        held (of ``people``; the same as the ratings' when None; none when empty)."""
        queries: list[tuple[str, Sequence[Any]]] = [(_RATINGS + where, (self.guild_id, *ids))]
        if people is not None and not people:
            return queries
        people_where = where if people is None else f" AND user_id IN ({_marks(len(people))})"
        people_ids = (self.guild_id, *(ids if people is None else people))
        return [
            *queries,
            (_PROGRESS + people_where, people_ids),
            (_HELD + people_where, people_ids),
        ]

    def _absorb(self, found: Sequence[Sequence[Any]]) -> None:
        """Keep what `_queries` read; what this transaction has changed already wins."""
        if not found:
            return
        for family, uid, mu, sigma, games, last in found[0]:
            key = (str(family), int(uid))
            if key not in self.ratings:
                self.ratings[key] = _Rating(Skill(float(mu), float(sigma), int(games)), float(last))
        if len(found) > 1:
            for uid, fact, n in found[1]:
                self.progress.setdefault(int(uid), {})[str(fact)] = int(n)
            for uid, key in found[2]:
                self.held.setdefault(int(uid), set()).add(str(key))

    async def advance(self, tx: GuildTransaction, moment: float) -> None:
        """Bring the server's season up to ``moment``: a server's first rated game starts
        its season; a moment past the current season's end closes it first. Seasons in
        between that saw no game are not closed: they have no champions, and carrying
        ratings into a new season widens them once, however long the pause."""
        if self.current is None:
            self.current, self.season_changed = seasons.season_key(moment, self.length), True
            return
        if moment < seasons.bounds(self.current)[1]:
            return
        await self._close(tx)
        self.current, self.season_changed = seasons.season_key(moment, self.length), True

    async def _close(self, tx: GuildTransaction) -> None:
        """Close the current season: crown its champions from the ratings of those who
        played in it, then widen every rating of the server for the next one. A season
        without a rated game leaves no record (there is nothing to announce)."""
        assert self.current is not None
        if not self.every_rating:
            self._absorb(await tx.fetch_each(self._queries("", (), people=())))
            self.every_rating = True
        start, end = seasons.bounds(self.current)
        pools: dict[str, dict[int, Skill]] = {}
        played: dict[str, list[int]] = {}
        for family, uid in sorted(self.ratings):  # one order, however they were read
            rating = self.ratings[(family, uid)]
            pools.setdefault(family, {})[uid] = rating.skill
            if start <= rating.last_game_at < end:
                played.setdefault(family, []).append(uid)
        if not played:
            return  # a season nobody played in crowns nobody, and widens nothing again
        crowned = seasons.champions(pools, played)
        for key, rating in self.ratings.items():
            rating.skill = ratings.widened(rating.skill)
            self.changed.add(key)
        found = await tx.fetchall(_BUSIEST_CHANNEL, (self.guild_id, start, end))
        channel = int(found[0][0]) if found else None
        announced = self.now if self.now - end > LATE else None
        self.closed_rows.append(
            (self.guild_id, self.current, self.now, champions_json(crowned), channel, announced)
        )

    async def read_day(self, tx: GuildTransaction, family: str, ended_at: float) -> None:
        """Read who sat at the family's counted games over the day before a game that
        ended at ``ended_at`` (once per family and transaction: later games of a batch
        find the earlier ones in memory)."""
        if family in self.day:
            return
        since = ended_at - seasons.DAY
        rows = await tx.fetchall(_FAMILY_DAY, (self.guild_id, f"{family}:", f"{family};", since))
        self.day[family] = [(float(at), _rids_of(str(seats))) for seats, at in rows]

    def live_pairs(self, family: str, rids: Sequence[int], ended_at: float) -> set[frozenset[int]]:
        """The pairs among ``rids`` that played fewer than `PAIR_GAMES` counted games
        together in the 24 hours before ``ended_at``: those a game still rates against
        each other (docs/league.md, Farming)."""
        since = ended_at - seasons.DAY
        met: dict[frozenset[int], int] = {}
        wanted = set(rids)
        for at, sat in self.day.get(family, ()):
            if since < at <= ended_at:
                both = sorted(sat & wanted)
                for i, a in enumerate(both):
                    for b in both[i + 1 :]:
                        pair = frozenset((a, b))
                        met[pair] = met.get(pair, 0) + 1
        return {
            pair
            for i, a in enumerate(rids)
            for b in rids[i + 1 :]
            if met.get(pair := frozenset((a, b)), 0) < PAIR_GAMES
        }

    def rate(
        self,
        finished: Finished,
        places: list[tuple[str, int]],
        seats: Sequence[tuple[str, int, int]],
    ) -> GameResult | None:
        """Rate one finished game (``places``: its result, `result.places`,
        ``seats``: `seats_of` them) and award its achievements, in memory; None (and a row
        saying it was looked at) for a game that does not count. A player's rating moves
        only by the opponents they played fewer than `PAIR_GAMES` rated games with in the
        day before (`read_day` first); the achievements count either way."""
        family = FAMILY.get(finished.ruleset, finished.ruleset)
        if not is_rated(finished.game, seats):
            self.rated_rows.append(
                (
                    finished.game_id,
                    self.guild_id,
                    family,
                    finished.ended_at,
                    result_json(GameResult(finished.game_id, family)),
                    None,
                )
            )
            return None
        key = table_key(family, seats)
        rids = sorted({rid for _, rid, _ in seats})
        live = self.live_pairs(family, rids, finished.ended_at)
        self.day.setdefault(family, []).append((finished.ended_at, frozenset(rids)))
        rests = len(live) < len(rids) * (len(rids) - 1) // 2
        if not live:
            earned = self._award(finished, places, seats)
            result = GameResult(finished.game_id, family, {}, earned, rests=True)
            row = (finished.game_id, self.guild_id, family, finished.ended_at)
            self.rated_rows.append((*row, result_json(result), key))
            return result
        prior = {rid: r.skill for rid in rids if (r := self.ratings.get((family, rid)))}
        after: dict[int, ratings.Skill] = {}
        for rid in rids:
            # Each player's rating moves by the game against the opponents they are
            # still under the pair cap with; with all of them, the whole table's result.
            against = {q for q in rids if q != rid and frozenset((rid, q)) in live}
            if against:
                table = [(r, place) for _, r, place in seats if r == rid or r in against]
                moved = ratings.rate(table, prior)[rid]
                # New accounts lend little: the move is the opponents' mean share.
                at, days = finished.ended_at, self.lend_days
                weight = sum(ratings.lend(q, at, days) for q in against) / len(against)
                after[rid] = ratings.damped(prior.get(rid, ratings.NEW), moved, weight)
        for rid, skill in after.items():
            old = self.ratings.get((family, rid))
            last = max(old.last_game_at, finished.ended_at) if old else finished.ended_at
            self.ratings[(family, rid)] = _Rating(skill, last)
            self.changed.add((family, rid))
            if rid > 0:  # people only: computers are never on a leaderboard
                where = (family, finished.channel_id, rid)
                seen = self.channel_players.get(where, finished.ended_at)
                self.channel_players[where] = max(seen, finished.ended_at)
                self.history_rows.append(
                    (self.guild_id, family, rid, finished.ended_at, finished.game_id, skill.shown)
                )
        changes = {
            pid: RatingChange(
                prior.get(rid, ratings.NEW).shown,
                after[rid].shown,
                after[rid].games,
                after[rid].provisional,
            )
            for pid, rid, _ in seats
            if rid in after
        }
        earned = self._award(finished, places, seats)
        result = GameResult(finished.game_id, family, changes, earned, rests=rests)
        self.rated_rows.append(
            (finished.game_id, self.guild_id, family, finished.ended_at, result_json(result), key)
        )
        return result

    def _award(
        self,
        finished: Finished,
        places: list[tuple[str, int]],
        seats: Sequence[tuple[str, int, int]],
    ) -> list[tuple[str, str]]:
        """Award a counted game's achievements in memory: (engine player id, key) of
        those earned, in announcement order."""
        people: dict[int, str] = {}
        for pid, rid, _ in seats:
            if rid > 0:
                people.setdefault(rid, pid)
        awards = achievements.award(  # read-only views: award keeps nothing of them
            finished,
            {uid: mine for uid in people if (mine := self.progress.get(uid))},
            {uid: theirs for uid in people if (theirs := self.held.get(uid))},
            places,
        )
        for uid, facts in awards.progress.items():
            if uid not in people:
                continue
            mine = self.progress.setdefault(uid, {})
            for fact, n in facts.items():
                if n:
                    mine[fact] = mine.get(fact, 0) + n
                    self.added[(uid, fact)] = self.added.get((uid, fact), 0) + n
        earned: list[tuple[str, str]] = []
        for uid, key in awards.earned:
            held = self.held.setdefault(uid, set())
            if uid not in people or key in held:
                continue
            held.add(key)
            self.earned_rows.append((self.guild_id, uid, key, finished.game_id, finished.ended_at))
            earned.append((people[uid], key))
        return earned

    async def flush(self, tx: GuildTransaction) -> None:
        """Write what changed, together (one hand-over on SQLite), in key order (writers
        of one server queue on its lock anyway; key order keeps PostgreSQL's row locks in
        one order regardless)."""
        writes: list[tuple[str, Sequence[Sequence[Any]]]] = []
        if self.season_changed:
            assert self.current is not None
            writes.append((_UPSERT_SEASON, [(self.guild_id, self.length, self.current)]))
        ratings_rows = [
            (
                self.guild_id,
                family,
                uid,
                r.skill.mu,
                r.skill.sigma,
                r.skill.shown,
                r.skill.games,
                r.last_game_at,
            )
            for (family, uid) in sorted(self.changed)
            if (r := self.ratings[(family, uid)])
        ]
        progress_rows = [
            (self.guild_id, uid, fact, n) for (uid, fact), n in sorted(self.added.items())
        ]
        channel_rows = [
            (self.guild_id, *key, at) for key, at in sorted(self.channel_players.items())
        ]
        writes += [
            (_UPSERT_RATING, ratings_rows),
            (_ADD_PROGRESS, progress_rows),
            (_INSERT_EARNED, self.earned_rows),
            (_INSERT_CLOSED, self.closed_rows),
            (_INSERT_RATED, self.rated_rows),
            (_UPSERT_CHANNEL_PLAYER, channel_rows),
            (_INSERT_HISTORY, self.history_rows),
        ]
        await tx.write_each([(sql, rows) for sql, rows in writes if rows])


# ------------------------------------------------------------------ the league


def _every_server(guild_id: int) -> bool:
    """An unsharded process's rule: it catches up every server's games."""
    return True


class League:
    def __init__(
        self,
        storage: Storage,
        clock: Clock = time.time,
        *,
        owns: Callable[[int], bool] | None = None,
        new_account_days: float = ratings.FULL_LEND_DAYS,
    ) -> None:
        self.storage = storage
        self.clock = clock
        #: NEW_ACCOUNT_DAYS: an opponent account younger than this lends a rating less
        #: (docs/league.md, Farming); 0 turns that off.
        self.new_account_days = new_account_days
        #: Whether a server's games are this process's to catch up (the runtime passes its
        #: shards' rule; None: every server's): with several shard processes each rates
        #: its own servers' missed games, rather than all of them reading every log only
        #: to find the games rated by another.
        self.owns: Callable[[int], bool] = owns or _every_server
        #: Finished games that ended before this moment have all been looked at (by
        #: this process's last complete catch-up, less `LOOKBACK`): only a cost saving,
        #: `rated_games` alone says what is rated.
        self._looked_until: float | None = None
        #: Servers with a finished game whose rating failed (the database was busy or
        #: down): their next game's rating waits until the earlier ones are rated, so
        #: ratings change in the order the games ended (README, Ratings).
        self._behind: set[int] = set()
        #: Servers whose unrated games this process has rated in order since it started.
        self._settled: set[int] = set()

    async def game_over(
        self, game_id: int, *, guild_id: int | None = None, game: Game | None = None
    ) -> GameResult | None:
        """Rate a finished game and award its achievements, once: a second call returns
        what the first stored. Closes the server's season first if the game ended in a
        new one. None: not a rated game (a lobby never started, fewer than two players).

        ``guild_id`` and ``game`` (its final state): what the caller knows already (the
        table service holds both), so the game, its log and its players' league rows are
        read in one go under the server's lock (README, Benchmarks: The league). Only a
        hint: what is stored decides, and players the hint missed are read after."""
        if guild_id is None:
            record = await self.storage.get_game(game_id)
            if record is None:
                return None
            guild_id = record.guild_id
        try:
            return await self._game_over(game_id, guild_id, game)
        except Exception:
            self._behind.add(guild_id)
            raise

    def _may_be_behind(self, guild_id: int) -> bool:
        """Whether a game of the server may have ended unrated before the one at hand: one
        failed here, or this process has not yet looked at every finished game."""
        if guild_id in self._behind:
            return True
        return self._looked_until is None and guild_id not in self._settled

    async def _in_order(self, guild_id: int) -> None:
        """Rate the server's finished games that are not rated yet (a failure left them,
        or they ended before this process started), oldest end first, before a game that
        ended after them. Before this process's first complete catch-up it looks at every
        finished game of the server; after, at those since that look."""
        pending = await self.storage.unrated_games(self._looked_until)
        ids = [game_id for game_id, guild in pending if guild == guild_id]
        for start in range(0, len(ids), BATCH):
            await self._rate_batch(guild_id, ids[start : start + BATCH], self.clock())
        self._behind.discard(guild_id)
        self._settled.add(guild_id)

    async def _game_over(self, game_id: int, guild_id: int, game: Game | None) -> GameResult | None:
        ids = set() if game is None else {rid for _, rid, _ in seats_of(result_places(game))}
        async with self.storage.guild_transaction(guild_id) as tx:
            # The result is read under the server's lock: another process may have rated
            # the game already.
            read = self.storage.finished_game_query(game_id, achievements.LOG_KINDS)
            ledger, (rows,) = await _Ledger.load(tx, guild_id, self.clock(), ids, first=[read])
            ledger.lend_days = self.new_account_days
            record, stored, log_text = self.storage.finished_game_of(rows)
            if stored is not None:
                return result_of(game_id, stored)
            if record is None or record.status != "over":
                return None
            behind = self._may_be_behind(record.guild_id)
            if record.guild_id == guild_id and not behind:
                finished = finished_of(record, _Log(log_text))
                return await self._rate_into(tx, ledger, finished, flush=True)
        # Nothing was written. Either earlier games of the server may be unrated (they are
        # rated first, in the order they ended, this one with them), or the hint named
        # another server: again under the right lock, which now finds the stored result.
        if behind:
            await self._in_order(record.guild_id)
        return await self._game_over(game_id, record.guild_id, None)

    @staticmethod
    async def _rate_into(
        tx: GuildTransaction, ledger: _Ledger, finished: Finished, *, flush: bool
    ) -> GameResult | None:
        places = result_places(finished.game)
        seats = seats_of(places)
        await ledger.add_people(tx, {rid for _, rid, _ in seats})  # a hint's missed players
        if is_rated(finished.game, seats):
            await ledger.advance(tx, finished.ended_at)
            family = FAMILY.get(finished.ruleset, finished.ruleset)
            await ledger.read_day(tx, family, finished.ended_at)
        result = ledger.rate(finished, places, seats)
        if flush:
            await ledger.flush(tx)
        return result

    async def catch_up(self) -> int:
        """Rate finished games that are not rated yet, oldest end first, closing past
        seasons on the way; how many games it looked at.

        This is crash recovery (a process that died between a game's last move and its
        rating, or a database that was down then) and the backfill of schema step 8: the
        first start after the upgrade finds every game of the past unrated and rates
        them all here, in batches (`BATCH` games of one server: their logs read in two
        queries, rated in memory, written in one transaction). Running it again changes
        nothing: each game's `rated_games` row is written with its rating, and checked
        under the server's lock. After one complete look it only looks at games that
        ended since (less `LOOKBACK`), so the bot's every-minute `tick` costs one indexed
        query when there is nothing to do."""
        began, now = time.perf_counter(), self.clock()
        pending = await self.storage.unrated_games(self._looked_until)
        by_guild: dict[int, list[int]] = {}
        for game_id, guild_id in pending:
            if self.owns(guild_id):
                by_guild.setdefault(guild_id, []).append(game_id)
        count = 0
        for guild_id, ids in by_guild.items():
            for start in range(0, len(ids), BATCH):
                count += await self._rate_batch(guild_id, ids[start : start + BATCH], now)
        self._looked_until = now - LOOKBACK
        if count:
            log.info(
                "league: rated %d finished game(s) in %.1f s", count, time.perf_counter() - began
            )
        return count

    async def _rate_batch(self, guild_id: int, ids: Sequence[int], now: float) -> int:
        records = await self.storage.finished_games(ids)
        logs = await self.storage.event_log_texts(ids, achievements.LOG_KINDS)
        # One game's state and log are parsed at a time and let go once it is rated: a
        # batch of parsed logs kept alive together (a few million objects) made every
        # collection of the garbage collector walk them all, and cost more than parsing.
        games = (finished_of(r, _Log(logs.pop(r.id, b""))) for r in records)
        async with self.storage.guild_transaction(guild_id) as tx:
            done_sql = f"SELECT game_id FROM rated_games WHERE game_id IN ({_marks(len(ids))})"
            ledger, (rows,) = await _Ledger.load(tx, guild_id, now, None, [(done_sql, ids)])
            ledger.lend_days = self.new_account_days
            done = {int(row[0]) for row in rows}
            count = 0
            for finished in games:
                if finished.game_id not in done:
                    await self._rate_into(tx, ledger, finished, flush=False)
                    count += 1
            await ledger.flush(tx)
        return count

    async def due_seasons(self, guild_ids: Iterable[int] | None = None) -> list[SeasonClose]:
        """Close every season that has ended (of these servers, or all), and return the
        closes whose announcement nobody has claimed yet."""
        now = self.clock()
        wanted = None if guild_ids is None else sorted(set(guild_ids))
        for guild_id, _length, current in await self.storage.season_rows(wanted):
            if seasons.bounds(current)[1] <= now:
                async with self.storage.guild_transaction(guild_id) as tx:
                    ledger, _ = await _Ledger.load(tx, guild_id, now, set())
                    await ledger.advance(tx, now)  # re-read under the lock: closes once
                    await ledger.flush(tx)
        return [
            SeasonClose(guild_id, season, champions_of(crowned), channel_id)
            for guild_id, season, crowned, channel_id in await self.storage.unannounced(wanted)
        ]

    async def claim_announcement(self, guild_id: int, season: str) -> bool:
        """True exactly once per closed season, across every process: the caller posts."""
        return await self.storage.claim_announcement(guild_id, season, self.clock())

    async def tick(self, guild_ids: Iterable[int] | None = None) -> list[SeasonClose]:
        """The league's periodic work (a cog calls it every minute): rate any finished
        game a failure left unrated, close the seasons that ended, and return the closes
        still to announce. One or two indexed queries when there is nothing to do."""
        await self.catch_up()
        return await self.due_seasons(guild_ids)

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
            (season, champions_of(champions))
            for season, champions in await self.storage.closed_seasons(guild_id, PAST_SEASONS)
        ]
        return SeasonView(key, length, seasons.days_left(now, key), top, past)

    async def set_season_length(self, guild_id: int, length: str) -> str:
        """A server admin's choice of month or quarter; the current season's key after.

        A season that has already ended by the clock is closed first, with its
        champions. The switch itself crowns nobody: the running season is simply renamed
        to the one of the new length that holds today (a month becomes its quarter, a
        quarter today's month), and its games so far count towards it."""
        if length not in seasons.LENGTHS:
            raise ValueError(f"season length must be one of {seasons.LENGTHS}, not {length!r}")
        now = self.clock()
        async with self.storage.guild_transaction(guild_id) as tx:
            ledger, _ = await _Ledger.load(tx, guild_id, now, set())
            if ledger.current is not None:
                await ledger.advance(tx, now)
            ledger.length, ledger.season_changed = length, True
            ledger.current = seasons.season_key(now, length)
            await ledger.flush(tx)
            return ledger.current

    async def main_family(self, guild_id: int) -> str:
        """The family "Rating" means on this server (`/leaderboard stat:Rating`, README,
        Ratings): the one more of its people are rated in, the first of `FAMILIES`
        (bluffing) on a tie, so the same choice shows everyone the same list."""
        counts = await self.storage.rated_people(guild_id, FAMILIES)
        return max(FAMILIES, key=lambda family: counts.get(family, 0))

    async def skills_of(self, guild_id: int, user_id: int) -> dict[str, Skill]:
        """A player's (or a computer's stats id's) rating per family they have played."""
        rows = await self.storage.ratings_of(guild_id, user_id, FAMILIES)
        return {row.family: Skill(row.mu, row.sigma, row.games) for row in rows}

    async def achievements_of(self, guild_id: int, user_id: int) -> list[AchievementView]:
        """Every achievement, earned or still open, with how rare it is on this server."""
        counts = await self.storage.achievement_counts(guild_id, user_id, list(ACHIEVEMENTS))
        return [
            AchievementView(key, counts.earned.get(key), counts.holders.get(key, 0), counts.players)
            for key in ACHIEVEMENTS
        ]

    async def card_achievements(self, guild_id: int, user_id: int) -> tuple[int, list[str]]:
        """For the card: how many achievements the person holds, and the keys of the
        `CARD_RAREST` that fewest people on this server hold, rarest first (equally rare
        ones by key). Keys no longer in `ACHIEVEMENTS` are not counted."""
        return await self.storage.rarest_held(guild_id, user_id, list(ACHIEVEMENTS), CARD_RAREST)
