"""The expert computer player against known strategies, built exactly as the bot runs it
(README, Playing against the computer and Benchmarks).

``python -m benchmarks.ai_arena`` plays the expert (``cpu_expert_1``) against every
opponent, heads-up (``--games`` per pairing and preset) and at tables of 3 and 4 (the
expert and 2 or 3 copies of one opponent, ``--table-games``), through the engine alone.

What the expert knows is what the bot's dealer gives it, and nothing else: every decision
is ``brain.decide(knowledge.inputs(game, seat, records), rng)``, with ``records`` read by
``knowledge.stored_records`` (``Record.from_totals`` of each person's stored row) from this
arena's own statistics, kept as the bot stores them: after each move, the counter changes
the bot's statistics make public (:func:`counter_changes`), the rest held back with the
game until the table may know it, and each player's claims (``bot.league.stats.move_records``).
The statistics start empty at the start of each pairing (a new player on a new server)
and add up across its games, as the bot's would.

The opponents stand in for people: they get ids like a Discord user's, the expert is
seated as a computer from the lobby by the host (an opponent), and the engine ends a game
when the last person is out, as at a real table. So at tables of 3 and 4 the expert cannot
"win"; what is measured is each seat's share of the rounds lost (against the even share)
and who is out first. The starter is drawn at random (``first: random``) every game.

Opponents (all decide from their own seat's ``Game.view``, what a person sees, except
``exploiter-cheat``):

- ``random``: a uniformly random legal move (a kind of move, then its value).
- ``truthful``: claims its roll when it can, else the lowest legal claim; calls a claim a
  fresh roll makes less than half the time. Open rolls: rolls again while it is the lowest
  so far, else stands.
- ``threshold-R`` (R = 0..20, the rank in ``bot.engine.ORDER``): truthful claiming; calls
  every claim of rank R or more, and no other (bluffing presets only).
- ``bold``: claims 2-3 ranks above the higher of its roll and the standing claim, always
  (a bluff even with a good roll); calls one claim in ten (bluffing presets only).
- ``aggressive`` and ``conservative``: the two sample strategies of the public Mia bot
  contests (e.g. github.com/inputoutputcode/mia-server), from their description:
  aggressive claims its roll if higher, else two ranks above the claim, and calls only a
  claim of the top roll; conservative claims the truth when it beats the claim, else the
  smallest raise, and calls any double or better. Open rolls: aggressive rolls to the
  limit, conservative stands on its first roll unless it is the lowest so far.
- ``exploiter``: learns the expert from what the table shows (bluffing presets only),
  from nothing at the start of a pairing: how often she calls a claim of each rank (and
  how it was made), how far above the standing claim she claims, and, from the cups lifted
  on her claims (the reveals), how often her claims of each rank were bluffs. It best
  responds: calls her claim when her recorded bluff rate beats what accepting is worth,
  and claims (truth or lie) where she calls least.
- ``exploiter-cheat``: the same, but it also learns from her true dice under every claim,
  lifted or not. **It knows more than a player can**: an upper bound on what learning her
  could win.
- ``responder``: knows her code and reads her records of it (public statistics): works
  out her whole mixed strategy against it and plays a best response to it, again every
  10 games (``benchmarks.ai_exploiters``).
- ``baiter``: 500 games truthful, so that she leans into the answer to it, then 500
  games of the responder's punishment of that lean, and again.
- ``creeper``: 300 games truthful (``BAIT``), then, each decision with a chance it
  raises by 0.02 a game while her test of its recent play stays under 0.7 of its level
  (and lowers over 0.9), the exact best response to her pure answer to its record;
  while her memory has the record in doubt, the best response to the solved strategy
  she then plays, and half its share again when her doubt ends.
- ``drifter``: the same bait, then that chance raised by 1/2,700 every game, whatever
  she thinks (a slow drift).
- ``solved``: the expert without records, the solved policy alone.

``--stranger`` plays her, in every pairing, as she plays someone she has no record of:
the solved policy alone (the adaptive adversaries then know that too). It is the
baseline for their blocks: what the equilibrium itself wins against them.

Bluffing presets: heads-up win rate (95% Wilson interval); at tables, shares of lost
rounds and out-first. Open-roll presets: penalties per round, the expert's minus the
baselines' mean (95% interval), heads-up and at tables.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, TypeVar

from benchmarks.ai_exploiters import Baiter, Creeper, Responder
from bot.ai import bank, bluff, brain, knowledge, recent
from bot.ai.knowledge import Inputs, Record
from bot.ai.opponents import Profile
from bot.ai.personas import DEFAULT, PERSONAS, computer_id
from bot.ai.recent import RecentPlay
from bot.engine import (
    ORDER,
    PRESET_NAMES,
    RANK,
    Accepted,
    Act,
    Claimed,
    Event,
    Game,
    Move,
    Out,
    Passed,
    Revealed,
    Roll,
    RoundOver,
    from_code,
)
from bot.engine.rolls import THREE_ONE, chance_to_beat, odds_in_36
from bot.league.stats import (
    NOTHING_PENDING,
    Deltas,
    Pending,
    move_records,
    public_deltas,
    stored_id,
)
from bot.storage import PROFILE_COLUMNS, TOTALS_COLUMNS

View = Mapping[str, Any]
T = TypeVar("T")
Strategy = Callable[[View, random.Random], Move | None]
BLUFFING = ("mexican", "dollar")
TOP = len(ORDER) - 1
#: Options that make every preset end by itself or play a fixed number of rounds; the
#: starter is drawn at random, since the host (a person) would otherwise always start.
TABLE_OPTIONS: dict[str, dict[str, Any]] = {
    "mexican": {"lives": 4, "turn_timer": 0, "first": "random"},
    "dollar": {"turn_timer": 0, "first": "random"},
    "mexen": {"turn_timer": 0, "first": "random"},
    "mexicanen": {"turn_timer": 0, "first": "random"},
    "mexico": {"turn_timer": 0, "first": "random"},
}
#: Rounds played in a game that has no end of its own (drinks only).
ROUNDS = 20
#: Moves after which a game is given up as stuck (never reached in practice).
MAX_MOVES = 4000
#: The expert's seat, and the ids of the opponents: digits, as a person's Discord id, so
#: the bot's statistics keep them as people's.
EXPERT = computer_id("expert", 1)
PEOPLE = tuple(str(1_000_000_000_000_000 + i) for i in range(1, 4))


class ArenaError(AssertionError):
    """A seat chose a move the engine does not offer it, or none when it had to move."""


# --- the expert: the bot's one path -----------------------------------------------------------


def counter_changes(
    events: list[Event], game: Game, cup_before: Roll | None, pending: Pending
) -> tuple[Deltas, Pending]:
    """The counter changes the bot stores for one move, per player id, and the facts it
    holds back until the table may know them: THE one place the arena asks the bot's
    statistics (``bot.game.tables`` calls the same function)."""
    return public_deltas(events, game, cup_before, pending)


@dataclass
class Statistics:
    """One server's stored statistics, in memory: per stored player id, the all-time
    counters (``stat_buckets``, period "all") and the number of claims (``claim_counts``);
    and, for the game being played, what is held back (stored with the game)."""

    totals: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    claims: Counter[int] = field(default_factory=Counter)
    pending: Pending = NOTHING_PENDING
    #: The computer players' memory of recent play, as the bot's computers keep it.
    recent: RecentPlay = field(default_factory=RecentPlay)
    #: Hand the computer players no records (``--stranger``): how they play someone new.
    stranger: bool = False

    def new_game(self) -> None:
        self.pending = NOTHING_PENDING

    def record(self, events: list[Event], game: Game, cup_before: Roll | None) -> None:
        """Store one move, as ``TableService._apply`` does."""
        public, self.pending = counter_changes(events, game, cup_before, self.pending)
        for player, deltas in public.items():
            who = stored_id(player)
            if who is not None:
                self.totals[who].update(deltas)
        for who, _claim in move_records(events, game).claims:
            self.claims[who] += 1

    async def player_records(
        self, guild_id: int, user_ids: list[int]
    ) -> dict[int, tuple[dict[str, int], int]]:
        """The storage query the computer players read records with (``Storage.player_records``):
        per player with a stored row, every counter and the number of claims."""
        return {
            who: (
                {c: self.totals[who][c] for c in (*TOTALS_COLUMNS, *PROFILE_COLUMNS)},
                self.claims[who],
            )
            for who in user_ids
            if who in self.totals
        }

    def records(self, game: Game) -> dict[str, Record]:
        """What the computer players read of the players at ``game``'s table: nothing at an
        open-roll table, else ``knowledge.stored_records`` from these statistics (none
        for a ``stranger``)."""
        if self.stranger:
            return {}
        return _now(knowledge.stored_records(self, GUILD, game, self.recent))


#: The one server an arena pairing plays on.
GUILD = 1


def _now(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits (the in-memory storage above) to its end."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("the arena's statistics never wait")


def expert_inputs(game: Game, seat: str, stats: Statistics) -> Inputs:
    """Everything the computer in ``seat`` knows, built as the bot's dealer builds it:
    ``knowledge.inputs`` with the records ``knowledge.stored_records`` reads."""
    return knowledge.inputs(game, seat, stats.records(game))


def expert_move(game: Game, seat: str, stats: Statistics, rng: random.Random) -> Move | None:
    return brain.decide(expert_inputs(game, seat, stats), rng)


# --- baselines ---------------------------------------------------------------------------------


def _legal(view: View) -> list[Move]:
    return [Move.decode(m) for m in view.get("legal_moves") or []]


def random_play(view: View, rng: random.Random) -> Move | None:
    moves = _legal(view)
    if not moves:
        return None
    act = rng.choice(sorted({m.act for m in moves}, key=lambda a: a.value))
    return rng.choice([m for m in moves if m.act is act])


def _rank(value: Any) -> int | None:
    return None if value is None else RANK[(value[0], value[1])]


def _roll_or_first(moves: list[Move]) -> Move:
    return Move(Act.ROLL) if Move(Act.ROLL) in moves else moves[0]


def _claim_moves(moves: list[Move]) -> dict[int, Move]:
    return {RANK[m.roll]: m for m in moves if m.act is Act.CLAIM and m.roll is not None}


def _bluff_baseline(
    claim: Callable[[int | None, int | None, list[int], random.Random], int],
    call: Callable[[View, int, random.Random], bool],
) -> Strategy:
    """A bluffing strategy that always rolls (never blind, never passes the cup on): it
    claims ``claim(dice, standing, offered ranks, rng)`` and calls when
    ``call(view, claim rank, rng)``."""

    def play(view: View, rng: random.Random) -> Move | None:
        moves = _legal(view)
        if not moves:
            return None
        stage = view["stage"]
        if stage == "answer":
            standing = _rank(view.get("standing"))
            seen = _rank(view.get("cup"))
            can_call = standing is not None and Move(Act.BULLSHIT) in moves
            if can_call and (
                (seen is not None and seen < standing)  # type: ignore[operator]
                or (seen is None and call(view, standing, rng))  # type: ignore[arg-type]
            ):
                return Move(Act.BULLSHIT)
            return _roll_or_first(moves)
        offered = _claim_moves(moves)
        if stage == "rolled" and offered:
            ranks = sorted(offered)
            chosen = claim(_rank(view.get("cup")), _rank(view.get("standing")), ranks, rng)
            return offered[min((r for r in ranks if r >= chosen), default=ranks[-1])]
        return _roll_or_first(moves)

    return play


def truthful_claim(dice: int | None, standing: int | None, ranks: list[int], _: Any) -> int:
    """The roll if it is a valid claim, else the smallest valid claim."""
    return dice if dice is not None and dice in ranks else ranks[0]


def _raise_claim(by: int) -> Callable[[int | None, int | None, list[int], Any], int]:
    """The roll if it beats the claim, else ``by`` ranks above the smallest valid claim."""

    def claim(dice: int | None, standing: int | None, ranks: list[int], _: Any) -> int:
        if dice is not None and dice in ranks and dice > ranks[0]:
            return dice
        return ranks[min(by - 1, len(ranks) - 1)]

    return claim


def bold_claim(dice: int | None, standing: int | None, ranks: list[int], rng: Any) -> int:
    base = max(dice if dice is not None else -1, standing if standing is not None else -1)
    return min(TOP, base + rng.choice((2, 3)))


@cache
def roll_chances(reroll_three_one: bool) -> tuple[float, ...]:
    """The chance of each rank on one fresh roll (a 3-1 rolled again is no outcome)."""
    weights = [0 if reroll_three_one and roll == THREE_ONE else odds_in_36(roll) for roll in ORDER]
    return tuple(w / sum(weights) for w in weights)


@cache
def fresh_odds(claim: int, reroll_three_one: bool, ties_win: bool) -> float:
    """Chance one fresh roll is at least (``ties_win``) or above ``claim``."""
    return float(chance_to_beat(ORDER[claim], reroll_three_one, ties_win))


def _reroll(view: View) -> bool:
    return bool(view["options"]["three_one"] != "low")


def truthful_call(view: View, claim: int, _: Any) -> bool:
    return fresh_odds(claim, _reroll(view), True) < 0.5


def threshold_call(rank: int) -> Callable[[View, int, Any], bool]:
    return lambda view, claim, _: claim >= rank


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


#: The expert without records: the solved policy alone (what she plays against a stranger).
_SOLVED = replace(PERSONAS[DEFAULT], read=0.0)


def _solved_play(view: View, rng: random.Random) -> Move | None:
    return bluff.decide(Inputs(view, {}), rng, _SOLVED)


#: name -> (bluffing strategy or None, open-roll strategy or None)
BASELINES: dict[str, tuple[Strategy | None, Strategy | None]] = {
    "random": (random_play, random_play),
    "truthful": (
        _bluff_baseline(truthful_claim, truthful_call),
        _open_baseline(_lowest_so_far),
    ),
    **{
        f"threshold-{r}": (_bluff_baseline(truthful_claim, threshold_call(r)), None)
        for r in range(len(ORDER))
    },
    "bold": (_bluff_baseline(bold_claim, lambda v, c, rng: rng.random() < 0.1), None),
    "aggressive": (
        _bluff_baseline(_raise_claim(2), lambda v, c, rng: c == TOP),
        _open_baseline(lambda v: True),
    ),
    "conservative": (
        _bluff_baseline(_raise_claim(1), lambda v, c, rng: c >= RANK[(1, 1)]),
        _open_baseline(lambda v: _lowest_so_far(v) and v["rolls"] < 2),
    ),
    "solved": (_solved_play, None),
}
EXPLOITERS = ("exploiter", "exploiter-cheat")
#: Adversaries that know her code and her records of them (benchmarks/ai_exploiters.py).
ADAPTIVE = ("responder", "baiter", "creeper", "drifter")
_TRUTHFUL = _bluff_baseline(truthful_claim, truthful_call)


#: The creeper's and the drifter's bait: truthful play, which she beats by a wide margin
#: and reads easily (a randomised bait, the truth seven times in ten and a lie a rank or
#: two up otherwise, left her winning about 80% and its punishment was caught sooner).
BAIT = _TRUTHFUL
OPPONENTS: tuple[str, ...] = (*BASELINES, *EXPLOITERS, *ADAPTIVE)


def plays(opponent: str, preset: str) -> bool:
    """Whether ``opponent`` has a strategy for ``preset``'s family."""
    if opponent in EXPLOITERS or opponent in ADAPTIVE:
        return preset in BLUFFING
    return BASELINES[opponent][0 if preset in BLUFFING else 1] is not None


# --- the exploiter -----------------------------------------------------------------------------


def _shrunk(hits: float, n: float, prior: float, weight: float) -> float:
    return (hits + weight * prior) / (n + weight)


#: How often the exploiter reckons it catches her lie when she cannot beat its claim.
CATCH = 0.7


@dataclass
class Exploiter:
    """Learns the expert's claims and calls from what the table shows, and best responds.

    ``cheat``: also learns from her dice under every claim, lifted or not (more than a
    player can know). One per pairing: every copy at a table sees the same public moves,
    so they share what they learn, from nothing, across the pairing's games."""

    target: str = EXPERT
    cheat: bool = False
    #: (how, claim rank) -> [answered, called]: her answers to others' claims.
    calls: dict[tuple[str, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    #: (how, claim rank, rank it beat) and (how, claim rank) -> [shown, bluffs]: her claims
    #: whose cup was lifted (or, cheating, every one of her claims).
    bluffs: dict[tuple[Any, ...], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    #: rank it beat (-1: none) -> how many ranks above it she claimed.
    raises: dict[int, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    #: Her claims still under a cup: (how, claim, over), until it is lifted or passed on.
    _open_claim: tuple[str, int, int] | None = None

    # -- learning -------------------------------------------------------------------------
    def observe(
        self,
        before: View,
        mover: str,
        events: list[Event],
        after: View,
        truth: Roll | None = None,
    ) -> None:
        """One move, as the table saw it: ``before`` and ``after`` are this seat's views,
        ``events`` the public ones. ``truth`` (the dice under the cup before the move) is
        given to the cheat only."""
        standing = _rank(before.get("standing"))
        for event in events:
            if isinstance(event, Claimed | Passed) and event.player == self.target:
                claim = RANK[from_code(event.claim)]
                how = "pass" if isinstance(event, Passed) else str(after.get("claim_how"))
                over = -1 if standing is None else standing
                self.raises[over][claim - over] += 1
                self._open_claim = (how, claim, over)
                if self.cheat and truth is not None:
                    self._count_bluff(how, claim, over, RANK[truth] < claim)
                    self._open_claim = None
            elif isinstance(event, Revealed):
                if event.claimer == self.target and self._open_claim is not None:
                    how, claim, over = self._open_claim
                    self._count_bluff(how, claim, over, event.bluff)
                if event.player == self.target and standing is not None:
                    self._count_call(before, standing, called=True)
            elif isinstance(event, Accepted) and event.player == self.target:
                if standing is not None:
                    self._count_call(before, standing, called=False)
            elif isinstance(event, RoundOver):
                self._open_claim = None
            if isinstance(event, Claimed | Passed) and event.player != self.target:
                self._open_claim = None  # her claim was beaten without a lift

    def _count_bluff(self, how: str, claim: int, over: int, bluff: bool) -> None:
        for key in ((how, claim, over), (how, claim)):
            self.bluffs[key][0] += 1
            self.bluffs[key][1] += bluff

    def _count_call(self, before: View, claim: int, *, called: bool) -> None:
        how = str(before.get("claim_how") or "seen")
        counts = self.calls[(how, claim)]
        counts[0] += 1
        counts[1] += called

    # -- estimates ------------------------------------------------------------------------
    def call_chance(self, how: str, claim: int, reroll: bool) -> float:
        """How often she calls a claim of this rank, made this way: her record, shrunk
        toward calling what a fresh roll makes less than half the time."""
        n, called = self.calls.get((how, claim), (0, 0))
        prior = 1.0 if fresh_odds(claim, reroll, True) < 0.5 else 0.2
        return _shrunk(called, n, prior, 3.0)

    def bluff_chance(self, how: str, claim: int, over: int, reroll: bool) -> float:
        """How often her claims like this one were bluffs: per claim beaten, backing off
        to per claim rank, and to how likely a fresh roll falls short of it."""
        prior = 1.0 - fresh_odds(claim, reroll, True)
        n, b = self.bluffs.get((how, claim), (0, 0))
        coarse = _shrunk(b, n, prior, 4.0)
        n, b = self.bluffs.get((how, claim, over), (0, 0))
        return _shrunk(b, n, coarse, 4.0)

    # -- playing ----------------------------------------------------------------------------
    def claim_value(self, claim: int, dice: int, ties: bool, reroll: bool) -> float:
        """Chance to win the round with this claim: she calls (a win if it is true) or
        accepts and must beat it (a toss-up again if she does; if not, she must lie, and
        is caught ``CATCH`` of the time)."""
        c = self.call_chance("seen", claim, reroll)
        beaten = fresh_odds(claim, reroll, ties or claim == TOP)
        return (c if claim <= dice else 0.0) + (1 - c) * (0.5 * beaten + CATCH * (1 - beaten))

    def play(self, view: View, rng: random.Random) -> Move | None:
        moves = _legal(view)
        if not moves:
            return None
        stage = view["stage"]
        reroll, ties = _reroll(view), bool(view["options"]["ties"])
        offered = _claim_moves(moves)
        seats = list(view.get("seats") or [])
        me = view.get("viewer")
        after = seats[(seats.index(me) + 1) % len(seats)] if me in seats else None
        if stage == "rolled" and offered and after != self.target:
            return offered[truthful_claim(_rank(view.get("cup")), None, sorted(offered), rng)]
        if stage == "answer" and view.get("claimer") != self.target:
            return _TRUTHFUL(view, rng)
        if stage == "rolled" and offered:
            dice = _rank(view.get("cup"))
            dice = -1 if dice is None else dice
            best = max(offered, key=lambda r: (self.claim_value(r, dice, ties, reroll), -r))
            return offered[best]
        if stage == "answer":
            claim = _rank(view.get("standing"))
            seen = _rank(view.get("cup"))
            call = Move(Act.BULLSHIT)
            if claim is None or call not in moves:
                return _roll_or_first(moves)
            if seen is not None:
                return call if seen < claim else _roll_or_first(moves)
            how = str(view.get("claim_how") or "seen")
            over = _rank(view.get("claim_over"))
            bluff = self.bluff_chance(how, claim, -1 if over is None else over, reroll)
            return call if bluff > self.accept_value(claim, ties, reroll) else _roll_or_first(moves)
        return _roll_or_first(moves)

    def accept_value(self, claim: int, ties: bool, reroll: bool) -> float:
        """Chance to win the round by accepting and rolling: over every roll, the best
        claim it allows (the truth where the roll makes one, else the best lie)."""
        floor = claim if ties or claim == TOP else claim + 1
        if floor > TOP:
            return 0.0
        valid = range(floor, len(ORDER))
        lie = max(self.claim_value(r, -1, ties, reroll) for r in valid)
        best_true = 0.0
        total = 0.0
        truths = {r: self.claim_value(r, r, ties, reroll) for r in valid}
        for rank, p in enumerate(roll_chances(reroll)):
            if rank in truths:
                best_true = max(best_true, truths[rank])  # a roll of rank d allows claims up to d
            total += p * max(lie, best_true)
        return total

    def summary(self) -> str:
        """What it learned, in a line: her bluff rate where lifted, her call rate."""
        shown = sum(v[0] for k, v in self.bluffs.items() if len(k) == 2)
        bluffs = sum(v[1] for k, v in self.bluffs.items() if len(k) == 2)
        answered = sum(v[0] for v in self.calls.values())
        called = sum(v[1] for v in self.calls.values())
        raises = [c for over, c in self.raises.items() if over >= 0]
        claims = sum(sum(c.values()) for c in raises)
        by = sum(d * n for c in raises for d, n in c.items())
        return (
            f"learned: {shown} of her claims {'known' if self.cheat else 'lifted'}, "
            f"{bluffs / max(1, shown):.0%} bluffs; she called {called} of {answered} "
            f"claims; she raised a claim by {by / max(1, claims):.1f} ranks"
        )


# --- playing ---------------------------------------------------------------------------------


@dataclass
class Played:
    """One game, as the arena measures it."""

    game: Game
    #: Who opened the table (a person: the first opponent).
    host: str
    #: Who sat down after the host, in order (the expert seated by the host).
    joiners: list[str]
    #: Every move made, in order: (player, move), for a replay.
    moves: list[tuple[str, Move]]
    #: Per round: (players in it, loser or None).
    rounds: list[tuple[tuple[str, ...], str | None]]
    #: Players in the order they went out.
    out: list[str]
    #: The game ended by itself or at the round limit (not given up as stuck).
    finished: bool


def play_game(
    preset: str,
    opponents: Mapping[str, Strategy],
    stats: Statistics,
    dice: random.Random,
    minds: random.Random,
    *,
    exploiter: Exploiter | None = None,
    spy: Callable[[Game, str, Inputs], None] | None = None,
    expert: Strategy | None = None,
) -> Played:
    """One game: the opponents (people, by id) and the expert (a computer the host seats).
    ``dice`` rolls (and draws the starter), ``minds`` decides; ``stats`` is the server's
    statistics, updated after every move; ``spy`` sees every input the expert decides on;
    ``expert``, if given, plays the expert's seat instead of her (from that seat's view:
    ``benchmarks.table_bound``'s oracle)."""
    people = list(opponents)
    host, others = people[0], people[1:]
    at = minds.randrange(len(others) + 1)  # where the expert sits among the others
    joiners = [*others[:at], EXPERT, *others[at:]]
    game = Game.create(preset, host, TABLE_OPTIONS[preset])
    stats.new_game()
    for player in joiners:
        if player == EXPERT:
            stats.record(game.add_computer(host, EXPERT), game, None)
        else:
            stats.record(game.join(player), game, None)
    stats.record(game.start(host, dice), game, None)
    played = Played(game, host, joiners, [], [], [], False)

    def decide(player: str) -> Move | None:
        if player == EXPERT and expert is not None:
            return expert(game.view(player), minds)
        if player == EXPERT:
            inputs = expert_inputs(game, player, stats)
            if spy is not None:
                spy(game, player, inputs)
            return brain.decide(inputs, minds)
        return opponents[player](game.view(player), minds)

    def apply(player: str, move: Move) -> None:
        if move.act is not Act.END and move not in game.legal_actions(player):
            raise ArenaError(f"{player} chose {move.encode()}, not a legal move")
        cup_before, seats = game.cup, tuple(game.seats)
        before = game.view(people[0]) if exploiter is not None else None
        events = game.apply(player, move, dice)
        played.moves.append((player, move))
        stats.record(events, game, cup_before)
        for event in events:
            if isinstance(event, RoundOver):
                played.rounds.append((seats, event.player))
            elif isinstance(event, Out) and event.player is not None:
                played.out.append(event.player)
        if exploiter is not None and before is not None:
            public = [e for e in events if e.to is None]
            truth = cup_before if exploiter.cheat else None
            exploiter.observe(before, player, public, game.view(people[0]), truth)

    endless = game.options.lives is None
    for _ in range(MAX_MOVES):
        if game.phase == "playing" and endless and game.round_no > ROUNDS:
            apply(host, Move(Act.END))  # the round limit: the host ends the game
        if game.phase != "playing":
            played.finished = True
            break
        for bystander in list(game.seats):  # a TAP comes before the mover's next roll
            if bystander != game.to_move and game.stuck and game.legal_actions(bystander):
                tap = decide(bystander)
                if tap is not None and tap.act is Act.TAP:
                    apply(bystander, tap)
                    break
        mover = game.to_move
        if mover is None or game.phase != "playing":
            continue
        move = decide(mover)
        if move is None:
            raise ArenaError(f"{mover} made no move on its turn")
        apply(mover, move)
    return played


# --- measuring ---------------------------------------------------------------------------------


@dataclass
class Tally:
    preset: str
    opponent: str
    players: int
    games: int = 0
    #: Heads-up: per game, whether the expert won (None: nobody did, e.g. a drinks tie).
    won: list[bool] = field(default_factory=list)
    #: Per game: rounds the expert lost, and the rounds she would lose at the even share
    #: (the sum of 1/players over the rounds she played).
    lost: list[float] = field(default_factory=list)
    even: list[float] = field(default_factory=list)
    #: The opponents' rounds lost and even share, all copies together.
    their_lost: float = 0.0
    their_even: float = 0.0
    rounds_played: int = 0  # by the expert
    #: Games in which someone went out, and those in which the expert went out first.
    outs: int = 0
    out_first: int = 0
    #: Open rolls: per game, (expert's penalties - the opponents' mean) / rounds.
    diffs: list[float] = field(default_factory=list)
    mine: float = 0.0
    theirs: float = 0.0
    rounds: int = 0
    seconds: float = 0.0
    moves: int = 0
    learned: str = ""


def penalty_points(game: Game, player: str) -> float:
    """A player's penalties: lives lost where the table has lives, else drinks as points."""
    state = game.players[player]
    if game.options.lives is not None:
        return float(game.options.lives - (state.lives or 0))
    return float(sum(n * {"shot": 2, "chug": 4}.get(u, 1) for u, n in state.totals.items()))


def expert_won(played: Played) -> bool:
    """Heads-up: the expert won the game (the other is out, or the game names the other
    as its loser, or, in a drinks game, she took fewer penalties)."""
    game = played.game
    other = next(p for p in game.players if p != EXPERT)
    if game.loser is not None:
        return game.loser != EXPERT
    if game.options.lives is not None:
        return game.players[other].status == "out" and game.players[EXPERT].status != "out"
    return penalty_points(game, EXPERT) < penalty_points(game, other)


def measure(tally: Tally, played: Played) -> None:
    game = played.game
    tally.games += 1
    tally.moves += len(played.moves)
    if tally.players == 2:
        tally.won.append(expert_won(played))
    lost = even = 0.0
    for seats, loser in played.rounds:
        share = 1 / len(seats)
        if EXPERT in seats:
            tally.rounds_played += 1
            even += share
            lost += loser == EXPERT
        others = [p for p in seats if p != EXPERT]
        tally.their_even += share * len(others)
        tally.their_lost += loser in others
    tally.lost.append(lost)
    tally.even.append(even)
    if played.out:
        tally.outs += 1
        tally.out_first += played.out[0] == EXPERT
    elif game.loser is not None:  # the first at no lives ends the game: out first
        tally.outs += 1
        tally.out_first += game.loser == EXPERT
    rounds = max(1, len(played.rounds))
    others = [p for p in game.players if p != EXPERT]
    mine = penalty_points(game, EXPERT)
    theirs = sum(penalty_points(game, p) for p in others) / len(others)
    tally.rounds += rounds
    tally.mine += mine
    tally.theirs += theirs
    tally.diffs.append((mine - theirs) / rounds)


Job = tuple[str, str, int, int, int, bool]


def pairing(args: Job) -> Tally:
    """Play ``games`` games of the expert against copies of one opponent, on a new server:
    statistics (and an exploiter's memory) from nothing, kept across the games; with
    ``stranger``, she is handed no records (``--stranger``)."""
    preset, opponent, players, games, seed, stranger = args
    dice, minds = random.Random(seed), random.Random(seed ^ 0x5EED)
    stats = Statistics(stranger=stranger)
    exploiter = None
    adversary: Responder | Baiter | Creeper | None = None
    if opponent in EXPLOITERS:
        exploiter = Exploiter(cheat=opponent == "exploiter-cheat")
        strategy: Strategy = exploiter.play
    elif opponent in ADAPTIVE:
        adversary = adversary_for(opponent, preset, stats)
        strategy = adversary.play
    else:
        found = BASELINES[opponent][0 if preset in BLUFFING else 1]
        assert found is not None, f"{opponent} does not play {preset}"
        strategy = found
    tally = Tally(preset, opponent, players)
    start = time.perf_counter()
    for _ in range(games):
        if adversary is not None:
            adversary.new_game()
        people = {p: strategy for p in PEOPLE[: players - 1]}
        measure(tally, play_game(preset, people, stats, dice, minds, exploiter=exploiter))
    tally.seconds = time.perf_counter() - start
    tally.learned = exploiter.summary() if exploiter else ""
    if isinstance(adversary, Creeper):
        tally.learned = adversary.summary()
    elif adversary is not None:
        responder = adversary if isinstance(adversary, Responder) else adversary.responder
        tally.learned = (
            f"{responder.solves} best responses worked out; her last share on the "
            f"best answer {responder.share:.2f}"
        )
    return tally


def adversary_for(opponent: str, preset: str, stats: Statistics) -> Responder | Baiter | Creeper:
    """The responder, the baiter, the creeper or the drifter, reading the records the bot
    keeps of it (heads-up: the first person's)."""
    me = PEOPLE[0]

    def records() -> tuple[Profile | None, bool, float | None]:
        """Its record, whether her memory of it has it in doubt, and her running bank."""
        row = stats.totals.get(int(me))
        if row is None or stats.stranger:
            return None, False, None
        profile = Record.from_totals(row, stats.claims[int(me)]).profile
        key = (GUILD, int(me))
        won = bank.banked(profile, preset)
        return profile, stats.recent.doubted(key, profile), stats.recent.bank(key, won)

    if opponent in ("creeper", "drifter"):
        slow = opponent == "drifter"
        step = 1 / 2700 if slow else 0.02

        def strain() -> float:
            profile, *_ = records()
            if profile is None:
                return 0.0
            return recent.strain(profile, stats.recent.recent((GUILD, int(me)), profile))

        return Creeper(preset, me, records, strain, BAIT, step=step, slow=slow)
    responder = Responder(preset, me, records)
    return responder if opponent == "responder" else Baiter(responder, _TRUTHFUL)


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """The rate and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def ratio_interval(num: list[float], den: list[float]) -> tuple[float, float, float]:
    """Σnum / Σden over games, with a 95% interval (delta method, games independent)."""
    n, total = len(num), sum(den)
    if n == 0 or total == 0:
        return 0.0, 0.0, 0.0
    r = sum(num) / total
    resid = [a - r * b for a, b in zip(num, den, strict=True)]
    var = sum(e * e for e in resid) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n) / (total / n)
    return r, r - half, r + half


# --- reporting ---------------------------------------------------------------------------------


def _pct(rate: tuple[float, float, float]) -> str:
    return f"{rate[0]:.1%} ({rate[1]:.1%}–{rate[2]:.1%})"


def _signed(x: tuple[float, float, float], places: int = 3) -> str:
    return f"{x[0]:+.{places}f} ({x[1]:+.{places}f}..{x[2]:+.{places}f})"


def win_rate(t: Tally, games: Iterable[bool] | None = None) -> tuple[float, float, float]:
    won = list(t.won if games is None else games)
    return wilson(sum(won), len(won))


def report(results: list[Tally], block: int, curve_games: int) -> list[str]:
    lines: list[str] = []
    heads = [t for t in results if t.players == 2]
    bluff = [t for t in heads if t.preset in BLUFFING]
    if bluff:
        lines += [
            "",
            "Heads-up, bluffing presets: expert's win rate (95%), her share of lost "
            "rounds / even share",
            "",
            "| preset | opponent | games | expert wins | lost rounds / even |",
            "| --- | --- | --- | --- | --- |",
        ]
        for t in bluff:
            share = ratio_interval(t.lost, t.even)
            lines.append(
                f"| `{t.preset}` | {t.opponent} | {t.games:,} | {_pct(win_rate(t))} "
                f"| {share[0]:.2f} ({share[1]:.2f}–{share[2]:.2f}) |"
            )
        for preset in dict.fromkeys(t.preset for t in bluff):
            thresholds = [
                t for t in bluff if t.preset == preset and t.opponent.startswith("threshold-")
            ]
            if thresholds:
                best = min(thresholds, key=lambda t: win_rate(t)[0])
                lines.append(
                    f"\n`{preset}`: best threshold opponent {best.opponent} "
                    f"({ORDER[int(best.opponent.split('-')[1])]}): expert wins "
                    f"{_pct(win_rate(best))}"
                )
    openr = [t for t in heads if t.preset not in BLUFFING]
    if openr:
        lines += [
            "",
            "Heads-up, open-roll presets: penalties per round (lives where the "
            "table has lives), expert − opponent (95%)",
            "",
            "| preset | opponent | games | expert − opponent | expert vs opponent | expert wins |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for t in openr:
            lines.append(
                f"| `{t.preset}` | {t.opponent} | {t.games:,} | "
                f"{_signed(mean_interval(t.diffs))} | {t.mine / max(1, t.rounds):.3f} vs "
                f"{t.theirs / max(1, t.rounds):.3f} | {_pct(win_rate(t))} |"
            )
    tables = [t for t in results if t.players > 2]
    if tables:
        lines += [
            "",
            "Tables of 3 and 4 (the expert and copies of one opponent; the game "
            "ends when the people are out): share of lost rounds / even share "
            "(target ≤ 0.8), and how often the expert is out first",
            "",
            "| preset | players | opponent | games | expert's share of lost rounds (even) "
            "| expert / even (95%) | opponents / even | expert out first (even) "
            "| penalties/round, expert − opponents |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for t in tables:
            share = ratio_interval(t.lost, t.even)
            theirs = t.their_lost / t.their_even if t.their_even else 0.0
            first = (
                f"{t.out_first / t.outs:.1%} of {t.outs:,} ({1 / t.players:.0%})" if t.outs else "–"
            )
            played = max(1, t.rounds_played)
            lines.append(
                f"| `{t.preset}` | {t.players} | {t.opponent} | {t.games:,} | "
                f"{sum(t.lost) / played:.1%} ({sum(t.even) / played:.1%}) | "
                f"{share[0]:.2f} ({share[1]:.2f}–{share[2]:.2f}) | {theirs:.2f} | "
                f"{first} | {_signed(mean_interval(t.diffs))} |"
            )
    learners = [t for t in heads if t.opponent in EXPLOITERS or t.opponent in ADAPTIVE]
    if learners:
        lines += [
            "",
            f"Learning curve (heads-up): expert's win rate per block of {block} games"
            + " (exploiter-cheat knows her dice under every claim: more than a player "
            "can know)",
            "",
        ]
        for t in learners:
            shown = t.won[:curve_games]
            blocks = [shown[i : i + block] for i in range(0, len(shown), block)]
            curve = " ".join(f"{sum(b) / len(b):.1%}" for b in blocks if b)
            last = shown[-1000:] if len(shown) >= 1000 else shown
            worst = worst_block(t.won, block)
            later = shown[1000:]
            lines.append(
                f"- `{t.preset}` {t.opponent}: {curve}; last {len(last):,} of the "
                f"first {len(shown):,}: {_pct(win_rate(t, last))}; "
                + (f"games 1,001-{len(shown):,}: {_pct(win_rate(t, later))}; " if later else "")
                + (f"worst block after the first 1,000: {worst:.1%}; " if worst else "")
                + t.learned
            )
    return lines


def worst_block(won: list[bool], block: int, after: int = 1000) -> float | None:
    """Her lowest win rate in a whole block of ``block`` games after the first ``after``
    (None: no such block): what an adaptive opponent takes at its best stretch."""
    rates = [sum(won[i : i + block]) / block for i in range(after, len(won) - block + 1, block)]
    return min(rates) if rates else None


def expand(names: list[str]) -> list[str]:
    """Opponent names; ``threshold`` stands for every ``threshold-R``."""
    out: list[str] = []
    for name in names:
        if name == "threshold":
            out += [o for o in OPPONENTS if o.startswith("threshold-")]
        elif name in OPPONENTS:
            out.append(name)
        else:
            raise SystemExit(f"unknown opponent {name!r}: one of {', '.join(OPPONENTS)}")
    return list(dict.fromkeys(out))


def jobs_for(
    presets: list[str],
    opponents: list[str],
    sizes: Mapping[int, int],
    seed: int,
    stranger: bool = False,
) -> list[Job]:
    jobs: list[Job] = []
    for players, games in sizes.items():
        for preset in presets:
            for opponent in opponents:
                if games > 0 and plays(opponent, preset):
                    key = f"{preset}/{opponent}/{players}/{seed}"
                    seeded = zlib.crc32(key.encode())
                    jobs.append((preset, opponent, players, games, seeded, stranger))
    return jobs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.ai_arena",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=10_000, help="heads-up games per pairing")
    parser.add_argument(
        "--table-games",
        type=int,
        default=2_000,
        help="games per pairing at tables of 3 and of 4 (0: none)",
    )
    parser.add_argument(
        "--sizes", type=int, nargs="*", default=[2, 3, 4], help="table sizes to play (2: heads-up)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="200 heads-up and 100 table games per pairing"
    )
    parser.add_argument("--presets", nargs="*", default=list(PRESET_NAMES), choices=PRESET_NAMES)
    parser.add_argument(
        "--opponents",
        nargs="*",
        default=["threshold", *OPPONENTS],
        help="opponents to play ('threshold': every threshold-R)",
    )
    parser.add_argument("--block", type=int, default=500, help="learning curve: games per block")
    parser.add_argument(
        "--curve-games", type=int, default=3_000, help="learning curve: the first this many games"
    )
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--stranger",
        action="store_true",
        help="hand her no records: the solved policy alone, as against someone new",
    )
    args = parser.parse_args(argv)
    heads, table = (200, 100) if args.quick else (args.games, args.table_games)
    sizes = {n: heads if n == 2 else table for n in args.sizes if 2 <= n <= 4}
    jobs = jobs_for(args.presets, expand(args.opponents), sizes, args.seed, args.stranger)
    jobs.sort(key=lambda j: -j[3] * j[2])  # the longest first, for the pool
    start = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(pairing, jobs, chunksize=1)
    else:
        results = [pairing(job) for job in jobs]
    wall = time.perf_counter() - start
    order = {
        (p, o, n): i
        for i, (p, o, n, *_) in enumerate(
            jobs_for(args.presets, expand(args.opponents), sizes, args.seed)
        )
    }
    results.sort(key=lambda t: order[(t.preset, t.opponent, t.players)])
    for line in report(results, args.block, args.curve_games):
        print(line)
    print()
    per_preset: dict[str, list[float]] = defaultdict(list)
    for t in results:
        if t.players == 2 and t.games:
            per_preset[t.preset].append(1000 * t.seconds / t.games)
    if per_preset:
        print(
            "one core, 1,000 heads-up games: "
            + ", ".join(f"{p} {sum(s) / len(s):.1f} s" for p, s in per_preset.items())
        )
    print(
        f"{len(jobs)} pairings, {sum(t.games for t in results):,} games, "
        f"{sum(t.moves for t in results):,} moves in {wall:.0f} s wall time "
        f"({args.workers} workers)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
