"""The league's write side (README, Ratings; Seasons): finished games
rated exactly as openskill rates them, once; seasons closed once, across restarts and
processes; the backfill equal to rating live, and idempotent. Both databases."""

from __future__ import annotations

import asyncio
import calendar
import random
from collections import defaultdict
from typing import Any

import orjson
import pytest
from openskill.models import PlackettLuce

from bot.ai.opponents import DUEL_COUNTS
from bot.engine import Act, Game, Move
from bot.engine.result import CUT_SHORT_ROUNDS
from bot.engine.result import places as places_of
from bot.game.tables import TableService
from bot.league.achievements import LOG_KINDS
from bot.league.seasons import DAY
from bot.league.service import (
    _ADD_PROGRESS,
    _INSERT_EARNED,
    PAIR_GAMES,
    League,
    ratings,
    result_of,
)
from bot.league.stats import stored_id
from bot.storage import Storage, open_storage
from bot.storage.base import parse_log
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION
from tests.db_helpers import (
    database_url_fixture,
    raw_execute,
    set_stored_version,
    storage_fixture,
)
from tests.league_games import PEOPLE, play_game

storage = storage_fixture()
database_url = database_url_fixture()

GUILD = 7
LEAGUE_TABLES = (
    "ratings",
    "rated_games",
    "achievements",
    "achievement_progress",
    "seasons",
    "closed_seasons",
    "rated_channel_players",
    "rating_history",
)


def stamp(*when: int) -> float:
    return float(calendar.timegm((*when, 0, 0, 0)[:6]))


#: The tables of schema step 15, the bot arena's ladder.
ARENA_TABLES = ("arena_rounds", "arena_losses", "arena_bots")

NOV_15 = stamp(2026, 11, 15, 12)


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def final_places(store: Storage, game_id: int) -> list[tuple[int, int]]:
    """(rating id, place) of a stored finished game, as its result ranks it."""
    record = await store.get_game(game_id)
    assert record is not None and record.status == "over"
    game = Game.from_dict(orjson.loads(record.state_json)["engine"])
    return [(rid, place) for p, place in places_of(game) if (rid := stored_id(p)) is not None]


def openskill_after(
    places: list[tuple[int, int]], prior: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """What openskill itself makes of a table (defaults); seats of one computer persona
    keep the mean of their results, as README says."""
    model = PlackettLuce()
    teams = [[model.rating(*prior.get(rid, (model.mu, model.sigma)))] for rid, _ in places]
    rated = model.rate(teams, ranks=[float(place) for _, place in places])
    seats: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for (rid, _), team in zip(places, rated, strict=True):
        seats[rid].append((team[0].mu, team[0].sigma))
    return {
        rid: (sum(m for m, _ in s) / len(s), sum(x for _, x in s) / len(s))
        for rid, s in seats.items()
    }


async def stored_ratings(store: Storage, guild: int = GUILD) -> dict[tuple[str, int], tuple]:
    rows = await store._fetchall(
        "SELECT family, user_id, mu, sigma, games, shown FROM ratings WHERE guild_id = ?", (guild,)
    )
    return {(r[0], int(r[1])): (float(r[2]), float(r[3]), int(r[4]), int(r[5])) for r in rows}


async def snapshot(store: Storage) -> dict[str, list[tuple[Any, ...]]]:
    found = {}
    for table in LEAGUE_TABLES:
        rows = await store._fetchall(f"SELECT * FROM {table}", ())
        found[table] = sorted(tuple(row) for row in rows)
    return found


def service(store: Storage, league: League | None, seed: int) -> TableService:
    return TableService(store, random.Random(seed), league=league)


TABLES = {
    "two people": (PEOPLE[:2], None, {"lives": 2}),
    "a leaver": (PEOPLE[:4], PEOPLE[2], {"lives": 2}),
    "twenty seats": (
        [
            *PEOPLE[:12],
            *(f"cpu_{p}_{n}" for p in ("expert", "bold", "cautious", "caller") for n in (1, 2)),
        ],
        None,
        {"lives": 1},
    ),
}


@pytest.mark.parametrize("case", TABLES)
async def test_ratings_are_openskills_own(storage: Storage, case: str) -> None:
    """Two games in a row at the same table: after each, every stored μ and σ is what
    openskill's PlackettLuce gives for the final places (ties, a leaver below all who
    stayed, twenty seats with two of each computer persona sharing its rating), and the
    shown number and count follow."""
    players, leaver, options = TABLES[case]
    league = League(storage, clock=Clock(NOV_15))
    expected: dict[int, tuple[float, float]] = {}
    games: dict[int, int] = defaultdict(int)
    for n in range(2):
        outcome = await play_game(
            service(storage, league, n),
            GUILD,
            100,
            players,
            now=NOV_15 + n,
            seed=n,
            leaver=leaver,
            options=options,
        )
        assert outcome.result is not None
        places = await final_places(storage, outcome.table.game_id)
        if leaver is not None:  # last among those still in when they left
            record = await storage.get_game(outcome.table.game_id)
            assert record is not None
            game = Game.from_dict(orjson.loads(record.state_json)["engine"])
            place = dict(places)[int(leaver)]
            stayed = [dict(places)[int(p)] for p in game.seats]
            assert stayed and place > max(stayed), "a leaver ranks below all who stayed"
        expected.update(openskill_after(places, expected))
        for rid in {rid for rid, _ in places}:
            games[rid] += 1
        stored = await stored_ratings(storage)
        assert set(stored) == {("bluff", rid) for rid in expected}
        for rid, (mu, sigma) in expected.items():
            got = stored[("bluff", rid)]
            assert got[:2] == pytest.approx((mu, sigma), rel=1e-12, abs=1e-12)
            assert got[2] == games[rid]
            assert got[3] == ratings.shown(mu, sigma)
        for pid, change in outcome.result.changes.items():
            assert change.after == stored[("bluff", stored_id(pid))][3]
    if case == "twenty seats":
        assert {rid for rid, _ in places if rid < 0} == {-1, -2, -3, -4}


async def test_ties_share_a_place_and_rate_as_openskill_does(storage: Storage) -> None:
    """The host ends a lives game once it counts (README, Ratings): players with the same
    lives and drinks stand equal, a tie openskill rates as one shared rank."""
    league = League(storage, clock=Clock(NOV_15))
    table_service = service(storage, league, 3)
    players = PEOPLE[:5]
    await table_service.open_table(
        GUILD, 5, players[0], "mexican", {"turn_timer": 0, "lives": 3}, NOV_15
    )
    for p in players[1:]:
        await table_service.act(5, p, Move(Act.JOIN), NOV_15)
    await table_service.act(5, players[0], Move(Act.START), NOV_15)
    rng = random.Random(4)
    while (table := table_service.get(5)) is not None and (
        table.game.played_rounds or 0
    ) < CUT_SHORT_ROUNDS:
        mover = table.game.to_move
        moves = [
            m for m in table.game.legal_actions(mover) if m.act not in (Act.END, Act.TAP, Act.LEAVE)
        ]
        outcome = await table_service.act(5, mover, rng.choice(moves), NOV_15)
    outcome = await table_service.act(5, players[0], Move(Act.END), NOV_15)
    assert outcome.result is not None
    places = await final_places(storage, outcome.table.game_id)
    assert len({place for _, place in places}) < len(places), places  # there is a tie
    expected = openskill_after(places, {})
    stored = await stored_ratings(storage)
    for rid, (mu, sigma) in expected.items():
        assert stored[("bluff", rid)][:2] == pytest.approx((mu, sigma), rel=1e-12)


async def test_what_the_table_service_knows_of_a_game_is_only_a_hint(storage: Storage) -> None:
    """The table service hands `game_over` the game's server and final state, so the game,
    its log and its players' rows are read in one go under the lock. What is stored
    decides: the same game rated with no hint, the wrong server, the wrong players or
    the right hint gives the same ratings and achievements, once."""
    league = League(storage, clock=Clock(NOV_15))
    other = await play_game(
        service(storage, None, 5),
        GUILD + 9,
        300,
        PEOPLE[3:6],
        now=NOV_15,
        seed=5,
        options={"lives": 1},
    )
    hints: list[dict[str, Any]] = [
        {},
        {"guild_id": GUILD + 9, "game": other.table.game},
        {"guild_id": GUILD + 2, "game": other.table.game},
        {"guild_id": GUILD + 3},
    ]
    results, ratings_by_guild = [], []
    for n, hint in enumerate(hints):
        outcome = await play_game(
            service(storage, None, 7),
            GUILD + n,
            200 + n,
            PEOPLE[:3],
            now=NOV_15,
            seed=7,
            options={"lives": 1},
        )
        if n == 3:
            hint["game"] = outcome.table.game
        result = await league.game_over(outcome.table.game_id, **hint)
        assert result is not None and result == await league.game_over(outcome.table.game_id)
        results.append((result.family, result.changes, result.earned))
        ratings_by_guild.append(await stored_ratings(storage, GUILD + n))
    assert results[0][1] and all(r == results[0] for r in results)
    assert ratings_by_guild[0] and all(r == ratings_by_guild[0] for r in ratings_by_guild)
    assert await stored_ratings(storage, GUILD + 9) == {}  # the other game stays unrated


async def test_a_computer_is_rated_beside_people_and_game_over_is_idempotent(
    storage: Storage,
) -> None:
    league = League(storage, clock=Clock(NOV_15))
    outcome = await play_game(
        service(storage, league, 9),
        GUILD,
        100,
        [PEOPLE[0], "cpu_expert_1"],
        now=NOV_15,
        preset="mexen",
        options={"lives": 2},
    )
    result = outcome.result
    assert result is not None and result.family == "open"
    assert set(result.changes) == {PEOPLE[0], "cpu_expert_1"}
    before = await snapshot(storage)
    assert {(f, uid) for f, uid in await stored_ratings(storage)} == {
        ("open", int(PEOPLE[0])),
        ("open", stored_id("cpu_expert_1")),
    }
    again = League(storage, clock=Clock(NOV_15 + 99))
    assert await again.game_over(outcome.table.game_id) == result
    assert await league.game_over(outcome.table.game_id) == result
    assert await league.catch_up() == 0
    assert await snapshot(storage) == before


async def test_a_rated_game_lists_its_people_on_its_own_channels_board(
    storage: Storage,
) -> None:
    """A channel's rating board lists the people the league rated in that channel (its
    row of rated_channel_players, written with the rating): a game in channel 100 in
    November, then one in channel 101 in December; computers on no board, the other
    family's board empty, and /resetleaderboard wipes them with the ratings."""
    dec_20 = stamp(2026, 12, 20, 12)
    league = League(storage, clock=Clock(NOV_15))
    one, two, three = (int(p) for p in PEOPLE[:3])
    await play_game(
        service(storage, league, 1),
        GUILD,
        100,
        [PEOPLE[0], PEOPLE[1], "cpu_expert_1"],
        now=NOV_15,
        options={"lives": 1},
    )
    await play_game(
        service(storage, league, 2),
        GUILD,
        101,
        [PEOPLE[1], PEOPLE[2]],
        now=dec_20,
        options={"lives": 1},
    )
    stored = await storage._fetchall(
        "SELECT family, channel_id, user_id, last_game_at FROM rated_channel_players"
        " WHERE guild_id = ?",
        (GUILD,),
    )
    assert sorted(tuple(row) for row in stored) == [
        ("bluff", 100, one, NOV_15),
        ("bluff", 100, two, NOV_15),
        ("bluff", 101, two, dec_20),
        ("bluff", 101, three, dec_20),
    ]

    async def listed(channel: int, period: str = "all", stat: str = "rating_bluff") -> set[int]:
        rows, total = await storage.leaderboard(
            GUILD, stat, channel_id=channel, period=period, now=dec_20
        )
        assert total == len(rows)
        for row in rows:
            mine = await storage.rank_of(
                GUILD, stat, row.user_id, channel_id=channel, period=period, now=dec_20
            )
            assert mine == row
        return {row.user_id for row in rows}

    assert await listed(100) == {one, two}
    assert await listed(101) == {two, three}
    assert await listed(100, "month") == set(), "November's game"
    assert await listed(101, "month") == {two, three}
    assert await listed(102) == set()
    assert await listed(100, stat="rating_open") == set()
    assert await storage.rank_of(GUILD, "rating_bluff", three, channel_id=100, now=dec_20) is None
    await storage.reset_guild_stats(GUILD)
    assert await storage.count_rows("rated_channel_players") == 0
    assert await listed(100) == await listed(101) == set()


async def test_event_logs_read_in_bulk_equal_the_stored_log(storage: Storage) -> None:
    """The backfill reads logs a thousand games a query, each joined by the database:
    every entry comes back, in order, as `Storage.events` gives it."""
    ids = []
    for n in range(3):
        outcome = await play_game(
            service(storage, None, n),
            GUILD,
            100 + n,
            PEOPLE[:3],
            now=NOV_15,
            seed=n,
            options={"lives": 1},
        )
        ids.append(outcome.table.game_id)
    texts = await storage.event_log_texts([*ids, 999])
    only = await storage.event_log_texts(ids, LOG_KINDS)
    assert set(texts) == set(ids) == set(only)
    for game_id in ids:
        stored = [(e.kind, e.payload) for e in await storage.events(game_id)]
        assert len(stored) > 20 and parse_log(texts[game_id]) == stored
        wanted = [(kind, payload) for kind, payload in stored if kind in LOG_KINDS]
        assert len(wanted) < len(stored) and parse_log(only[game_id]) == wanted
        # A game's end reads the game, its result and its log in one query.
        async with storage.guild_transaction(GUILD) as tx:
            (rows,) = await tx.fetch_each([storage.finished_game_query(game_id, LOG_KINDS)])
        record, result, text = storage.finished_game_of(rows)
        assert record == await storage.get_game(game_id) and result is None
        assert parse_log(text) == wanted
    async with storage.guild_transaction(GUILD) as tx:
        (rows,) = await tx.fetch_each([storage.finished_game_query(999)])
    assert storage.finished_game_of(rows) == (None, None, b"")


def test_a_log_text_comes_back_in_seq_order_whatever_order_it_was_joined_in() -> None:
    """Neither database promises the order its aggregate joins a game's entries in."""
    text = b'12,"reveal",{"player":"1","data":{"bluff":true}},3,"rolled",{},7,"claimed",{"a":[1]}'
    assert parse_log(text) == [
        ("rolled", {}),
        ("claimed", {"a": [1]}),
        ("reveal", {"player": "1", "data": {"bluff": True}}),
    ]
    assert parse_log(b'1,"started",{}') == [("started", {})]


async def test_a_guild_transaction_reads_and_writes_in_one_go(storage: Storage) -> None:
    """The ledger's reads go together and its writes go together (one round trip each
    on PostgreSQL): each read's rows come back whole and typed, each write's ON CONFLICT
    applies, and writes that can't be folded (one table twice) still run in order."""
    big, third, sigma = 2**62 + 12345, 0.1 + 0.2, 25 / 3
    ratings_sql = (
        "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, shown, games,"
        " last_game_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    )
    closed_sql = (
        "INSERT INTO closed_seasons (guild_id, season, closed_at, champions, channel_id,"
        " announced_at) VALUES (?, ?, ?, ?, ?, ?)"
    )
    async with storage.guild_transaction(GUILD) as tx:
        await tx.write_each(
            [
                (
                    ratings_sql,
                    [
                        (GUILD, "bluff", big, third, sigma, 975, 1, NOV_15),
                        (GUILD, "open", -3, 25.0, 1e-9, 1000, 2, NOV_15 + 0.25),
                    ],
                ),
                (_ADD_PROGRESS, [(GUILD, big, "wins", 2)]),
                (closed_sql, [(GUILD, "2026-11", NOV_15, '[{"n": "é"}]', None, None)]),
                (_INSERT_EARNED, []),
            ]
        )
    async with storage.guild_transaction(GUILD) as tx:
        await tx.write_each(
            [
                (_ADD_PROGRESS, [(GUILD, big, "wins", 3), (GUILD, 5, "wins", 1)]),
                (_ADD_PROGRESS, [(GUILD, big, "wins", 10)]),
            ]
        )
        found = await tx.fetch_each(
            [
                (
                    "SELECT user_id, family, mu, sigma, last_game_at FROM ratings"
                    " WHERE guild_id = ? ORDER BY user_id",
                    (GUILD,),
                ),
                (
                    "SELECT user_id, n FROM achievement_progress WHERE guild_id = ? AND fact = ?",
                    (GUILD, "wins"),
                ),
                (
                    "SELECT champions, channel_id, announced_at FROM closed_seasons"
                    " WHERE guild_id = ?",
                    (GUILD,),
                ),
                ("SELECT key FROM achievements WHERE guild_id = ?", (GUILD,)),
            ]
        )
    rated, progress, closed, held = ([tuple(row) for row in rows] for rows in found)
    assert rated == [(-3, "open", 25.0, 1e-9, NOV_15 + 0.25), (big, "bluff", third, sigma, NOV_15)]
    assert all(type(value) is float for row in rated for value in row[2:])
    assert sorted(progress) == [(5, 1), (big, 15)]
    assert closed == [('[{"n": "é"}]', None, None)] and held == []


async def test_a_game_not_played_is_not_rated(storage: Storage) -> None:
    league = League(storage, clock=Clock(NOV_15))
    table_service = service(storage, league, 1)
    await table_service.open_table(GUILD, 5, PEOPLE[0], "mexican", {"turn_timer": 0}, NOV_15)
    await table_service.act(5, PEOPLE[1], Move(Act.JOIN), NOV_15)
    outcome = await table_service.act(5, PEOPLE[0], Move(Act.END), NOV_15)
    assert outcome.table.game.phase == "over" and outcome.result is None
    assert await stored_ratings(storage) == {}
    assert await league.game_over(outcome.table.game_id) is None
    assert await league.catch_up() == 0


async def test_a_month_end_closes_november_once_with_its_champions(
    database_url: str,
) -> None:
    """A game on Nov 30 at 23:59, then one on Dec 1 at 00:01 (other players, but one):
    November closes before the second is rated, crowning November's people, every
    rating widens, December is current. After a restart nothing closes again."""
    nov_30, dec_1 = stamp(2026, 11, 30, 23, 59), stamp(2026, 12, 1, 0, 1)
    clock = Clock(nov_30)
    store = await open_storage(database_url)
    try:
        league = League(store, clock=clock)
        first = await play_game(
            service(store, league, 1),
            GUILD,
            100,
            [*PEOPLE[:4], "cpu_bold_1"],
            now=nov_30,
            options={"lives": 2},
        )
        november = await stored_ratings(store)
        clock.now = dec_1
        second = await play_game(
            service(store, league, 2),
            GUILD,
            101,
            [PEOPLE[0], PEOPLE[10]],
            now=dec_1,
            options={"lives": 2},
        )
        assert first.result is not None and second.result is not None
        rows = await store._fetchall(
            "SELECT season, champions, channel_id, announced_at FROM closed_seasons", ()
        )
        assert [(r[0], r[2], r[3]) for r in rows] == [("2026-11", 100, None)]
        champions = orjson.loads(rows[0][1])
        people = sorted(
            (uid for (_, uid) in november if uid > 0),
            key=lambda u: (-(november[("bluff", u)][0] - 3 * november[("bluff", u)][1]), u),
        )
        assert [(c["place"], c["user_id"], c["rating"]) for c in champions] == [
            (n, uid, november[("bluff", uid)][3]) for n, uid in enumerate(people[:3], start=1)
        ]
        december = await stored_ratings(store)
        for key, (mu, sigma, games, _) in november.items():
            if key[1] in (int(PEOPLE[0]),):
                continue  # played again in December
            wide = ratings.widened(ratings.Skill(mu, sigma, games))
            assert december[key][:3] == pytest.approx((wide.mu, wide.sigma, games))
            assert december[key][3] == wide.shown < november[key][3]
        seasons = await store._fetchall("SELECT length, current FROM seasons", ())
        assert [tuple(r) for r in seasons] == [("month", "2026-12")]
        closes = await league.due_seasons([GUILD])
        assert [(c.guild_id, c.season, c.channel_id) for c in closes] == [(GUILD, "2026-11", 100)]
        assert [c.user_id for c in closes[0].champions] == people[:3]
        before = await snapshot(store)
    finally:
        await store.close()
    store = await open_storage(database_url)
    try:
        clock.now = stamp(2026, 12, 2)
        league = League(store, clock=clock)
        assert await league.catch_up() == 0
        assert len(await league.due_seasons()) == 1  # still not announced
        assert await league.game_over(second.table.game_id) == second.result
        assert await snapshot(store) == before
        assert await league.claim_announcement(GUILD, "2026-11")
        assert not await league.claim_announcement(GUILD, "2026-11")
        assert await league.due_seasons() == []
    finally:
        await store.close()


async def test_the_clock_closes_a_season_and_a_late_close_is_not_announced(
    storage: Storage,
) -> None:
    clock = Clock(NOV_15)
    league = League(storage, clock=clock)
    await play_game(
        service(storage, league, 1), GUILD, 100, PEOPLE[:3], now=NOV_15, options={"lives": 2}
    )
    assert await league.due_seasons() == []  # November runs
    clock.now = stamp(2026, 12, 1, 0, 30)
    closes = await league.due_seasons()
    assert [(c.season, len(c.champions)) for c in closes] == [("2026-11", 3)]
    assert await league.due_seasons([GUILD + 1]) == []
    # Another server, whose November closes only in January: recorded, never announced.
    await play_game(
        service(storage, league, 2), GUILD + 1, 200, PEOPLE[:2], now=NOV_15, options={"lives": 2}
    )
    clock.now = stamp(2027, 1, 10)
    closes = await league.due_seasons()
    assert [(c.guild_id, c.season) for c in closes] == [(GUILD, "2026-11")]
    rows = await storage._fetchall(
        "SELECT guild_id, season, announced_at FROM closed_seasons ORDER BY guild_id, season",
        (),
    )
    # December, when the first server played no game, closes quietly: nothing to crown.
    assert [tuple(r) for r in rows] == [
        (GUILD, "2026-11", None),
        (GUILD + 1, "2026-11", stamp(2027, 1, 10)),
    ]
    current = await storage._fetchall("SELECT guild_id, current FROM seasons ORDER BY 1", ())
    assert [tuple(r) for r in current] == [(GUILD, "2027-01"), (GUILD + 1, "2027-01")]


async def test_switching_to_quarters_renames_the_running_season(storage: Storage) -> None:
    clock = Clock(NOV_15)
    league = League(storage, clock=clock)
    await play_game(
        service(storage, league, 1), GUILD, 100, PEOPLE[:2], now=NOV_15, options={"lives": 2}
    )
    assert await league.set_season_length(GUILD, "quarter") == "2026-Q4"
    clock.now = stamp(2026, 12, 5)
    assert await league.due_seasons() == []  # Q4 runs on: November did not close
    assert await league.set_season_length(GUILD, "month") == "2026-12"
    with pytest.raises(ValueError):
        await league.set_season_length(GUILD, "week")
    assert await storage._fetchall("SELECT * FROM closed_seasons", ()) == []


async def test_two_processes_rate_and_close_exactly_once(database_url: str) -> None:
    """Two stores and leagues on one database (two bot processes) rate the same games at
    once, then race to close the season and to claim its announcement: every game is
    rated once and no rating update is lost; one close, one claim."""
    clock = Clock(NOV_15)
    a, b = await open_storage(database_url), await open_storage(database_url)
    try:
        ids = []
        for n in range(6):  # stored unrated (the hook is off): the races below rate them
            players = [PEOPLE[0], PEOPLE[1 + n % 3], PEOPLE[5 + n % 2]]
            outcome = await play_game(
                service(a, None, n),
                GUILD,
                100 + n,
                players,
                now=NOV_15 + n,
                seed=n,
                options={"lives": 1},
            )
            ids.append(outcome.table.game_id)
        one, two = League(a, clock=clock), League(b, clock=clock)
        results = await asyncio.gather(*(league.game_over(g) for g in ids for league in (one, two)))
        assert results[0::2] == results[1::2]
        stored = await stored_ratings(a)
        assert stored[("bluff", int(PEOPLE[0]))][2] == 6  # no update lost
        assert sum(games for _, _, games, _ in stored.values()) == 18
        assert len(await a._fetchall("SELECT game_id FROM rated_games", ())) == 6
        clock.now = stamp(2026, 12, 1, 0, 5)
        closes = await asyncio.gather(one.due_seasons(), two.due_seasons(), one.due_seasons())
        assert all(len(c) == 1 for c in closes)
        assert len(await a._fetchall("SELECT season FROM closed_seasons", ())) == 1
        claims = await asyncio.gather(
            *(league.claim_announcement(GUILD, "2026-11") for league in (one, two) * 3)
        )
        assert sorted(claims) == [False] * 5 + [True]
    finally:
        await a.close()
        await b.close()


async def play_history(store: Storage, league: League | None, clock: Clock) -> None:
    """Sixteen games of two servers over three months, each at its own moment."""
    for n in range(16):
        guild = GUILD + n % 2
        when = stamp(2026, 10 + n // 6, 1 + n, 12)
        clock.now = when
        players = PEOPLE[n % 4 : n % 4 + 3] + (["cpu_expert_1"] if n % 3 == 0 else [])
        await play_game(
            service(store, league, n),
            guild,
            100 + n % 3,
            players,
            now=when,
            seed=n,
            preset=("mexican", "mexen")[n % 2 and n % 4 == 1],
            options={"lives": 1},
        )


async def test_the_backfill_equals_rating_live_and_runs_once(
    database_url: str, tmp_path: Any, request: pytest.FixtureRequest
) -> None:
    """The same history rated live (the hook) and by `catch_up` afterwards (the schema
    step's backfill) leaves the same league tables, closes included; a second catch-up,
    by a new process, changes nothing."""
    if database_url.startswith("sqlite"):
        other_url = f"sqlite:///{tmp_path / 'backfill.db'}"
    else:
        other_url = request.getfixturevalue("postgres_server").create_database("backfill")
    end = stamp(2027, 1, 20)
    live_store, other = await open_storage(database_url), await open_storage(other_url)
    try:
        await play_history(live_store, League(live_store, clock=lambda: end), Clock(0.0))
        live_tables = await snapshot(live_store)
        assert live_tables["closed_seasons"], "the history crosses season ends"
        await play_history(other, None, Clock(0.0))
        assert (await snapshot(other))["rated_games"] == []
        backfill = League(other, clock=lambda: end)
        assert await backfill.catch_up() == 16
        assert await snapshot(other) == live_tables
        assert await League(other, clock=lambda: end + 5).catch_up() == 0
        assert await backfill.catch_up() == 0
        assert await snapshot(other) == live_tables
    finally:
        await live_store.close()
        await other.close()


async def test_schema_step_9_finds_where_the_rated_games_were_played(
    database_url: str,
) -> None:
    """A database at step 8 with rated games (people, a computer, both families, two
    servers, one of them reset since) gets from step 9 the same rated_channel_players
    rows the league writes live: each person's last rated game per family and channel,
    and nobody whose rating /resetleaderboard wiped."""
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 9
    end = stamp(2027, 1, 20)
    store = await open_storage(database_url)
    try:
        await play_history(store, League(store, clock=lambda: end), Clock(0.0))
        live = (await snapshot(store))["rated_channel_players"]
        assert {(row[0], row[1]) for row in live} == {
            (GUILD, "bluff"),
            (GUILD + 1, "bluff"),
            (GUILD + 1, "open"),
        }
        assert all(row[3] > 0 for row in live), "people only"
        await store.reset_guild_stats(GUILD)
        kept = (await snapshot(store))["rated_channel_players"]
        assert kept == [row for row in live if row[0] == GUILD + 1]
    finally:
        await store.close()
    # Back to step 8: everything the league stored but the new table (and the steps after).
    await raw_execute(database_url, "DROP TABLE rated_channel_players")
    await raw_execute(database_url, "DROP INDEX games_unshown")
    await raw_execute(database_url, "ALTER TABLE games DROP COLUMN shown_at")
    await raw_execute(database_url, "DROP INDEX rated_games_by_seats")
    await raw_execute(database_url, "ALTER TABLE rated_games DROP COLUMN seats")
    await raw_execute(database_url, "DROP TABLE web_links")
    await raw_execute(database_url, "DROP INDEX rated_games_by_guild")
    await raw_execute(database_url, "DROP TABLE rating_history")
    for column in DUEL_COUNTS:
        await raw_execute(database_url, f"ALTER TABLE play_profiles DROP COLUMN {column}")
    for table in ARENA_TABLES:  # step 15 (its index goes with its table)
        await raw_execute(database_url, f"DROP TABLE {table}")
    await set_stored_version(database_url, 8)
    store = await open_storage(database_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert (await snapshot(store))["rated_channel_players"] == kept
    finally:
        await store.close()


async def test_a_game_the_league_could_not_rate_is_rated_by_the_next_tick(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing is lost: the game's last move is stored and answered (without ratings)
    even if rating it fails; the league's periodic tick rates it later, once."""
    league = League(storage, clock=Clock(NOV_15))
    real = League.game_over

    async def broken(self: League, game_id: int) -> Any:
        raise RuntimeError("the league fell over")

    monkeypatch.setattr(League, "game_over", broken)
    outcome = await play_game(
        service(storage, league, 1), GUILD, 100, PEOPLE[:3], now=NOV_15, options={"lives": 1}
    )
    assert outcome.table.game.phase == "over" and outcome.result is None
    assert "could not be rated now" in caplog.text
    assert await stored_ratings(storage) == {}
    monkeypatch.setattr(League, "game_over", real)
    assert await league.tick([GUILD]) == []
    assert len(await stored_ratings(storage)) == 3
    result = await league.game_over(outcome.table.game_id)
    assert result is not None and set(result.changes) == set(PEOPLE[:3])
    assert await league.tick() == []
    assert len(await storage._fetchall("SELECT game_id FROM rated_games", ())) == 1


async def test_a_process_catches_up_the_games_of_its_own_servers(storage: Storage) -> None:
    """Shard processes split the catch-up by server, as they split the tables: each rates
    the missed games of the servers it owns, and leaves the others' to their owner."""
    other = GUILD + 1
    for n, guild in enumerate((GUILD, other, GUILD)):
        await play_game(
            service(storage, None, n),
            guild,
            100 + n,
            PEOPLE[:2],
            now=NOV_15,
            seed=n,
            options={"lives": 1},
        )
    mine = League(storage, clock=Clock(NOV_15 + 60), owns=lambda guild: guild == GUILD)
    assert await mine.catch_up() == 2
    rated = await storage._fetchall("SELECT guild_id FROM rated_games ORDER BY game_id", ())
    assert [int(r[0]) for r in rated] == [GUILD, GUILD]
    assert await League(storage, clock=Clock(NOV_15 + 60)).catch_up() == 1


async def test_a_delayed_rating_is_applied_in_the_order_the_games_ended(
    database_url: str,
    tmp_path: Any,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first game's rating fails (the database busy at its end); a later game of the
    same players is rated first in time, yet its rating waits: the earlier game is rated
    before it, so the stored results equal the backfill's, which rates from the logs in
    the order the games ended (README, Ratings)."""
    if database_url.startswith("sqlite"):
        other_url = f"sqlite:///{tmp_path / 'in_order.db'}"
    else:
        other_url = request.getfixturevalue("postgres_server").create_database("in_order")
    live, other = await open_storage(database_url), await open_storage(other_url)
    first, second = stamp(2026, 11, 10, 12), stamp(2026, 11, 10, 13)
    players = PEOPLE[:3]
    try:
        league = League(live, clock=Clock(second))
        real = League._game_over
        failures = iter([RuntimeError("database is locked")])

        async def busy_once(self: League, *args: Any) -> Any:
            for err in failures:
                raise err
            return await real(self, *args)

        monkeypatch.setattr(League, "_game_over", busy_once)
        delayed = await play_game(
            service(live, league, 3), GUILD, 100, players, now=first, seed=3, options={"lives": 1}
        )
        assert delayed.result is None and await stored_ratings(live) == {}
        later = await play_game(
            service(live, league, 4), GUILD, 101, players, now=second, seed=4, options={"lives": 1}
        )
        assert later.result is not None
        rated = await live._fetchall("SELECT game_id FROM rated_games ORDER BY ended_at", ())
        assert [row[0] for row in rated] == [delayed.table.game_id, later.table.game_id]
        for n, when in ((3, first), (4, second)):
            await play_game(
                service(other, None, n),
                GUILD,
                100 + n - 3,
                players,
                now=when,
                seed=n,
                options={"lives": 1},
            )
        assert await League(other, clock=Clock(second)).catch_up() == 2
        assert await snapshot(other) == await snapshot(live)
        # The later game's standing showed what the recomputation stores for it.
        stored = await other._fetchall(
            "SELECT result FROM rated_games WHERE game_id = ?", (later.table.game_id,)
        )
        assert result_of(later.table.game_id, stored[0][0]) == later.result
    finally:
        await live.close()
        await other.close()


async def test_the_same_table_rests_after_ten_rated_games_a_day(storage: Storage) -> None:
    """Two friends farming each other: their first ten games in 24 hours move their
    ratings, the eleventh counts (its achievements too) but the ratings rest; a third
    seat at their table starts no new count between them (the cap is per pair), and a
    day later they are rated again (docs/league.md, Farming)."""
    clock = Clock(NOV_15)
    league = League(storage, clock=clock)
    pair, hour = PEOPLE[:2], 3600.0
    for n in range(PAIR_GAMES):
        outcome = await play_game(
            service(storage, league, n),
            GUILD,
            100,
            pair,
            now=NOV_15 + n * hour,
            seed=n,
            options={"lives": 1},
        )
        assert outcome.result is not None and outcome.result.changes and not outcome.result.rests
    before = await stored_ratings(storage)
    eleventh = await play_game(
        service(storage, league, 50),
        GUILD,
        100,
        pair,
        now=NOV_15 + 10 * hour,
        seed=50,
        options={"lives": 1},
    )
    assert eleventh.result is not None and eleventh.result.rests
    assert eleventh.result.changes == {}
    assert await stored_ratings(storage) == before
    progress = await storage._fetchall(
        "SELECT n FROM achievement_progress WHERE user_id = ? AND fact = 'games'", (int(pair[0]),)
    )
    assert [tuple(row) for row in progress] == [(PAIR_GAMES + 1,)]  # it counted
    three = await play_game(
        service(storage, league, 51),
        GUILD,
        100,
        [*pair, PEOPLE[2]],
        now=NOV_15 + 10 * hour,
        seed=51,
        options={"lives": 1},
    )
    # The pair rests against each other, not against the third: each of the pair moves
    # by the game against the third alone, as openskill rates that two-seat table.
    assert three.result is not None and three.result.rests
    assert len(three.result.changes) == 3
    places = await final_places(storage, three.table.game_id)
    stored = await stored_ratings(storage)
    third = int(PEOPLE[2])
    for rid in (int(pair[0]), int(pair[1])):
        alone = [(r, place) for r, place in places if r in (rid, third)]
        mu, sigma = openskill_after(alone, {rid: before[("bluff", rid)][:2]})[rid]
        assert stored[("bluff", rid)][:2] == pytest.approx((mu, sigma), rel=1e-12)
    next_day = await play_game(
        service(storage, league, 52),
        GUILD,
        100,
        pair,
        now=NOV_15 + 10 * hour + DAY,
        seed=52,
        options={"lives": 1},
    )
    assert next_day.result is not None and next_day.result.changes


async def test_schema_step_13_fills_the_rating_history_the_league_writes(
    database_url: str,
) -> None:
    """A database from before step 13 gets from the rated games' stored results the same
    rating_history rows the league writes live: each person's rating after each game."""
    end = stamp(2027, 1, 20)
    store = await open_storage(database_url)
    try:
        await play_history(store, League(store, clock=lambda: end), Clock(0.0))
        live = (await snapshot(store))["rating_history"]
        assert live and all(row[2] > 0 for row in live), "people only"
    finally:
        await store.close()
    await raw_execute(database_url, "DROP TABLE rating_history")
    for column in DUEL_COUNTS:
        await raw_execute(database_url, f"ALTER TABLE play_profiles DROP COLUMN {column}")
    for table in ARENA_TABLES:  # step 15 (its index goes with its table)
        await raw_execute(database_url, f"DROP TABLE {table}")
    await set_stored_version(database_url, 12)
    store = await open_storage(database_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert (await snapshot(store))["rating_history"] == live
    finally:
        await store.close()


async def test_a_swapped_seat_starts_no_new_count(storage: Storage) -> None:
    """The cap is per pair (docs/league.md, Farming): after ten rated games against
    Expert Ada in a day, adding Bold Bruno to the table rates the person against Bruno
    only, and another seat of Ada's persona is still Ada."""
    league = League(storage, clock=Clock(NOV_15))
    person, hour = PEOPLE[0], 3600.0
    for n in range(PAIR_GAMES):
        outcome = await play_game(
            service(storage, league, n),
            GUILD,
            100,
            [person, "cpu_expert_1"],
            now=NOV_15 + n * hour / 4,
            seed=n,
            options={"lives": 1},
        )
        assert outcome.result is not None and not outcome.result.rests
    later = NOV_15 + 3 * hour
    again = await play_game(
        service(storage, league, 60),
        GUILD,
        100,
        [person, "cpu_expert_2"],
        now=later,
        seed=60,
        options={"lives": 1},
    )
    assert again.result is not None and again.result.rests and again.result.changes == {}
    before = await stored_ratings(storage)
    swapped = await play_game(
        service(storage, league, 61),
        GUILD,
        100,
        [person, "cpu_expert_1", "cpu_bold_1"],
        now=later,
        seed=61,
        options={"lives": 1},
    )
    assert swapped.result is not None and swapped.result.rests
    places = await final_places(storage, swapped.table.game_id)
    me, bruno = int(person), stored_id("cpu_bold_1")
    assert bruno is not None
    alone = [(r, place) for r, place in places if r in (me, bruno)]
    mu, sigma = openskill_after(alone, {me: before[("bluff", me)][:2]})[me]
    stored = await stored_ratings(storage)
    assert stored[("bluff", me)][:2] == pytest.approx((mu, sigma), rel=1e-12)


def young(days: float, at: float = NOV_15) -> str:
    """A Discord id made ``days`` before ``at`` (its top bits are its creation time)."""
    return str(int((at - days * DAY) * 1000 - ratings.DISCORD_EPOCH_MS) << 22)


async def test_a_new_account_lends_little(storage: Storage) -> None:
    """Against an account made two hours ago, a rating moves a hundredth of what
    openskill says; the newcomer, against an old account, moves all of it (docs/league.md,
    Farming)."""
    league = League(storage, clock=Clock(NOV_15))
    old, new = PEOPLE[0], young(2 / 24)
    assert ratings.lend(int(new), NOV_15) == ratings.MIN_LEND
    assert ratings.lend(int(young(15)), NOV_15) == pytest.approx(0.5)
    assert ratings.lend(int(young(3)), NOV_15) == pytest.approx(0.1)
    assert ratings.lend(int(old), NOV_15) == 1.0 and ratings.lend(-3, NOV_15) == 1.0
    outcome = await play_game(
        service(storage, league, 7), GUILD, 100, [old, new], now=NOV_15, options={"lives": 1}
    )
    assert outcome.result is not None
    places = await final_places(storage, outcome.table.game_id)
    full = openskill_after(places, {})
    stored = await stored_ratings(storage)
    start = ratings.NEW
    mu, sigma = full[int(old)]
    weight = ratings.MIN_LEND
    damped = (start.mu + weight * (mu - start.mu), start.sigma + weight * (sigma - start.sigma))
    assert stored[("bluff", int(old))][:2] == pytest.approx(damped, rel=1e-12)
    assert stored[("bluff", int(new))][:2] == pytest.approx(full[int(new)], rel=1e-12)
    assert stored[("bluff", int(old))][2] == 1  # the game still counts as played
