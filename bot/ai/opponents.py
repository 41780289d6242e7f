"""What the expert computer knows of an opponent, and its best answer to that (README,
Playing against the computer).

A :class:`Profile` is a handful of counters the bot's statistics keep per person across
games, from public facts only (README, What each statistic counts, and when): an answer
to a claim counts when it is made; a claim made knowing the dice (how far above them,
how far above the lowest valid claim) only when the table sees those dice, at the reveal,
or when the game is over. A :class:`Model` turns the counters into how that person claims
and calls, pulled toward a typical player while there are few of them, and
:class:`Reading` is the best answer to the model over one heads-up round, worked out
backwards from the top claim.

Ranks are indices in ``ORDER`` (0 is 3-1, 20 the top roll), as in :mod:`bot.ai.bluff_policy`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.engine import ORDER
from bot.engine.rolls import odds_in_36

N = len(ORDER)
TOP = N - 1
ZEROS: tuple[int, ...] = (0,) * N
#: The profile's single counters, in field order; each is a stored statistic of the same
#: name, as are ``faced_<rank>`` and ``called_<rank>``.
PROFILE_COUNTS = (
    "free_claims",
    "free_bluffs",
    "free_unders",
    "forced_claims",
    "forced_raises",
    "raise_steps",
    "forced_folds",
)
#: The counters of a person's heads-up rounds against the expert (README, Playing against
#: the computer: "Safe exploitation"), each a stored statistic of the same name.
DUEL_COUNTS = ("duel_rounds", "duel_led", "duel_won", "duel_lost")


@dataclass(frozen=True, slots=True)
class Profile:
    """One person's counters, all time (the bot fills it from storage).

    A *seen claim* is a claim made after looking at one's own dice (not blind, not a pass
    of an unseen cup); its *floor* is the lowest claim valid at that moment.
    """

    #: Seen claims where the dice were themselves a valid claim ...
    free_claims: int = 0
    #: ... of those, claims above the dice (a bluff nobody forced) ...
    free_bluffs: int = 0
    #: ... and claims below the dice (holding back a strong roll).
    free_unders: int = 0
    #: Seen claims where the dice were below the floor (every claim is a bluff) ...
    forced_claims: int = 0
    #: ... of those, claims above the floor (more than the smallest lie).
    forced_raises: int = 0
    #: Over every seen claim above both the dice and the floor: ranks above the higher of
    #: the two, summed (how far the bluffs reach).
    raise_steps: int = 0
    #: Folds with dice below the floor (``mexican``).
    forced_folds: int = 0
    #: Claims answered (accepted, rolled on or called), by claimed rank ...
    faced: tuple[int, ...] = ZEROS
    #: ... of those, called bullshit.
    called: tuple[int, ...] = ZEROS
    #: Heads-up rounds against the expert: started, started by this person, won and lost
    #: by this person (a round left unfinished is neither).
    duel_rounds: int = 0
    duel_led: int = 0
    duel_won: int = 0
    duel_lost: int = 0

    @classmethod
    def from_totals(cls, totals: Mapping[str, int]) -> Profile:
        """From a player's stored counters (column -> value; README, What each statistic
        counts, and when)."""
        return cls(
            **{name: int(totals.get(name, 0)) for name in (*PROFILE_COUNTS, *DUEL_COUNTS)},
            faced=tuple(int(totals.get(f"faced_{r}", 0)) for r in range(N)),
            called=tuple(int(totals.get(f"called_{r}", 0)) for r in range(N)),
        )

    @property
    def seen_claims(self) -> int:
        return self.free_claims + self.forced_claims + self.forced_folds

    @property
    def answers(self) -> int:
        return sum(self.faced)


# --- the model ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """What of a bluffing table the model needs: ties, the lowest claim, folding."""

    ties: bool
    lowest: int
    fold: bool

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Rules:
        """From a view's ``options``."""
        social = options["three_one"] != "low"
        return cls(bool(options["ties"]), 1 if social else 0, bool(options["fold"]))

    def valid(self, s: int | None) -> range:
        """The claims valid over the standing claim ``s`` (None: the first claim)."""
        if s is None:
            return range(self.lowest, N)
        if s >= TOP:
            return range(TOP, N)
        return range(max(s if self.ties else s + 1, self.lowest), N)

    def fresh(self) -> tuple[float, ...]:
        """A fresh roll's chance of each rank (a Social 3-1 is rolled again)."""
        weights = [0.0 if r < self.lowest else float(odds_in_36(ORDER[r])) for r in range(N)]
        total = sum(weights)
        return tuple(w / total for w in weights)


#: A typical player while a person's counters are few: (rate, weight in claims).
PRIOR_FREE_BLUFF = (0.15, 8.0)
PRIOR_FREE_UNDER = (0.05, 8.0)
PRIOR_FORCED_RAISE = (0.5, 4.0)
PRIOR_FOLD = (0.1, 4.0)
PRIOR_STEP = (2.0, 4.0)
#: Weight, in answers, of the prior call rate at each claimed rank.
PRIOR_CALLS = 2.0


@dataclass(frozen=True, slots=True)
class Model:
    """How one opponent claims and calls, as rates fitted to their counters."""

    free_bluff: float
    free_under: float
    forced_raise: float
    fold: float
    step: float
    #: Chance of being called, by claimed rank.
    call: tuple[float, ...]

    @classmethod
    def fit(cls, profile: Profile, rules: Rules) -> Model:
        p = profile

        def rate(hits: int, of: int, prior: tuple[float, float]) -> float:
            return (hits + prior[0] * prior[1]) / (of + prior[1])

        forced = p.forced_claims + p.forced_folds
        raises = p.free_bluffs + p.forced_raises
        step = (p.raise_steps + PRIOR_STEP[0] * PRIOR_STEP[1]) / (raises + PRIOR_STEP[1])
        prior_call = _short_of(rules)
        rates = [
            (p.called[r] + PRIOR_CALLS * prior_call[r]) / (p.faced[r] + PRIOR_CALLS)
            for r in range(N)
        ]
        weights = [p.faced[r] + PRIOR_CALLS for r in range(N)]
        return cls(
            free_bluff=rate(p.free_bluffs, p.free_claims, PRIOR_FREE_BLUFF),
            free_under=rate(p.free_unders, p.free_claims, PRIOR_FREE_UNDER),
            forced_raise=rate(p.forced_raises, p.forced_claims, PRIOR_FORCED_RAISE),
            fold=rate(p.forced_folds, forced, PRIOR_FOLD) if rules.fold else 0.0,
            step=max(1.0, step),
            call=tuple(_increasing(rates, weights)),
        )

    def key(self) -> tuple[float, ...]:
        """Rounded, so that a counter or two more reuses the answer already worked out."""
        head = (self.free_bluff, self.free_under, self.forced_raise, self.fold, self.step / 10)
        return tuple(round(x, 2) for x in (*head, *self.call))

    def claims(self, rules: Rules, s: int | None, d: int) -> tuple[list[float], float]:
        """The chance of each claim, and of a fold, by someone who saw ``d`` over ``s``."""
        out = [0.0] * N
        valid = rules.valid(s)
        floor = valid[0]
        if d < floor:
            fold = self.fold if s is not None else 0.0
            _spread(
                out,
                floor,
                (1 - fold) * (1 - self.forced_raise),
                self.step,
                (1 - fold) * self.forced_raise,
            )
            return out, fold
        under = self.free_under if d > floor else 0.0
        if under:
            share = under / (d - floor)
            for c in range(floor, d):
                out[c] += share
        _spread(out, d, 1 - under - self.free_bluff, self.step, self.free_bluff)
        return out, 0.0


@lru_cache(maxsize=4)
def _short_of(rules: Rules) -> tuple[float, ...]:
    """The chance a fresh roll falls short of each rank: a typical player calls a claim
    about as often as it is unlikely."""
    fresh = rules.fresh()
    return tuple(sum(fresh[:r]) for r in range(N))


def _spread(out: list[float], base: int, stay: float, step: float, up: float) -> None:
    """``stay`` on ``base`` and ``up`` over the ranks above it, fewer the further up
    (a geometric spread with mean ``step``); at the top, all of it on ``base``."""
    if base >= TOP or up <= 0:
        out[base] += stay + up
        return
    out[base] += stay
    for k, share in enumerate(_geometric(TOP - base, step), start=base + 1):
        out[k] += up * share


@lru_cache(maxsize=1024)
def _geometric(ranks: int, step: float) -> tuple[float, ...]:
    """Shares of ``ranks`` ranks up, fewer the further up, with mean ``step``; summing to 1.
    A model spreads its lies the same way from every base, so the shares are kept."""
    p = 1.0 / step
    shares = [p * (1 - p) ** (k - 1) for k in range(1, ranks + 1)]
    total = sum(shares)
    return tuple(share / total for share in shares)


def _increasing(values: Sequence[float], weights: Sequence[float]) -> list[float]:
    """The closest non-decreasing sequence (weighted pool-adjacent-violators): a higher
    claim is called at least as often, which lets rarely-faced ranks learn from the rest."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            b = blocks.pop()
            a = blocks[-1]
            total = a[1] + b[1]
            a[0] = (a[0] * a[1] + b[0] * b[1]) / total
            a[1], a[2] = total, a[2] + b[2]
    out: list[float] = []
    for mean, _, count in blocks:
        out += [mean] * int(count)
    return out


# --- the best answer to a model -------------------------------------------------------------


class Reading:
    """The best play over one heads-up round against a :class:`Model`: what to claim
    with given dice, and whether to call a seen claim. Values are the chance of winning
    the round plus ``start`` times the chance of starting the next one (the caller
    starts it, and the starter has the edge).

    The opponent is taken to roll with open eyes after accepting (as people do), and the
    computer does too; a round is worked out from the top claim down, and where a claim
    may equal the one it beats (ties in ``mexican``, the top in ``dollar``) the values
    are settled by repeating until they stop moving.
    """

    def __init__(self, model: Model, rules: Rules, start: float = 0.0, players: int = 2) -> None:
        self.rules = rules
        self.model = model
        self.start = start
        self.players = players
        fresh = rules.fresh()
        self.fresh = fresh
        q = model.call
        #: Per standing claim (index N: none yet): the chance the opponent claims each
        #: rank, that it claims it falsely, and that it folds.
        self.said: list[list[float]] = []
        self.lied: list[list[float]] = []
        self.folds: list[float] = []
        for s in (*range(N), None):
            said, lied, folds = [0.0] * N, [0.0] * N, 0.0
            for d in range(N):
                if fresh[d] == 0:
                    continue
                claims, fold = model.claims(rules, s, d)
                folds += fresh[d] * fold
                for c, p in enumerate(claims):
                    if p:
                        said[c] += fresh[d] * p
                        if d < c:
                            lied[c] += fresh[d] * p
            self.said.append(said)
            self.lied.append(lied)
            self.folds.append(folds)
        #: acc[s]: the value of holding the cup to roll against standing claim s.
        #: held[c]: the value when the opponent has accepted our claim c.
        self.acc = [0.0] * (N + 1)
        self.held = [0.0] * N
        for s in range(TOP, -1, -1):
            self._settle(s, q)
        self.acc[N] = self._roll_value(None, q)

    def _claim_value(self, c: int, d: int, q: Sequence[float]) -> float:
        return q[c] * (1.0 if d >= c else 0.0) + (1 - q[c]) * self.held[c]

    def _roll_value(self, s: int | None, q: Sequence[float]) -> float:
        """Rolling against ``s`` and making the best valid claim for the dice rolled.

        The valid claims are a tail of the ranks, and a claim's value depends on the dice
        only through whether they reach it: the best is the better of the best true claim
        (a running maximum up to the dice) and the best lie (a running maximum down to
        just above them), so each roll costs one step instead of a pass over the claims.
        """
        low = self.rules.valid(s)[0]
        held = self.held
        lies = [(1 - q[c]) * held[c] for c in range(N)]
        best_lie = [-1.0] * (N + 1)  # best_lie[c]: the best lie claiming c or higher
        for c in range(N - 1, low - 1, -1):
            best_lie[c] = max(best_lie[c + 1], lies[c])
        total = 0.0
        best_true = -1.0
        for d in range(N):
            if d >= low:
                best_true = max(best_true, q[d] + lies[d])
            if self.fresh[d]:
                total += self.fresh[d] * max(best_true, best_lie[max(low, d + 1)])
        return total

    def _held_value(self, c: int) -> float:
        """Our claim ``c`` accepted: the opponent rolls and claims; we answer best.

        At a table of more than two that claim goes to the player after them, and comes
        round to us only if every answer on the way is an accept: until then the round
        is settled between others, and we lose nothing (nor start the next one)."""
        said, lied = self.said[c], self.lied[c]
        start = self.start
        value = self.folds[c] * (1 + start)  # the claimer (we) starts after a fold
        called = 0.0
        q = self.model.call
        for c2 in self.rules.valid(c):
            if said[c2]:
                value += max(lied[c2] + start * said[c2], said[c2] * self.acc[c2])
                called += said[c2] * q[c2]
        if self.players <= 2:
            return value
        comes_back = (1.0 - called - self.folds[c]) ** (self.players - 2)
        return comes_back * value + (1.0 - comes_back)

    def _settle(self, s: int, q: Sequence[float]) -> None:
        """acc[s] and held[s], which depend on each other through a tie."""
        self.acc[s] = 0.5
        for _ in range(60):
            self.held[s] = self._held_value(s)
            new = self._roll_value(s, q)
            done = abs(new - self.acc[s]) < 1e-7
            self.acc[s] = new
            if done:
                break
        self.held[s] = self._held_value(s)

    # --- what the computer asks -------------------------------------------------------------
    def bluff_chance(self, c: int, s: int | None) -> float | None:
        """The chance that a seen claim ``c`` over ``s`` is a bluff (None: the model says
        this opponent never makes it)."""
        i = N if s is None else s
        said = self.said[i][c]
        return self.lied[i][c] / said if said > 1e-12 else None

    def accept_value(self, c: int) -> float:
        """The value of accepting ``c`` and rolling."""
        return self.acc[c]

    def call_value(self, bluff: float) -> float:
        """Calling a claim that is a bluff with chance ``bluff``: the caller starts next."""
        return bluff + self.start

    def claim_values(self, s: int | None, d: int) -> dict[int, float]:
        """The value of each claim valid over ``s``, holding ``d``."""
        q = self.model.call
        return {c: self._claim_value(c, d, q) for c in self.rules.valid(s)}


#: Readings worked out, by rounded model: a few per opponent and rule set.
_READINGS: dict[tuple[object, ...], Reading] = {}
_KEEP = 512


def reading(profile: Profile, rules: Rules, start: float = 0.0, players: int = 2) -> Reading:
    """The best answer to ``profile`` at a table of ``players``, shared by every decision
    while the counters have not moved the model noticeably."""
    model = Model.fit(profile, rules)
    key = (*model.key(), rules, start, players)
    found = _READINGS.get(key)
    if found is None:
        if len(_READINGS) >= _KEEP:
            _READINGS.clear()
        found = _READINGS[key] = Reading(model, rules, start, players)
    return found
