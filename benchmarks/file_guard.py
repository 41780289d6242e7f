"""What the SQLite file check costs on a move's path (docs/operations.md, While the
database is down): before every reach of the database the bot checks that its file,
``-wal`` and ``-shm`` are still the ones it opened and can be written.

Opens a database the way the bot does (`Storage.open`), then times the check alone
(`SqliteDriver._guard`, on the event loop as in a move) and a stored move with it, each
the median of ``--repeat`` rounds of ``--calls`` calls.

    .venv/bin/python -m benchmarks.file_guard [--folder DIR] [--calls N] [--repeat R]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.storage import Storage
from bot.storage.sqlite import SqliteStorage


async def measure(folder: Path, calls: int, repeat: int) -> tuple[float, float]:
    """Microseconds per check and per stored move (median over the rounds)."""
    store = await Storage.open(folder / "bench.db")
    assert isinstance(store, SqliteStorage)
    driver = store._sqlite
    game = await store.create_game(1, 2, "mexican", "{}")
    checks, moves = [], []
    move_no = 0
    try:
        for _ in range(repeat):
            started = time.perf_counter()
            for _ in range(calls):
                await driver._guard()
            checks.append((time.perf_counter() - started) / calls * 1e6)
            started = time.perf_counter()
            for _ in range(calls):
                await store.save_move(game.id, "{}", "running", expect_move_no=move_no)
                move_no += 1
            moves.append((time.perf_counter() - started) / calls * 1e6)
    finally:
        await store.close()
    return statistics.median(checks), statistics.median(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=None, help="where the database goes")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as work:
        check, move = asyncio.run(measure(Path(work), args.calls, args.repeat))
    print(f"file check: {check:.1f} µs per call; a stored move with it: {move:.0f} µs")
    print(f"the check is {check / move:.1%} of a move's storage time")


if __name__ == "__main__":
    main()
