"""Expert Ada's reading of the bots she meets at the arena (README, Bot arena: The house
players): what each one has shown of itself, and her best answer to it.

Pure, from the protocol's public messages only: how often a bot sees each claim, what it
claims when it rolls over one, and, whenever dice are shown, whether its claim was a lie.
Every count starts from what the solved strategy (``bot/ai/policy/maexchen.json``) itself
would do, so a bot she has barely met is read as a strong player; the more a bot shows,
the more its own counts weigh. Her answer is a best response to that reading, worked out
rank by rank from the top claim down (a claim must rise, so each rank needs only the ranks
above it); and she plays it only as far as she has seen the bot, keeping the solved
strategy the rest of the time, so a bot that changes its play cannot lead her far.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from bot.ai.bluff_policy import Policy
from bot.engine.rolls import ORDER, odds_in_36

N = len(ORDER)
TOP = N - 1
#: How many of the solved strategy's own rounds every count starts with.
PRIOR = 8.0
#: The most she plays her answer rather than the solved strategy, and how fast she gets
#: there: after ``RAMP`` observations of a bot, half of that.
MOST, RAMP = 0.9, 40.0
#: Bots remembered at once (the oldest met is forgotten beyond it).
MEMORY = 1000
#: The chance of each rank on one roll.
P_ROLL: list[float] = [odds_in_36(r) / 36 for r in ORDER]


@dataclass(slots=True)
class Record:
    """What one bot has shown: counts by rank (and by the claim it answered)."""

    seen: list[float] = field(default_factory=lambda: [0.0] * N)  # it saw a claim of rank c
    faced: list[float] = field(default_factory=lambda: [0.0] * N)  # it answered one
    claims: list[list[float]] = field(default_factory=lambda: [[0.0] * N for _ in range(N + 1)])
    lies: list[float] = field(default_factory=lambda: [0.0] * N)  # its claim of c was shown false
    shown: list[float] = field(default_factory=lambda: [0.0] * N)  # its claim of c was shown
    observed: int = 0


class Prior:
    """The solved strategy's own rates, to start every count from."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        # see[s][c]: the chance of seeing claim c made over s (s = N: no claim before).
        self.see = [[self._see(c, s) for c in range(N)] for s in range(N + 1)]
        # claim[s][c]: the chance of claiming c over s after a roll; lie[s][c]: that it lies.
        self.claim = [[0.0] * N for _ in range(N + 1)]
        self.lie = [[0.0] * N for _ in range(N + 1)]
        for s in range(N + 1):
            for d in range(N):
                for c, p in self._claims(s, d).items():
                    self.claim[s][c] += P_ROLL[d] * p
                    if d < c:
                        self.lie[s][c] += P_ROLL[d] * p
            for c in range(N):
                if self.claim[s][c] > 0:
                    self.lie[s][c] /= self.claim[s][c]

    def _see(self, c: int, s: int) -> float:
        if c == TOP:
            return 1.0
        return self.policy.respond(c, None if s == N else s, "seen").get("call", 0.0)

    def _claims(self, s: int, d: int) -> dict[int, float]:
        if s == TOP:
            return {}
        row = self.policy.claim_seen(None if s == N else s, d)
        return {c: p for c, p in row.items() if isinstance(c, int)}


class Reader:
    """Ada's records of the bots at her tables, and her answers from them."""

    def __init__(self, policy: Policy) -> None:
        self.prior = Prior(policy)
        self.records: OrderedDict[str, Record] = OrderedDict()

    def record(self, name: str) -> Record:
        found = self.records.get(name)
        if found is None:
            if len(self.records) >= MEMORY:
                self.records.popitem(last=False)
            found = self.records[name] = Record()
        return found

    # --- what the table shows -------------------------------------------------------------
    def answered(self, name: str, claim: int, saw: bool) -> None:
        """``name`` saw (or rolled over) a claim of rank ``claim``."""
        rec = self.record(name)
        rec.faced[claim] += 1
        rec.seen[claim] += saw
        rec.observed += 1

    def claimed(self, name: str, over: int | None, claim: int) -> None:
        """``name`` rolled over ``over`` and claimed ``claim``."""
        self.record(name).claims[N if over is None else over][claim] += 1

    def lifted(self, name: str, claim: int, dice: int) -> None:
        """``name``'s claim of ``claim`` was shown to be ``dice``."""
        rec = self.record(name)
        rec.shown[claim] += 1
        rec.lies[claim] += dice < claim
        rec.observed += 1

    def weight(self, name: str) -> float:
        """How much she plays her answer to ``name`` rather than the solved strategy."""
        rec = self.records.get(name)
        seen = rec.observed if rec else 0
        return MOST * seen / (seen + RAMP)

    # --- the reading --------------------------------------------------------------------
    def sees(self, name: str, claim: int, over: int | None) -> float:
        rec = self.records.get(name)
        prior = self.prior.see[N if over is None else over][claim]
        if rec is None:
            return prior
        return (rec.seen[claim] + PRIOR * prior) / (rec.faced[claim] + PRIOR)

    def lies(self, name: str, claim: int, over: int | None) -> float:
        if claim == TOP:  # a 21 is shown at once: how often it is false
            prior = self.prior.lie[N if over is None else over][TOP] or 0.5
        else:
            prior = self.prior.lie[N if over is None else over][claim]
        rec = self.records.get(name)
        if rec is None:
            return prior
        return (rec.lies[claim] + PRIOR * prior) / (rec.shown[claim] + PRIOR)

    def claims(self, name: str, over: int) -> list[float]:
        """The chance of each claim ``name`` makes rolling over ``over``."""
        rec = self.records.get(name)
        prior = self.prior.claim[over]
        if rec is None:
            return prior
        counts = rec.claims[over]
        total = sum(counts)
        return [(counts[c] + PRIOR * prior[c]) / (total + PRIOR) for c in range(N)]

    # --- her answer ---------------------------------------------------------------------
    def answer(self, before: str, after: str, heads_up: bool, rolled_past: float) -> Answer:
        """Her best answer with ``before`` the seat before hers (whose claims she faces)
        and ``after`` the seat after (who answers hers). ``rolled_past``: at a bigger
        table, how often she survives a round once the next seat rolled over her claim."""
        return Answer(self, before, after, heads_up, rolled_past)


class Answer:
    """Best responses to one reading, worked out once from the top claim down."""

    def __init__(
        self, reader: Reader, before: str, after: str, heads_up: bool, rolled_past: float
    ) -> None:
        self.reader, self.before, self.after = reader, before, after
        # roll[s]: her chance to win rolling over a standing claim s (N: no claim yet);
        # claim_value[s][d][c]: her chance to win claiming c over s holding d.
        self.roll = [0.0] * (N + 1)
        self.claim_value = [[[0.0] * N for _ in range(N)] for _ in range(N + 1)]
        # later[c]: her chance to win once the next seat rolled over her claim c.
        later = [rolled_past] * N
        for s in [*range(TOP - 1, -1, -1), N]:
            # Her claims over s need later[c] for c > s only: filled on the way down.
            over = None if s == N else s
            first = 0 if s == N else s + 1
            sees = [reader.sees(after, c, over) for c in range(N)]
            total = 0.0
            for d in range(N):
                values = self.claim_value[s][d]
                for c in range(first, TOP):
                    # Seen, she wins with dice at or above her claim; rolled over, later.
                    values[c] = sees[c] * (d >= c) + (1 - sees[c]) * later[c]
                values[TOP] = 1.0 if d == TOP else 0.0  # a 21 is shown at once
                total += P_ROLL[d] * max(values[first:])
            self.roll[s] = total
            if heads_up and s != N:
                later[s] = self._later(s)

    def _later(self, c: int) -> float:
        """Heads-up: the other bot rolls over her claim c and claims; then it is hers."""
        claims = self.reader.claims(self.after, c)
        value = max(0.0, 1.0 - sum(claims))  # the rest: a claim that loses on its own
        for c2 in range(c + 1, N):
            if claims[c2] <= 0:
                continue
            lie = self.reader.lies(self.after, c2, c)
            face = lie if c2 == TOP else max(lie, self.roll[c2])
            value += claims[c2] * face
        return value

    def see(self, claim: int, over: int | None) -> bool:
        """Facing ``claim``: whether seeing it wins more often than rolling over it."""
        return self.reader.lies(self.before, claim, over) > self.roll[claim]

    def best_claim(self, over: int | None, dice: int) -> int:
        """Holding ``dice`` over ``over``: the claim that wins most often."""
        values = self.claim_value[N if over is None else over][dice]
        start = 0 if over is None else over + 1
        return max(range(start, N), key=values.__getitem__)
