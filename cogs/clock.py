"""The turn timer: one sleeping task per table, a reminder at half time and the bot's
move at expiry (README, Rule sets).

Kept apart from the commands so the clock's rules (which move a deadline belongs to,
retrying a move that could not be stored) read in one place. It knows tables, not
Discord: the cog passes in how to remind and how to show an expiry.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.tables import Outcome, Table, TableService

log = logging.getLogger(__name__)

#: A timer whose move could not be stored tries again this often, this many times.
ATTEMPTS, RETRY = 3, 5.0


class TurnClock:
    def __init__(
        self,
        tables: TableService,
        now: Callable[[], float],
        remind: Callable[[Table, float], Awaitable[None]],
        expired: Callable[[Outcome], Awaitable[None]],
    ) -> None:
        self.tables = tables
        self.now = now
        self.remind = remind
        self.expired = expired
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, table: Table) -> None:
        """(Re)start the table's clock for the move now due; no deadline stops it."""
        current = asyncio.current_task()
        old = self.tasks.pop(table.channel_id, None)
        if old is not None and old is not current:
            old.cancel()
        meta = table.meta
        if meta.deadline is None or table.game.phase != "playing":
            return
        self.tasks[table.channel_id] = asyncio.create_task(
            self._run(table.channel_id, meta.deadline_move, meta.deadline)
        )

    def stop_all(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()

    async def _run(self, channel_id: int, move_no: int, deadline: float) -> None:
        table = self.tables.get(channel_id)
        if table is None:
            return
        half = deadline - table.game.options.turn_timer / 2
        if half - self.now() > 0:
            await asyncio.sleep(half - self.now())
            table = self.tables.get(channel_id)
            if table is None or table.game.move_no != move_no or table.game.to_move is None:
                return
            await self.remind(table, deadline)
        if deadline - self.now() > 0:
            await asyncio.sleep(deadline - self.now())
        outcome = None
        for attempt in range(ATTEMPTS):
            try:
                # The move and showing it share the channel's lock, like a player's move.
                async with self.tables.lock(channel_id):
                    outcome = await self.tables.expire_locked(channel_id, move_no, self.now())
                    if outcome is not None:
                        await self.expired(outcome)
                break
            except Exception:
                if outcome is not None:
                    break  # stored and shown as far as Discord let it: no second move
                # Storage trouble: the game is as stored; try again shortly rather than
                # leave the table without a clock.
                log.exception("turn timer in channel %s failed (try %d)", channel_id, attempt + 1)
                await asyncio.sleep(RETRY)
        if outcome is not None:
            self.arm(outcome.table)
