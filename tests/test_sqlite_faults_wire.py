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
import resource
import shutil
import subprocess
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


def three_files(rig: Rig) -> list[Path]:
    return [Path(f"{rig.db}{suffix}") for suffix in ("", "-wal", "-shm")]


def chattr(flag: str, files: list[Path]) -> None:
    done = subprocess.run(["chattr", flag, *map(str, files)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr {flag} does not work here: {done.stderr.decode().strip()}")


#: How long the files stay immutable under play. The issue's target is 10 s (the docs
#: give that run's figures); 3 s here keeps the suite short and meets the same paths.
READ_ONLY_SECONDS = 3.0


async def health_while(rig: Rig, until: float) -> list[int]:
    codes = []
    while time.monotonic() < until:
        codes.append(await rig.health())
        await asyncio.sleep(0.3)
    return codes


async def test_immutable_files_under_play_are_refused_and_the_bot_lives(rig: Rig) -> None:
    """chattr +i on the file, -wal and -shm (what a file system remounted read-only after
    an I/O error does to them): SQLite would store into the -shm's memory map, a bus
    error that ends the process. The bot refuses instead, and is back at the first write
    after chattr -i."""
    await rig.start()
    playing = await tables(rig, 3)
    before = {t.channel_id: rig.stored_moves(t.channel_id) for t in playing}
    await rig.health_is(200)
    lone, other = rig.standin.channels[4], rig.standin.channels[5]
    user = rig.standin.members[6]
    figures = Figures(f"immutable {READ_ONLY_SECONDS:.0f} s")
    chattr("+i", three_files(rig))
    try:
        until = time.monotonic() + READ_ONLY_SECONDS
        commands = [
            rig.standin.slash(lone, user, "newgame", {"ruleset": "mexican"}),
            rig.standin.slash(other, user, "leaderboard"),
            rig.standin.slash(playing[0].channel_id, user, "table"),
        ]
        moves, asked, codes = await asyncio.gather(
            asyncio.gather(*(play_while(rig, t, until, figures) for t in playing)),
            asyncio.gather(*(rig.send(c, figures) for c in commands)),
            health_while(rig, until),
        )
        assert rig.bot is not None and rig.bot.alive, rig.tail()
    finally:
        chattr("-i", three_files(rig))
    assert figures.in_time == figures.sent, (figures.late, rig.tail())
    table_shown = rig.shown(asked[2])  # /table: from memory, or "can't be reached"
    assert figures.down == figures.sent - table_shown, figures
    assert not any(rig.taken(inter) for sent in moves for inter in sent), figures
    assert rig.down(asked[0]) and rig.down(asked[1]), [rig.texts(a) for a in asked]
    assert codes and set(codes) == {503}, codes

    # The first good write after: the move is taken and /health says so at once.
    await rig.played(playing[0])
    answered = time.monotonic()
    assert await rig.health() == 200
    back_in = time.monotonic() - answered
    assert back_in < 1.0, back_in
    for table, sent in zip(playing, moves, strict=True):
        check_moves(rig, table, before[table.channel_id] + (table is playing[0]), sent)
    for table in playing[1:]:
        await rig.played(table)
    assert rig.bot.alive
    tracebacks = rig.tracebacks()
    print(f"\n{figures.line(figures.sent, tracebacks)}; /health 200 {back_in * 1000:.0f} ms after")
    assert tracebacks == 0, rig.tail()
    log = rig.log.read_text()
    assert log.count("can't be reached") == log.count("is back after") == 1, rig.tail()
    assert "immutable (chattr +i)" in log, rig.tail()


def ext4_image(folder: Path) -> Path:
    """An 8 MiB ext4 image mounted at ``folder`` that turns itself read-only at its first
    error (errors=remount-ro); the file to write to trigger one. Skipped where this
    machine gives no loop mount, or its kernel no way to raise an ext4 error."""
    folder.mkdir()
    image = folder.with_suffix(".img")
    with open(image, "wb") as out:
        out.truncate(8 << 20)
    if shutil.which("mkfs.ext4") is None:
        pytest.skip("no mkfs.ext4 here to make a file system that can turn read-only")
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True, check=True)
    argv = ["mount", "-o", "loop,errors=remount-ro", str(image), str(folder)]
    mounted = subprocess.run(argv, capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"can't loop-mount an ext4 image here: {mounted.stderr.decode().strip()}")
    device = subprocess.run(
        ["findmnt", "-n", "-o", "SOURCE", str(folder)], capture_output=True, text=True
    ).stdout.strip()
    trigger = Path("/sys/fs/ext4") / Path(device).name / "trigger_fs_error"
    if not trigger.exists():
        subprocess.run(["umount", "-l", str(folder)], check=False)
        pytest.skip(f"this kernel has no {trigger} to raise an ext4 error with")
    return trigger


async def test_a_file_system_turned_read_only_under_play(tmp_path: Path) -> None:
    """The data folder's file system turns itself read-only after an error under play
    (a plain ``mount -o remount,ro`` is refused while the bot has the file open for
    writing: only the kernel's error path does this): every interaction is answered in
    time, "can't be reached", /health says 503, and the process lives. Such a file
    system takes writes again only once checked and mounted anew: a restart."""
    disk = tmp_path / "disk"
    trigger = ext4_image(disk)
    rig = Rig(tmp_path, db=disk / "bot.db")
    try:
        await rig.start()
        playing = await tables(rig, 2)
        await rig.health_is(200)
        trigger.write_text("test\n")
        figures = Figures("file system read-only")
        until = time.monotonic() + 2.0
        _, codes = await asyncio.gather(
            asyncio.gather(*(play_while(rig, t, until, figures) for t in playing)),
            health_while(rig, until),
        )
        assert rig.bot is not None and rig.bot.alive, rig.tail()
        assert figures.in_time == figures.sent and figures.down == figures.sent, figures
        assert codes and set(codes) == {503}, codes
        tracebacks = rig.tracebacks()
        print(f"\n{figures.line(figures.sent, tracebacks)}; process alive")
        assert tracebacks == 0, rig.tail()
        assert rig.log.read_text().count("can't be reached") == 1, rig.tail()
    finally:
        await rig.close()
        subprocess.run(["umount", "-l", str(disk)], check=False)


async def test_database_files_deleted_under_play_are_saved_by_the_bot(rig: Rig) -> None:
    """rm of the three files under play: the bot saves a copy from the file it holds
    back to its path and goes on; deleted again just before SIGTERM, it saves it as it
    stops. Restarted with no operator action, every move told as taken is there."""
    await rig.start()
    playing = await tables(rig, 2)
    await rig.health_is(200)
    stored = {t.channel_id: rig.stored_moves(t.channel_id) for t in playing}
    figures = Figures("files deleted")
    for file in three_files(rig):
        file.unlink()
    for table in playing:
        for _ in range(3):
            await rig.move(table, figures)
    assert figures.in_time == figures.sent and figures.down == 0, figures
    taken = {t.channel_id: rig.stored_moves(t.channel_id) - stored[t.channel_id] for t in playing}
    assert sum(taken.values()) == figures.taken > 0, (taken, figures)
    await rig.health_is(200)
    for file in three_files(rig):  # again, and no write before the stop
        file.unlink()
    assert await rig.stop() == 0
    log = rig.log.read_text()
    assert log.count(f"saved a complete copy of it back to {rig.db}") == 2, rig.tail()

    await rig.start()
    for table in playing:
        assert (
            rig.stored_moves(table.channel_id) == stored[table.channel_id] + taken[table.channel_id]
        )
        await rig.played(table)
    await rig.health_is(200)
    tracebacks = rig.tracebacks()
    print(f"\n{figures.line(figures.sent, tracebacks)}; every move kept after the restart")
    assert tracebacks == 0, rig.tail()


def mounted_small_disk(folder: Path) -> str | None:
    """A small file system at ``folder``: a 6 MiB tmpfs, else a loop-mounted 8 MiB ext4
    image; which one, or None where this machine gives no mount rights."""
    tries = [("tmpfs", ["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(folder)])]
    image = folder.with_suffix(".img")
    if shutil.which("mkfs.ext4"):
        with open(image, "wb") as out:
            out.truncate(8 << 20)
        made = subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True)
        if made.returncode == 0:
            tries.append(("ext4 image", ["mount", "-o", "loop", str(image), str(folder)]))
    for name, argv in tries:
        if subprocess.run(argv, capture_output=True, check=False).returncode == 0:
            return name
    return None


class Filler:
    """Fills the bot's disk and frees it again: by writing a file until the small file
    system is full, or, without mount rights, by allowing the bot's process no byte more
    in any file (RLIMIT_FSIZE: its writes fail as they do on a full disk, SQLite calls
    them I/O errors)."""

    def __init__(self, folder: Path, how: str | None, pid: int) -> None:
        self.filler = folder / "filler"
        self.how, self.pid = how or "file size limit", pid
        self.limit = resource.getrlimit(resource.RLIMIT_FSIZE)

    def fill(self) -> None:
        if self.how == "file size limit":
            resource.prlimit(self.pid, resource.RLIMIT_FSIZE, (0, self.limit[1]))
            return
        with open(self.filler, "wb", buffering=0) as out:
            for size in (65536, 4096, 512, 1):  # the last partly used block too
                with contextlib.suppress(OSError):
                    while True:
                        out.write(b"\0" * size)
                        os.fsync(out.fileno())

    def free(self) -> None:
        if self.how == "file size limit":
            resource.prlimit(self.pid, resource.RLIMIT_FSIZE, self.limit)
        else:
            self.filler.unlink()


async def agreeing(
    rig: Rig, playing: list[Table], sent: dict[int, list[Interaction]], figures: Figures
) -> int:
    """/health, then a move, at each table in turn: /health says 503 exactly when the
    move is answered 'can't be reached'. How many pairs agreed."""
    agreed = 0
    for _ in range(3):
        for table in playing:
            code = await rig.health()
            inter = await rig.move(table, figures)
            sent[table.channel_id].append(inter)
            assert (code == 503) == rig.down(inter), (code, rig.texts(inter), rig.tail())
            agreed += 1
    return agreed


async def test_a_full_disk_refuses_moves_and_health_agrees(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    how = mounted_small_disk(disk)
    rig = Rig(tmp_path, db=disk / "bot.db")
    rig.piped = how is None  # the limit would stop the log file too
    try:
        await rig.start()
        assert rig.bot is not None
        filler = Filler(disk, how, rig.bot.pid)
        playing = await tables(rig, 2)
        before = {t.channel_id: rig.stored_moves(t.channel_id) for t in playing}
        await rig.health_is(200)
        filler.fill()
        figures = Figures(f"disk full ({filler.how})")
        sent: dict[int, list[Interaction]] = {t.channel_id: [] for t in playing}
        agreed = await agreeing(rig, playing, sent, figures)
        assert figures.down == figures.sent, figures  # full: nothing written
        filler.free()
        agreed += await agreeing(rig, playing, sent, figures)
        assert figures.in_time == figures.sent, figures.late
        assert figures.taken > 0, figures
        right = sum(check_moves(rig, t, before[t.channel_id], sent[t.channel_id]) for t in playing)
        assert rig.bot.alive
        log = rig.log.read_text()
        tracebacks = rig.tracebacks()
        print("\n" + figures.line(right, tracebacks) + f"; /health agreed {agreed} times")
        assert log.count("can't be reached") == 1, log[-3000:]
        assert log.count("is back after") == 1, log[-3000:]
        assert tracebacks == 0, rig.tail()
    finally:
        await rig.close()
        if how is not None:
            subprocess.run(["umount", "-l", str(disk)], check=False)
