"""The real ``python -m bot arena`` killed with SIGKILL mid-play loses and doubles no
point (README, Bot arena: The ladder survives a kill -9).

Three bots and a spectator play against the server in its own process on a SQLite file;
the spectator notes every round whose SCORE it was told. The server is killed with
SIGKILL while rounds are played, started again on the same file and killed again. The
file, read directly with sqlite3, must hold every round anyone was told of, and each
bot's stored rounds and points must be exactly what the stored rounds say: a round lost
or counted twice would break one or the other.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.arena_helpers import Bot, autoplay

pytestmark = pytest.mark.slow  # two server start-ups of about a second each

NAMES = ("ana", "ben", "cas")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def register(addr: tuple[str, int], text: str) -> Bot:
    """A socket registered at the server, asking again until it has started."""
    loop = asyncio.get_running_loop()
    _, bot = await loop.create_datagram_endpoint(Bot, remote_addr=addr)
    for _ in range(100):
        bot.say(text)
        try:
            async with asyncio.timeout(0.1):
                while (await bot.inbox.get()) != "REGISTERED":
                    pass
            return bot
        except TimeoutError:
            continue
    raise AssertionError("the arena never answered")


async def play(
    addr: tuple[str, int], told: set[int], rounds: int, server: subprocess.Popen[bytes]
) -> None:
    """Play until the spectator was told ``rounds`` more scores, then kill the server
    while the bots are still playing."""
    watcher = await register(addr, "REGISTER_SPECTATOR;eve")
    bots = [await register(addr, f"REGISTER;{name}") for name in NAMES]
    tasks = [asyncio.create_task(autoplay(b, random.Random(i))) for i, b in enumerate(bots)]
    goal = len(told) + rounds
    current = 0
    async with asyncio.timeout(20):
        while len(told) < goal:
            head, *fields = (await watcher.inbox.get()).split(";")
            if head == "ROUND STARTED":
                current = int(fields[0])
            elif head == "SCORE" and current:  # a round it saw start (the house plays on)
                told.add(current)
    await asyncio.sleep(random.random() / 100)
    os.kill(server.pid, signal.SIGKILL)
    for task in tasks:
        task.cancel()
    for b in (watcher, *bots):
        assert b.transport is not None
        b.transport.close()


def check(db: Path, told: set[int]) -> set[int]:
    """Every told round stored; each bot's rounds and points as its stored rounds say."""
    with sqlite3.connect(db) as conn:
        played = conn.execute("SELECT round_no, seats, losers FROM arena_rounds").fetchall()
        bots = {
            r[0]: (r[1], r[2]) for r in conn.execute("SELECT name, rounds, points FROM arena_bots")
        }
        losses = dict(
            conn.execute("SELECT name, SUM(n) FROM arena_losses GROUP BY name").fetchall()
        )
    stored = {int(no) for no, _, _ in played}
    assert told <= stored
    for name in NAMES:
        mine = [
            (seats.split(","), losers.split(","))
            for _, seats, losers in played
            if name in seats.split(",")
        ]
        assert bots[name] == (len(mine), sum(name not in lost for _, lost in mine))
        assert losses.get(name, 0) == sum(name in lost for _, lost in mine)
    return stored


def test_kill_9_loses_and_doubles_no_point(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["DATABASE_PATH"] = str(db)
    port = free_port()
    command = [sys.executable, "-m", "bot", "arena", "--host", "127.0.0.1", "--port", str(port)]
    told: set[int] = set()
    before: set[int] = set()
    for _ in range(2):
        server = subprocess.Popen(command, env=env, cwd=tmp_path, stderr=subprocess.DEVNULL)
        try:
            asyncio.run(play(("127.0.0.1", port), told, 60, server))
        finally:
            server.kill()
            server.wait()
        stored = check(db, told)
        assert min(stored - before) > max(before, default=0)  # numbered on after a restart
        before = stored
    assert len(told) >= 120
