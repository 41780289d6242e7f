"""What each channel shows, kept in one place, and the sink every outcome reaches.

The game layer hands every outcome out through one door (bot/game/outcomes.py): a
person's move, the turn timer's, a computer player's, a reminder due, a table read again.
`Showing` is that door's far side. bot/present/planner.py decides which Discord calls
show the outcome; the Discord side's executor (`Calls`, bot/adapter/executor.py) makes
them and returns what Discord produced; what the channel shows then (`ChannelState`, and
the live message's id in the table's meta) is recorded here, and nowhere else. Nothing
here knows Discord: the interaction to answer travels through `Asked` as an opaque value.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.game.outcomes import News, Origin, Reloaded, Reminder
from bot.game.tables import Outcome, Table, TableService
from bot.present import planner
from bot.present.i18n import language_of, talk
from bot.present.planner import ChannelState, Operation, Plan, Produced

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Asked:
    """Whoever asked for a move, as far as showing it goes: the interaction to answer
    (the Discord side's, opaque here), their locale, and the message they clicked (None:
    a slash command), whether it was private and still had components."""

    interaction: object
    locale: object
    clicked: int | None = None
    private: bool = False
    components: bool = False


class Calls(Protocol):
    """The Discord side's executor: makes the operations' calls in order (answering the
    interaction ``asked`` carries, if any) and returns what Discord produced. A channel
    it cannot reach, with no interaction to answer either, is ``reached=False`` and no
    call at all."""

    async def carry_out(
        self, channel_id: int, operations: Sequence[Operation], asked: Asked | None
    ) -> Produced: ...


class Showing:
    """The channels' messages between moves, and the sink that shows every outcome."""

    def __init__(self, tables: TableService, calls: Calls) -> None:
        self.tables = tables
        self.calls = calls
        #: What each channel's messages show between moves (the planner decides it).
        self.channels: dict[int, ChannelState] = {}

    def state(self, channel_id: int) -> ChannelState:
        return self.channels.get(channel_id, planner.EMPTY)

    def _set(self, channel_id: int, state: ChannelState) -> None:
        if state == planner.EMPTY:
            self.channels.pop(channel_id, None)
        else:
            self.channels[channel_id] = state

    def looked(self, channel_id: int, player: str) -> None:
        """``player`` looked at the table (their dice, /table, a refused move)."""
        table = self.tables.get(channel_id)
        if table is not None:
            self._set(channel_id, planner.looked(self.state(channel_id), table, player))

    async def deliver(self, news: News, origin: Origin, asker: Asked | None = None) -> None:
        """The game layer's one door (bot/game/outcomes.py): a move is shown, answering
        the one who asked if anyone did; a reminder due pings the player to move; a table
        read again shows nothing new."""
        match news:
            case Reloaded():
                return
            case Reminder(table=table):
                plan = planner.reminder(table, self.state(table.channel_id))
                await self._carry_out(plan, table.channel_id, None)
            case Outcome():
                if asker is not None:
                    reached = await self._answer(news, asker)
                else:
                    reached = await self._unasked(news, origin)
                if reached and news.table.game.phase == "over":
                    await self.tables.shown(news.table)

    async def ended_again(self, outcome: Outcome) -> None:
        """After a restart, a game that ended just before it gets its final standing, if
        that never reached the channel (README, Ratings)."""
        channel_id = outcome.table.channel_id
        running = self.tables.get(channel_id) is not None  # a new game there keeps its state
        plan = planner.ended_again(outcome, self.state(channel_id), running=running)
        produced = await self._carry_out(plan, channel_id, None)
        if produced.reached and produced.failed is None:
            await self.tables.shown(outcome.table)

    async def restarted(self, table: Table, *, retired: bool) -> None:
        """After a restart the running game gets its table again, with working buttons.
        ``retired``: the channel's recent messages had their moves taken off already, so
        the stored live message's id names none to retire."""
        if retired:
            table.meta.message_id = None
        plan = planner.restarted(table, self.state(table.channel_id))
        await self._carry_out(plan, table.channel_id, None)

    async def _answer(self, outcome: Outcome, asked: Asked) -> bool:
        """A person's move, answered where they asked (which message a click was on is
        told here, against the live message's id). If the answer fails (the 3 s deadline
        missed, a dropped connection, Discord answering 404), the planned fallback posts
        the table to the channel instead, so a stored move is never left unseen."""
        channel_id = outcome.table.channel_id
        origin, stray = planner.origin_of(
            asked.clicked, asked.private, asked.components, outcome.table.meta.message_id
        )
        reader = talk(language_of(asked.locale))
        plan = planner.plan(outcome, origin, self.state(channel_id), reader=reader, stray=stray)
        produced = await self._carry_out(plan, channel_id, asked)
        if produced.failed is None:
            return True
        log.warning(
            "answer in channel %s failed (%s): posting the table instead",
            channel_id,
            produced.failed,
        )
        self._set(channel_id, plan.on_failure)
        fallback = planner.plan(outcome, Origin.FALLBACK, plan.on_failure)
        produced = await self._carry_out(fallback, channel_id, asked)
        if not produced.reached:
            self._set(channel_id, plan.on_failure)
        return produced.reached and produced.failed is None

    async def _unasked(self, outcome: Outcome, origin: Origin) -> bool:
        """A move nobody clicked for (the timer's, a computer player's)."""
        channel_id = outcome.table.channel_id
        state = self.state(channel_id)
        produced = await self._carry_out(planner.plan(outcome, origin, state), channel_id, None)
        if not produced.reached:  # no channel to show it in: the reminder is gone anyway
            self._set(channel_id, dataclasses.replace(state, reminder=None))
        return produced.reached and produced.failed is None

    async def _carry_out(self, plan: Plan, channel_id: int, asked: Asked | None) -> Produced:
        """Have the Discord side make the plan's calls, and record what they produced:
        the one place a channel's state and its live message's id are kept."""
        self._set(channel_id, plan.pending)
        produced = await self.calls.carry_out(channel_id, plan.operations, asked)
        if produced.message_id is not None:
            self.tables.remember_message(channel_id, produced.message_id)
        self._set(channel_id, planner.recorded(self.state(channel_id), plan, produced))
        return produced
