"""One real bot process on SQLite behind the local Discord stand-in, for the SQLite fault
tests (README, Running at scale: While the database is down): what each interaction was
answered, how late, and whether what it said matches what is stored."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.present.i18n import talk
from tests.support.driver import TAKEN, Driver, Table
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import EPHEMERAL, Interaction, StandIn, controls

DOWN_TEXT = talk("en")("database-down")
#: Discord's answer window.
WINDOW = 3.0
#: Another program holding the file's write lock for argv[2] seconds.
LOCKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Figures:
    """One scenario's count: interactions sent, answered within Discord's window, whose
    answer matched what is stored (checked by the test), and deferred."""

    name: str
    sent: int = 0
    in_time: int = 0
    deferred: int = 0
    down: int = 0
    taken: int = 0
    slowest: float = 0.0
    late: list[str] = field(default_factory=list)

    def line(self, right: int, tracebacks: int) -> str:
        return (
            f"{self.name}: {self.sent} sent, {self.in_time} answered in time "
            f"(slowest {self.slowest * 1000:.0f} ms, {self.deferred} deferred), "
            f"{right} outcome right "
            f"({self.taken} taken, {self.down} told it can't be reached), "
            f"{tracebacks} tracebacks"
        )


class Rig:
    def __init__(self, work: Path, *, db: Path | None = None, channels: int = 6) -> None:
        self.work = work
        self.db = db or work / "bot.db"
        self.log = work / "bot.log"
        self.port = free_port()
        self.standin = StandIn(channels=channels, members=8)
        self.driver = Driver(self.standin, random.Random(31), slash_share=0.3, timeout=20.0)
        #: What each interaction was answered: its response and its follow-ups.
        self.said: dict[int, list[dict[str, Any]]] = {}
        self.bot: BotProcess | None = None
        #: The bot's output reaches the log through a pipe (`BotProcess`).
        self.piped = False
        hook = self.standin.on_message

        def said(inter: Any, message: dict[str, Any]) -> None:
            self.said.setdefault(inter.id, []).append(dict(message))

        def seen(channel_id: int, message: dict[str, Any], how: str, inter: Any) -> None:
            if inter is not None and how == "callback":  # the answer itself
                said(inter, message)
            if hook is not None:
                hook(channel_id, message, how, inter)

        self.standin.on_message = seen
        self.standin.on_followup = lambda _, message, how, inter: said(inter, message)

    async def start(self) -> None:
        if not self.standin.port:
            await self.standin.start()
        self.standin.reset_connection()
        env = bot_env(self.standin, self.db, LOG_LEVEL="INFO", METRICS_PORT=str(self.port))
        self.bot = BotProcess("bot", env, self.work, self.log, piped=self.piped)
        await self.bot.start()
        try:
            await asyncio.wait_for(self.standin.ready.wait(), 30)
        except TimeoutError:
            raise AssertionError(self.log.read_text()[-3000:]) from None

    async def stop(self) -> int | None:
        assert self.bot is not None
        return await self.bot.stop()

    async def close(self) -> None:
        if self.bot is not None:
            await self.bot.kill()
        await self.standin.stop()

    # ------------------------------------------------------------------ interactions

    async def send(self, inter: Interaction, figures: Figures | None = None) -> Interaction:
        """Dispatch and wait for the answer; a deferred one, for its follow-up too."""
        await self.standin.dispatch(inter)
        assert inter.done is not None
        try:
            await asyncio.wait_for(asyncio.shield(inter.done), 20)
            if inter.response_type in (5, 6):
                deadline = time.monotonic() + 20
                while not self._followed(inter):
                    assert time.monotonic() < deadline, f"no follow-up for {inter.kind}"
                    await asyncio.sleep(0.02)
        finally:
            self.standin.forget(inter)  # after its follow-ups: they use its token
        if figures is not None:
            latency = inter.latency or 99.0
            figures.sent += 1
            figures.slowest = max(figures.slowest, latency)
            if latency < WINDOW:
                figures.in_time += 1
            else:
                figures.late.append(f"{inter.kind} {latency:.2f}")
            figures.deferred += inter.response_type in (5, 6)
            figures.down += self.down(inter)
            figures.taken += self.taken(inter)
        return inter

    def _followed(self, inter: Interaction) -> bool:
        messages = self.said.get(inter.id, [])
        if inter.response_type == 5:  # the "thinking" message is said first, empty
            return any(m.get("content") or m.get("embeds") for m in messages)
        return bool(messages)

    def texts(self, inter: Interaction) -> list[str]:
        return [m.get("content") or "" for m in self.said.get(inter.id, [])]

    def down(self, inter: Interaction) -> bool:
        return DOWN_TEXT in self.texts(inter)

    def shown(self, inter: Interaction) -> bool:
        """Whether a command's answer showed something (an embed: a page, a card)."""
        return any(m.get("embeds") for m in self.said.get(inter.id, []))

    def taken(self, inter: Interaction) -> bool:
        """Whether the answer says the move or command was taken: a public message, or
        a private one with the roller's controls or dice."""
        for message in self.said.get(inter.id, []):
            if not message.get("content") and not message.get("embeds"):
                continue  # a "thinking" message
            if not message.get("flags", 0) & EPHEMERAL:
                return True
            if controls(message) or (message.get("content") or "").startswith(TAKEN):
                return True
        return False

    async def open(self, table: Table) -> None:
        table.phase, table.live, table.live_no = "lobby", None, -1
        for inter in self.driver.lobby_steps(table):
            await self.send(inter)
            assert self.taken(inter), (inter.kind, self.texts(inter), self.tail())

    async def move(self, table: Table, figures: Figures | None = None) -> Interaction:
        for _ in range(200):
            inter = self.driver.next_move(table)
            if inter is not None:
                return await self.send(inter, figures)
            await asyncio.sleep(0.05)
        raise AssertionError(f"no move to make at {table.channel_id}\n{self.tail()}")

    async def played(self, table: Table) -> None:
        for _ in range(20):
            if self.taken(await self.move(table)):
                return
        raise AssertionError(f"no move was taken\n{self.tail()}")

    # ------------------------------------------------------------------ the database

    def stored_moves(self, channel_id: int) -> int:
        """The players' moves stored for the channel's games (read only)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            rows = db.execute(
                "SELECT e.payload FROM game_events e JOIN games g ON g.id = e.game_id "
                "WHERE g.channel_id = ? AND e.kind = 'move'",
                (channel_id,),
            ).fetchall()
        return sum(json.loads(payload).get("move") != "timeout" for (payload,) in rows)

    def games_in(self, channel_id: int) -> int:
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            (count,) = db.execute(
                "SELECT COUNT(*) FROM games WHERE channel_id = ?", (channel_id,)
            ).fetchone()
        return int(count)

    async def locked(self, seconds: float) -> asyncio.subprocess.Process:
        """Another process takes the file's write lock for ``seconds``."""
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", LOCKER, str(self.db), str(seconds), stdout=asyncio.subprocess.PIPE
        )
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"locked"
        return proc

    async def health(self) -> int:
        url = f"http://127.0.0.1:{self.port}/health"
        async with aiohttp.ClientSession() as http, http.get(url) as answer:
            return answer.status

    async def health_is(self, status: int, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while (found := await self.health()) != status:
            assert time.monotonic() < deadline, f"/health {found}, not {status}\n{self.tail()}"
            await asyncio.sleep(0.2)

    def tail(self) -> str:
        return self.log.read_text()[-3000:] if self.log.exists() else ""

    def tracebacks(self) -> int:
        return self.log.read_text().count("Traceback")
