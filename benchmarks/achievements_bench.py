"""What awarding a finished game's achievements costs (README, Achievements).

Plays seeded random games of eight players (people and one computer) until each log has
about 500 entries, then times `award` on each: the whole game-end budget, rating and
storage included, is 5 ms, so this must stay well under 1 ms.

    .venv/bin/python -m benchmarks.achievements_bench [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.league.achievements import award
from tests.league_helpers import Recorder

PEOPLE = [str(1000 + n) for n in range(7)]


def game_of(preset: str, seed: int, entries: int = 500) -> Recorder:
    """A finished game whose log is about ``entries`` long."""
    rng = random.Random(seed)
    options = {"lives": 99} if preset in ("dollar", "mexicanen") else {}
    recorder = Recorder(preset, PEOPLE, options, computers=["cpu_expert_1"])
    game = recorder.game
    while len(recorder.log) < entries and game.phase != "over":
        mover = game.to_move
        assert mover is not None
        recorder.move(mover, rng.choice(game.legal_actions(mover)), rng)
    if game.phase != "over":
        recorder.end()
    return recorder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per rule set")
    parser.add_argument("--repeat", type=int, default=200, help="timed calls per game")
    args = parser.parse_args()
    progress = {int(p): {"games": 99, "wins": 9} for p in PEOPLE}
    held: dict[int, frozenset[str]] = {}
    for preset in ("mexican", "dollar", "mexen", "mexicanen", "mexico"):
        best: list[float] = []
        typical: list[float] = []
        sizes: list[int] = []
        for seed in range(args.games):
            finished = game_of(preset, seed).finished()
            sizes.append(len(finished.log))
            batches: list[float] = []
            for _ in range(20):  # the best batch is what the code costs, not the load
                start = time.perf_counter()
                for _ in range(args.repeat // 20):
                    award(finished, progress, held)
                batches.append((time.perf_counter() - start) / (args.repeat // 20) * 1e6)
            best.append(min(batches))
            typical.append(statistics.median(batches))
        print(
            f"{preset:10} log {min(sizes)}-{max(sizes)} entries: award best "
            f"{statistics.median(best):5.0f} µs (worst game {max(best):5.0f} µs), "
            f"median batch {statistics.median(typical):5.0f} µs"
        )


if __name__ == "__main__":
    main()
