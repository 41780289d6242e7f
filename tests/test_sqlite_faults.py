"""SQLite's faults as outages, in process (README, Running at scale: While the database
is down): the database file deleted, moved or replaced under the bot (saved by the bot),
files that can't be written, and /health's write probe following each write. The real
process meets them in tests/test_sqlite_faults_wire.py."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.storage import DatabaseDownError, Storage
from bot.storage import sqlite as backend
from tests.test_database_outage import outage_lines


async def opened(tmp_path: Path) -> tuple[Storage, int]:
    store = await Storage.open(tmp_path / "bot.db")
    game = await store.create_game(1, 2, "mexican", "{}")
    return store, game.id


def stored_moves(path: Path, game_id: int) -> int:
    with sqlite3.connect(path) as db:
        (move_no,) = db.execute("SELECT move_no FROM games WHERE id = ?", (game_id,)).fetchone()
    return int(move_no)


def moves_in(path: Path) -> list[int]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return [int(n) for (n,) in db.execute("SELECT move_no FROM games ORDER BY id")]


async def test_a_deleted_file_is_saved_back_and_the_bot_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = await opened(tmp_path)
    path = tmp_path / "bot.db"
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    caplog.set_level(logging.INFO, logger="bot.storage")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink()
    await store.save_move(game, '{"a": 2}', "running", expect_move_no=1)
    await store.ping()
    Path(f"{path}-shm").unlink()  # the copy's sidecars are watched as well: only the
    await store.save_move(game, '{"a": 3}', "running", expect_move_no=2)  # -shm gone:
    await store.close()  # the WAL is written into the file, still the bot's
    assert moves_in(path) == [3]  # the moves before, and those after, all kept
    warnings, infos, tracebacks = outage_lines(caplog)
    assert len(warnings) == 2 and f"saved a complete copy of it back to {path}" in warnings[0]
    assert f"wrote everything it held into {path}" in warnings[1]
    assert infos == [] and tracebacks == 0
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("bot.db")] == []


async def test_a_deleted_file_is_saved_when_the_bot_stops_before_any_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = await opened(tmp_path)
    path = tmp_path / "bot.db"
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    caplog.set_level(logging.INFO, logger="bot.storage")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink()
    assert (await store.get_game(game)) is not None  # reads go on from the file held
    await store.close()
    assert moves_in(path) == [1]
    assert "saved a complete copy" in caplog.text


async def test_a_file_moved_away_is_saved_back_and_the_moved_one_left_alone(
    tmp_path: Path,
) -> None:
    store, game = await opened(tmp_path)
    path, aside = tmp_path / "bot.db", tmp_path / "aside.db"
    path.rename(aside)  # without its -wal, which holds the game: SQLite's way
    moved = aside.read_bytes()
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    await store.close()
    assert moves_in(path) == [1] and aside.read_bytes() == moved


async def test_a_replaced_file_is_saved_beside_it_and_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = await opened(tmp_path)
    path = tmp_path / "bot.db"
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    copy = tmp_path / "copy.db"
    source = sqlite3.connect(path)
    with contextlib.closing(sqlite3.connect(copy, isolation_level=None)) as target:
        source.backup(target)
        source.close()
        target.execute("PRAGMA journal_mode = DELETE")  # one file, to put in its place
        target.execute("UPDATE games SET move_no = 7")  # another file: not the bot's
    caplog.set_level(logging.INFO, logger="bot.storage")
    copy.replace(path)
    for _ in range(3):
        with pytest.raises(DatabaseDownError):
            await store.save_move(game, '{"a": 2}', "running", expect_move_no=1)
    with pytest.raises(DatabaseDownError):
        await store.ping()
    await store.close()
    (saved,) = tmp_path.glob("bot.db.recovered-*")
    assert moves_in(path) == [7] and moves_in(saved) == [1]
    warnings, infos, tracebacks = outage_lines(caplog)
    assert len(warnings) == 1 and "was deleted, moved or replaced" in warnings[0], warnings
    assert f"saved a complete copy of the database it had open at {saved}" in warnings[0]
    assert "restart the bot" in warnings[0] and infos == [] and tracebacks == 0


async def test_a_file_that_cant_be_written_is_neither_written_nor_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The -shm read-only (any of the three files): every reach is refused, before
    SQLite stores into its memory map; once it can be written the first write is back."""
    store, game = await opened(tmp_path)
    shm = tmp_path / "bot.db-shm"
    caplog.set_level(logging.INFO, logger="bot.storage")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda f, mode: Path(f) != shm and real_access(f, mode))
    for call in (
        store.save_move(game, '{"a": 1}', "running", expect_move_no=0),
        store.get_game(game),
        store.ping(),
    ):
        with pytest.raises(DatabaseDownError):
            await call
    assert not store.health.up
    monkeypatch.undo()
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    assert store.health.up  # at once: the first good write
    await store.close()
    warnings, infos, tracebacks = outage_lines(caplog)
    assert len(warnings) == 1 and f"{shm} can't be written" in warnings[0], warnings
    assert "read-only for the user the bot runs as" in warnings[0]
    assert len(infos) == 1 and "is back" in infos[0] and tracebacks == 0
    assert moves_in(tmp_path / "bot.db") == [1]


def chattr(flag: str, *paths: Path) -> None:
    done = subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"chattr {flag} does not work here: {done.stderr.decode().strip()}")


async def test_immutable_files_are_refused_without_a_bus_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """chattr +i on the three files: SQLite would store into the -shm's memory map (a
    bus error, the process gone); the bot refuses instead, and closes without a
    checkpoint into them."""
    store, game = await opened(tmp_path)
    three = [tmp_path / f"bot.db{suffix}" for suffix in ("", "-wal", "-shm")]
    caplog.set_level(logging.INFO, logger="bot.storage")
    chattr("+i", *three)
    try:
        with pytest.raises(DatabaseDownError):
            await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
        with pytest.raises(DatabaseDownError):
            await store.get_game(game)
    finally:
        chattr("-i", *three)
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    chattr("+i", *three)
    try:
        await store.close()  # left to the system: its close would checkpoint
    finally:
        chattr("-i", *three)
    assert moves_in(three[0]) == [1]
    warnings, _, _ = outage_lines(caplog)
    assert "immutable (chattr +i)" in warnings[0], warnings


async def test_health_follows_each_write_both_ways(tmp_path: Path) -> None:
    """A failing write turns health down at once, the first good one up at once; the
    probe is such a write, and a nearly full disk that still takes writes is up."""
    store, game = await opened(tmp_path)
    await store._conn.execute("PRAGMA busy_timeout = 50")  # type: ignore[attr-defined]
    holder = sqlite3.connect(tmp_path / "bot.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(DatabaseDownError):
        await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    assert not store.health.up
    holder.execute("ROLLBACK")
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    assert store.health.up
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(DatabaseDownError):
        await store.ping()
    assert not store.health.up
    holder.execute("ROLLBACK")
    holder.close()
    await store.ping()
    assert store.health.up
    await store.close()


async def test_the_write_probe_commits_a_write_that_changes_nothing(tmp_path: Path) -> None:
    store, _ = await opened(tmp_path)
    version = await store.schema_version()
    wal = tmp_path / "bot.db-wal"
    with sqlite3.connect(tmp_path / "bot.db") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert wal.stat().st_size == 0
    await store.ping()
    assert wal.stat().st_size > 0  # a page reached the disk
    assert await store.schema_version() == version
    await store.close()


async def test_sqlite_waits_for_a_lock_less_than_the_answer_margin(tmp_path: Path) -> None:
    from bot.runtime.answering import MARGIN, TICK

    store, _ = await opened(tmp_path)
    async with store._conn.execute("PRAGMA busy_timeout") as cursor:  # type: ignore[attr-defined]
        (waited,) = await cursor.fetchone()
    # No longer than the latest moment a deferral goes out (the sweep's margin and tick).
    assert waited == backend.BUSY_SECONDS * 1000 and backend.BUSY_SECONDS <= MARGIN + TICK
    await store.close()


@pytest.mark.parametrize(
    "text",
    [
        "database or disk is full",
        "attempt to write a readonly database",
        "disk I/O error",
        "database is locked",
    ],
)
def test_a_full_read_only_or_failing_disk_is_an_outage(text: str) -> None:
    assert backend.is_unavailable(sqlite3.OperationalError(text))
    assert not backend.is_unavailable(sqlite3.OperationalError("no such table: x"))
