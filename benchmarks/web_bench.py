"""How fast the web companion's pages are made on a server with a long history (README,
Web companion; Benchmarks).

Fills a store as `stats_bench` does (default 1,000,000 rounds, 10,000 players, a rating
each per family), adds 20,000 rated games to the server's league (each naming 4 to 8 of
its players, for the profiles' rating history) and one real game of 300 moves or more
played through `TableService`, opts the server in, then fetches the pages over HTTP from
the companion's own aiohttp application in this process and reads the server time each
page reports (``Server-Timing``: the token's lookup, the reads and the template).

    .venv/bin/python -m benchmarks.web_bench [--rounds N] [--players P] [--repeat R]
        [--database postgresql://user@host/db | --database postgres]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
from aiohttp.test_utils import TestClient, TestServer

from benchmarks import running
from benchmarks.databases import THROWAWAY, postgres
from benchmarks.stats_bench import GUILD, START, YEAR, fill
from bot.engine import Act, Move
from bot.game.tables import TableService
from bot.league.service import League
from bot.storage import Storage, open_storage
from bot.web.app import make_app

TOKEN = "B" * 43
RATED_GAMES = 20_000


def rated_rows(
    players: int, seed: int = 5
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """`rated_games` rows as the league writes them (each names its players' changes),
    and the `rating_history` rows it writes with them (each player's rating after)."""
    rng = random.Random(seed)
    rows: list[tuple[object, ...]] = []
    history: list[tuple[object, ...]] = []
    for n in range(RATED_GAMES):
        family = "bluff" if n % 3 else "open"
        seats = rng.sample(range(1, players + 1), rng.randint(4, 8))
        changes = {
            str(p): [1000 + rng.randint(-50, 50), 1000 + rng.randint(-50, 50), 12, False]
            for p in seats
        }
        result = orjson.dumps({"family": family, "changes": changes, "earned": []}).decode()
        ended, game_id = START + n * YEAR / RATED_GAMES, 10_000_000 + n
        key = f"{family}:" + ",".join(str(p) for p in sorted(seats))
        rows.append((game_id, GUILD, family, ended, result, key))
        history += [(GUILD, family, p, ended, game_id, changes[str(p)][1]) for p in seats]
    return rows, history


async def long_game(store: Storage, moves: int) -> tuple[int, int]:
    """A real game of at least ``moves`` stored moves; its id and its count."""
    service = TableService(store, random.Random(11), league=League(store, lambda: START))
    people = [str(n) for n in range(1, 7)]
    channel = 424_242
    await service.open_table(
        GUILD, channel, people[0], "mexican", {"turn_timer": 0, "lives": 30}, START
    )
    for person in people[1:]:
        await service.act(channel, person, Move(Act.JOIN), START, name=f"player {person}")
    outcome = await service.act(channel, people[0], Move(Act.START), START)
    game_id, rng, made = outcome.table.game_id, random.Random(12), 0
    while (table := service.get(channel)) is not None:
        if made >= moves:  # the host ends it, as a table that had enough does
            await service.act(channel, table.game.host, Move(Act.END), START + made)
            made += 1
            continue
        mover = table.game.to_move
        assert mover is not None
        options = [m for m in table.game.legal_actions(mover) if m.act not in (Act.LEAVE, Act.END)]
        await service.act(channel, mover, rng.choice(options), START + made)
        made += 1
    return game_id, made


async def run(args: argparse.Namespace) -> None:
    if args.database:
        store = await open_storage(args.database)
    else:
        path = Path(tempfile.mkdtemp(prefix="mexweb-")) / "bench.db"
        store = await open_storage(path)
    started = time.perf_counter()
    await fill(store, args.rounds, args.players)
    rows, history = rated_rows(args.players)

    async def batches() -> AsyncIterator[tuple[str, list[tuple[object, ...]]]]:
        for i in range(0, len(rows), 5000):
            yield "rated_games", rows[i : i + 5000]
        for i in range(0, len(history), 5000):
            yield "rating_history", history[i : i + 5000]

    await store.load_rows(batches(), {"rated_games": len(rows), "rating_history": len(history)})
    game_id, made = await long_game(store, 300)
    await store.open_web_link(GUILD, TOKEN, START)
    print(
        f"filled in {time.perf_counter() - started:.1f} s ({store.dialect}); "
        f"{len(rows):,} rated games; a game of {made} moves"
    )
    rng = random.Random(3)
    base = f"/s/{TOKEN}/"
    pages = {
        "server page (main rating board, last games)": lambda: base,
        "board wins (all time, a random page)": lambda: (
            f"{base}board/wins?page={rng.randint(1, 50)}"
        ),
        "board rating_bluff (month)": lambda: f"{base}board/rating_bluff?period=month",
        "board winrate (week)": lambda: f"{base}board/winrate?period=week",
        "season": lambda: f"{base}season",
        "profile (a random player)": lambda: f"{base}p/{rng.randint(1, args.players)}",
        f"replay of a {made}-move game": lambda: f"{base}g/{game_id}",
    }
    results: dict[str, list[float]] = {}
    async with TestClient(TestServer(make_app(store))) as client:
        for label, path in pages.items():
            samples = []
            for _ in range(args.repeat):
                response = await client.get(path(), headers={"Accept-Language": "nl"})
                assert response.status == 200, (label, response.status)
                await response.read()
                timing = response.headers["Server-Timing"]
                samples.append(float(timing.split("dur=")[1]))
            results[label] = samples
    await store.close()
    print(f"\n{'page (server time)':46} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for label, samples in results.items():
        samples.sort()
        p95 = samples[int(len(samples) * 0.95) - 1]
        print(f"{label:46} {statistics.median(samples):10.2f} {p95:8.2f} {samples[-1]:8.2f}")
    print("\ntargets: boards and profiles p95 at most 50 ms; the replay at most 100 ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument(
        "--database",
        help="an empty database's URL instead, e.g. postgresql://user@host/bench;"
        f" '{THROWAWAY}' starts a throwaway PostgreSQL server",
    )
    args = parser.parse_args()
    if args.database != THROWAWAY:
        running.run(run(args))
        return
    with postgres(args.database) as server:
        args.database = server.fresh("web_bench")
        print(server.describe())
        running.run(run(args))


if __name__ == "__main__":
    main()
