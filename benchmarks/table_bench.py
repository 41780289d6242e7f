"""The table service and storage alone, no Discord: how many moves per second
``TableService.act`` (lock, engine, state JSON, ``Storage.save_move`` on a real SQLite file)
sustains with many tables moving at once.

Usage::

    python -m benchmarks.table_bench [--tables 300] [--seconds 5] [--database URL]

``--database postgresql://…`` (an empty database) measures the PostgreSQL backend instead;
``--database postgres`` starts a throwaway server for it (``benchmarks.databases``).

This is the ceiling of the storage path under the bot; ``benchmarks.wire_bench`` measures
the whole bot. Before ``save_move`` ran as one hand-over to aiosqlite's thread it was
~415 moves/s here (2.1 ms CPU per move); after, ~1,400-1,700 moves/s (0.6 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from benchmarks import running
from benchmarks.databases import THROWAWAY, postgres
from bot.engine import Act, GameError, Move
from bot.game.tables import TableService
from bot.storage import open_storage
from tests.support.driver import PRESETS, engine_move


async def run(tables: int, seconds: float, database: str | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(database or Path(tmp) / "bench.db")
        service = TableService(storage, random.Random(1))
        rng = random.Random(2)
        for i in range(tables):
            channel = 1000 + i
            players = [str(800_000_000_000_000_000 + p) for p in rng.sample(range(200), 3)]
            now = time.time()
            preset = PRESETS[i % len(PRESETS)]
            await service.open_table(1, channel, players[0], preset, {"turn_timer": 0}, now)
            for player in players[1:]:
                await service.act(channel, player, Move(Act.JOIN), now)
            await service.act(channel, players[0], Move(Act.START), now)
        moves = 0
        end = time.perf_counter() + seconds

        async def play(channel: int) -> None:
            nonlocal moves
            while time.perf_counter() < end:
                table = service.get(channel)
                move = engine_move(table.game, rng) if table else None
                if move is None:
                    return
                player, chosen = move
                try:
                    await service.act(channel, player, chosen, time.time())
                except GameError:
                    continue
                moves += 1

        cpu, start = time.process_time(), time.perf_counter()
        await asyncio.gather(*(play(1000 + i) for i in range(tables)))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        await storage.close()
    print(
        f"{storage.dialect}, {tables} tables: {moves / wall:.0f} moves/s,"
        f" {1000 * cpu / max(moves, 1):.2f} ms CPU per move (all threads)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.table_bench")
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--database",
        help="an empty database's URL (default: a SQLite file);"
        f" '{THROWAWAY}' starts a throwaway PostgreSQL server",
    )
    args = parser.parse_args()
    if args.database != THROWAWAY:
        running.run(run(args.tables, args.seconds, args.database))
        return
    with postgres(args.database) as server:
        running.run(run(args.tables, args.seconds, server.fresh("table_bench")))


if __name__ == "__main__":
    main()
