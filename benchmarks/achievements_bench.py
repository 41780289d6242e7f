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

from bot.achievements import award
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
        per_call: list[float] = []
        sizes: list[int] = []
        for seed in range(args.games):
            finished = game_of(preset, seed).finished()
            sizes.append(len(finished.log))
            start = time.perf_counter()
            for _ in range(args.repeat):
                award(finished, progress, held)
            per_call.append((time.perf_counter() - start) / args.repeat * 1e6)
        print(
            f"{preset:10} log {min(sizes)}-{max(sizes)} entries: award median "
            f"{statistics.median(per_call):6.1f} µs, worst {max(per_call):6.1f} µs"
        )


if __name__ == "__main__":
    main()
