"""The computer players' turns: when one has something to do (its turn, or a TAP), it
moves after a short, human-looking pause, through the same lock and table service as a
person's move (README, Playing against the computer).

Who acts and after what pause is bot/ai/scheduler.py's, what it plays bot/ai/brain.py's;
this module only starts, cancels and retries the waits, and hands each move's outcome to
the sink with the origin COMPUTER (bot/game/outcomes.py). It knows no Discord.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.ai import brain, knowledge, scheduler
from bot.ai.recent import RecentPlay
from bot.engine import GameError
from bot.game.outcomes import Origin, Sink
from bot.game.tables import MovedElsewhere, OutcomeUnknown, Table, TableService
from bot.storage import DatabaseDownError

log = logging.getLogger(__name__)


class Computers:
    """The computer players of every table this process runs."""

    def __init__(
        self,
        tables: TableService,
        now: Callable[[], float],
        sink: Sink[Any],
        turn: Callable[[int], AbstractAsyncContextManager[None]],
        closing: Callable[[], bool],
    ) -> None:
        self.tables = tables
        self.now = now
        #: Where a computer's move goes once stored (bot/game/moves.py).
        self.sink = sink
        #: A move's hold on its channel: the lock, counted as work a shutdown waits for.
        self.turn = turn
        self.closing = closing
        #: How each person at a bluffing table has played lately, from their records as
        #: read here (README, Playing against the computer: "Safe exploitation").
        self.recent = RecentPlay()
        #: A computer player's pending move per channel (its pause, then the move).
        self.thinking: dict[int, asyncio.Task[None]] = {}

    def schedule(self, table: Table) -> None:
        """If a computer player has something to do now, it does it after its pause
        (bot/ai/scheduler.py says who and when); a wait for a move no longer due goes."""
        channel_id = table.channel_id
        current = asyncio.current_task()
        old = self.thinking.pop(channel_id, None)
        if old is not None and old is not current:
            old.cancel()
        if self.closing():
            return
        pending = scheduler.next_move(table.game, self.tables.rng)
        if pending is None:
            return
        # A context of its own: the pause belongs to no player's click (and a test
        # harness waiting for a click to settle does not wait for the computer).
        self.thinking[channel_id] = asyncio.create_task(
            self._moves(channel_id, pending), context=contextvars.Context()
        )

    def stop(self) -> None:
        for task in self.thinking.values():
            task.cancel()
        self.thinking.clear()

    async def _moves(self, channel_id: int, pending: scheduler.Pending) -> None:
        await asyncio.sleep(pending.delay)
        actor = pending.actor
        async with self.turn(channel_id):
            table = self.tables.get(channel_id)
            if table is None or not scheduler.still_due(table.game, pending) or self.closing():
                return  # a person moved first, or the game ended
            records = await self._records(table)
            move = brain.decide(knowledge.inputs(table.game, actor, records), self.tables.rng)
            if move is None:
                return
            try:
                outcome = await self.tables.act_locked(channel_id, actor, move, self.now())
            except MovedElsewhere:
                return  # another process moved first; the reloaded table rescheduled it
            except GameError as err:  # its view said otherwise: a bug, not a game to stop
                log.error(
                    "computer %s in channel %s chose %s: %s", actor, channel_id, move.encode(), err
                )
                return
            except (DatabaseDownError, OutcomeUnknown):  # the storage logs the outage, once
                self._retry(channel_id)
                return
            except Exception:
                log.exception("computer move in channel %s could not be stored", channel_id)
                self._retry(channel_id)
                return
            await self.sink.deliver(outcome, Origin.COMPUTER)

    def _retry(self, channel_id: int, delay: float = scheduler.RETRY_SECONDS) -> None:
        """Storage trouble: the game is as stored; the computer tries again shortly, for
        as long as the game runs, from the table as it is then (it may have been read
        again from storage meanwhile)."""

        def again() -> None:
            table = self.tables.get(channel_id)
            if table is not None:
                self.schedule(table)

        asyncio.get_running_loop().call_later(delay, again)

    async def _records(self, table: Table) -> dict[str, knowledge.Record]:
        """What this server's stored statistics say of the people at a bluffing table:
        public facts only (README, Leaderboard and stats). Computers' own records are
        not read: their play is the same for everyone."""
        try:
            return await knowledge.stored_records(
                self.tables.storage, table.guild_id, table.game, self.recent
            )
        except DatabaseDownError:
            return {}  # the move itself will meet the outage and wait for the database
        except Exception:
            log.exception("could not read the players' statistics")
            return {}
