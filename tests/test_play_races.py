"""Moves that race each other, one layer below Discord: the table service with the real
SQLite storage under it. Exactly one of two conflicting moves wins, the loser is refused,
and the stored game is the game in memory."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Act, GameError, Kind, Move, NotYourTurn, StaleAction
from bot.game.tables import Outcome, Table, TableService
from bot.storage import Storage
from tests.engine_helpers import ScriptedDice

GUILD = 42
CHANNEL = 1000
A, B, C = "101", "102", "103"
JOIN, START, ROLL = Move(Act.JOIN), Move(Act.START), Move(Act.ROLL)


async def start(
    service: TableService, preset: str, players: list[str], channel: int = CHANNEL, **options: Any
) -> Table:
    options.setdefault("turn_timer", 0)
    outcome = await service.open_table(GUILD, channel, players[0], preset, options, 0.0)
    for player in players[1:]:
        await service.act(channel, player, JOIN, 1.0)
    await service.act(channel, players[0], START, 2.0)
    return outcome.table


async def race(*moves: Any) -> tuple[list[Outcome], list[BaseException]]:
    results = await asyncio.gather(*moves, return_exceptions=True)
    won = [r for r in results if isinstance(r, Outcome)]
    lost = [r for r in results if isinstance(r, BaseException)]
    for error in lost:
        assert isinstance(error, GameError), repr(error)
    return won, lost


async def assert_stored(storage: Storage, table: Table) -> None:
    """The game as stored is the game in memory (engine state and the bot's bookkeeping)."""
    record = await storage.get_game(table.game_id)
    assert record is not None
    stored = Table.from_record(record.id, record.guild_id, record.channel_id, record.state_json)
    assert stored.game.to_dict() == table.game.to_dict()
    assert stored.meta.to_dict() == table.meta.to_dict()
    expected = {"playing": "running", "lobby": "lobby", "over": "over"}[table.game.phase]
    assert record.status == expected


async def test_double_click_only_one_roll(storage: Storage) -> None:
    service = TableService(storage, ScriptedDice([6, 5]))
    table = await start(service, "mexican", [A, B])
    seen = table.game.move_no
    won, lost = await race(
        service.act(CHANNEL, A, ROLL, 3.0, expect_move=seen),
        service.act(CHANNEL, A, ROLL, 3.0, expect_move=seen),
    )
    assert len(won) == 1 and len(lost) == 1
    assert isinstance(lost[0], StaleAction)
    assert table.game.move_no == seen + 1 and table.game.cup == (6, 5)
    assert table.meta.commit is not None and table.meta.commit.dice == (6, 5)
    events = await storage.events(table.game_id)
    assert sum(1 for e in events if e.kind == Kind.ROLLED) == 1
    await assert_stored(storage, table)


async def test_double_click_without_move_number_is_refused_by_the_rules(storage: Storage) -> None:
    """Two /roll commands at once: the second finds the roller must claim now."""
    service = TableService(storage, ScriptedDice([6, 5]))
    table = await start(service, "dollar", [A, B])
    won, lost = await race(service.act(CHANNEL, A, ROLL, 3.0), service.act(CHANNEL, A, ROLL, 3.0))
    assert len(won) == 1 and lost[0].key == "claim-after-roll"
    await assert_stored(storage, table)


@pytest.mark.parametrize("tap_first", [True, False])
async def test_tap_against_a_roll_after_a_three_two(storage: Storage, tap_first: bool) -> None:
    service = TableService(storage, ScriptedDice([3, 2, 4, 4]))
    table = await start(service, "mexico", [A, B, C])
    game = table.game
    await service.act(CHANNEL, A, ROLL, 3.0)
    assert game.stuck and game.last == (3, 2) and game.rolls < game.allowed_rolls()
    seen = game.move_no
    tap = service.act(CHANNEL, C, Move(Act.TAP), 4.0, expect_move=seen)
    roll = service.act(CHANNEL, A, ROLL, 4.0, expect_move=seen)
    won, lost = await race(*((tap, roll) if tap_first else (roll, tap)))
    assert len(won) == 1 and len(lost) == 1 and isinstance(lost[0], StaleAction)
    assert won[0].move == (Move(Act.TAP) if tap_first else ROLL)  # the lock serves in order
    if won[0].move == Move(Act.TAP):
        assert game.results[A] == (3, 2) and game.to_move == B and game.limit == 1
        assert service.rng.dice == [4, 4]  # the refused roll threw no dice
    else:
        assert game.last == (4, 4) and game.to_move == A and A not in game.results
        assert service.rng.dice == []
    assert not game.stuck
    await assert_stored(storage, table)


async def test_tap_against_a_roll_without_move_numbers(storage: Storage) -> None:
    """Slash commands carry no move number: the rules alone decide the loser."""
    service = TableService(storage, ScriptedDice([3, 2, 4, 4]))
    table = await start(service, "mexico", [A, B, C])
    await service.act(CHANNEL, A, ROLL, 3.0)
    assert table.game.stuck
    won, lost = await race(
        service.act(CHANNEL, B, Move(Act.TAP), 4.0), service.act(CHANNEL, A, ROLL, 4.0)
    )
    assert [o.move for o in won] == [Move(Act.TAP)] and isinstance(lost[0], NotYourTurn)
    assert table.game.results[A] == (3, 2) and table.game.to_move == B
    await assert_stored(storage, table)


@pytest.mark.parametrize("accept_first", [True, False])
async def test_accept_against_bullshit_by_the_same_player(
    storage: Storage, accept_first: bool
) -> None:
    service = TableService(storage, ScriptedDice([4, 2]))
    table = await start(service, "mexican", [A, B, C])
    await service.act(CHANNEL, A, ROLL, 3.0)
    await service.act(CHANNEL, A, Move(Act.CLAIM, roll=(6, 5)), 3.0)
    seen = table.game.move_no
    accept, bullshit = Move(Act.ACCEPT), Move(Act.BULLSHIT)
    moves = [
        service.act(CHANNEL, B, accept, 4.0, expect_move=seen),
        service.act(CHANNEL, B, bullshit, 4.0, expect_move=seen),
    ]
    won, lost = await race(*(moves if accept_first else moves[::-1]))
    assert len(won) == 1 and len(lost) == 1 and isinstance(lost[0], StaleAction)
    assert won[0].move == (accept if accept_first else bullshit)  # the lock serves in order
    if won[0].move == accept:
        assert table.game.stage == "accepted" and table.game.to_move == B
        assert table.game.summary() == {}
    else:
        # ana was caught bluffing 65 on a 4-2: one sip (the finished round's ledger lines
        # live on in the event log; the table keeps the totals).
        assert table.game.round_no == 2 and table.game.summary() == {A: {"sip": 1}}
        assert won[0].lifted is not None and table.meta.commit is None
    await assert_stored(storage, table)
    # Without move numbers the second answer finds no claim waiting.
    other = bullshit if won[0].move == accept else accept
    with pytest.raises(GameError, match="no-claim-to-answer"):
        await service.act(CHANNEL, B, other, 5.0)
    await assert_stored(storage, table)


async def test_a_click_racing_a_move_that_cannot_be_stored(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A double click whose first move fails to store: that move did not happen, so the
    second click, waiting on the channel's lock, is the one that rolls."""
    service = TableService(storage, ScriptedDice([6, 5, 4, 3]))
    table = await start(service, "mexican", [A, B])
    seen = table.game.move_no
    real_save = storage.save_move
    saves = 0

    async def first_fails(*args: Any, **kwargs: Any) -> list[int]:
        nonlocal saves
        saves += 1
        if saves == 1:
            await asyncio.sleep(0)  # the disk takes a moment to fail
            raise OSError("disk full")
        return await real_save(*args, **kwargs)

    monkeypatch.setattr(storage, "save_move", first_fails)
    results = await asyncio.gather(
        service.act(CHANNEL, A, ROLL, 3.0, expect_move=seen),
        service.act(CHANNEL, A, ROLL, 3.0, expect_move=seen),
        return_exceptions=True,
    )
    assert isinstance(results[0], OSError) and isinstance(results[1], Outcome), results
    assert table.game.move_no == seen + 1 and table.game.cup == (4, 3)
    assert table.meta.commit is not None and table.meta.commit.dice == (4, 3)
    await assert_stored(storage, table)


async def test_two_tables_opened_at_once_in_one_channel(storage: Storage) -> None:
    service = TableService(storage, random.Random(1))
    won, lost = await race(
        service.open_table(GUILD, CHANNEL, A, "mexen", {}, 0.0),
        service.open_table(GUILD, CHANNEL, B, "dollar", {}, 0.0),
    )
    assert len(won) == 1 and lost[0].key == "channel-busy"
    assert len(await storage.load_running_games()) == 1
    await assert_stored(storage, won[0].table)


async def test_many_channels_play_at_once_without_interfering(storage: Storage) -> None:
    service = TableService(storage, random.Random(7))
    presets = ["mexican", "dollar", "mexen", "mexicanen", "mexico"] * 2
    channels = [CHANNEL + n for n in range(len(presets))]
    tables = await asyncio.gather(
        *(start(service, p, [A, B, C], ch) for p, ch in zip(presets, channels, strict=True))
    )

    async def play(table: Table, moves: int) -> int:
        """Random legal moves by whoever may move, as fast as the lock lets them: a kind
        of move at random, then one of its values or targets."""
        rng = random.Random(table.channel_id)
        made = 0
        for _ in range(moves):
            game = table.game
            if game.phase != "playing":
                break
            player = game.to_move
            assert player is not None
            legal = [m for m in game.legal_actions(player) if m.act is not Act.TAP]
            act = rng.choice(sorted({m.act for m in legal}))
            move = rng.choice([m for m in legal if m.act is act])
            await service.act(table.channel_id, player, move, 10.0, expect_move=game.move_no)
            made += 1
        return made

    made = await asyncio.gather(*(play(t, 40) for t in tables))
    assert all(n > 0 for n in made)
    for table in tables:
        assert table.game.preset == presets[channels.index(table.channel_id)]
        await assert_stored(storage, table)
        logged = [e for e in await storage.events(table.game_id) if e.kind == "move"]
        # lobby + 2 joins + start + the moves of this table alone
        assert len(logged) == 4 + made[tables.index(table)]


async def test_a_timer_that_ran_out_during_downtime_gets_a_grace_period(tmp_path: Path) -> None:
    from bot.game.tables import RESUME_GRACE

    async with await Storage.open(tmp_path / "grace.db") as store:
        first = TableService(store, ScriptedDice())
        await first.open_table(1, 5, "1", "mexen", {"turn_timer": 90}, now=1000.0)
        await first.act(5, "2", JOIN, 1001.0)
        await first.act(5, "1", START, 1002.0)
        deadline = first.get(5).meta.deadline  # type: ignore[union-attr]
        assert deadline == 1092.0
        soon = TableService(store)
        await soon.restore(now=1010.0)
        assert soon.get(5).meta.deadline == deadline  # type: ignore[union-attr]
        late = TableService(store)
        await late.restore(now=5000.0)
        assert late.get(5).meta.deadline == 5000.0 + RESUME_GRACE  # type: ignore[union-attr]


async def test_a_move_that_cannot_be_stored_did_not_happen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Storage.open(tmp_path / "fail.db") as store:
        service = TableService(store, ScriptedDice([6, 5, 6, 5]))
        await service.open_table(1, 5, "1", "mexican", {}, now=1.0)
        await service.act(5, "2", JOIN, 2.0)
        await service.act(5, "1", START, 3.0)
        table = service.get(5)
        assert table is not None
        before = (table.game.to_dict(), table.meta.to_dict())
        real_save = store.save_move

        async def broken(*args: Any, **kwargs: Any) -> list[int]:
            raise OSError("disk full")

        monkeypatch.setattr(store, "save_move", broken)
        with pytest.raises(OSError):
            await service.act(5, "1", ROLL, 4.0)
        table = service.get(5)
        assert table is not None
        assert (table.game.to_dict(), table.meta.to_dict()) == before
        monkeypatch.setattr(store, "save_move", real_save)
        await service.act(5, "1", ROLL, 5.0)  # the same move, now stored
        record = await store.get_game(table.game_id)
        assert record is not None
        assert Table.from_record(0, 1, 5, record.state_json).game.to_dict() == table.game.to_dict()
