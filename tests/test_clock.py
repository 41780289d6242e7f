"""The turn clock on its own: reminder, expiry, stale deadlines, and retrying a timeout
move that could not be stored."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import bot.game.clock as clock_module
from bot.engine import Act, Move
from bot.game.clock import TurnClock
from bot.game.outcomes import News, Origin, Reminder
from bot.game.tables import Outcome, Table, TableService
from bot.storage import Storage

from .engine_helpers import ScriptedDice


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Told:
    """The clock's door out (a sink), as a test sees it: each reminder and each expiry's
    outcome handed to its own function; both come with the origin TIMER."""

    def __init__(
        self,
        remind: Callable[[Table, float], Awaitable[None]],
        expired: Callable[[Outcome], Awaitable[None]],
    ) -> None:
        self.remind, self.expired = remind, expired

    async def deliver(self, news: News, origin: Origin, asker: object = None) -> None:
        assert origin is Origin.TIMER and asker is None
        if isinstance(news, Reminder):
            await self.remind(news.table, news.deadline)
        elif isinstance(news, Outcome):
            await self.expired(news)


async def settled(clock: TurnClock, done: Callable[[], bool]) -> None:
    """Until ``done()`` holds and the clock runs nothing (its reminder and expiry run as
    tasks only once their timer handle fires)."""
    while not done() or clock.tasks:
        await asyncio.sleep(0.01)


async def table_with_timer(tmp_path: Path, seconds: int) -> tuple[Storage, TableService]:
    store = await Storage.open(tmp_path / "clock.db")
    service = TableService(store, ScriptedDice([6, 5] * 10))
    await service.open_table(1, 9, "1", "mexican", {"turn_timer": seconds}, now=1000.0)
    await service.act(9, "2", Move(Act.JOIN), 1000.0)
    await service.act(9, "1", Move(Act.START), 1000.0)
    return store, service


async def test_reminder_then_expiry_with_a_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, service = await table_with_timer(tmp_path, 0)
    table = service.get(9)
    assert table is not None
    # A 0.2 s timer, set by hand: the clock reads the deadline the table stored.
    table.meta.deadline, table.meta.deadline_move = 1000.2, table.game.move_no
    table.game.options = dataclasses.replace(table.game.options, turn_timer=1)
    time = FakeTime()
    reminded: list[float] = []
    expired: list[Outcome] = []

    async def remind(t: Table, deadline: float) -> None:
        reminded.append(deadline)
        time.t = deadline  # the clock sleeps the rest of the way in real time (0 s)

    async def on_expired(outcome: Outcome) -> None:
        expired.append(outcome)

    failures = [OSError("disk full")]
    real_expire = service.expire_locked

    async def flaky(*args: Any) -> Outcome | None:
        if failures:
            raise failures.pop()
        return await real_expire(*args)

    monkeypatch.setattr(service, "expire_locked", flaky)
    monkeypatch.setattr(clock_module, "RETRY_FIRST", 0.0)
    clock = TurnClock(service, time, Told(remind, on_expired))
    time.t = 999.0  # half time (999.7) is still ahead
    clock.arm(table)
    await asyncio.wait_for(settled(clock, lambda: bool(expired)), 5)
    assert reminded == [1000.2]
    assert [o.move for o in expired] == [Move(Act.TIMEOUT)] and not failures
    assert service.get(9).game.round_no == 2  # type: ignore[union-attr]
    clock.stop_all()
    await store.close()


async def test_a_move_makes_the_armed_deadline_stale(tmp_path: Path) -> None:
    store, service = await table_with_timer(tmp_path, 90)
    table = service.get(9)
    assert table is not None
    stale_move = table.game.move_no
    await service.act(9, "1", Move(Act.ROLL), 1001.0)
    assert await service.expire(9, stale_move, 5000.0) is None
    assert table.game.move_no == stale_move + 1
    await store.close()


async def test_arming_sets_a_timer_handle_not_a_task(tmp_path: Path) -> None:
    """Every move re-arms the clock: a timer handle the next move cancels, and no task
    until a reminder or an expiry is due."""
    store, service = await table_with_timer(tmp_path, 90)
    table = service.get(9)
    assert table is not None and table.meta.deadline is not None

    async def never(*_args: object) -> None:
        raise AssertionError("nothing is due yet")

    clock = TurnClock(service, lambda: 1000.0, Told(never, never))
    clock.arm(table)
    first = clock.handles[9]
    assert clock.tasks == {}
    await service.act(9, "1", Move(Act.ROLL), 1001.0)
    clock.arm(table)
    assert first.cancelled() and not clock.handles[9].cancelled() and clock.tasks == {}
    clock.stop_all()
    assert clock.handles == {} and clock.tasks == {}
    await store.close()
