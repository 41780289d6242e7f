"""How long a computer player takes to decide, per preset (README, Benchmarks).

``python -m benchmarks.ai_bench`` plays seeded arena games of every preset (the expert
against the truthful baseline, heads-up and at a table of four: ``benchmarks.ai_arena``)
and times each of the expert's decisions as the bot makes it on the event loop: her
inputs (``knowledge.inputs``: ``Game.view`` for the seat and the records of the others,
read from the arena's statistics, which grow over the games as a server's would) and the
brain's choice, the reading of each opponent included. The bot also reads those records
from its database first; that query is timed by ``stats_bench``, not here. The caches
(open-roll tables, readings of opponents) start empty, as after a restart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks import ai_arena
from bot.ai import brain, open_roll, opponents
from bot.engine import PRESET_NAMES


def run(preset: str, games: int, seed: int) -> list[float]:
    """Seconds per expert decision over ``games`` heads-up games and as many of four."""
    spent: list[float] = []
    began: list[float] = []
    inputs, decide = ai_arena.expert_inputs, brain.decide

    def timed_inputs(*args: Any) -> Any:
        began.append(time.perf_counter())
        return inputs(*args)

    def timed_decide(*args: Any) -> Any:
        move = decide(*args)
        spent.append(time.perf_counter() - began.pop())
        return move

    ai_arena.expert_inputs = timed_inputs
    brain.decide = timed_decide  # type: ignore[assignment]
    try:
        truthful = ai_arena.BASELINES["truthful"][0 if preset in ai_arena.BLUFFING else 1]
        assert truthful is not None
        for people in (1, 3):
            stats = ai_arena.Statistics()
            dice, minds = random.Random(seed), random.Random(seed + 1)
            for _ in range(games):
                seats: dict[str, Callable[..., Any]] = dict.fromkeys(
                    ai_arena.PEOPLE[:people], truthful
                )
                ai_arena.play_game(preset, seats, stats, dice, minds)
    finally:
        ai_arena.expert_inputs = inputs
        brain.decide = decide  # type: ignore[assignment]
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per preset and size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("preset      decisions   mean µs   p95 µs   p99 µs   max µs")
    for preset in PRESET_NAMES:
        for cache in (open_roll._tables, open_roll._later, open_roll._opponent):
            cache.cache_clear()
        opponents._READINGS.clear()
        spent = sorted(run(preset, args.games, args.seed))
        p95 = spent[int(0.95 * (len(spent) - 1))]
        p99 = spent[int(0.99 * (len(spent) - 1))]
        print(
            f"{preset:10} {len(spent):10} {statistics.fmean(spent) * 1e6:9.0f} "
            f"{p95 * 1e6:8.0f} {p99 * 1e6:8.0f} {spent[-1] * 1e6:8.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
