"""Skill ratings: one Weng-Lin Plackett-Luce rating (the ``openskill`` library) per
player, per server and per family of rule sets (README, Ratings, seasons and
achievements).

Pure: no storage, no Discord, no clock. Storage keeps each player's ``Skill``; this module
says what a finished table does to them, and how a rating is shown.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: Which rating a rule set's games count towards. Bluffing and calling bluffs is one
#: skill, pressing one's luck on open rolls another (README, Ratings, seasons and
#: achievements: why two ratings).
FAMILY: dict[str, str] = {
    "mexican": "bluff", "dollar": "bluff",
    "mexen": "open", "mexicanen": "open", "mexico": "open",
}  # fmt: skip
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
    teams = [[MODEL.rating(mu=(s := prior.get(i, NEW)).mu, sigma=s.sigma)] for i, _ in places]
    rated = MODEL.rate(teams, ranks=[float(place) for _, place in places])
    results: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for (rid, _), team in zip(places, rated, strict=True):
        results[rid].append((team[0].mu, team[0].sigma))
    return {
        rid: Skill(
            sum(m for m, _ in seats) / len(seats),
            sum(s for _, s in seats) / len(seats),
            prior.get(rid, NEW).games + 1,
        )
        for rid, seats in results.items()
    }


def widened(skill: Skill) -> Skill:
    """A skill carried into a new season: σ goes halfway back to a newcomer's, so the
    shown rating drops and a few good games climb it back; μ, what the games taught, stays.
    """
    return Skill(skill.mu, skill.sigma + (MODEL.sigma - skill.sigma) / 2, skill.games)
