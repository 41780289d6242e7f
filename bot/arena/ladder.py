"""The arena's ladder (README, Bot arena: The ladder): each round rated as the league
rates a table, and stored before anyone is told its result.

A round is a table with two places: every player who did not lose shares first, every
loser shares second; the ratings are the league's (``bot/league/ratings.py``: openskill's
Plackett-Luce, shown as 1,000 + 20 × (μ − 3σ)), one per bot name.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from bot.arena.server import RoundResult
from bot.league.ratings import Skill, rate
from bot.storage import Storage
from bot.storage.arena_queries import ArenaBot, ArenaRound, Rater


def rater(seats: tuple[str, ...], losers: tuple[str, ...]) -> Rater:
    """How one round moves its seats' ratings: survivors share first place, losers second."""

    def rated(prior: Mapping[str, ArenaBot | None]) -> dict[str, tuple[float, float, int]]:
        ids = {name: i for i, name in enumerate(seats)}
        skills = {
            ids[name]: Skill(bot.mu, bot.sigma, bot.rounds)
            for name, bot in prior.items()
            if bot is not None
        }
        after = rate([(ids[name], 2 if name in losers else 1) for name in seats], skills)
        return {name: (s.mu, s.sigma, s.shown) for name in seats for s in (after[ids[name]],)}

    return rated


class Ladder:
    """The server's recorder: scores each round in storage, numbers rounds on from it."""

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock

    async def last_round(self) -> int:
        return await self.storage.last_arena_round()

    async def record(self, result: RoundResult) -> dict[str, int]:
        """Store the round; each seat's points after it, as stored."""
        played = ArenaRound(
            result.number,
            self.clock(),
            result.seats,
            result.lost.players,
            str(result.lost.reason),
        )
        after = await self.storage.record_arena_round(
            played, rater(result.seats, result.lost.players)
        )
        return {name: bot.points for name, bot in after.items()}


async def ladder_text(storage: Storage, limit: int = 50) -> str:
    """The ladder as the operator reads it: rank, bot, rating, rounds, points and how
    each bot lost, best first."""
    bots = await storage.arena_ladder(limit)
    if not bots:
        return "No arena rounds played yet."
    losses = await storage.arena_losses([b.name for b in bots])
    lines = [f"{'#':>3}  {'bot':<20} {'rating':>6} {'rounds':>7} {'points':>7} {'share':>6}  lost"]
    for rank, bot in enumerate(bots, 1):
        share = bot.points / bot.rounds if bot.rounds else 0.0
        lost = ", ".join(
            f"{reason} {n}"
            for reason, n in sorted(losses[bot.name].items(), key=lambda item: -item[1])
        )
        lines.append(
            f"{rank:>3}  {bot.name:<20} {bot.shown:>6} {bot.rounds:>7} {bot.points:>7}"
            f" {share:>6.1%}  {lost}"
        )
    return "\n".join(lines)
