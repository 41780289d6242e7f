"""The real bot process on SQLite through the file's faults (README, Running at scale:
While the database is down), over the wire with the local Discord stand-in: another
program holding the write lock for 2, 4 and 8 s under play, the database files deleted
under play, and a full disk. Every interaction is answered within Discord's 3 s window
(deferred when its answer is late), and what each answer says matches what is stored.
Each scenario's figures are printed (``pytest -s``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.sqlite_rig import Figures, Rig
from tests.support.driver import Table
from tests.support.standin import Interaction

pytestmark = pytest.mark.slow  # starts bot processes


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    shared = Rig(tmp_path)
    try:
        yield shared
    finally:
        await shared.close()


async def tables(rig: Rig, count: int) -> list[Table]:
    players = rig.standin.members
    found = []
    for index in range(count):
        table = rig.driver.add_table(
            rig.standin.channels[index], players[2 * index : 2 * index + 2], "mexican"
        )
        await rig.open(table)
        await rig.played(table)
        found.append(table)
    return found


async def play_while(rig: Rig, table: Table, until: float, figures: Figures) -> list[Interaction]:
    sent = []
    while time.monotonic() < until:
        sent.append(await rig.move(table, figures))
    return sent


def check_moves(rig: Rig, table: Table, taken_before: int, sent: list[Interaction]) -> int:
    """The moves answered as taken are stored, those answered 'can't be reached' are not:
    the stored count grew by exactly the taken ones. Returns how many answers were right."""
    taken = sum(rig.taken(inter) for inter in sent)
    stored = rig.stored_moves(table.channel_id)
    assert stored == taken_before + taken, (stored, taken_before, taken, rig.tail())
    for inter in sent:
        assert rig.taken(inter) != rig.down(inter) or not rig.down(inter), rig.texts(inter)
    return len(sent)


@pytest.mark.parametrize("seconds", [2, 4, 8])
async def test_a_lock_held_by_another_program_answers_every_interaction_in_time(
    rig: Rig, seconds: int
) -> None:
    await rig.start()
    playing = await tables(rig, 3)
    before = {t.channel_id: rig.stored_moves(t.channel_id) for t in playing}
    lone, other = rig.standin.channels[4], rig.standin.channels[5]
    user = rig.standin.members[6]
    figures = Figures(f"lock {seconds} s")

    locker = await rig.locked(seconds)
    until = time.monotonic() + seconds + 0.5
    newgame = rig.standin.slash(lone, user, "newgame", {"ruleset": "mexican"})
    commands = [
        newgame,
        rig.standin.slash(other, user, "leaderboard"),
        rig.standin.slash(other, user, "achievements"),
        rig.standin.slash(playing[0].channel_id, user, "table"),
    ]
    moves, asked = await asyncio.gather(
        asyncio.gather(*(play_while(rig, t, until, figures) for t in playing)),
        asyncio.gather(*(rig.send(c, figures) for c in commands)),
    )
    assert await locker.wait() == 0

    assert figures.in_time == figures.sent, (figures.late, rig.tail())
    right = sum(check_moves(rig, t, before[t.channel_id], s) for t, s in zip(playing, moves, strict=True))
    # /newgame: a lobby answered as opened is stored, one refused is not.
    assert rig.games_in(lone) == int(rig.taken(newgame)), rig.texts(newgame)
    for inter in asked:  # a page, a card or the table; or that the database is down
        assert rig.shown(inter) != rig.down(inter), (inter.kind, rig.said.get(inter.id))
    right += len(asked)
    if seconds >= 4:  # the lock outlasted SQLite's wait: some answers said so
        assert figures.down > 0 and figures.deferred > 0, figures
    # Afterwards the tables play on, from what is stored.
    for table in playing:
        await rig.played(table)
    tracebacks = rig.tracebacks()
    print("\n" + figures.line(right, tracebacks))
    assert tracebacks == 0, rig.tail()
    log = rig.log.read_text()
    assert log.count("can't be reached") == log.count("is back after") <= 1, rig.tail()
