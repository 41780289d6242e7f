"""The turn clock through a database outage and a lost race (README, Running at scale:
While the database is down): it retries with growing pauses for as long as its game
runs, and after another process moved first it runs from the reloaded table."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ai.scheduler import RETRY_SECONDS
from bot.engine import Act, Move
from bot.game.clock import TurnClock, backoff
from bot.game.tables import Outcome, Table, TableService
from bot.runtime.settings import Settings
from bot.storage import DatabaseDownError, Storage, open_storage

from .engine_helpers import ScriptedDice
from .support.sim import SimTable
from .test_clock import FakeTime, Told, settled, table_with_timer


async def nothing(table: Table, deadline: float) -> None:
    return None


def test_backoff_doubles_up_to_its_cap() -> None:
    assert [backoff(n) for n in range(1, 9)] == [1, 2, 4, 8, 16, 30, 30, 30]


async def test_a_timer_retries_with_backoff_until_the_database_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store, service = await table_with_timer(tmp_path, 90)
    table = service.get(9)
    assert table is not None
    move_no = table.game.move_no
    outage = [DatabaseDownError("connection refused")] * 7
    real_expire = service.expire_locked

    async def down_for_a_while(*args: Any) -> Outcome | None:
        if outage:
            raise outage.pop()
        return await real_expire(*args)

    monkeypatch.setattr(service, "expire_locked", down_for_a_while)
    expired: list[Outcome] = []
    pauses: list[float] = []

    async def expired_shown(outcome: Outcome) -> None:
        expired.append(outcome)

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    time = FakeTime()
    time.t = 5000.0  # long past the deadline: the clock expires the move at once
    clock = TurnClock(service, time, Told(nothing, expired_shown))
    clock.pause = pause
    with caplog.at_level(logging.WARNING):
        clock.arm(table)
        await asyncio.wait_for(settled(clock, lambda: bool(expired)), 5)
    assert pauses == [1, 2, 4, 8, 16, 30, 30]  # seven failures, then the eighth try
    assert [o.move for o in expired] == [Move(Act.TIMEOUT)]
    assert expired[0].table.stored_move == move_no + 1
    assert not [r for r in caplog.records if r.exc_info]  # an outage is no traceback
    clock.stop_all()
    await store.close()


async def test_after_a_lost_race_the_timer_runs_from_the_reloaded_table(
    tmp_path: Path,
) -> None:
    store, here = await table_with_timer(tmp_path, 90)
    table = here.get(9)
    assert table is not None
    # A second process on the same database moves first (the player rolls at 1001).
    other_store = await Storage.open(tmp_path / "clock.db")
    there = TableService(other_store, ScriptedDice([4, 2] * 10))
    await there.restore()
    mover = table.game.to_move
    assert mover is not None
    moved = await there.act(9, mover, Move(Act.ROLL), 1001.0)
    theirs = moved.table.game.move_no
    expired: list[Outcome] = []

    async def expired_shown(outcome: Outcome) -> None:
        expired.append(outcome)

    time = FakeTime()
    time.t = 5000.0  # both deadlines are past: this process's and the reloaded one
    clock = TurnClock(here, time, Told(nothing, expired_shown))
    clock.arm(table)  # armed for the move before the other process's
    await asyncio.wait_for(settled(clock, lambda: bool(expired)), 5)
    # The first expiry lost the race; the clock re-armed from the reloaded table and
    # timed out the move the other process left due.
    assert len(expired) == 1
    assert expired[0].table.stored_move == theirs + 1
    stored = await store.get_game(table.game_id)
    assert stored is not None and stored.move_no == theirs + 1
    clock.stop_all()
    await other_store.close()
    await store.close()


async def test_a_player_move_that_lost_a_race_rearms_the_clock(
    sim: SimTable, settings: Settings
) -> None:
    """Through the bot: a table read again because another process moved it has its
    clock armed from what was read (the clock armed for the old move would never fire),
    and the player's move is made on it."""
    alice, bob = sim.users[:2]
    await alice.slash(sim.channel, "newgame", ruleset="mexen", turn_timer=90)
    await bob.slash(sim.channel, "join")
    await alice.slash(sim.channel, "start")
    table = sim.bot.tables.get(sim.channel.id)
    dealer = sim.bot.dealer
    assert table is not None and table.game.to_move is not None and dealer is not None
    mover = next(u for u in (alice, bob) if str(u.id) == table.game.to_move)
    armed = dealer.clock.handles[sim.channel.id]
    async with await open_storage(settings.database) as other:
        record = await other.get_game(table.game_id)
        assert record is not None
        await other.save_move(
            record.id,
            table.state_json(),
            "running",
            [("move", {"player": "elsewhere"})],
            expect_move_no=record.move_no,
        )
    await mover.slash(sim.channel, "table")  # checked against the database: read again
    rearmed = dealer.clock.handles.get(sim.channel.id)
    assert armed.cancelled() and rearmed is not None and not rearmed.cancelled()
    assert table.stored_move == record.move_no + 1
    await mover.slash(sim.channel, "roll")
    assert table.stored_move == record.move_no + 2  # made on the table as read again


@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_computer_keeps_trying_through_an_outage(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The computer's move can't be stored for a while: it tries again every few seconds,
    logs no traceback, and moves once the database answers."""
    from .test_computers import PAUSE, lobby_with_computers, until_a_computer_moves_next

    sim.bot.tables.rng = random.Random(2)
    await lobby_with_computers(sim, "mexen", ["caller"])
    await sim.users[0].slash(sim.channel, "start")
    table = sim.bot.tables.get(sim.channel.id)
    assert table is not None
    await until_a_computer_moves_next(sim)
    before = table.stored_move
    storage = sim.bot.storage
    real_save = storage.save_move
    failed: list[int] = []

    async def down_for_a_while(*args: Any, **kwargs: Any) -> list[int]:
        if len(failed) < 4:
            failed.append(1)
            raise DatabaseDownError("connection refused")
        return await real_save(*args, **kwargs)

    monkeypatch.setattr(storage, "save_move", down_for_a_while)
    with caplog.at_level(logging.WARNING):
        for _ in range(4):  # its pause, then a retry every RETRY_SECONDS
            await sim.env.advance_time(PAUSE + RETRY_SECONDS)
        await sim.env.advance_time(PAUSE)
    assert len(failed) == 4 and table.stored_move > before
    assert not [r for r in caplog.records if r.exc_info]
