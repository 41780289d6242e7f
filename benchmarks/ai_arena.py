"""The computer players against known strategies, through the engine alone (README,
Playing against the computer and Benchmarks).

``python -m benchmarks.ai_arena`` plays every persona against every baseline, heads-up
(``--games`` per pairing and preset, starting seats alternating) and at 4-player tables
(one persona, three copies of a baseline), and prints win rates with 95% intervals for
the bluffing presets and penalties per round for the open-roll ones.

Baselines:
- ``random``: a uniformly random legal move (a kind of move, then its value).
- ``truthful``: claims its roll when it can, else the lowest legal claim; calls when a
  fresh roll makes the claim less than half the time. Open rolls: rolls again while it is
  the lowest so far, else stands.
- ``aggressive`` and ``conservative``: the two sample strategies of the public Mia
  bot-programming contests (the Mia/Maexchen game servers used at team events, e.g.
  github.com/inputoutputcode/mia-server), re-implemented from their description:
  aggressive always raises (its roll if higher, else two ranks above the claim) and calls
  only a claim of the top roll; conservative claims the truth when it beats the claim,
  else the smallest raise, and calls any double or better. Open rolls: aggressive rolls
  to the limit, conservative stands on its first roll unless it is the lowest so far.

``--baselines`` also takes persona names, to play the personas against each other.

Every computer seat is told what the bot would have recorded of the others, as the bot
does from its statistics: the counters of :class:`bot.ai.opponents.Profile`, kept from the
engine's truth move by move, per opponent, from nothing at the start of a pairing and
across its games (never the dice of a round still being played).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.ai import brain
from bot.ai.opponents import Counters
from bot.ai.personas import PERSONA_NAMES, computer_id
from bot.engine import ORDER, PRESET_NAMES, RANK, Act, Game, Move
from bot.engine.rolls import chance_to_beat

View = Mapping[str, Any]
Strategy = Callable[[View, random.Random], Move | None]
BLUFFING = ("mexican", "dollar")
#: Options that make every preset end by itself or play a fixed number of rounds.
TABLE_OPTIONS: dict[str, dict[str, Any]] = {
    "mexican": {"lives": 4, "turn_timer": 0},
    "dollar": {"turn_timer": 0},
    "mexen": {"turn_timer": 0},
    "mexicanen": {"turn_timer": 0},
    "mexico": {"turn_timer": 0},
}
#: Rounds played in a game that has no end of its own (drinks only).
ROUNDS = 20


# --- baselines -------------------------------------------------------------------------------


def _legal(view: View) -> list[Move]:
    return [Move.decode(m) for m in view.get("legal_moves") or []]


def random_play(view: View, rng: random.Random) -> Move | None:
    moves = _legal(view)
    if not moves:
        return None
    act = rng.choice(sorted({m.act for m in moves}, key=lambda a: a.value))
    return rng.choice([m for m in moves if m.act is act])


def _claims(moves: list[Move]) -> list[Move]:
    return sorted((m for m in moves if m.act in (Act.CLAIM, Act.PASS)), key=lambda m: RANK[m.roll])


def _standing(view: View) -> int | None:
    standing = view.get("standing")
    return None if standing is None else RANK[(standing[0], standing[1])]


def _bluff_baseline(raise_by: int, call: Callable[[View, int], bool]) -> Strategy:
    """A bluffing strategy: claim the roll if it beats the claim, else ``raise_by`` ranks
    above it (1: the smallest raise); call when ``call(view, claim)``; always roll."""

    def play(view: View, rng: random.Random) -> Move | None:
        moves = _legal(view)
        if not moves:
            return None
        stage = view["stage"]
        if stage == "answer":
            claim = _standing(view)
            if claim is not None and call(view, claim) and Move(Act.BULLSHIT) in moves:
                return Move(Act.BULLSHIT)
            return Move(Act.ROLL) if Move(Act.ROLL) in moves else moves[0]
        claims = [m for m in _claims(moves) if m.act is Act.CLAIM]
        if stage == "rolled" and claims:
            cup = view.get("cup")
            truth = RANK[(cup[0], cup[1])] if cup is not None else -1
            offered = {RANK[m.roll]: m for m in claims}
            if truth in offered and (raise_by == 1 or truth > min(offered)):
                return offered[truth]
            ranks = sorted(offered)
            return offered[ranks[min(raise_by - 1, len(ranks) - 1)]]
        return Move(Act.ROLL) if Move(Act.ROLL) in moves else moves[0]

    return play


def _fresh_roll_odds(view: View, claim: int) -> float:
    reroll = view["options"]["three_one"] != "low"
    return float(chance_to_beat(ORDER[claim], reroll))


def _open_baseline(rule: Callable[[View], bool]) -> Strategy:
    """An open-roll strategy: roll again while ``rule(view)`` says so, else stand; hand
    a sip or the Knight to the next player."""

    def play(view: View, rng: random.Random) -> Move | None:
        moves = _legal(view)
        if not moves:
            return None
        acts = {m.act for m in moves}
        if acts & {Act.HANDOUT, Act.KNIGHT}:
            return moves[0]
        if Act.TAP in acts:
            return Move(Act.TAP)
        if Act.ROLL in acts and (view.get("last") is None or rule(view)):
            return Move(Act.ROLL)
        if Act.STAND in acts:
            return Move(Act.STAND)
        return moves[0]

    return play


def _lowest_so_far(view: View) -> bool:
    last = view.get("last")
    if last is None:
        return True
    mine = RANK[(last[0], last[1])]
    others = [RANK[(r[0], r[1])] for r in (view.get("results") or {}).values()]
    return bool(others) and mine <= min(others)


BASELINES: dict[str, tuple[Strategy, Strategy]] = {
    # (bluffing, open rolls)
    "random": (random_play, random_play),
    "truthful": (
        _bluff_baseline(1, lambda v, c: _fresh_roll_odds(v, c) < 0.5),
        _open_baseline(_lowest_so_far),
    ),
    "aggressive": (
        _bluff_baseline(2, lambda v, c: c == len(ORDER) - 1),
        _open_baseline(lambda v: True),
    ),
    "conservative": (
        _bluff_baseline(1, lambda v, c: c >= RANK[(1, 1)]),
        _open_baseline(lambda v: _lowest_so_far(v) and v["rolls"] < 2),
    ),
}


def persona_strategy(counters: Mapping[str, Counters] | None = None) -> Strategy:
    """A computer seat, told what the bot would have recorded of everyone else at the
    table (README, Playing against the computer): the counters of each other seat, kept
    from the engine's truth as the games are played, as the bot's statistics keep them."""

    def play(view: View, rng: random.Random) -> Move | None:
        me = view.get("viewer")
        known = {p: t.profile() for p, t in (counters or {}).items() if p != me}
        return brain.decide(view, rng, known)  # type: ignore[arg-type]

    return play


def opponent_strategy(name: str, counters: Mapping[str, Counters], preset: str) -> Strategy:
    """A baseline's strategy, or a persona's (reading the table like any computer)."""
    if name in BASELINES:
        return BASELINES[name][0 if preset in BLUFFING else 1]
    return persona_strategy(counters)


# --- playing ---------------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    wins: int = 0  # the persona won (or, in a drinks game, took the least)
    escape: bool = False  # a loser-only game: "wins" counts games the persona did not lose
    rounds: int = 0
    #: Penalty points per round: the persona's, and the baselines' average.
    mine: float = 0.0
    theirs: float = 0.0
    #: Per game (mine - theirs) / rounds, for the interval.
    diffs: list[float] | None = None


def penalty_points(game: Game, player: str) -> float:
    totals = game.players[player].totals
    return float(sum(n * {"shot": 2, "chug": 4}.get(u, 1) for u, n in totals.items()))


def play_game(
    preset: str, seats: list[tuple[str, Strategy]], rng: random.Random, max_moves: int = 4000,
    counters: Mapping[str, Counters] | None = None,
) -> Game:  # fmt: skip
    """One game among ``seats`` (player id, strategy); the first seat is host and starts.
    Every move is counted in its player's ``counters`` before it is made."""
    game = Game.create(preset, seats[0][0], TABLE_OPTIONS[preset])
    for player, _ in seats[1:]:
        game.join(player)
    game.start(game.host, rng)
    strategies = dict(seats)
    endless = game.options.lives is None
    for _ in range(max_moves):
        if game.phase != "playing" or (endless and game.round_no > ROUNDS):
            break
        mover = game.to_move
        assert mover is not None
        for bystander in game.seats:  # a TAP comes before the mover's next roll
            if bystander != mover and game.stuck:
                tap = strategies[bystander](game.view(bystander), rng)
                if tap is not None and tap.act is Act.TAP:
                    _apply(game, bystander, tap, rng, counters)
                    break
        mover = game.to_move
        if mover is None or game.phase != "playing":
            break
        move = strategies[mover](game.view(mover), rng)
        if move is None:
            move = _legal(game.view(mover))[0]
        _apply(game, mover, move, rng, counters)
    return game


def _apply(
    game: Game, player: str, move: Move, rng: random.Random, counters: Mapping[str, Counters] | None
) -> None:
    if counters is None:
        game.apply(player, move, rng)
        return
    if player in counters:
        counters[player].observe(game, player, move)
    round_no = game.round_no
    game.apply(player, move, rng)
    if game.round_no != round_no or game.phase != "playing":
        for kept in counters.values():  # the round is over: its moves may be counted
            kept.close_round()


def pairing(args: tuple[str, str, str, int, int, int]) -> tuple[str, str, str, int, Tally]:
    """Play ``games`` games of one persona against one baseline."""
    preset, persona, baseline, players, games, seed = args
    rng = random.Random(seed)
    me = computer_id(persona, 1)
    if baseline in BASELINES:
        others = [f"base{i}" for i in range(1, players)]
    else:  # another persona: computer ids, so that the brain knows which one it plays
        others = [computer_id(baseline, i + (baseline == persona)) for i in range(1, players)]
    # What each seat has recorded of the others, from nothing, across the pairing's games.
    counters = {p: Counters() for p in (me, *others)}
    base = opponent_strategy(baseline, counters, preset)
    tally = Tally(diffs=[])
    for n in range(games):
        seats: list[tuple[str, Strategy]] = [(me, persona_strategy(counters))]
        seats += [(o, base) for o in others]
        shift = n % players  # starting seats take turns
        seats = seats[shift:] + seats[:shift]
        game = play_game(preset, seats, rng, counters=counters)
        rounds = max(1, len([r for r in game.rounds if r[1] is not None]) or game.round_no)
        tally.games += 1
        tally.rounds += rounds
        mine = (
            penalty_points(game, me)
            if game.options.lives is None
            else float((game.options.lives or 0) - (game.players[me].lives or 0))
        )
        theirs_each = [
            penalty_points(game, o) if game.options.lives is None
            else float((game.options.lives or 0) - (game.players[o].lives or 0))
            for o in others
        ]  # fmt: skip
        theirs = sum(theirs_each) / len(theirs_each)
        tally.mine += mine
        tally.theirs += theirs
        tally.diffs.append((mine - theirs) / rounds)  # type: ignore[union-attr]
        if game.winner is not None:
            tally.wins += game.winner == me
        elif game.loser is not None:
            # A game that names only a loser (mexicanen): escaping is what counts; at a
            # table of four an equal player escapes 3 times in 4 (marked * in the table).
            tally.wins += game.loser != me
            tally.escape = True
        else:
            tally.wins += mine < min(theirs_each)
    return preset, persona, baseline, players, tally


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """The win rate and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_arena", description=__doc__)
    parser.add_argument("--games", type=int, default=10_000, help="games per pairing and preset")
    parser.add_argument("--table-games", type=int, default=2_000,
                        help="games per 4-player pairing and preset")  # fmt: skip
    parser.add_argument("--presets", nargs="*", default=list(PRESET_NAMES))
    parser.add_argument("--personas", nargs="*", default=list(PERSONA_NAMES))
    parser.add_argument("--baselines", nargs="*", default=list(BASELINES),
                        choices=[*BASELINES, *PERSONA_NAMES],
                        help="baselines, or personas to play against")  # fmt: skip
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    jobs = []
    for players, games in ((2, args.games), (4, args.table_games)):
        if games <= 0:
            continue
        for preset in args.presets:
            for persona in args.personas:
                for baseline in args.baselines:
                    key = f"{preset}/{persona}/{baseline}/{players}/{args.seed}"
                    seed = zlib.crc32(key.encode())
                    jobs.append((preset, persona, baseline, players, games, seed))
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(pairing, jobs)
    print(f"{len(jobs)} pairings in {time.perf_counter() - start:.0f} s")
    print("preset     players persona  baseline     games  win rate (95%)        "
          "penalty/round me vs them  diff (95%)")  # fmt: skip
    for preset, persona, baseline, players, t in results:
        rate, low, high = wilson(t.wins, t.games)
        diff, dlow, dhigh = mean_interval(t.diffs or [0.0])
        print(f"{preset:10} {players:7} {persona:8} {baseline:12} {t.games:6}  "
              f"{rate:6.1%} ({low:5.1%}-{high:5.1%}){'*' if t.escape else ' '}  "
              f"{t.mine / t.rounds:6.3f} vs {t.theirs / t.rounds:6.3f}   "
              f"{diff:+.3f} ({dlow:+.3f}..{dhigh:+.3f})")  # fmt: skip
    if any(t.escape for *_, t in results):
        print("* a game that names only a loser: the share of games the persona did not lose")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
