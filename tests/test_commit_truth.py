"""The truth about a COMMIT whose answer was lost (README, Running at scale: While the
database is down), on a real PostgreSQL server behind a proxy that cuts the connection
at the COMMIT (tests/support/pgproxy.py): a move the server kept is kept and shown, a
move it never got did not happen, and one that can't be known yet is read back before
the table's next move."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.engine import Act, GameError, Move, StaleAction
from bot.game.tables import OutcomeUnknown, TableService
from bot.storage import DatabaseDownError, Storage
from tests.support.driver import engine_move
from tests.support.pgproxy import PgProxy, started

from .engine_helpers import ScriptedDice

pytestmark = pytest.mark.slow  # PostgreSQL behind a proxy

CHANNEL = 77


@dataclass
class Rig:
    proxy: PgProxy
    store: Storage  # through the proxy: the bot's view
    direct: Storage  # straight to the server: the truth
    service: TableService


@pytest.fixture
async def rig(postgres_url: str) -> AsyncIterator[Rig]:
    proxy = await started(postgres_url)
    store = await Storage.open(proxy.url(postgres_url))
    direct = await Storage.open(postgres_url)
    service = TableService(store, ScriptedDice([6, 5, 4, 2] * 20))
    await service.open_table(1, CHANNEL, "1", "mexican", None, now=1000.0)
    await service.act(CHANNEL, "2", Move(Act.JOIN), 1000.0)
    await service.act(CHANNEL, "1", Move(Act.START), 1000.0)
    try:
        yield Rig(proxy, store, direct, service)
    finally:
        await proxy.stop()
        await store.close()
        await direct.close()


async def stored_moves(rig: Rig) -> tuple[int, str, int]:
    """The stored game's move number and state, and how many moves its log holds."""
    table = rig.service.get(CHANNEL)
    assert table is not None
    record = await rig.direct.get_game(table.game_id)
    assert record is not None
    moves = [e for e in await rig.direct.events(table.game_id) if e.kind == "move"]
    return record.move_no, record.state_json, len(moves)


def roll_for(rig: Rig) -> tuple[str, Move]:
    table = rig.service.get(CHANNEL)
    assert table is not None and table.game.to_move is not None
    return table.game.to_move, Move(Act.ROLL)


async def test_a_commit_the_server_kept_counts_and_is_shown(rig: Rig) -> None:
    before, _, logged = await stored_moves(rig)
    player, move = roll_for(rig)
    rig.proxy.cut_commit("after")
    outcome = await rig.service.act(CHANNEL, player, move, 1001.0)
    assert rig.proxy.cuts == ["after"]  # the answer to COMMIT never reached the bot
    assert outcome.move == move and outcome.events  # shown like any move
    move_no, state, moves = await stored_moves(rig)
    assert (move_no, moves) == (before + 1, logged + 1)  # stored exactly once
    table = rig.service.get(CHANNEL)
    assert table is not None and table.stored_move == move_no and table.saved == state
    # and the table goes on: the next move is stored on top of it
    found = engine_move(table.game, random.Random(7))
    assert found is not None
    await rig.service.act(CHANNEL, *found, 1002.0)
    assert (await stored_moves(rig))[0] == before + 2


async def test_a_commit_the_server_never_got_did_not_happen(rig: Rig) -> None:
    before, state_before, logged = await stored_moves(rig)
    table = rig.service.get(CHANNEL)
    assert table is not None
    in_memory = table.state_json()
    player, move = roll_for(rig)
    rig.proxy.cut_commit("before")
    with pytest.raises(DatabaseDownError):
        await rig.service.act(CHANNEL, player, move, 1001.0)
    assert rig.proxy.cuts == ["before"]
    assert await stored_moves(rig) == (before, state_before, logged)
    assert table.state_json() == in_memory and table.stored_move == before
    # Nothing happened, so the same move can be made again, and counts once.
    await rig.service.act(CHANNEL, player, move, 1002.0)
    assert (await stored_moves(rig))[0::2] == (before + 1, logged + 1)


async def test_an_unknown_commit_is_read_back_before_the_next_move(rig: Rig) -> None:
    before, _, logged = await stored_moves(rig)
    table = rig.service.get(CHANNEL)
    assert table is not None
    player, move = roll_for(rig)
    rig.proxy.cut_commit("after", then_down=True)  # and the read-back can't connect
    with pytest.raises(OutcomeUnknown):
        await rig.service.act(CHANNEL, player, move, 1001.0)
    assert table.unsettled and table.stored_move == before  # as last known stored
    move_no, state, moves = await stored_moves(rig)
    assert (move_no, moves) == (before + 1, logged + 1)  # the server did keep it
    # While the database is still away the next move changes nothing.
    with pytest.raises(DatabaseDownError):
        await rig.service.act(CHANNEL, player, move, 1002.0)
    await rig.proxy.come_back()
    # Back: the table is read again first, and the move decided again on it: the roll
    # was kept, so a second one is refused by the stored table's rules.
    with pytest.raises(GameError) as refused:
        await rig.service.act(CHANNEL, player, move, 1003.0)
    assert not isinstance(refused.value, StaleAction), refused.value
    table = rig.service.get(CHANNEL)
    assert table is not None and not table.unsettled
    assert (table.stored_move, table.saved) == (move_no, state)
    assert (await stored_moves(rig))[0::2] == (before + 1, logged + 1)


@pytest.mark.parametrize("cut", ["after", "before"])
async def test_a_lobby_whose_commit_lost_its_answer_is_read_back(rig: Rig, cut: str) -> None:
    """/newgame meets the cut: a lobby the server kept is opened (and played on), one it
    never got was not, and the host is told which."""
    other = CHANNEL + 1
    rig.proxy.cut_commit(cut)  # type: ignore[arg-type]
    if cut == "after":
        opened = await rig.service.open_table(1, other, "1", "mexen", None, now=1000.0)
        stored = await rig.direct.get_game_for_channel(other)
        assert stored is not None and stored.id == opened.table.game_id
        await rig.service.act(other, "2", Move(Act.JOIN), 1001.0)
        assert (await rig.direct.get_game(stored.id)).move_no == 1  # type: ignore[union-attr]
    else:
        with pytest.raises(DatabaseDownError):
            await rig.service.open_table(1, other, "1", "mexen", None, now=1000.0)
        assert await rig.direct.get_game_for_channel(other) is None
        assert rig.service.get(other) is None
    assert rig.proxy.cuts == [cut]
