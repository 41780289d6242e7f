"""The farming simulation at a tiny size (benchmarks/farm_bench.py; docs/league.md,
Farming): ending or leaving while behind, banking a lead without lives and throwing
games with a fresh account each gain nothing over honest play, and a game its ender
ended in the lead is won by nobody."""

from __future__ import annotations

import pytest

from benchmarks.farm_bench import ATTEMPTS, Effort, run

pytestmark = pytest.mark.slow

CHEATS = ("dodge", "leave", "bank", "fresh")
#: A fifth of an hour of play: about 20 games of each attempt.
HOURS = 0.2


async def test_no_attempt_gains_over_honest_play() -> None:
    honest = await run(ATTEMPTS["honest"], 0, HOURS, Effort())
    assert honest.wins_per_hour > 10, "the honest baseline wins games"
    got = {name: await run(ATTEMPTS[name], 0, HOURS, Effort()) for name in CHEATS}
    for name, outcome in got.items():
        assert outcome.rating_end <= honest.rating_end + 50, (name, outcome, honest)
    assert got["bank"].wins_per_hour == 0 and got["bank"].first_win_h is None, got["bank"]
