"""The pure parts of the league: ratings against openskill's own, and season arithmetic."""

from __future__ import annotations

import calendar
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.engine import Act, Game, Move
from bot.league.ratings import (
    FAMILY,
    NEW,
    PROVISIONAL_GAMES,
    Skill,
    plackett_luce,
    rate,
    shown,
    widened,
)
from bot.league.seasons import bounds, champions, days_left, length_of, season_key


def stamp(*when: int) -> float:
    return float(calendar.timegm((*when, 0, 0, 0)[:6]))


def library(places: list[tuple[int, int]], prior: dict[int, Skill]) -> list[tuple[float, float]]:
    """What openskill itself makes of one table, from a fresh model with its defaults."""
    model = PlackettLuce()
    teams = [
        [model.rating(mu=prior.get(i, NEW).mu, sigma=prior.get(i, NEW).sigma)] for i, _ in places
    ]
    out = model.rate(teams, ranks=[p for _, p in places])
    return [(t[0].mu, t[0].sigma) for t in out]


@pytest.mark.parametrize(
    "places",
    [
        [(1, 1), (2, 2)],  # heads-up
        [(1, 1), (2, 2), (3, 2), (4, 4)],  # a shared second place
        [(i, i) for i in range(1, 21)],  # a table of 20
        [(1, 1), (2, 1)],  # a tie for everything
    ],
)
def test_ratings_equal_the_librarys_own(places: list[tuple[int, int]]) -> None:
    prior = {1: Skill(30.0, 5.0, 12), 3: Skill(21.0, 7.0, 3)}
    got = rate(places, prior)
    for (rid, _), (mu, sigma) in zip(places, library(places, prior), strict=True):
        assert got[rid].mu == pytest.approx(mu, abs=1e-12)
        assert got[rid].sigma == pytest.approx(sigma, abs=1e-12)
        assert got[rid].games == prior.get(rid, NEW).games + 1


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[tuple[float, float]], list[int]]:
    """A table of 2 to 20 seats: any skills a rating can reach, places with ties, in any
    seating order."""
    n = draw(st.integers(2, 20))
    skills = draw(
        st.lists(st.tuples(st.floats(-40, 90), st.floats(0.05, 25 / 3)), min_size=n, max_size=n)
    )
    places = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    return skills, places


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(tables())
def test_the_update_is_the_librarys_to_the_last_bit(table: tuple[list, list[int]]) -> None:
    """Our copy of the update is the library's arithmetic, not an approximation of it:
    every float equal, ties and seat order included (README, Ratings)."""
    skills, places = table
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    expected = [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[float(p) for p in places])]
    assert plackett_luce(skills, places) == expected


def test_one_player_is_no_table() -> None:
    assert rate([(1, 1)], {}) == {}
    assert rate([], {}) == {}


def test_two_seats_of_one_computer_share_its_rating() -> None:
    places = [(5, 1), (-1, 2), (-1, 3)]
    got = rate(places, {})
    lib = library(places, {})
    assert got[-1].mu == pytest.approx((lib[1][0] + lib[2][0]) / 2)
    assert got[-1].sigma == pytest.approx((lib[1][1] + lib[2][1]) / 2)
    assert got[-1].games == 1


def test_a_newcomer_shows_1000_and_is_provisional_for_ten_games() -> None:
    assert NEW.shown == 1000
    assert Skill(25.0, 25 / 3, PROVISIONAL_GAMES - 1).provisional
    assert not Skill(25.0, 25 / 3, PROVISIONAL_GAMES).provisional
    assert shown(30.0, 2.0) == round(1000 + 20 * 24.0)


@given(st.floats(0.5, 25 / 3), st.floats(-10, 60))
def test_a_new_season_widens_sigma_halfway_back(sigma: float, mu: float) -> None:
    after = widened(Skill(mu, sigma, 40))
    assert after.mu == mu and after.games == 40
    assert sigma <= after.sigma <= 25 / 3
    assert after.sigma == pytest.approx((sigma + 25 / 3) / 2)
    assert after.shown <= Skill(mu, sigma).shown


def test_every_rule_set_has_a_family() -> None:
    from bot.engine import PRESETS

    assert set(FAMILY) == set(PRESETS)
    assert set(FAMILY.values()) == {"bluff", "open"}


def test_seasons_by_month_and_quarter() -> None:
    last = stamp(2026, 11, 30, 23, 59, 59)
    first = stamp(2026, 12, 1)
    assert season_key(last) == "2026-11" and season_key(first) == "2026-12"
    assert season_key(last, "quarter") == "2026-Q4" == season_key(first, "quarter")
    assert season_key(stamp(2027, 1, 1), "quarter") == "2027-Q1"
    assert bounds("2026-12") == (first, stamp(2027, 1, 1))
    assert bounds("2026-Q4") == (stamp(2026, 10, 1), stamp(2027, 1, 1))
    assert bounds("2027-02")[1] == stamp(2027, 3, 1)
    assert length_of("2026-Q4") == "quarter" and length_of("2026-12") == "month"
    assert days_left(stamp(2026, 12, 31, 12), "2026-12") == 1
    assert days_left(first, "2026-12") == 31
    with pytest.raises(ValueError):
        season_key(first, "week")


@given(st.floats(0, 4_102_444_800))  # 1970 to 2100
def test_a_moment_lies_inside_its_season(moment: float) -> None:
    for length in ("month", "quarter"):
        start, end = bounds(season_key(moment, length))
        assert start <= moment < end


def test_champions_are_people_who_played_this_season_best_first() -> None:
    pool = {
        1: Skill(30, 2, 20),
        2: Skill(28, 2, 20),
        3: Skill(28, 2, 25),  # same rating as 2, more games: placed above
        4: Skill(40, 1, 50),  # the best, but did not play this season
        -7: Skill(45, 1, 99),  # a computer: never a champion
        5: Skill(20, 3, 11),
    }
    crowned = champions({"bluff": pool}, {"bluff": [1, 2, 3, 5, -7]})
    assert [(c.place, c.user_id) for c in crowned] == [(1, 1), (2, 3), (3, 2)]
    assert crowned[0].rating == pool[1].shown
    assert champions({"open": pool}, {"open": []}) == []


def test_final_places_rank_a_leaver_last_and_share_ties() -> None:
    """The order ratings read: a player who walks out ranks below everyone who stayed."""
    game = Game.create("mexican", "1", {"lives": 1})
    for p in ("2", "3"):
        game.apply(p, Move(Act.JOIN), random.Random(1))
    game.apply("1", Move(Act.START), random.Random(1))
    game.apply("3", Move(Act.LEAVE), random.Random(1))
    places = dict(game.final_places())
    assert places["3"] == 3
    assert game.left_early("3") and not game.left_early("1")
    assert places["1"] == places["2"] == 1  # nobody has lost anything yet: a shared first
