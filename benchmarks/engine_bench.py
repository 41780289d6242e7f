"""Engine throughput: random complete games per preset on one core.

Usage::

    python -m benchmarks.engine_bench [--seconds N] [--preset NAME ...] [--players N]
                                      [--seed N] [--profile]

For each preset it plays random games (a random legal move of the player to move, a TAP
by another player now and then when a 3-2 is lockable; a seeded ``random.Random`` throws
the dice) until ``--seconds`` have passed, and prints a table:

- ``actions/s``: accepted actions per second of the whole loop (engine, ``legal_actions``
  and the move chooser together);
- ``engine actions/s``: actions per second of the time spent inside ``Game.apply`` alone;
- ``legal_actions %``: the share of the loop spent asking ``legal_actions`` (what the bot does
  to draw its buttons);
- ``games/s``: complete games per second. Presets that never end by themselves (``mexican``,
  ``mexen``, ``mexico``) are ended by the host after ``--rounds`` rounds (30).

The target is 50,000 actions/s per preset. ``--profile`` runs each preset once more under
cProfile and prints the engine functions that take the most time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from dataclasses import dataclass

from bot.engine import PRESET_NAMES, Act, Game, Move

TAP = Move(Act.TAP)

TARGET = 50_000


@dataclass
class Result:
    preset: str
    games: int = 0
    actions: int = 0
    wall: float = 0.0
    engine: float = 0.0
    legal: float = 0.0
    save: float = 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.wall if self.wall else 0.0

    @property
    def engine_actions_per_s(self) -> float:
        return self.actions / self.engine if self.engine else 0.0

    @property
    def engine_legal_actions_per_s(self) -> float:
        spent = self.engine + self.legal
        return self.actions / spent if spent else 0.0

    @property
    def chooser_share(self) -> float:
        return (self.wall - self.engine - self.legal - self.save) / self.wall if self.wall else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.wall if self.wall else 0.0


def play_game(
    preset: str,
    players: int,
    rounds: int,
    dice: random.Random,
    chooser: random.Random,
    result: Result,
    save: bool = False,
) -> None:
    """One random game from lobby to game over, adding its counts and times to ``result``."""
    clock = time.perf_counter
    game = Game.create(preset, "p0")
    for i in range(1, players):
        game.join(f"p{i}")
    game.start("p0", dice)
    endless = game.options.lives is None
    engine = legal = saving = 0.0
    actions = 0
    pick = chooser.choice
    while game.phase == "playing":
        if endless and game.round_no > rounds:
            game.end("p0")
            break
        mover = game.to_move
        assert mover is not None
        if game.stuck and chooser.random() < 0.3:
            player = pick([p for p in game.seats if p != mover])
            move = TAP
        else:
            player = mover
            t0 = clock()
            moves = game.legal_actions(mover)
            legal += clock() - t0
            if len(moves) < 8:  # no claims among them: every move alike
                move = pick(moves)
            else:  # a kind of move first, then mostly modest claims, as players make
                act = pick(list(dict.fromkeys(m.act for m in moves)))
                same = [m for m in moves if m.act is act]
                if act is Act.CLAIM or act is Act.PASS:
                    move = same[min(int(chooser.expovariate(0.7)), len(same) - 1)]
                else:
                    move = pick(same)
        t0 = clock()
        game.apply(player, move, dice)
        t1 = clock()
        engine += t1 - t0
        actions += 1
        if save:
            game.to_json()
            saving += clock() - t1
    result.games += 1
    result.actions += actions
    result.engine += engine
    result.legal += legal
    result.save += saving


def bench(
    preset: str, seconds: float, players: int, rounds: int, seed: int, save: bool = False
) -> Result:
    dice = random.Random(seed)
    chooser = random.Random(seed + 1)
    result = Result(preset)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        play_game(preset, players, rounds, dice, chooser, result, save)
    result.wall = time.perf_counter() - start
    return result


def profile(preset: str, seconds: float, players: int, rounds: int, seed: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    bench(preset, seconds, players, rounds, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.engine_bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per preset (2)")
    parser.add_argument(
        "--preset",
        action="append",
        choices=PRESET_NAMES,
        help="preset to run (repeatable; default: all five)",
    )
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--rounds", type=int, default=30, help="rounds before ending (30)")
    parser.add_argument("--seed", type=int, default=1, help="seed of dice and choices (1)")
    parser.add_argument(
        "--save", action="store_true", help="also time game.to_json() after every action"
    )
    parser.add_argument("--profile", action="store_true", help="print a cProfile per preset")
    parser.add_argument("--top", type=int, default=25, help="profile lines to print (25)")
    args = parser.parse_args(argv)
    presets = args.preset or list(PRESET_NAMES)

    columns = (
        ("preset", 10),
        ("games", 7),
        ("actions", 9),
        ("actions/s", 11),
        ("apply only/s", 13),
        ("apply+legal/s", 14),
        ("legal_actions", 14),
        ("chooser", 8),
        ("save", 6),
        ("games/s", 9),
        ("target", 7),
    )
    header = " ".join(f"{name:>{width}}" for name, width in columns)
    print(
        f"{args.players} players, {args.seconds:g} s per preset, endless presets ended after "
        f"{args.rounds} rounds, {'saving to_json() after every action, ' if args.save else ''}"
        f"python {sys.version.split()[0]}"
    )
    print(header)
    print("-" * len(header))
    slow = []
    for preset in presets:
        r = bench(preset, args.seconds, args.players, args.rounds, args.seed, args.save)
        ok = r.actions_per_s >= TARGET
        if not ok:
            slow.append(preset)
        cells = (
            preset,
            r.games,
            r.actions,
            f"{r.actions_per_s:,.0f}",
            f"{r.engine_actions_per_s:,.0f}",
            f"{r.engine_legal_actions_per_s:,.0f}",
            f"{100 * r.legal / r.wall:.0f}%",
            f"{100 * r.chooser_share:.0f}%",
            f"{100 * r.save / r.wall:.0f}%",
            f"{r.games_per_s:,.1f}",
            "ok" if ok else "BELOW",
        )
        print(" ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, columns, strict=True)))
    if slow:
        print(f"below {TARGET:,} actions/s (whole loop): {', '.join(slow)}")
    if args.profile:
        for preset in presets:
            print(f"\n=== cProfile: {preset} (sorted by own time) ===")
            print(profile(preset, args.seconds, args.players, args.rounds, args.seed, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
