"""Two processes on one database racing on one channel: the rolling-restart case.

Two `TableService`s, each with its own connection to the same database (one PostgreSQL
database, or one SQLite file), hold the same game in memory, as an old and a new bot
process do while they overlap. Per-process channel locks can't stop them; the stored
move number (and on PostgreSQL the channel's advisory lock) must: exactly one move wins,
the other is refused and reloaded, and the stored game stays whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine import Act, GameError, Kind, Move, StaleAction
from bot.game.tables import Outcome, Table, TableService
from bot.runtime.settings import Settings
from bot.storage import Storage, open_storage

from .db_helpers import database_url_fixture
from .support.sim import SimTable

GUILD = 42
CHANNEL = 1000
A, B = "101", "102"

database_url = database_url_fixture()


@pytest.fixture
async def processes(database_url: str) -> AsyncIterator[tuple[TableService, TableService]]:
    """Two table services, each on a storage of its own, sharing one database."""
    old, new = await open_storage(database_url), await open_storage(database_url)
    try:
        yield TableService(old, random.Random(1)), TableService(new, random.Random(2))
    finally:
        await old.close()
        await new.close()


async def started(first: TableService, second: TableService) -> int:
    """A mexen game opened and started by the first process; the second restores it, as a
    process starting during a rolling restart does."""
    await first.open_table(GUILD, CHANNEL, A, "mexen", {"turn_timer": 0}, 0.0)
    await first.act(CHANNEL, B, Move(Act.JOIN), 1.0)
    await first.act(CHANNEL, A, Move(Act.START), 2.0)
    restored = await second.restore()
    assert [t.channel_id for t in restored] == [CHANNEL]
    table = first.get(CHANNEL)
    assert table is not None
    return table.game_id


async def assert_consistent(storage: Storage, game_id: int, *services: TableService) -> None:
    """Move numbers are contiguous (one per stored move, each with its own log entry and
    events numbered without gaps), the state loads, and every process that holds the
    table holds the stored one."""
    record = await storage.get_game(game_id)
    assert record is not None
    events = await storage.events(game_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    moves = [e for e in events if e.kind == "move"]
    assert len(moves) == record.move_no + 1  # the newgame entry, then one per stored move
    stored = Table.from_record(
        record.id, record.guild_id, record.channel_id, record.state_json, record.move_no
    )
    for service in services:
        table = service.get(CHANNEL)
        if table is not None:
            assert table.game.to_dict() == stored.game.to_dict()
            assert table.stored_move == record.move_no


async def test_two_processes_racing_one_move_exactly_one_wins(
    processes: tuple[TableService, TableService],
) -> None:
    old, new = processes
    game_id = await started(old, new)
    mover = old.get(CHANNEL).game.to_move  # type: ignore[union-attr]
    drawn = old.get(CHANNEL).game.move_no  # type: ignore[union-attr]
    assert mover is not None

    # The same button, drawn for the same move, clicked through both processes.
    results = await asyncio.gather(
        old.act(CHANNEL, mover, Move(Act.ROLL), 3.0, expect_move=drawn),
        new.act(CHANNEL, mover, Move(Act.ROLL), 3.0, expect_move=drawn),
        return_exceptions=True,
    )
    won = [r for r in results if isinstance(r, Outcome)]
    lost = [r for r in results if isinstance(r, BaseException)]
    assert len(won) == 1 and len(lost) == 1
    # Decided again on the stored table, the click is for a move already made: stale.
    assert isinstance(lost[0], StaleAction) and lost[0].key != "moved-elsewhere", lost[0]
    events = await old.storage.events(game_id)
    assert sum(1 for e in events if e.kind == Kind.ROLLED) == 1
    await assert_consistent(old.storage, game_id, old, new)

    # The refused process reloaded the table: its next move is stored normally.
    loser = new if isinstance(results[0], Outcome) else old
    table = loser.get(CHANNEL)
    assert table is not None
    after = await loser.act(CHANNEL, table.game.to_move or mover, Move(Act.STAND), 4.0)
    assert isinstance(after, Outcome)
    await assert_consistent(loser.storage, game_id, loser)


async def test_a_move_refused_by_the_database_is_decided_again_on_the_stored_table(
    processes: tuple[TableService, TableService],
) -> None:
    """A slash command names no move number: when another process stored a move first,
    the move is not refused on the stale copy but decided again on the stored one."""
    old, new = processes
    game_id = await started(old, new)
    mover = old.get(CHANNEL).game.to_move  # type: ignore[union-attr]
    assert mover is not None
    await old.act(CHANNEL, mover, Move(Act.ROLL), 3.0)  # new's copy is now behind
    again = await new.act(CHANNEL, mover, Move(Act.ROLL), 4.0)
    assert isinstance(again, Outcome)
    events = await old.storage.events(game_id)
    assert sum(1 for e in events if e.kind == Kind.ROLLED) == 2
    await assert_consistent(new.storage, game_id, new)


async def test_a_refusal_on_a_stale_copy_is_checked_against_the_database(
    processes: tuple[TableService, TableService],
) -> None:
    """ "Not your turn" from a copy the database has left behind is never the answer: the
    table is reloaded and the move made on what is stored."""
    old, new = processes
    game_id = await started(old, new)
    first = old.get(CHANNEL).game.to_move  # type: ignore[union-attr]
    assert first is not None
    await old.act(CHANNEL, first, Move(Act.ROLL), 3.0)
    await old.act(CHANNEL, first, Move(Act.STAND), 4.0)
    second = old.get(CHANNEL).game.to_move  # type: ignore[union-attr]
    assert second is not None and second != first
    # On new's copy it is still `first`'s turn: `second` would be told "not your turn".
    with pytest.raises(GameError):
        new.get(CHANNEL).game.apply(second, Move(Act.ROLL), random.Random(0))  # type: ignore[union-attr]
    outcome = await new.act(CHANNEL, second, Move(Act.ROLL), 5.0)
    assert isinstance(outcome, Outcome) and outcome.player == second
    await assert_consistent(new.storage, game_id, new)


async def test_a_game_opened_elsewhere_is_found_and_played(
    processes: tuple[TableService, TableService],
) -> None:
    """A channel whose game another process opened (a rolling restart): no "no game
    here", no "already running" without a game to play; the move is made on it."""
    old, new = processes
    await old.open_table(GUILD, CHANNEL, A, "mexen", {"turn_timer": 0}, 0.0)
    assert new.get(CHANNEL) is None
    joined = await new.act(CHANNEL, B, Move(Act.JOIN), 1.0)
    assert list(joined.table.game.players) == [A, B]
    await new.act(CHANNEL, A, Move(Act.END), 2.0)  # ended through new: old's copy is stale
    assert old.get(CHANNEL) is not None
    opened = await old.open_table(GUILD, CHANNEL, B, "dollar", {}, 3.0)
    assert opened.table.game.preset == "dollar"
    with pytest.raises(GameError):  # now new is behind: it learns of old's lobby, refuses
        await new.open_table(GUILD, CHANNEL, A, "mexen", {}, 4.0)
    assert new.get(CHANNEL) is not None and new.get(CHANNEL).game.preset == "dollar"  # type: ignore[union-attr]


async def test_many_racing_moves_keep_the_game_whole(
    processes: tuple[TableService, TableService],
) -> None:
    """Both processes play the same game as fast as they can, each refusing whatever the
    other stored first; at the end the stored game is one unbroken history."""
    old, new = processes
    game_id = await started(old, new)
    refused = stored = 0
    for turn in range(30):
        moves = []
        for service in (old, new) if turn % 2 else (new, old):
            table = service.get(CHANNEL)
            if table is None or table.game.phase != "playing" or table.game.to_move is None:
                continue
            player = table.game.to_move
            action = table.game.legal_actions(player)[0]
            moves.append(service.act(CHANNEL, player, action, 10.0 + turn))
        if not moves:
            break
        for result in await asyncio.gather(*moves, return_exceptions=True):
            if isinstance(result, Outcome):
                stored += 1
            else:
                assert isinstance(result, GameError), repr(result)
                refused += 1
    record = await old.storage.get_game(game_id)
    assert record is not None
    assert record.move_no == 2 + stored  # join and start, then every move that won
    assert refused >= 1
    await assert_consistent(old.storage, game_id)
    for service in (old, new):  # one more move each: whoever is stale reloads and agrees
        table = service.get(CHANNEL)
        if table is not None and table.game.to_move is not None:
            with contextlib.suppress(GameError):
                await service.act(CHANNEL, table.game.to_move, Move(Act.STAND), 99.0)
    await assert_consistent(new.storage, game_id, old, new)


async def test_a_move_another_process_stored_first_is_made_on_the_stored_table(
    sim: SimTable, settings: Settings
) -> None:
    """Through the bot: another process stored a move this one has not seen. The player's
    /roll is not refused on the stale copy: the table is reloaded and the roll made on it."""
    alice, bob = sim.users[:2]
    await alice.slash(sim.channel, "newgame", ruleset="mexen", turn_timer=0)
    await bob.slash(sim.channel, "join")
    await alice.slash(sim.channel, "start")
    table = sim.bot.tables.get(sim.channel.id)
    assert table is not None and table.game.to_move is not None
    mover = next(u for u in (alice, bob) if str(u.id) == table.game.to_move)

    # Another process, with a connection of its own to the same database, stores a move
    # (one that leaves the table as this process shows it, so the channel stays the same).
    async with await open_storage(settings.database) as other:
        record = await other.get_game(table.game_id)
        assert record is not None and record.move_no == table.stored_move
        await other.save_move(
            record.id,
            table.state_json(),
            "running",
            [("move", {"player": "elsewhere"})],
            expect_move_no=record.move_no,
        )

    rolled = await mover.slash(sim.channel, "roll")
    assert rolled.response is not None and "beat you" not in rolled.response.content
    assert table.stored_move == record.move_no + 2  # reloaded, then the roll stored
    stored = await sim.bot.storage.get_game(table.game_id)
    assert stored is not None and stored.move_no == record.move_no + 2


async def test_checking_a_table_waits_for_the_move_being_stored(
    processes: tuple[TableService, TableService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """/table or /peek while a move is being stored: the check against the database waits
    for the channel's lock, so it never reads back a move the table service has stored
    but not yet taken in (which would count that move twice)."""
    old, new = processes
    game_id = await started(old, new)
    mover = old.get(CHANNEL).game.to_move  # type: ignore[union-attr]
    assert mover is not None
    committed, go_on = asyncio.Event(), asyncio.Event()
    real = old.storage.save_move

    async def slow_after_commit(*args: Any, **kwargs: Any) -> list[int]:
        stored = await real(*args, **kwargs)
        committed.set()
        await go_on.wait()
        return stored

    monkeypatch.setattr(old.storage, "save_move", slow_after_commit)
    moving = asyncio.ensure_future(old.act(CHANNEL, mover, Move(Act.ROLL), 3.0))
    await committed.wait()
    looking = asyncio.ensure_future(old.current(CHANNEL))
    await asyncio.sleep(0.05)
    go_on.set()
    await moving
    table = await looking
    assert table is not None
    await assert_consistent(old.storage, game_id, old)
