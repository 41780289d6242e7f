"""The league's write side: the work at a game's end, and the backfill of old games.

    taskset -c 0 .venv/bin/python -m benchmarks.league_bench [--games 100000]
        [--templates 300] [--guilds 50] [--end-games 200]
        [--database postgresql://user@host/db | --database postgres] [--only end|backfill]

(a) Game end: ``--end-games`` real 8-player games (engine, seeded dice and choices) are
stored move by move through `TableService`, as the bot stores them, with a pool of 30
people and a computer on one server; then `League.game_over` (what the table service
calls after a game's last move, with what it calls it) is timed on each, in the order
they ended: p50 and p95, and the CPU it took (the bot's process; a throwaway server's too).
Target: at most 5 ms.

(b) Backfill: ``--templates`` real games of 2 to 8 seats (people and computers, every
rule set, 1 to 3 lives) are played through `TableService` into a scratch SQLite file;
``--games`` copies of them (their state and full event log, people renamed to each
server's own pool) are bulk-loaded (`Storage.load_rows`, the path migrate-db uses) under
new ids, over ``--guilds`` servers and five channels each, ending over twelve months.
Then a fresh `League.catch_up` rates them all, as the first start after schema step 8
does (closing eleven seasons a server on the way), and runs again (nothing to do).
Target: 100,000 games in at most 60 s on one core.

``--database postgres`` starts a throwaway PostgreSQL server for the run
(``benchmarks.databases``); its CPU is reported beside the bot's.
"""

from __future__ import annotations

import argparse
import gc
import random
import re
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from benchmarks import running
from benchmarks.databases import THROWAWAY, Postgres, postgres
from bot.game.tables import TableService
from bot.league.service import League
from bot.storage import Storage, open_storage
from tests.league_games import PEOPLE, play_game

START = 1_767_225_600.0  # 2026-01-01 UTC
YEAR = 365 * 86400.0
PRESETS = ("mexican", "dollar", "mexen", "mexicanen", "mexico")
COMPUTERS = ("cpu_expert_1", "cpu_bold_1", "cpu_cautious_1", "cpu_caller_1")
#: A template's people, as they appear in its state and log (PEOPLE's fixed width).
SPLIT = re.compile(r"(8000000000000000\d\d)")


async def game_end(url: str, games: int, server: Postgres | None) -> None:
    store = await open_storage(url)
    try:
        service = TableService(store, random.Random(1))  # no league: timed below instead
        rng = random.Random(2)
        ids = []
        for n in range(games):
            players = [*rng.sample(PEOPLE[:30], 7), "cpu_expert_1"]
            outcome = await play_game(
                service,
                1,
                100 + n % 5,
                players,
                now=START + n * 600,
                preset=PRESETS[n % 2],
                seed=n,
                options={"lives": 2},
            )
            ids.append((outcome.table.game_id, outcome.table.guild_id, outcome.table.game))
        events = await store.count_rows("game_events")
        league = League(store, clock=lambda: START + games * 600)
        samples, cpu = [], []
        server_before = server.server_cpu() if server else float("nan")
        for game_id, guild_id, game in ids:
            began, used = time.perf_counter(), time.process_time()
            # As the table service calls it: with the server and final state it holds.
            result = await league.game_over(game_id, guild_id=guild_id, game=game)
            samples.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - used) * 1000)
            assert result is not None and len(result.changes) == 8
        server_ms = (server.server_cpu() - server_before) * 1000 / games if server else None
    finally:
        await store.close()
    samples.sort()
    print(
        f"(a) game end, {store.dialect}: {games} 8-player games ({events / games:.0f} log"
        f" entries each); League.game_over p50 {statistics.median(samples):.2f} ms,"
        f" p95 {percentile(samples, 0.95):.2f} ms, max {samples[-1]:.2f} ms"
        " (target: at most 5 ms)"
    )
    # The wall time is the bot's CPU, the database's and the waits between them; on a
    # busy machine the waits grow first, so the CPU is given apart (README, Benchmarks).
    print(
        f"    CPU per game end: bot process p50 {statistics.median(cpu):.2f} ms,"
        f" p95 {percentile(cpu, 0.95):.2f} ms"
        + (f"; server {server_ms:.2f} ms on average" if server_ms is not None else "")
    )


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[int(len(ordered) * share) - 1]


async def templates(count: int) -> list[tuple[Any, ...]]:
    """Real finished games from a scratch SQLite file: (games row, event rows, state
    and joined payloads split at the people's ids)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_storage(Path(tmp) / "templates.db")
        service = TableService(store, random.Random(3))
        rng = random.Random(4)
        for n in range(count):
            seats = rng.randint(2, 8)
            computers = rng.randint(0, min(2, seats - 1))
            players = [*rng.sample(PEOPLE[:30], seats - computers), *COMPUTERS[:computers]]
            await play_game(
                service,
                1,
                100,
                players,
                now=START,
                preset=PRESETS[n % 5],
                seed=n,
                options={"lives": rng.randint(1, 3)},
            )
        games = [row async for batch in store.read_rows("games") for row in batch]
        events: dict[int, list[tuple[Any, ...]]] = {}
        async for batch in store.read_rows("game_events"):
            for row in batch:
                events.setdefault(row[0], []).append(row)
        await store.close()
    # Each text split once at the people's ids (odd parts), renamed per copy in `fill`.
    return [
        (
            row,
            events[row[0]],
            SPLIT.split(row[5]),
            SPLIT.split("\x1e".join(r[3] for r in events[row[0]])),
        )
        for row in games
    ]


def rename(parts: list[str], names: dict[str, str]) -> str:
    """A template's text (split at its people's ids) with each person renamed."""
    return "".join([names.get(part, part) if n % 2 else part for n, part in enumerate(parts)])


async def fill(store: Storage, games: int, guilds: int, made: list) -> tuple[int, float]:
    """Bulk-load ``games`` copies of the templates; how many event rows, and seconds."""
    rng = random.Random(5)
    plan = [(rng.randrange(len(made)), 1 + rng.randrange(guilds)) for _ in range(games)]
    expected = {"games": games, "game_events": sum(len(made[t][1]) for t, _ in plan)}

    async def batches() -> AsyncIterator[tuple[str, list[tuple[Any, ...]]]]:
        rows: list[tuple[Any, ...]] = []
        events: list[tuple[Any, ...]] = []
        for n, (template, guild) in enumerate(plan, start=1):
            game, log, state_parts, log_parts = made[template]
            people = state_parts[1::2]
            pool = [f"{700_000_000_000_000_000 + guild * 1000 + i}" for i in range(60)]
            names = dict(zip(sorted(set(people)), rng.sample(pool, 30), strict=False))
            ended = START + YEAR * n / (games + 1)
            # id, guild_id, channel_id, ruleset, status, state_json, created_at, updated_at, move_no
            rows.append(
                (
                    n,
                    guild,
                    guild * 100 + rng.randrange(5),
                    game[3],
                    "over",
                    rename(state_parts, names),
                    ended - 900,
                    ended,
                    game[8],
                )
            )
            joined = rename(log_parts, names).split("\x1e")
            events += [
                (n, r[1], r[2], text, ended - 900) for r, text in zip(log, joined, strict=True)
            ]
            if len(events) >= 50_000:
                yield "games", rows
                yield "game_events", events
                rows, events = [], []
        yield "games", rows
        yield "game_events", events

    began = time.perf_counter()
    await store.load_rows(batches(), expected)
    return expected["game_events"], time.perf_counter() - began


async def backfill(url: str, games: int, count: int, guilds: int, server: Postgres | None) -> None:
    began = time.perf_counter()
    made = await templates(count)
    print(f"(b) {count} template games played in {time.perf_counter() - began:.1f} s")
    store = await open_storage(url)
    try:
        events, seconds = await fill(store, games, guilds, made)
        print(f"    {games} games ({events} log entries) bulk-loaded in {seconds:.1f} s")
        # The templates are millions of small objects the bot never holds: every full
        # collection would walk them during the catch-up (about 15% of its time).
        del made
        gc.collect()
        clock = lambda: START + YEAR + 86400  # noqa: E731
        league = League(store, clock=clock)  # built as the bot builds it at start-up
        server_before = server.server_cpu() if server else float("nan")
        wall, cpu = time.perf_counter(), time.process_time()
        rated = await league.catch_up()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        server_cpu = server.server_cpu() - server_before if server else float("nan")
        closed = await store.count_rows("closed_seasons")
        print(
            f"    catch_up, {store.dialect}: {rated} games in {wall:.1f} s wall,"
            f" {cpu:.1f} s CPU (bot process)"
            + (f", {server_cpu:.1f} s CPU (server)" if server else "")
            + f"; {closed} seasons closed; {games / wall:,.0f} games/s (target: 100,000 in 60 s)"
        )
        again = time.perf_counter()
        assert await League(store, clock=clock).catch_up() == 0
        first = time.perf_counter() - again
        again = time.perf_counter()
        assert await league.catch_up() == 0
        print(
            f"    again, nothing to do: {first * 1000:.1f} ms (a new process),"
            f" {(time.perf_counter() - again) * 1000:.2f} ms (the same one, every minute)"
        )
    finally:
        await store.close()


async def run(args: argparse.Namespace, url: Any, url2: Any, server: Postgres | None) -> None:
    if args.only in (None, "end"):
        await game_end(url, args.end_games, server)
    if args.only in (None, "backfill"):
        await backfill(url2, args.games, args.templates, args.guilds, server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--templates", type=int, default=300)
    parser.add_argument("--guilds", type=int, default=50)
    parser.add_argument("--end-games", type=int, default=200)
    parser.add_argument("--only", choices=("end", "backfill"))
    parser.add_argument(
        "--database",
        help="an empty database's URL instead of a SQLite file;"
        f" '{THROWAWAY}' starts a throwaway PostgreSQL server",
    )
    args = parser.parse_args()
    if args.database is None:
        with tempfile.TemporaryDirectory() as tmp:
            running.run(run(args, Path(tmp) / "end.db", Path(tmp) / "backfill.db", None))
        return
    with postgres(args.database) as server:
        running.run(
            run(
                args,
                server.fresh("league_end"),
                server.fresh("league_backfill"),
                server if server.throwaway else None,
            )
        )


if __name__ == "__main__":
    main()
