"""The league's reads: /season's view, a player's skills, /achievements and the card's
rarest badges.

Rows go straight into the league's tables (its write side stores them in play); each
test runs on SQLite and on PostgreSQL, with the league's clock fixed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from bot.league.ratings import Skill
from bot.league.seasons import Champion, bounds
from bot.league.service import League, Standing, achievements
from bot.storage import Storage

from .db_helpers import storage_fixture

GUILD = 1
OTHER_GUILD = 2
NOW = 1_796_083_200.0 + 9 * 86400 + 3600  # 2026-12-10 01:00 UTC: 22 days left
DECEMBER, NOVEMBER = bounds("2026-12"), bounds("2026-11")

storage = storage_fixture()


async def rate(
    store: Storage, family: str, rows: Iterable[tuple[int, int, int, float]], guild: int = GUILD
) -> None:
    """(user id, shown, games, last game at) in one family."""
    await store._write(
        [
            (
                "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, shown, games,"
                " last_game_at) VALUES (?, ?, ?, ?, 2.5, ?, ?, ?)",
                (guild, family, user, 25.0 + user / 100, shown, games, at),
            )
            for user, shown, games, at in rows
        ]
    )


async def hold(
    store: Storage, rows: Iterable[tuple[int, str]], guild: int = GUILD, at: float = NOW
) -> None:
    """(user id, key): achievements earned."""
    await store._write(
        [
            (
                "INSERT INTO achievements (guild_id, user_id, key, game_id, earned_at)"
                " VALUES (?, ?, ?, 1, ?)",
                (guild, user, key, at),
            )
            for user, key in rows
        ]
    )


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Four of the achievements, in their listing order; the views list every one, and
    the tests read these."""
    listed = ["first_win", "flawless", "comeback", "ada_slayer"]
    assert [k for k in achievements.ACHIEVEMENTS if k in listed] == listed
    return listed


async def test_the_season_top_counts_only_people_who_played_this_season(
    storage: Storage,
) -> None:
    in_december, in_november = DECEMBER[0] + 60, NOVEMBER[0] + 60
    await rate(
        storage,
        "bluff",
        [
            (1, 1300, 12, in_november),  # best rating, but not played this season
            (2, 1200, 4, in_december),
            (3, 1100, 30, in_december),
            (4, 1100, 11, in_december),
            (5, 1000, 9, in_december),
            (6, 990, 50, in_december),
            (7, 980, 50, in_december),
            (-3, 1500, 99, in_december),  # a computer
        ],
    )
    await rate(storage, "bluff", [(8, 1400, 20, in_december)], guild=OTHER_GUILD)
    view = await League(storage, clock=lambda: NOW).season_view(GUILD)
    assert (view.season, view.length, view.days_left) == ("2026-12", "month", 22)
    assert view.top == {
        "bluff": [
            Standing(2, 1200, 4, True),
            Standing(3, 1100, 30, False),
            Standing(4, 1100, 11, False),
            Standing(5, 1000, 9, True),
            Standing(6, 990, 50, False),
        ]
    }
    assert view.past == []


async def test_the_stored_season_and_past_champions_newest_first(storage: Storage) -> None:
    champions = {
        "2026-Q2": [{"family": "open", "place": 1, "user_id": 5, "rating": 1111}],
        "2026-Q3": [
            {"family": "bluff", "place": 1, "user_id": 2, "rating": 1250},
            {"family": "bluff", "place": 2, "user_id": 3, "rating": 1200},
        ],
    }
    q3_closed, q2_closed = bounds("2026-Q3")[1] + 5, bounds("2026-Q2")[1] + 5
    await storage._write(
        [
            (
                "INSERT INTO seasons (guild_id, length, current) VALUES (?, 'quarter', '2026-Q4')",
                (GUILD,),
            ),
            *(
                (
                    "INSERT INTO closed_seasons"
                    " (guild_id, season, closed_at, champions, channel_id)"
                    " VALUES (?, ?, ?, ?, 7)",
                    (GUILD, season, at, json.dumps(champions[season])),
                )
                for season, at in (("2026-Q2", q2_closed), ("2026-Q3", q3_closed))
            ),
            (
                "INSERT INTO closed_seasons (guild_id, season, closed_at, champions)"
                " VALUES (?, '2026-Q3', ?, '[]')",
                (OTHER_GUILD, q3_closed),
            ),
        ]
    )
    q4_start = bounds("2026-Q4")[0]
    await rate(storage, "open", [(1, 1010, 2, q4_start + 1), (2, 1500, 2, q4_start - 1)])
    view = await League(storage, clock=lambda: NOW).season_view(GUILD)
    assert (view.season, view.length, view.days_left) == ("2026-Q4", "quarter", 22)
    assert view.top == {"open": [Standing(1, 1010, 2, True)]}
    assert view.past == [
        ("2026-Q3", [Champion("bluff", 1, 2, 1250), Champion("bluff", 2, 3, 1200)]),
        ("2026-Q2", [Champion("open", 1, 5, 1111)]),
    ]


async def test_skills_per_family_played(storage: Storage) -> None:
    await rate(storage, "open", [(4, 1010, 3, NOW)])
    await rate(storage, "bluff", [(4, 990, 7, NOW), (-2, 1200, 40, NOW)])
    league = League(storage, clock=lambda: NOW)
    assert await league.skills_of(GUILD, 4) == {
        "bluff": Skill(25.04, 2.5, 7),
        "open": Skill(25.04, 2.5, 3),
    }
    assert await league.skills_of(GUILD, -2) == {"bluff": Skill(25.0 - 0.02, 2.5, 40)}
    assert await league.skills_of(OTHER_GUILD, 4) == {}


async def test_rating_means_the_family_more_people_here_are_rated_in(storage: Storage) -> None:
    """`/leaderboard stat:Rating` (README, Ratings): people count, computers and other
    servers do not, and a tie (nobody rated at all, too) is bluffing."""
    league = League(storage, clock=lambda: NOW)
    assert await league.main_family(GUILD) == "bluff"
    await rate(storage, "bluff", [(1, 1000, 1, NOW), (-2, 1100, 9, NOW), (-3, 1100, 9, NOW)])
    await rate(storage, "open", [(1, 1000, 1, NOW), (2, 1000, 1, NOW)])
    await rate(storage, "bluff", [(7, 1000, 1, NOW), (8, 1000, 1, NOW)], guild=OTHER_GUILD)
    assert await league.main_family(GUILD) == "open"
    await rate(storage, "bluff", [(3, 1000, 1, NOW)])
    assert await league.main_family(GUILD) == "bluff", "two each: bluffing"
    assert await league.main_family(OTHER_GUILD) == "bluff"


async def test_achievements_show_when_earned_and_how_many_people_hold_each(
    storage: Storage, keys: list[str]
) -> None:
    # Players: 1-4 rated on this server (4 in both families), not 9 (elsewhere) or -1.
    await rate(storage, "bluff", [(1, 1000, 1, NOW), (2, 1000, 1, NOW), (4, 1000, 1, NOW)])
    await rate(storage, "open", [(3, 1000, 1, NOW), (4, 1000, 1, NOW), (-1, 1000, 1, NOW)])
    await rate(storage, "open", [(9, 1000, 1, NOW)], guild=OTHER_GUILD)
    await hold(
        storage,
        [
            (1, "first_win"),
            (2, "first_win"),
            (3, "first_win"),
            (-1, "comeback"),
            (4, "retired_key"),
        ],
    )
    await hold(storage, [(2, "comeback")], at=NOW - 50)
    await hold(storage, [(9, "flawless"), (1, "comeback")], guild=OTHER_GUILD)
    views = [
        v
        for v in await League(storage, clock=lambda: NOW).achievements_of(GUILD, 2)
        if v.key in keys
    ]
    assert [(v.key, v.earned_at, v.holders, v.players) for v in views] == [
        ("first_win", NOW, 3, 4),
        ("flawless", None, 0, 4),
        ("comeback", NOW - 50, 1, 4),
        ("ada_slayer", None, 0, 4),
    ]
    fresh = [
        v
        for v in await League(storage, clock=lambda: NOW).achievements_of(OTHER_GUILD, 5)
        if v.key in keys
    ]
    assert [(v.earned_at, v.holders, v.players) for v in fresh] == [
        (None, 0, 1),
        (None, 1, 1),
        (None, 1, 1),
        (None, 0, 1),
    ]


async def test_the_card_names_the_rarest_held_first_and_equally_rare_by_key(
    storage: Storage, keys: list[str]
) -> None:
    await hold(
        storage,
        [
            (1, "first_win"),
            (1, "flawless"),
            (1, "comeback"),
            (1, "ada_slayer"),
            (1, "retired"),
            (2, "first_win"),
            (3, "first_win"),
            (2, "flawless"),
            (3, "flawless"),
            (2, "comeback"),
            (-4, "ada_slayer"),
            (-5, "ada_slayer"),
        ],
    )
    await hold(storage, [(7, "ada_slayer"), (8, "ada_slayer")], guild=OTHER_GUILD)
    league = League(storage, clock=lambda: NOW)
    # Holders: iron_liver 1 (computers and other servers aside), liar 2, the others 3.
    assert await league.card_achievements(GUILD, 1) == (4, ["ada_slayer", "comeback", "first_win"])
    assert await league.card_achievements(GUILD, 3) == (2, ["first_win", "flawless"])
    assert await league.card_achievements(GUILD, 6) == (0, [])


async def test_no_achievements_listed_means_none_to_show(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in list(achievements.ACHIEVEMENTS):
        monkeypatch.delitem(achievements.ACHIEVEMENTS, key)
    await hold(storage, [(1, "first_win")])
    league = League(storage, clock=lambda: NOW)
    assert await league.achievements_of(GUILD, 1) == []
    assert await league.card_achievements(GUILD, 1) == (0, [])
