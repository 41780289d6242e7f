"""The exact best play against a table of threshold callers (README, Benchmarks: Computer
players): the values solve the problem they claim to, and the oracle that plays them
makes only legal moves in the real engine and gets what the values promise."""

from __future__ import annotations

import random

import pytest

from benchmarks import ai_arena
from benchmarks.ai_arena import EXPERT, PEOPLE, Statistics, play_game
from benchmarks.table_bound import TRUTHFUL, Bound, Oracle, bound, measured, their_claim
from bot.engine import ORDER, RANK, Act


@pytest.mark.parametrize(("seats", "calls"), [(2, 8), (3, 4), (3, 8), (4, 6)])
def test_the_values_are_a_fixed_point_of_one_more_round(seats: int, calls: int) -> None:
    """One more round from the solved values costs ``loss`` whoever opens it, and the
    values are relative to the player opening."""
    table = Bound(seats, calls)
    again = table._opening()
    assert table.value[0] == 0.0 and 0 < table.loss < 1 / seats
    for k in range(seats):
        assert again[k] - table.loss == pytest.approx(table.value[k], abs=1e-9)


def test_a_callers_claim_is_its_roll_or_the_smallest_raise() -> None:
    assert their_claim(5, None) == 5
    assert their_claim(9, 4) == 9
    assert their_claim(3, 4) == 5
    assert their_claim(7, 20) == 20  # after the top claim, only the top


def test_the_oracle_plays_legal_games_and_never_loses_a_round_it_opens_at_three() -> None:
    """Against callers from 4-3 at three seats a claim of 4-2 is never lifted, and the
    next caller must claim 4-3 or more to the third, who lifts it: the player who opens
    loses nothing while all three are in."""
    calls = RANK[(4, 3)]
    caller = ai_arena.BASELINES[f"threshold-{calls}"][0]
    assert caller is not None
    oracle = Oracle(calls)
    opened = lost = 0
    stats = Statistics()
    for seed in range(20):
        people = dict.fromkeys(PEOPLE[:2], caller)
        played = play_game(
            "dollar",
            people,
            stats,
            random.Random(seed),
            random.Random(seed),
            expert=oracle.play,
        )
        assert played.finished
        for (seats, loser), first in zip(played.rounds, _openers(played), strict=True):
            if len(seats) == 3 and first == EXPERT:
                opened += 1
                lost += loser == EXPERT
    assert opened > 20 and lost == 0


def _openers(played: ai_arena.Played) -> list[str]:
    """Who made the first claim of each round, replayed from the moves."""
    out: list[str] = []
    fresh = True
    for player, move in played.moves:
        if fresh and move.act is Act.CLAIM:
            out.append(player)
            fresh = False
        if move.act is Act.BULLSHIT:  # every round at a dollar table ends on a call
            fresh = True
    return out


def test_the_oracle_loses_no_more_than_a_truthful_player_in_the_same_seat() -> None:
    """The best play is at least as good as a plain one, measured the arena's way."""
    calls = RANK[(5, 4)]
    best, _ = measured(3, calls, 60, 5, Oracle(calls).play)
    plain = ai_arena.BASELINES["truthful"][0]
    assert plain is not None
    tally, _ = measured(3, calls, 60, 5, plain)
    ours = sum(best.lost) / sum(best.even)
    theirs = sum(tally.lost) / sum(tally.even)
    assert ours < theirs, (ours, theirs)
    assert bound(3, calls).loss * 3 < 1.0


@pytest.mark.parametrize("three_one", ["low", "reroll"])
def test_the_truthful_player_is_the_threshold_caller_from_6_2(three_one: str) -> None:
    """So the bound against a table of truthful players is the row from 6-2."""
    view = {"options": {"three_one": three_one}}
    calls = [c for c in range(len(ORDER)) if ai_arena.truthful_call(view, c, None)]
    assert calls == list(range(TRUTHFUL, len(ORDER))) and ORDER[TRUTHFUL] == (6, 2)
