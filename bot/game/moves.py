"""A move's life in the game layer: made under its channel's lock, handed out through one
sink, and followed by the turn clock and the computer players.

Whoever makes a move (the Discord side for a click or a slash command, the turn clock at
expiry, a computer player) hands its outcome to `Moves.deliver`, and so does the table
service for a table it read again because another process moved it. `deliver` passes
each to the sink (bot/game/outcomes.py; the bot's is bot/present/showing.py), then
re-arms the table's clock and its computer players from the table as it now is.
Shutting down stops the clock and the computers and waits for the moves under way, so
none is cut off half way (README, Running at scale).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Generic, TypeVar

from bot.game.clock import TurnClock
from bot.game.computers import Computers
from bot.game.outcomes import News, Origin, Reloaded, Sink
from bot.game.tables import Outcome, Table, TableService

#: Whoever asked for a move, as the sink knows them (an interaction).
A = TypeVar("A")


class Moves(Generic[A]):
    """The moves of every table this process runs, and where their outcomes go."""

    def __init__(self, tables: TableService, now: Callable[[], float], sink: Sink[A]) -> None:
        self.tables = tables
        self.now = now
        self.sink = sink
        self.clock = TurnClock(tables, now, self)
        self.computers = Computers(tables, now, self, self.turn, lambda: self.closing)
        tables.on_reload = self._reloaded
        #: Set once shutting down: no new move is taken (the Discord side says so).
        self.closing = False
        #: Moves being made or shown now; shutting down waits for them (no half answers).
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel for one move: its lock, counted as work under way."""
        self._busy += 1
        self._idle.clear()
        try:
            async with self.tables.lock(channel_id):
                yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def deliver(self, news: News, origin: Origin, asker: A | None = None) -> None:
        """The one door out: ``news`` goes to the sink; a move, or a table read again,
        then re-arms the table's clock and its computer players. Called under the
        channel's lock for a move."""
        await self.sink.deliver(news, origin, asker)
        if isinstance(news, Outcome | Reloaded):
            self.follow(news.table)

    def follow(self, table: Table) -> None:
        """The clock and the computer players go on from ``table`` as it is now."""
        self.clock.arm(table)
        self.computers.schedule(table)

    async def _reloaded(self, table: Table) -> None:
        await self.deliver(Reloaded(table), Origin.ELSEWHERE)

    def stop(self) -> None:
        self.clock.stop_all()
        self.computers.stop()

    async def drain(self, timeout: float) -> None:
        """Take no new moves, stop the clock and the computers, and let moves already
        under way be stored and shown (at most ``timeout`` s)."""
        self.closing = True
        self.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
