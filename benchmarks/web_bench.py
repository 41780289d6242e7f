"""How fast the web companion's pages are made on a server with a long history (README,
Web companion; Benchmarks).

Fills a store as `stats_bench` does (default 1,000,000 rounds, 10,000 players, a rating
each per family), adds 20,000 rated games to the server's league (each naming 4 to 8 of
its players, for the profiles' rating history) and `LONG_GAMES` real games of 1,000 moves
or more played through `TableService`, opts the server in, then fetches the pages over
HTTP from the companion's own aiohttp application in this process and reads the server
time each page reports (``Server-Timing``: the token's lookup, the reads and the
template). A replay's first fetch in each language is timed apart (it is built then,
in the worker process, and kept), and its first view's bytes are counted.

Then the stall test: the companion listens on a port as with WEB_PORT, a table plays a
move every 20 ms on the same event loop (`TableService`, as the bot's tables do; no
Discord), and a client process fetches a board page every 20 ms, first alone, then while
8 more clients load the long replays over and over (with nothing kept, so each load is a
whole build: the worst case). It prints the board's wait (client side) and the move's
time, p50 and p99, without and with the replay readers.

    .venv/bin/python -m benchmarks.web_bench [--rounds N] [--players P] [--repeat R]
        [--moves M] [--seconds S] [--keep FILE]
        [--database postgresql://user@host/db | --database postgres]

``--keep FILE`` fills an SQLite file once and reads it again on later runs (to compare
two versions of the code on the same data).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import socket
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
from aiohttp import ClientSession, web
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
#: The long games the replay readers load, and the readers.
LONG_GAMES = 4
READERS = 8


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


LONG_CHANNEL = 424_242


async def long_game(store: Storage, moves: int) -> tuple[int, int]:
    """A real game of at least ``moves`` stored moves; its id and its count."""
    service = TableService(store, random.Random(11), league=League(store, lambda: START))
    people = [str(n) for n in range(1, 7)]
    channel = LONG_CHANNEL
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
    kept = Path(args.keep) if args.keep else None
    if args.database:
        store = await open_storage(args.database)
    else:
        path = kept or Path(tempfile.mkdtemp(prefix="mexweb-")) / "bench.db"
        fresh = not path.exists()
        store = await open_storage(path)
    started = time.perf_counter()
    if args.database or fresh:
        await fill(store, args.rounds, args.players)
        rows, history = rated_rows(args.players)

        async def batches() -> AsyncIterator[tuple[str, list[tuple[object, ...]]]]:
            for i in range(0, len(rows), 5000):
                yield "rated_games", rows[i : i + 5000]
            for i in range(0, len(history), 5000):
                yield "rating_history", history[i : i + 5000]

        await store.load_rows(batches(), {"rated_games": len(rows), "rating_history": len(history)})
        for _ in range(LONG_GAMES):
            await long_game(store, args.moves)
        await store.open_web_link(GUILD, TOKEN, START)
    long_ids = [
        int(row[0])
        for row in await store._fetchall(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'over' ORDER BY id",
            (LONG_CHANNEL,),
        )
    ]
    game_id = long_ids[0]
    made = (
        await store._fetchall(
            "SELECT COUNT(*) FROM game_events WHERE game_id = ? AND kind = 'move'", (game_id,)
        )
    )[0][0]
    rounds = (await store._fetchall("SELECT COUNT(*) FROM rounds", ()))[0][0]
    print(
        f"ready in {time.perf_counter() - started:.1f} s ({store.dialect}); {rounds:,} rounds;"
        f" {len(long_ids)} games of {made} moves"
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
        for language in ("nl", "en", "de"):
            response = await client.get(f"{base}g/{game_id}", headers={"Accept-Language": language})
            body = await response.read()
            timing = float(response.headers["Server-Timing"].split("dur=")[1])
            print(
                f"replay of {made} moves, first fetch in {language}: {timing:.0f} ms server time,"
                f" first view {len(body) / 1000:.0f} kB"
            )
        for label, path in pages.items():
            samples = []
            for _ in range(args.repeat):
                response = await client.get(path(), headers={"Accept-Language": "nl"})
                assert response.status == 200, (label, response.status)
                await response.read()
                timing = response.headers["Server-Timing"]
                samples.append(float(timing.split("dur=")[1]))
            results[label] = samples
    print(f"\n{'page (server time)':46} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for label, samples in results.items():
        samples.sort()
        p95 = samples[int(len(samples) * 0.95) - 1]
        print(f"{label:46} {statistics.median(samples):10.2f} {p95:8.2f} {samples[-1]:8.2f}")
    print("targets: boards and profiles p95 at most 50 ms; the replay at most 100 ms")
    if args.seconds > 0:
        await stall(store, long_ids, args.seconds)
    await store.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


async def _moves(store: Storage, stop: asyncio.Event) -> list[float]:
    """A table on the companion's loop, a move every 20 ms until ``stop``: each move's
    time from the call to its answer (stored first, as every move is), in ms."""
    service = TableService(store, random.Random(21), league=League(store, lambda: START))
    channel, people = 515_151, ["9001", "9002", "9003"]
    took: list[float] = []
    while not stop.is_set():
        await service.open_table(GUILD, channel, people[0], "mexican", {"turn_timer": 0}, START)
        for person in people[1:]:
            await service.act(channel, person, Move(Act.JOIN), START, name=person)
        await service.act(channel, people[0], Move(Act.START), START)
        rng = random.Random(len(took))
        while not stop.is_set() and (table := service.get(channel)) is not None:
            mover = table.game.to_move
            assert mover is not None
            options = [
                m for m in table.game.legal_actions(mover) if m.act not in (Act.LEAVE, Act.END)
            ]
            began = time.perf_counter()
            await service.act(channel, mover, rng.choice(options), START)
            took.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(0.02)
        if (table := service.get(channel)) is not None:
            await service.act(channel, table.game.host, Move(Act.END), START)
    return took


def _clients(url: str, replays: list[str], seconds: float, readers: int, out: object) -> None:
    """The client process: a board page every 20 ms, and ``readers`` replay readers."""

    async def go() -> tuple[list[float], int]:
        waits: list[float] = []
        loads = 0
        deadline = time.monotonic() + seconds
        async with ClientSession() as http:

            async def read(n: int) -> None:
                nonlocal loads
                k = n
                languages = ("en", "nl", "de")
                while time.monotonic() < deadline:
                    path, language = replays[k % len(replays)], languages[k % 3]
                    async with http.get(url + path, headers={"Accept-Language": language}) as r:
                        await r.read()
                    loads += 1
                    k += 1

            async def probe() -> None:
                rng = random.Random(7)
                while time.monotonic() < deadline:
                    began = time.perf_counter()
                    page = rng.randint(1, 50)
                    async with http.get(f"{url}/s/{TOKEN}/board/wins?page={page}") as r:
                        await r.read()
                    waits.append((time.perf_counter() - began) * 1000)
                    await asyncio.sleep(0.02)

            await asyncio.gather(probe(), *(read(n) for n in range(readers)))
        return waits, loads

    out.put(asyncio.run(go()))  # type: ignore[attr-defined]


async def stall(store: Storage, long_ids: list[int], seconds: float) -> None:
    """Board waits and move times alone, with `READERS` replay readers (the replays
    built once and kept, as served), and with them when nothing is kept."""
    replays = [f"/s/{TOKEN}/g/{g}" for g in long_ids]
    context = multiprocessing.get_context("spawn")
    print(f"\nstall test, {seconds:.0f} s each")
    print(f"{'':40} {'board p50':>10} {'board p99':>10} {'move p50':>9} {'move p99':>9}")
    phases = [("alone", 0, True), ("replays kept", READERS, True)]
    phases.append(("nothing kept: each load built", READERS, False))
    for label, readers, keep in phases:
        app = make_app(store)
        for value in app.values():  # the replays kept (bot/web/replays.py), if any
            if not keep and hasattr(value, "keep_bytes"):
                value.keep_bytes = 0
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        port = _free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        url = f"http://127.0.0.1:{port}"
        out = context.Queue()
        client = context.Process(target=_clients, args=(url, replays, seconds, readers, out))
        stop = asyncio.Event()
        moving = asyncio.ensure_future(_moves(store, stop))
        client.start()
        waits, loads = await asyncio.get_running_loop().run_in_executor(None, out.get)
        stop.set()
        took = await moving
        client.join()
        await runner.cleanup()
        if readers:
            label = f"{readers} readers, {label} ({loads} loads)"
        print(
            f"{label:40} {_p(waits, 0.5):10.1f} {_p(waits, 0.99):10.1f}"
            f" {_p(took, 0.5):9.1f} {_p(took, 0.99):9.1f}"
        )
    print("targets: a board waits at most 50 ms p99; a move's time rises by at most 10 ms p99")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--moves", type=int, default=1000, help="moves of each long game")
    parser.add_argument(
        "--seconds", type=float, default=20, help="each half of the stall test (0: none)"
    )
    parser.add_argument("--keep", help="an SQLite file filled once and read on later runs")
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
