"""How a person has played lately, against how their record says they play (README,
Playing against the computer: "Safe exploitation").

Expert Ada's best answer to a person is an answer to their all-time record. Someone who
knows her code can show one style for long enough that she leans into the answer, then
switch to the style that punishes the lean; the all-time record follows the switch only
slowly. Their recent play does not: a few games of the new style already differ from the
record by more than chance allows. So the computer players keep, per person, a few
snapshots of the public record as it grows (:class:`RecentPlay`), and read the last
``SPAN`` of that person's claims and answers off it; :func:`drifted` asks whether those
differ from the record beyond chance. While they do, she plays the solved strategy
against that person, whom her reading no longer describes.

Results would say the same, but far too slowly: a round is won or lost by luck as much
as by play, and a few hundred rounds hide an edge of a tenth of a round. Every claim and
answer, by contrast, is an observation of how someone plays.

The snapshots are counters anyone can read off the public statistics over time, so the
memory holds nothing hidden. It lives in the process, not the database: after a restart
it is empty, and until it spans ``SPAN`` new observations of a person she reads them as
before this check (the all-time record and her bank, :mod:`bot.ai.bluff`).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import fields
from typing import Any

from bot.ai import bank
from bot.ai.opponents import Profile

#: The claims and answers a person's recent play is read over (about four heads-up games).
SPAN = 60
#: A snapshot is kept each time the record grew by this many observations.
STEP = 10
#: Once recent play has left the record, the record stays doubted for this many more
#: observations (about forty heads-up games): someone who alternates styles leaves a
#: record that is a blend of them, which the newest style soon differs from too little
#: to show, though the blend still describes neither.
LATCH = 600
#: People remembered at once per process (the least recently read are forgotten first:
#: a few kilobytes each; one forgotten is read with the bank alone until the memory
#: spans ``SPAN`` of their observations again).
PEOPLE = 5000
#: How unlikely a difference between recent play and the record must be under chance
#: before she stops trusting the record (a one-sided normal quantile: 0.001).
Z = 3.09


def observations(profile: Profile) -> int:
    """Claims seen and answers made: what a record has seen of how someone plays."""
    return profile.seen_claims + profile.answers


def minus(newer: Profile, older: Profile) -> Profile:
    """The counts made between two snapshots of the same record."""
    out: dict[str, Any] = {}
    for f in fields(Profile):
        a, b = getattr(newer, f.name), getattr(older, f.name)
        out[f.name] = (
            tuple(x - y for x, y in zip(a, b, strict=True)) if isinstance(a, tuple) else a - b
        )
    return Profile(**out)


class RecentPlay:
    """Per person, snapshots of their record as it grew, and when their recent play last
    left it: whether her reading of them is in doubt now."""

    def __init__(
        self, span: int = SPAN, step: int = STEP, latch: int = LATCH, people: int = PEOPLE
    ) -> None:
        self.span = span
        self.step = step
        self.latch = latch
        self.people = people
        self._snaps: dict[Hashable, deque[Profile]] = {}
        #: Per person, the observation count at which their play last left the record.
        self._left: dict[Hashable, int] = {}
        #: Per person, her all-time bank when last read and her running bank then
        #: (:mod:`bot.ai.bank`).
        self._bank: dict[Hashable, tuple[float, float]] = {}

    def update(self, key: Hashable, profile: Profile) -> bool:
        """Note ``profile`` as ``key``'s record now; whether it is in doubt."""
        snaps = self._snaps.pop(key, None)
        if snaps is None:
            snaps = deque(maxlen=self.span // self.step + 2)
            if len(self._snaps) >= self.people:
                oldest = next(iter(self._snaps))
                del self._snaps[oldest]
                self._left.pop(oldest, None)
                self._bank.pop(oldest, None)
        self._snaps[key] = snaps  # the most recently read last
        now = observations(profile)
        if snaps and observations(snaps[-1]) > now:
            snaps.clear()  # the statistics were reset
            self._left.pop(key, None)
            self._bank.pop(key, None)
        if not snaps or now - observations(snaps[-1]) >= self.step:
            snaps.append(profile)
        if drifted(profile, self.recent(key, profile)):
            self._left[key] = now
            return True
        return self._latched(key, now)

    def doubted(self, key: Hashable, profile: Profile) -> bool:
        """Whether ``key``'s recent play left their record within the last ``latch``
        observations (or does now), noting nothing: what :meth:`update` answers, for an
        adversary in the arena that knows her memory (README, Benchmarks: Computer
        players)."""
        return self._latched(key, observations(profile)) or drifted(
            profile, self.recent(key, profile)
        )

    def spend(self, key: Hashable, won: float) -> float:
        """Note ``won`` as her all-time bank against ``key`` now; her running bank
        (:func:`bot.ai.bank.carry`), from the seed the first time."""
        now = self.bank(key, won)
        if key in self._snaps:  # remembered with the person, forgotten with them
            self._bank[key] = (won, now)
        return now

    def bank(self, key: Hashable, won: float) -> float:
        """Her running bank against ``key`` if her all-time bank is ``won`` now, noting
        nothing: what :meth:`spend` answers, for an adversary in the arena."""
        last = self._bank.get(key)
        if last is None:
            return bank.opening(won)
        return bank.carry(last[1], last[0], won)

    def _latched(self, key: Hashable, now: int) -> bool:
        left = self._left.get(key)
        return left is not None and 0 <= now - left < self.latch

    def recent(self, key: Hashable, profile: Profile) -> Profile | None:
        """``key``'s play over at least their last ``span`` observations (None while the
        memory does not reach that far)."""
        now = observations(profile)
        for old in reversed(self._snaps.get(key, ())):
            if now - observations(old) >= self.span:
                return minus(profile, old)
        return None


def _pairs(profile: Profile) -> Iterator[tuple[int, int]]:
    """(times, out of) for each rate the reading of a person rests on."""
    yield profile.free_bluffs, profile.free_claims
    yield profile.free_unders, profile.free_claims
    yield profile.forced_raises, profile.forced_claims
    yield profile.forced_folds, profile.forced_claims + profile.forced_folds
    yield from zip(profile.called, profile.faced, strict=True)


def _g(k1: int, n1: int, k0: int, n0: int) -> float:
    """The likelihood-ratio statistic of two binomial rates being one: 0 when they are
    equal, a rate of 0 or 1 included (an empty cell adds nothing)."""
    cells = ((k1, n1 - k1), (k0, n0 - k0))
    total = n1 + n0
    col = (k1 + k0, total - k1 - k0)
    g = 0.0
    for row, size in zip(cells, (n1, n0), strict=True):
        for observed, column in zip(row, col, strict=True):
            if observed:
                g += observed * math.log(observed * total / (size * column))
    return 2 * g


def drifted(record: Profile, recent: Profile | None) -> bool:
    """Whether ``recent`` play differs from the rest of ``record`` by more than chance
    (a G-test over the rates the reading uses, at the ``Z`` level for their number)."""
    return strain(record, recent) > 1


def strain(record: Profile, recent: Profile | None) -> float:
    """The G statistic of ``recent`` play against the rest of ``record`` over the level
    :func:`drifted` flags at: above 1 is a drift (0 with nothing to compare)."""
    if recent is None:
        return 0.0
    rest = minus(record, recent)
    g, used = 0.0, 0
    for (k1, n1), (k0, n0) in zip(_pairs(recent), _pairs(rest), strict=True):
        if n1 > 0 and n0 > 0:
            g += _g(k1, n1, k0, n0)
            used += 1
    if used == 0:
        return 0.0
    # Wilson and Hilferty's normal approximation of the chi-squared quantile.
    q = used * (1 - 2 / (9 * used) + Z * math.sqrt(2 / (9 * used))) ** 3
    return g / q
