"""How long a computer player takes to decide, per preset (README, Benchmarks).

``python -m benchmarks.ai_bench`` plays seeded games of every preset in which every seat
is a computer player (the expert), and times each decision: the seat's inputs
(``knowledge.inputs``: ``Game.view`` for the seat; no stored records here) and the brain's
choice, the work the bot does on the event loop before a computer moves.
The open-roll calculation's caches start empty, as after a restart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.ai import brain, knowledge, open_roll
from bot.ai.personas import computer_id
from bot.engine import PRESET_NAMES, Game


def run(preset: str, games: int, seed: int) -> list[float]:
    """Seconds per decision over ``games`` games of four expert seats."""
    rng = random.Random(seed)
    seats = [computer_id("expert", i) for i in range(1, 5)]
    spent: list[float] = []
    for _ in range(games):
        game = Game.create(preset, "host", {"lives": 3} if preset == "mexican" else {})
        for seat in seats:
            game.join(seat)
        game.leave("host")
        game.start(seats[0], rng)
        for _ in range(400):
            if game.phase != "playing" or game.to_move is None:
                break
            seat = game.to_move
            start = time.perf_counter()
            move = brain.decide(knowledge.inputs(game, seat), rng)
            spent.append(time.perf_counter() - start)
            if move is None:
                break
            game.apply(seat, move, rng)
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_bench", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per preset")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("preset      decisions   mean µs   p95 µs   max µs")
    for preset in PRESET_NAMES:
        for cache in (open_roll._tables, open_roll._later, open_roll._opponent):
            cache.cache_clear()
        spent = sorted(run(preset, args.games, args.seed))
        p95 = spent[int(0.95 * (len(spent) - 1))]
        print(f"{preset:10} {len(spent):10} {statistics.fmean(spent) * 1e6:9.0f} "
              f"{p95 * 1e6:8.0f} {spent[-1] * 1e6:8.0f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
