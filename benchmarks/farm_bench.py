"""Farming the league: how far each way of bending results gets in hours of play, against
playing honestly (docs/league.md, Farming, and docs/benchmarks.md).

The table service and the league are built as the running bot builds them (a
`TableService` with its `League`, on a SQLite file), under a fake clock that an effort
model advances: seconds per table opened, per move of a person, per computer move
waited for, per `/endgame` or `/leave`. People and computers move by the computers' own
brain (the farmer plays as a computer would, the default persona), so the honest
baseline is a decent player; a second account that throws games plays to lose, with the
farmer told its cup (collusion). Only the clicks are skipped: no Discord, no messages.

    .venv/bin/python -m benchmarks.farm_bench [--hours 3] [--seeds 3] [--attempt NAME ...]

Prints, per attempt, the farmer's bluffing rating after 1 and 3 hours (the mean over the
seeds), wins per hour, the gain over honest play after 3 hours, and when the farmer
earned First blood and Ten-time champ. Run it on another checkout (`PYTHONPATH=...`) to
compare code bases: it uses only what both have.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from bot.ai import brain, knowledge
from bot.engine import Act, Game, Move
from bot.engine.rolls import RANK
from bot.game.tables import TableService
from bot.league.service import League
from bot.storage import Storage, open_storage

GUILD = 900
#: The farmer and a second account of theirs: Discord ids of accounts made in 2021.
FARMER = "800000000000000001"
ALT = "800000000000000002"
PERSONAS = ("expert", "cautious", "bold", "caller")
#: Every table of one to four personas: 15 sets.
PERSONA_SETS = [list(s) for n in range(1, 5) for s in combinations(PERSONAS, n)]
START = 1_796_000_000.0  # 2026-11-30 00:53 UTC: November's season has 23 hours left
#: An hour before that season ends: a session across the boundary (its close widens σ).
LAST_HOUR = 1_796_083_200.0 - 3600
DISCORD_EPOCH_MS = 1_420_070_400_000


@dataclass(frozen=True, slots=True)
class Effort:
    """Seconds of the farmer's time each thing costs (the fake clock's steps)."""

    open: float = 20.0  # /newgame, /addbot or a join, /start
    move: float = 4.0  # one click of a person
    computer: float = 2.0  # waiting for a computer's move
    end: float = 5.0  # /endgame or /leave


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def fresh_account(at: float, n: int) -> str:
    """A Discord id of an account made an hour before ``at`` (the n-th of that hour)."""
    made = int((at - 3600) * 1000) - DISCORD_EPOCH_MS
    return str((made << 22) + n)


@dataclass
class Farm:
    """One farmer's session: the bot's table service and league on their own database."""

    storage: Storage
    service: TableService
    clock: Clock
    rng: random.Random
    effort: Effort
    games: int = 0
    channel: int = 100
    #: (seconds since the start, rating, wins) after each game.
    trace: list[tuple[float, int, int]] = field(default_factory=list)

    def spend(self, seconds: float) -> None:
        self.clock.now += seconds

    start: float = START

    @property
    def elapsed(self) -> float:
        return self.clock.now - self.start

    async def act(self, player: str, move: Move) -> None:
        await self.service.act(self.channel, player, move, self.clock.now)

    async def rating(self) -> int:
        rows = await self.storage._fetchall(
            "SELECT shown FROM ratings WHERE guild_id = ? AND family = 'bluff' AND user_id = ?",
            (GUILD, int(FARMER)),
        )
        return int(rows[0][0]) if rows else 1000

    async def wins(self) -> int:
        return (await self.storage.player_totals(GUILD, int(FARMER))).games_won

    async def achieved(self, key: str) -> bool:
        rows = await self.storage._fetchall(
            "SELECT 1 FROM achievements WHERE guild_id = ? AND user_id = ? AND key = ?",
            (GUILD, int(FARMER), key),
        )
        return bool(rows)


#: What the farmer does before a move of theirs: None (play on), or END / LEAVE.
Exit = Callable[[Game], Act | None]


def behind(game: Game) -> bool:
    """Whether the farmer trails someone still seated: fewer lives, or more drunk."""
    me = game.players[FARMER]
    others = [game.players[p] for p in game.seats if p != FARMER]
    if not others:
        return False
    if game.options.lives is not None:
        return (me.lives or 0) < max(o.lives or 0 for o in others)
    return _drunk(me.totals) > min(_drunk(o.totals) for o in others)


def ahead(game: Game) -> bool:
    me = game.players[FARMER]
    others = [game.players[p] for p in game.seats if p != FARMER]
    if game.options.lives is not None:
        return (me.lives or 0) > max(o.lives or 0 for o in others)
    return _drunk(me.totals) < min(_drunk(o.totals) for o in others)


def _drunk(totals: dict[str, int]) -> int:
    return sum(n for unit, n in totals.items() if unit != "life")


def played(game: Game) -> int:
    return game.played_rounds or 0


def never(game: Game) -> Act | None:
    return None


def dodge(game: Game) -> Act | None:
    """End the game before its 5th decided round whenever behind."""
    return Act.END if played(game) < 5 and behind(game) else None


def leave_any(game: Game) -> Act | None:
    """Walk away whenever behind, at any round."""
    return Act.LEAVE if played(game) >= 1 and behind(game) else None


def bank(game: Game) -> Act | None:
    """Without lives: end it once ahead after 5 decided rounds (or give up after 40)."""
    if played(game) >= 40 or (played(game) >= 5 and ahead(game)):
        return Act.END
    return None


def dodge_and_bank(game: Game) -> Act | None:
    if played(game) >= 5 and ahead(game):
        return Act.END
    return dodge(game)


def thrown(game: Game, player: str, rng: random.Random) -> Move:
    """A colluding account's move that loses: it calls a true claim, accepts a lie and
    claims the top, so the farmer (told its cup) calls it."""
    moves = game.legal_actions(player)
    acts = {m.act for m in moves}
    standing = game.standing
    if Act.BULLSHIT in acts and standing is not None and game.cup is not None:
        lie = RANK[standing] > RANK[game.cup]
        if not lie:
            return Move(Act.BULLSHIT)
    claims = [m for m in moves if m.act is Act.CLAIM]
    if claims:
        return max(claims, key=lambda m: RANK[m.roll] if m.roll else 0)
    for act in (Act.ROLL, Act.ACCEPT, Act.FOLD):
        if act in acts:
            return Move(act)
    return rng.choice(moves)


def farmer_move(game: Game, rng: random.Random, colluding: bool) -> Move:
    """The farmer plays as the default computer persona would; answering a colluding
    account, they call its claim exactly when it is a lie (they were told its cup)."""
    acts = {m.act for m in game.legal_actions(FARMER)}
    if colluding and Act.BULLSHIT in acts and _alt_claimed(game):
        standing, cup = game.standing, game.cup
        if standing is not None and cup is not None and RANK[standing] > RANK[cup]:
            return Move(Act.BULLSHIT)
    return _brain(game, FARMER, rng)


def _alt_claimed(game: Game) -> bool:
    return (
        game.claimer is not None and game.claimer != FARMER and game.claimer not in game.computers
    )


def _brain(game: Game, seat: str, rng: random.Random) -> Move:
    move = brain.decide(knowledge.inputs(game, seat), rng)
    if move is None:
        return rng.choice(game.legal_actions(seat))
    return move


@dataclass(frozen=True, slots=True)
class Attempt:
    """A way to farm: the tables it opens, one after another, and what the farmer does."""

    name: str
    what: str
    #: (game number, clock) -> (accounts besides the farmer, computer personas, options)
    table: Callable[[int, float], tuple[list[str], list[str], dict[str, object]]]
    exit: Exit = never
    #: Accounts besides the farmer throw their games.
    throws: bool = False
    #: Tables in several channels at once: the farmer clicks in one while the computers
    #: of the others think, so a computer's move costs no time of theirs.
    parallel: bool = False
    start: float = START


def honest_table(n: int, at: float) -> tuple[list[str], list[str], dict[str, object]]:
    return [], [PERSONAS[n % 4]], {"lives": 3}


def no_lives_table(n: int, at: float) -> tuple[list[str], list[str], dict[str, object]]:
    return [], [PERSONAS[n % 4]], {"lives": False}


def every_set(n: int, at: float) -> tuple[list[str], list[str], dict[str, object]]:
    return [], PERSONA_SETS[n % len(PERSONA_SETS)], {"lives": 3}


def alt_swapped(n: int, at: float) -> tuple[list[str], list[str], dict[str, object]]:
    """The farmer and their second account, and one computer swapped every 10 games."""
    return [ALT], [PERSONAS[(n // 10) % 4]], {"lives": 1}


def fresh_alt(n: int, at: float) -> tuple[list[str], list[str], dict[str, object]]:
    return [fresh_account(at, n)], [], {"lives": 1}


_CHANNELS = "dodge at tables in several channels at once (no waiting for computers)"
_SEASON = "dodge, starting an hour before the season ends"
ATTEMPTS: dict[str, Attempt] = {
    a.name: a
    for a in (
        Attempt(
            "honest", "plays every game out against one computer, the four in turn", honest_table
        ),
        Attempt(
            "dodge", "/endgame before the 5th decided round whenever behind", honest_table, dodge
        ),
        Attempt("leave", "/leave whenever behind, at any round", honest_table, leave_any),
        Attempt("bank", "no lives: ends it only when ahead, after 5 rounds", no_lives_table, bank),
        Attempt(
            "rotate", "dodge and bank over all 15 sets of the 4 personas", every_set, dodge_and_bank
        ),
        Attempt(
            "alt",
            "a second account throws, one computer swapped every 10 games",
            alt_swapped,
            throws=True,
        ),
        Attempt(
            "fresh", "a fresh account (an hour old) per game throws it", fresh_alt, throws=True
        ),
        Attempt("channels", _CHANNELS, honest_table, dodge, parallel=True),
        Attempt("season", _SEASON, honest_table, dodge, start=LAST_HOUR),
    )
}


async def play(farm: Farm, attempt: Attempt) -> None:
    """One game of the attempt, from /newgame to its end."""
    others, personas, options = attempt.table(farm.games, farm.clock.now)
    farm.games += 1
    service, effort = farm.service, farm.effort
    await service.open_table(
        GUILD, farm.channel, FARMER, "mexican", {"turn_timer": 0, **options}, farm.clock.now
    )
    for account in others:
        await farm.act(account, Move(Act.JOIN))
    for n, persona in enumerate(personas, start=1):
        await farm.act(FARMER, Move(Act.ADD_COMPUTER, to=f"cpu_{persona}_{n}"))
    await farm.act(FARMER, Move(Act.START))
    farm.spend(effort.open)
    for _ in range(5000):
        table = service.get(farm.channel)
        if table is None or table.game.phase != "playing":
            return
        game = table.game
        mover = game.to_move
        assert mover is not None
        if FARMER in game.seats and (way := attempt.exit(game)) is not None:
            await farm.act(FARMER, Move(way))
            farm.spend(effort.end)
            continue
        if mover == FARMER:
            move = farmer_move(game, farm.rng, attempt.throws)
            farm.spend(effort.move)
        elif mover in game.computers:
            move = _brain(game, mover, farm.rng)
            farm.spend(0.0 if attempt.parallel else effort.computer)
        elif attempt.throws:
            move = thrown(game, mover, farm.rng)
            farm.spend(effort.move)
        else:
            move = _brain(game, mover, farm.rng)
            farm.spend(effort.move)
        await farm.act(mover, move)
    raise AssertionError("a game did not end")


@dataclass(frozen=True, slots=True)
class Outcome:
    rating_1h: int
    rating_end: int
    wins_per_hour: float
    first_win_h: float | None
    ten_wins_h: float | None


async def run(attempt: Attempt, seed: int, hours: float, effort: Effort) -> Outcome:
    """The farmer's session of ``hours`` hours of the attempt, on a new database."""
    with tempfile.TemporaryDirectory() as folder:
        clock = Clock(attempt.start)
        storage = await open_storage(str(Path(folder) / "farm.db"), clock=clock)
        try:
            league = League(storage, clock=clock)
            service = TableService(storage, random.Random(seed), league=league)
            farm = Farm(storage, service, clock, random.Random(seed + 1000), effort)
            farm.start = attempt.start
            rating_1h: int | None = None
            first: float | None = None
            ten: float | None = None
            while farm.elapsed < hours * 3600:
                await play(farm, attempt)
                if rating_1h is None and farm.elapsed >= 3600:
                    rating_1h = await farm.rating()
                if first is None and await farm.achieved("first_win"):
                    first = farm.elapsed / 3600
                if ten is None and await farm.achieved("ten_wins"):
                    ten = farm.elapsed / 3600
            wins = await farm.wins()
            return Outcome(
                rating_1h if rating_1h is not None else await farm.rating(),
                await farm.rating(),
                wins / (farm.elapsed / 3600),
                first,
                ten,
            )
        finally:
            await storage.close()


async def measure(
    names: Sequence[str], seeds: int, hours: float, effort: Effort
) -> dict[str, list[Outcome]]:
    results: dict[str, list[Outcome]] = {}
    for name in names:
        results[name] = [await run(ATTEMPTS[name], seed, hours, effort) for seed in range(seeds)]
    return results


def report(results: dict[str, list[Outcome]], hours: float) -> str:
    """The table docs/league.md quotes (means over the seeds)."""
    honest = (
        statistics.mean(o.rating_end for o in results["honest"]) if "honest" in results else None
    )
    lines = [
        f"| attempt | rating after 1 h | rating after {hours:g} h | over honest | wins an hour"
        " | First blood | Ten-time champ |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, outcomes in results.items():
        end = statistics.mean(o.rating_end for o in outcomes)
        gain = "" if honest is None or name == "honest" else f"{end - honest:+,.0f}"
        hour = statistics.mean(o.rating_1h for o in outcomes)
        wins = statistics.mean(o.wins_per_hour for o in outcomes)
        first = _when([o.first_win_h for o in outcomes])
        ten = _when([o.ten_wins_h for o in outcomes])
        lines.append(
            f"| {name}: {ATTEMPTS[name].what} | {hour:,.0f} | {end:,.0f} | {gain} | {wins:.1f}"
            f" | {first} | {ten} |"
        )
    return "\n".join(lines)


def _when(hours: Sequence[float | None]) -> str:
    """When an achievement came, the mean over the seeds that earned it ("(2 of 3)")."""
    got = [h for h in hours if h is not None]
    if not got:
        return "never"
    some = "" if len(got) == len(hours) else f" ({len(got)} of {len(hours)})"
    return f"{statistics.mean(got) * 60:.0f} min{some}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--attempt", action="append", choices=list(ATTEMPTS))
    args = parser.parse_args()
    names = args.attempt or list(ATTEMPTS)
    if "honest" not in names:
        names = ["honest", *names]
    started = time.perf_counter()
    results = asyncio.run(measure(names, args.seeds, args.hours, Effort()))
    print(report(results, args.hours))
    print(f"({args.seeds} seeds, {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
