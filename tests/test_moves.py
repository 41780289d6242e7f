"""The game layer's one door (bot/game/outcomes.py, bot/game/moves.py): a person's move,
the turn timer's and a table read again because another process moved it all reach the
same sink, each with its origin, and the clock then runs from the table as it is."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.engine import Act, Move
from bot.game.moves import Moves
from bot.game.outcomes import News, Origin, Reloaded, Reminder
from bot.game.tables import Outcome, TableService
from bot.storage import Storage

from .engine_helpers import ScriptedDice
from .test_clock import FakeTime, table_with_timer


class Door:
    """A sink that keeps what came through it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Origin, object]] = []

    async def deliver(self, news: News, origin: Origin, asker: object = None) -> None:
        self.told.append((type(news).__name__, origin, asker))


async def test_every_outcome_leaves_through_the_one_sink(tmp_path: Path) -> None:
    store, service = await table_with_timer(tmp_path, 90)
    table = service.get(9)
    assert table is not None and table.game.to_move is not None
    door, time = Door(), FakeTime()
    moves: Moves[str] = Moves(service, time, door)
    # A person's move, shown to whoever asked for it.
    async with moves.turn(9):
        outcome = await service.act_locked(9, table.game.to_move, Move(Act.ROLL), time())
        await moves.deliver(outcome, Origin.SLASH, "the asker")
    assert door.told == [("Outcome", Origin.SLASH, "the asker")]
    assert 9 in moves.clock.handles  # the clock runs for the move now due
    # Another process moves the game: the table read again comes through the door too.
    other_store = await Storage.open(tmp_path / "clock.db")
    there = TableService(other_store, ScriptedDice([4, 2] * 10))
    await there.restore()
    theirs = there.get(9)
    assert theirs is not None and theirs.game.to_move is not None
    mover = theirs.game.to_move
    await there.act(9, mover, theirs.game.legal_actions(mover)[0], 1001.0)
    await service.refresh(9)
    assert door.told[-1] == ("Reloaded", Origin.ELSEWHERE, None)
    # The turn timer runs out: the reminder and the expiry come as the timer's.
    time.t = 5000.0
    moves.clock.arm(table)
    while len(door.told) < 3 or moves.clock.tasks:
        await asyncio.sleep(0.01)
    assert door.told[2:] == [("Outcome", Origin.TIMER, None)]
    moves.stop()
    await other_store.close()
    await store.close()


async def test_a_reminder_is_news_of_the_timer(tmp_path: Path) -> None:
    store, service = await table_with_timer(tmp_path, 90)
    table = service.get(9)
    assert table is not None and table.meta.deadline is not None
    door, time = Door(), FakeTime()
    moves: Moves[str] = Moves(service, time, door)
    time.t = table.meta.deadline - 45.01  # half time is 10 ms away (the expiry 45 s)
    moves.clock.arm(table)
    while not door.told or moves.clock.tasks:
        await asyncio.sleep(0.01)
    assert door.told == [("Reminder", Origin.TIMER, None)]
    moves.stop()
    await store.close()


async def test_draining_stops_the_clock_and_waits_for_moves_under_way(tmp_path: Path) -> None:
    store, service = await table_with_timer(tmp_path, 90)
    moves: Moves[str] = Moves(service, FakeTime(), Door())
    table = service.get(9)
    assert table is not None
    moves.clock.arm(table)
    entered = asyncio.Event()

    async def a_move() -> None:
        async with moves.turn(9):
            entered.set()
            await asyncio.sleep(0.05)

    task = asyncio.create_task(a_move())
    await entered.wait()
    await moves.drain(5)
    assert task.done() and moves.closing and moves.clock.handles == {}
    await store.close()


def test_an_outcome_is_news() -> None:
    assert Outcome in News.__args__ and Reminder in News.__args__  # type: ignore[attr-defined]
    assert Reloaded in News.__args__  # type: ignore[attr-defined]
