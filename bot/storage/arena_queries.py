"""The bot arena's ladder (README, Bot arena: The ladder): its one write, scoring a
round, and its reads.

Storage decides nothing here: how a round moves ratings is the caller's ``rater``, a pure
function the write calls between reading the seats' rows and writing them, all in one
transaction under the arena's lock. The round's row goes in first: a round number
already stored fails the write as a whole, so a round is counted once or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.dialect import ARENA_LOCK
from bot.storage.driver import Driver
from bot.storage.plan import Execute, FetchAll, Plan


@dataclass(frozen=True, slots=True)
class ArenaBot:
    """A bot's line on the ladder."""

    name: str
    mu: float
    sigma: float
    shown: int
    rounds: int
    points: int


@dataclass(frozen=True, slots=True)
class ArenaRound:
    """A finished round as it is stored: its number, seats in order, who lost and why."""

    round_no: int
    ended_at: float
    seats: tuple[str, ...]
    losers: tuple[str, ...]
    reason: str


#: The seats' skills after a round, from their rows before it (None: a newcomer):
#: ``(mu, sigma, shown)`` per seat.
Rater = Callable[[Mapping[str, ArenaBot | None]], Mapping[str, tuple[float, float, int]]]

_BOT_COLUMNS = "name, mu, sigma, shown, rounds, points"
_UPSERT_BOT = (
    "INSERT INTO arena_bots (name, mu, sigma, shown, rounds, points, last_round)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, shown = excluded.shown, rounds = excluded.rounds,"
    " points = excluded.points, last_round = excluded.last_round"
)
_ADD_LOSS = (
    "INSERT INTO arena_losses (name, reason, n) VALUES (?, ?, 1)"
    " ON CONFLICT (name, reason) DO UPDATE SET n = arena_losses.n + 1"
)


def _bot(row: Any) -> ArenaBot:
    return ArenaBot(
        str(row[0]), float(row[1]), float(row[2]), int(row[3]), int(row[4]), int(row[5])
    )


def _record(played: ArenaRound, rater: Rater) -> Plan[dict[str, ArenaBot]]:
    yield Execute(
        "INSERT INTO arena_rounds (round_no, ended_at, seats, losers, reason)"
        " VALUES (?, ?, ?, ?, ?)",
        (
            played.round_no,
            played.ended_at,
            ",".join(played.seats),
            ",".join(played.losers),
            played.reason,
        ),
    )
    marks = ", ".join("?" * len(played.seats))
    rows = yield FetchAll(
        f"SELECT {_BOT_COLUMNS} FROM arena_bots WHERE name IN ({marks})", played.seats
    )
    prior: dict[str, ArenaBot] = {bot.name: bot for bot in map(_bot, rows)}
    rated = rater({name: prior.get(name) for name in played.seats})
    after: dict[str, ArenaBot] = {}
    for name in played.seats:
        old = prior.get(name)
        mu, sigma, shown = rated[name]
        bot = ArenaBot(
            name,
            mu,
            sigma,
            shown,
            (old.rounds if old else 0) + 1,
            (old.points if old else 0) + (name not in played.losers),
        )
        yield Execute(
            _UPSERT_BOT, (name, mu, sigma, shown, bot.rounds, bot.points, played.round_no)
        )
        after[name] = bot
    for name in played.losers:
        yield Execute(_ADD_LOSS, (name, played.reason))
    return after


class ArenaQueries:
    """The arena's queries over one `Driver`; SQL in SQLite's style."""

    def __init__(self, db: Driver) -> None:
        self._db = db

    async def record_arena_round(self, played: ArenaRound, rater: Rater) -> dict[str, ArenaBot]:
        """Score one round in one transaction: its row, the seats' ratings, rounds and
        points, the losers' reason; the seats' lines after it."""
        return await self._db.run(_record(played, rater), ARENA_LOCK)

    async def last_arena_round(self) -> int:
        """The highest round number stored (0 for none): a restarted server numbers on."""
        row = await self._db.fetchone("SELECT MAX(round_no) FROM arena_rounds", ())
        return int(row[0]) if row and row[0] is not None else 0

    async def arena_ladder(self, limit: int) -> list[ArenaBot]:
        """The best ``limit`` bots by shown rating."""
        rows = await self._db.fetchall(
            f"SELECT {_BOT_COLUMNS} FROM arena_bots ORDER BY shown DESC, name LIMIT ?", (limit,)
        )
        return [_bot(r) for r in rows]

    async def arena_bot(self, name: str) -> ArenaBot | None:
        row = await self._db.fetchone(
            f"SELECT {_BOT_COLUMNS} FROM arena_bots WHERE name = ?", (name,)
        )
        return _bot(row) if row else None

    async def arena_losses(self, names: Sequence[str]) -> dict[str, dict[str, int]]:
        """How often each of ``names`` lost each way."""
        if not names:
            return {}
        marks = ", ".join("?" * len(names))
        rows = await self._db.fetchall(
            f"SELECT name, reason, n FROM arena_losses WHERE name IN ({marks})", tuple(names)
        )
        losses: dict[str, dict[str, int]] = {name: {} for name in names}
        for name, reason, n in rows:
            losses[str(name)][str(reason)] = int(n)
        return losses
