"""Skill ratings: one Weng-Lin Plackett-Luce rating (the ``openskill`` library) per
player, per server and per family of rule sets (README, Ratings).

Pure: no storage, no Discord, no clock. Storage keeps each player's ``Skill``; this module
says what a finished table does to them, and how a rating is shown.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: Which rating a rule set's games count towards. Bluffing and calling bluffs is one
#: skill, pressing one's luck on open rolls another (README, Ratings: two
#: families, two ratings).
FAMILY: dict[str, str] = {
    "mexican": "bluff",
    "dollar": "bluff",
    "mexen": "open",
    "mexicanen": "open",
    "mexico": "open",
}
FAMILIES: tuple[str, ...] = ("bluff", "open")

#: openskill's defaults (μ 25, σ 25/3, β 25/6, τ 25/300): ratings equal the library's own.
MODEL = PlackettLuce()
#: Rated games before a rating stops being provisional.
PROVISIONAL_GAMES = 10
#: The shown number: 1,000 + 20 × (μ − 3σ), so a newcomer starts at exactly 1,000.
BASE, SCALE = 1000, 20


def shown(mu: float, sigma: float) -> int:
    """The one familiar number players see: the conservative estimate μ − 3σ, scaled."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class Skill:
    """A player's rating in one family: openskill's μ and σ, and how many rated games."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Skill()


def rate(places: Sequence[tuple[int, int]], prior: Mapping[int, Skill]) -> dict[int, Skill]:
    """Everyone's skill after one finished table.

    ``places`` is ``(rating id, place)`` per seat, best first, ties sharing a place
    (``Game.final_places``); ``prior`` holds the skills before the game (a missing id is a
    newcomer). A table needs two entrants to say anything: with fewer nothing changes.
    Two seats of one computer persona share its rating: each seat is rated from it, and
    the persona keeps the mean of its seats' results.
    """
    if len(places) < 2:
        return {}
    before = {rid: prior.get(rid, NEW) for rid, _ in places}
    rated = plackett_luce(
        [(before[rid].mu, before[rid].sigma) for rid, _ in places], [place for _, place in places]
    )
    if len(before) == len(places):  # one seat each: the seat's result is the rating
        return {
            rid: Skill(mu, sigma, before[rid].games + 1)
            for (rid, _), (mu, sigma) in zip(places, rated, strict=True)
        }
    results: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for (rid, _), seat in zip(places, rated, strict=True):
        results[rid].append(seat)
    return {
        rid: Skill(
            sum(m for m, _ in seats) / len(seats),
            sum(s for _, s in seats) / len(seats),
            before[rid].games + 1,
        )
        for rid, seats in results.items()
    }


_TAU_SQUARED = MODEL.tau * MODEL.tau
_BETA_SQUARED = MODEL.beta**2


def plackett_luce(
    skills: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """``MODEL.rate`` for a table of one-player teams ranked by place: each seat's (μ, σ)
    after the game, in the order given.

    The library's operations in the library's order, so the very same floats: a test
    compares them with ``==`` over a thousand random tables, ties included, against the
    installed openskill. Why not call it: its ``rate`` deep-copies every rating and draws
    a fresh uuid for each copy, 90 µs a table of five against 11 µs for the arithmetic,
    which the backfill pays 100,000 times (README, Benchmarks: The league). With one
    player per team a team's sums are its player's own values; and openskill 6.2's
    averaging of tied seats' μ changes reads each seat against itself, so it changes
    nothing, and nor does this.
    """
    n = len(skills)
    order = sorted(range(n), key=ranks.__getitem__)  # stable, as the library sorts by rank
    mus = [skills[i][0] for i in order]
    sigmas = [math.sqrt(skills[i][1] * skills[i][1] + _TAU_SQUARED) for i in order]
    squares = [sigma**2 for sigma in sigmas]
    place = [ranks[i] for i in order]
    total = 0.0
    for square in squares:
        total += square + _BETA_SQUARED
    c = math.sqrt(total)
    strengths = [math.exp(mu / c) for mu in mus]
    # Per seat q: the strengths of everyone placed at q's place or below, summed best first.
    below: list[float] = []
    shared: list[int] = []
    for q in range(n):
        if q and place[q] == place[q - 1]:
            below.append(below[-1])
            continue
        summed = strengths[q]
        for i in range(q + 1, n):
            summed += strengths[i]
        below.append(summed)
    for q in range(n):
        shared.append(place.count(place[q]))
    after: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for i in range(n):
        omega = 0.0
        delta = 0.0
        for q in range(n):
            if place[q] > place[i]:
                break
            share = strengths[i] / below[q]
            delta += share * (1 - share) / shared[q]
            if q == i:
                omega += (1 - share) / shared[q]
            else:
                omega -= share / shared[q]
        omega *= squares[i] / c
        delta *= squares[i] / c**2
        delta *= math.sqrt(squares[i]) / c
        ratio = sigmas[i] ** 2 / squares[i]
        after[order[i]] = (
            mus[i] + ratio * omega,
            sigmas[i] * math.sqrt(max(1 - ratio * delta, MODEL.kappa)),
        )
    return after


def widened(skill: Skill) -> Skill:
    """A skill carried into a new season: σ goes halfway back to a newcomer's, so the
    shown rating drops and a few good games climb it back; μ, what the games taught, stays.
    """
    return Skill(skill.mu, skill.sigma + (MODEL.sigma - skill.sigma) / 2, skill.games)


#: Discord's epoch: a Discord id's top bits are the milliseconds since it when the account
#: was made (docs/league.md, Farming: new accounts lend little).
DISCORD_EPOCH_MS = 1_420_070_400_000
#: An opponent account younger than this many days lends a share of a game in proportion
#: to its age...
FULL_LEND_DAYS = 30.0
#: ...but never less than this share (an account 7 hours old or younger): a real newcomer
#: still counts for something, and a fresh account per game counts for next to nothing.
MIN_LEND = 0.01
_DAY_SECONDS = 86_400.0


def created_at(user_id: int) -> float:
    """When a Discord account was made (seconds since 1970), read off its id."""
    return ((user_id >> 22) + DISCORD_EPOCH_MS) / 1000


def lend(rid: int, at: float, full_days: float = FULL_LEND_DAYS) -> float:
    """How much of a game against ``rid`` moves a rating at ``at``: a computer persona
    (a negative id) and an account ``full_days`` old or more lend all of it, a younger
    account its age's share of that, at least `MIN_LEND` (``full_days`` 0: all lend all,
    the server's NEW_ACCOUNT_DAYS setting)."""
    if rid <= 0 or full_days <= 0:
        return 1.0
    age = (at - created_at(rid)) / _DAY_SECONDS
    return min(1.0, max(MIN_LEND, age / full_days))


def damped(before: Skill, after: Skill, weight: float) -> Skill:
    """``after`` moved only ``weight`` of the way from ``before`` (μ and σ alike); the
    game still counts as played."""
    if weight >= 1.0:
        return after
    return Skill(
        before.mu + weight * (after.mu - before.mu),
        before.sigma + weight * (after.sigma - before.sigma),
        after.games,
    )
