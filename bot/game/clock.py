"""The turn timer: one timer handle per table, a reminder at half time and the bot's
move at expiry (README, Rule sets).

Kept apart from the commands so the clock's rules (which move a deadline belongs to,
retrying a move that could not be stored) read in one place. It knows tables, not
Discord: a reminder due and an expiry's outcome leave through the sink it is given
(bot/game/outcomes.py), with the origin TIMER.

Every move re-arms its table's clock, so arming is cheap: a ``loop.call_later`` handle,
cancelled by the next move, and a task only while a reminder or an expiry is under way
(a sleeping task per table cost a task, its first step and its cancellation every move).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.engine import StaleAction
from bot.game.outcomes import Origin, Reminder, Sink
from bot.game.tables import OutcomeUnknown, Table, TableService
from bot.storage import DatabaseDownError

log = logging.getLogger(__name__)

#: A timer whose move could not be stored tries again after these many seconds, doubling
#: up to the cap, for as long as its game runs (README, Running at scale: While the
#: database is down): a timer that gave up would leave an idle table without a clock.
RETRY_FIRST, RETRY_CAP = 1.0, 30.0


def backoff(tries: int) -> float:
    """The pause after the ``tries``-th failed try: 1, 2, 4 ... seconds, at most the cap."""
    return float(min(RETRY_CAP, RETRY_FIRST * 2 ** max(0, tries - 1)))


class TurnClock:
    def __init__(
        self,
        tables: TableService,
        now: Callable[[], float],
        sink: Sink[Any],
    ) -> None:
        self.tables = tables
        self.now = now
        #: Where a reminder due and an expiry's outcome go (bot/game/moves.py).
        self.sink = sink
        #: The next reminder or expiry per channel, waiting on the event loop.
        self.handles: dict[int, asyncio.TimerHandle] = {}
        #: A reminder or expiry under way per channel (only while it runs).
        self.tasks: dict[int, asyncio.Task[None]] = {}
        #: How a failed expiry waits before its next try (tests count the pauses).
        self.pause: Callable[[float], Coroutine[Any, Any, None]] = asyncio.sleep

    def arm(self, table: Table) -> None:
        """(Re)start the table's clock for the move now due; no deadline stops it."""
        channel_id = table.channel_id
        handle = self.handles.pop(channel_id, None)
        if handle is not None:
            handle.cancel()
        old = self.tasks.get(channel_id)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
            del self.tasks[channel_id]
        meta = table.meta
        if meta.deadline is None or table.game.phase != "playing":
            return
        move_no, deadline = meta.deadline_move, meta.deadline
        half = deadline - table.game.options.turn_timer / 2
        if half - self.now() > 0:
            self._at(channel_id, half, self._remind, move_no, deadline)
        else:
            self._at(channel_id, deadline, self._expire, move_no, deadline)

    def stop_all(self) -> None:
        for handle in self.handles.values():
            handle.cancel()
        self.handles.clear()
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()

    def _at(
        self,
        channel_id: int,
        when: float,
        step: Callable[[int, int, float], Coroutine[Any, Any, None]],
        move_no: int,
        deadline: float,
    ) -> None:
        """Run ``step`` at the wall-clock second ``when``, if the move is still due then."""
        loop = asyncio.get_running_loop()
        self.handles[channel_id] = loop.call_later(
            max(0.0, when - self.now()), self._start, channel_id, step, move_no, deadline
        )

    def _start(
        self,
        channel_id: int,
        step: Callable[[int, int, float], Coroutine[Any, Any, None]],
        move_no: int,
        deadline: float,
    ) -> None:
        self.handles.pop(channel_id, None)
        table = self.tables.get(channel_id)
        if table is None or table.game.move_no != move_no or table.game.to_move is None:
            return  # a move came first (its own arm cancels this, but a game may end)
        task = asyncio.get_running_loop().create_task(step(channel_id, move_no, deadline))
        self.tasks[channel_id] = task
        task.add_done_callback(lambda done: self._done(channel_id, done))

    def _done(self, channel_id: int, task: asyncio.Task[None]) -> None:
        if self.tasks.get(channel_id) is task:
            del self.tasks[channel_id]

    async def _remind(self, channel_id: int, move_no: int, deadline: float) -> None:
        table = self.tables.get(channel_id)
        if table is None:
            return
        await self.sink.deliver(Reminder(table, deadline), Origin.TIMER)
        self._at(channel_id, deadline, self._expire, move_no, deadline)

    async def _expire(self, channel_id: int, move_no: int, deadline: float) -> None:
        tries = 0
        while True:
            outcome = None
            try:
                # The move and showing it share the channel's lock, like a player's move.
                async with self.tables.lock(channel_id):
                    outcome = await self.tables.expire_locked(channel_id, move_no, self.now())
                    if outcome is not None:
                        await self.sink.deliver(outcome, Origin.TIMER)
                break
            except StaleAction:
                # Another process stored a move first (or an unsettled table was read
                # again): the table is reloaded, and its clock runs from what it holds.
                table = self.tables.get(channel_id)
                if table is not None:
                    self.arm(table)
                return
            except Exception as err:
                if outcome is not None:
                    break  # stored and shown as far as Discord let it: no second move
                tries += 1
                if not isinstance(err, DatabaseDownError | OutcomeUnknown):
                    log.exception("turn timer in channel %s failed (try %d)", channel_id, tries)
                # The game is as stored: try again, later each time, rather than leave
                # the table without a clock; the storage logs the outage itself, once.
                await self.pause(backoff(tries))
        if outcome is not None:
            self.arm(outcome.table)
