"""The least share of lost rounds any player can get at a `dollar` table against threshold
callers, worked out exactly and then played in the engine (README, Benchmarks: Computer
players).

The arena's threshold callers (``threshold-R``) claim their roll when it beats the
standing claim, else the smallest claim that does, and call every claim of rank R or
more. Knowing that, the best play against a table of them is a small decision problem:
within a round everything the caller does is fixed by the dice, and a round decides only
who loses it and who opens the next one (the caller). :class:`Bound` solves it by relative
value iteration over who opens a round (seat 0 is the player, 1..n-1 the callers in the
order the cup goes), and :class:`Oracle` plays the resulting policy from a seat's view, so
the arena can measure what the best possible player gets where the expert gets her
figures. Passing a cup on unseen and rolling blind are left out: against these callers
neither ever beats rolling and claiming (a pass over a true claim is a lie the next
caller lifts; a blind roll only hides dice from oneself).

``python -m benchmarks.table_bound`` prints, for tables of 3 and 4 and callers from 4-3,
5-2, 5-4, 6-2 (the arena's truthful player calls exactly so) and 6-4, the exact least
share while everyone is in, the oracle's share in the arena's measure (the whole game,
the rounds after someone is out included) and the expert's, from the same games' seeds.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from benchmarks.ai_arena import (
    BASELINES,
    EXPERT,
    PEOPLE,
    Statistics,
    Strategy,
    Tally,
    _rank,
    measure,
    play_game,
)
from benchmarks.ai_exploiters import rules_of
from bot.engine import ORDER, RANK, Act, Move

View = Mapping[str, Any]
N = len(ORDER)
TOP = N - 1


def their_claim(dice: int, standing: int | None) -> int:
    """A threshold caller's claim: the roll if it beats ``standing``, else the smallest
    claim that does (after the top claim, only the top)."""
    if standing is None:
        return dice
    if standing == TOP:
        return TOP
    return dice if dice > standing else standing + 1


@dataclass
class Bound:
    """The best play at a `dollar` table of ``seats`` against callers from rank ``calls``:
    ``loss`` lost rounds per round, and ``value[k]``, what it costs the player that seat
    ``k`` opens the next round (relative to the player opening it)."""

    seats: int
    calls: int
    fresh: tuple[float, ...] = field(default_factory=lambda: rules_of("dollar").fresh())
    value: list[float] = field(default_factory=list)
    loss: float = 0.0

    def __post_init__(self) -> None:
        self.value = [0.0] * self.seats
        for _ in range(500):
            new = self._opening()
            loss, moved = new[0] - self.value[0], [x - new[0] for x in new]
            done = max(abs(a - b) for a, b in zip(moved, self.value, strict=True)) < 1e-12
            self.value, self.loss = moved, loss
            if done:
                break
        self._forget()  # what was worked out with the values before the last ones

    def _forget(self) -> None:
        self._travel: dict[tuple[int, int | None], float] = {}
        self._face: dict[tuple[int, int | None], tuple[float, float]] = {}

    def _opening(self) -> list[float]:
        self._forget()
        first = sum(p * self.best_claim(d, None)[1] for d, p in enumerate(self.fresh) if p)
        return [first, *(self.travel(k, None) for k in range(1, self.seats))]

    def travel(self, seat: int, standing: int | None) -> float:
        """Caller ``seat`` holds the cup against ``standing`` (None: it opens): what the
        rest of the round and the next opener cost the player."""
        key = (seat, standing)
        if key not in self._travel:
            nxt = (seat + 1) % self.seats
            total = 0.0
            for d, p in enumerate(self.fresh):
                if not p:
                    continue
                claim = their_claim(d, standing)
                if nxt == 0:
                    total += p * min(self.face(claim, standing))
                elif claim >= self.calls:
                    total += p * self.value[nxt]  # lifted: the caller opens the next round
                else:
                    total += p * self.travel(nxt, claim)
            self._travel[key] = total
        return self._travel[key]

    def face(self, claim: int, over: int | None) -> tuple[float, float]:
        """The player answers the previous caller's ``claim`` over ``over``: the cost of
        calling it and of accepting it (and rolling)."""
        key = (claim, over)
        if key not in self._face:
            if over is None or (over != TOP and claim > over + 1):
                true = 1.0  # above the smallest claim: the caller's roll
            elif over == TOP:
                true = self.fresh[TOP]
            else:
                lie, truth = sum(self.fresh[: over + 1]), self.fresh[over + 1]
                true = truth / (lie + truth)
            call = true + self.value[0]
            accept = sum(p * self.best_claim(d, claim)[1] for d, p in enumerate(self.fresh) if p)
            self._face[key] = (call, accept)
        return self._face[key]

    def best_claim(self, dice: int, standing: int | None) -> tuple[int, float]:
        """The player has rolled ``dice`` against ``standing``: the best claim and its cost."""
        if standing is None:
            valid = range(N)
        elif standing == TOP:
            valid = range(TOP, N)
        else:
            valid = range(standing + 1, N)
        costs = {
            c: (
                (0.0 if dice >= c else 1.0) + self.value[1]
                if c >= self.calls
                else self.travel(1, c)
            )
            for c in valid
        }
        best = min(costs, key=lambda c: (costs[c], c))
        return best, costs[best]


@cache
def bound(seats: int, calls: int) -> Bound:
    return Bound(seats, calls)


@dataclass
class Oracle:
    """Plays :class:`Bound`'s policy from a seat's view, for the table as it is now."""

    calls: int

    def play(self, view: View, rng: random.Random) -> Move | None:
        moves = [Move.decode(m) for m in view.get("legal_moves") or []]
        if not moves:
            return None
        stage = view["stage"]
        table = bound(len(view["seats"]), self.calls)
        if stage == "rolled":
            cup, standing = view["cup"], _rank(view.get("standing"))
            claim, _ = table.best_claim(RANK[(cup[0], cup[1])], standing)
            return Move(Act.CLAIM, roll=ORDER[claim])
        if stage == "answer":
            claim, over = _rank(view["standing"]), _rank(view.get("claim_over"))
            assert claim is not None  # a claim waits for an answer
            call, accept = table.face(claim, over)
            return Move(Act.BULLSHIT) if call < accept else Move(Act.ROLL)
        return Move(Act.ROLL)


def measured(
    seats: int, calls: int, games: int, seed: int, player: Strategy | None
) -> tuple[Tally, float]:
    """``games`` arena games at a `dollar` table of ``seats``, the expert's seat played by
    ``player`` (None: her, as the bot runs her): the arena's tally, and the share of lost
    rounds against the even share over the rounds everyone was in."""
    caller = BASELINES[f"threshold-{calls}"][0]
    assert caller is not None
    people = dict.fromkeys(PEOPLE[: seats - 1], caller)
    stats, dice, minds = Statistics(), random.Random(seed), random.Random(seed ^ 0x5EED)
    tally = Tally("dollar", f"threshold-{calls}", seats)
    lost = rounds = 0
    for _ in range(games):
        played = play_game("dollar", people, stats, dice, minds, expert=player)
        measure(tally, played)
        for at, loser in played.rounds:
            if len(at) == seats:
                rounds += 1
                lost += loser == EXPERT
    return tally, lost * seats / max(1, rounds)


#: The callers' ranks played by default: from 4-3, 5-2, 5-4, 6-2 and 6-4.
CALLS = (4, 6, 8, 10, 12)
#: The rank the arena's truthful player calls from: every claim a fresh roll makes less
#: than half the time, in `dollar` 6-2 and up, so it is the threshold caller from 6-2.
TRUTHFUL = 10


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.table_bound", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="arena games per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--calls",
        type=int,
        nargs="*",
        default=list(CALLS),
        help="the callers' ranks (10, from 6-2, is how the arena's truthful player calls)",
    )
    args = parser.parse_args(argv)
    print(
        "| seats | callers from | least share while all are in "
        "| oracle: all in, game | expert: all in, game |"
    )
    print("| --- | --- | --- | --- | --- |")
    for seats in (3, 4):
        for calls in args.calls:
            best = bound(seats, calls).loss * seats
            cells = []
            for player in (Oracle(calls).play, None):
                tally, all_in = measured(seats, calls, args.games, args.seed, player)
                game = sum(tally.lost) / sum(tally.even)
                cells.append(f"{all_in:.3f}, {game:.3f}")
            name = "-".join(map(str, ORDER[calls])) + (" (truthful)" if calls == TRUTHFUL else "")
            print(f"| {seats} | {name} | {best:.3f} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
