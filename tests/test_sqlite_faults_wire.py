"""The real bot process on SQLite through the file's faults (README, Running at scale:
While the database is down), over the wire with the local Discord stand-in: another
program holding the write lock for 2, 4 and 8 s under play, the database files deleted
under play, and a full disk. Every interaction is answered within Discord's 3 s window
(deferred when its answer is late), and what each answer says matches what is stored.
Each scenario's figures are printed (``pytest -s``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
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
    right = sum(
        check_moves(rig, t, before[t.channel_id], s) for t, s in zip(playing, moves, strict=True)
    )
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


async def refused_everywhere(rig: Rig, playing: list[Table], figures: Figures) -> None:
    """Moves at every table, and a /newgame: each answered in time, 'can't be reached'."""
    lone = rig.standin.channels[4]
    for table in playing:
        for _ in range(3):
            inter = await rig.move(table, figures)
            assert rig.down(inter) and not rig.taken(inter), rig.said.get(inter.id)
    newgame = rig.standin.slash(lone, rig.standin.members[6], "newgame", {"ruleset": "mexican"})
    await rig.send(newgame, figures)
    assert rig.down(newgame) and not rig.shown(newgame), rig.said.get(newgame.id)
    assert figures.in_time == figures.sent, figures.late


async def test_database_files_deleted_under_play_refuse_every_move(rig: Rig) -> None:
    await rig.start()
    playing = await tables(rig, 2)
    await rig.health_is(200)
    stored = {t.channel_id: rig.stored_moves(t.channel_id) for t in playing}
    backup = rig.work / "backup.db"
    with sqlite3.connect(rig.db) as source, sqlite3.connect(backup) as copy:
        source.backup(copy)

    for suffix in ("", "-wal", "-shm"):
        Path(f"{rig.db}{suffix}").unlink()
    figures = Figures("files deleted")
    await refused_everywhere(rig, playing, figures)
    assert await rig.health() == 503
    assert not rig.db.exists()  # nothing was written anywhere
    log = rig.log.read_text()
    assert log.count("can't be reached") == 1 and "was deleted, moved or replaced" in log, log

    # Restored from the backup and restarted: everything the players were told was
    # taken is there, and the tables play on.
    started = time.monotonic()
    assert await rig.stop() == 0
    stopped_in = time.monotonic() - started
    shutil.copy(backup, rig.db)
    await rig.start()
    for table in playing:
        assert rig.stored_moves(table.channel_id) == stored[table.channel_id]
        await rig.played(table)
    await rig.health_is(200)
    tracebacks = rig.tracebacks()
    print(f"\n{figures.line(figures.sent, tracebacks)}; stopped in {stopped_in:.1f} s")
    assert tracebacks == 0, rig.tail()


async def test_a_database_file_moved_away_and_back(rig: Rig) -> None:
    await rig.start()
    (table,) = await tables(rig, 1)
    before = rig.stored_moves(table.channel_id)
    aside = rig.work / "aside.db"
    rig.db.rename(aside)
    figures = Figures("file moved away")
    for _ in range(3):
        inter = await rig.move(table, figures)
        assert rig.down(inter), rig.said.get(inter.id)
    await rig.health_is(503)
    aside.rename(rig.db)
    await rig.health_is(200)
    await rig.played(table)
    assert rig.stored_moves(table.channel_id) == before + 1
    log = rig.log.read_text()
    assert log.count("can't be reached") == 1 and log.count("is back after") == 1, log[-3000:]
    assert rig.tracebacks() == 0, rig.tail()


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "6m") -> Iterator[None]:
    """A tmpfs of ``size`` at ``folder``: root only (CI runs as root), else skipped."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"can't mount a small tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write a file until the disk is full; its path, to free the space again."""
    filler = folder / "filler"
    chunk = b"\0" * 65536
    with contextlib.suppress(OSError), open(filler, "wb") as out:
        while True:
            out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
    return filler


async def test_a_full_disk_refuses_moves_and_recovers(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    with small_disk(disk):
        rig = Rig(tmp_path, db=disk / "bot.db")
        try:
            await rig.start()
            playing = await tables(rig, 2)
            before = {t.channel_id: rig.stored_moves(t.channel_id) for t in playing}
            await rig.health_is(200)
            filler = fill(disk)
            await rig.health_is(503)
            figures = Figures("disk full")
            sent = []
            for _ in range(4):
                for table in playing:
                    sent.append((table, await rig.move(table, figures)))
            assert figures.in_time == figures.sent, figures.late
            assert figures.down > 0, figures
            filler.unlink()
            await rig.health_is(200)
            right = 0
            for table in playing:
                mine = [inter for t, inter in sent if t is table]
                right += check_moves(rig, table, before[table.channel_id], mine)
                await rig.played(table)
            log = rig.log.read_text()
            tracebacks = rig.tracebacks()
            print("\n" + figures.line(right, tracebacks))
            assert log.count("can't be reached") == 1, log[-3000:]
            assert log.count("is back after") == 1, log[-3000:]
            assert tracebacks == 0, rig.tail()
        finally:
            await rig.close()
