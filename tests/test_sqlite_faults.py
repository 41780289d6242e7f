"""SQLite's faults as outages, in process (README, Running at scale: While the database
is down): the database file deleted, moved or replaced under the bot, a full disk, and
/health's write probe. The real process meets them in tests/test_sqlite_faults_wire.py."""

from __future__ import annotations

import logging
import sqlite3
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


@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_a_file_gone_under_the_bot_takes_no_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    store, game = await opened(tmp_path)
    path = tmp_path / "bot.db"
    await store.ping()
    caplog.set_level(logging.INFO, logger="bot.storage")
    if how == "deleted":
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink()
    else:  # a copy put in its place: another file at the same path
        copy = tmp_path / "copy.db"
        with sqlite3.connect(path) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        copy.replace(path)
    for _ in range(3):
        with pytest.raises(DatabaseDownError):
            await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    with pytest.raises(DatabaseDownError):
        await store.ping()
    warnings, infos, tracebacks = outage_lines(caplog)
    assert len(warnings) == 1 and "was deleted, moved or replaced" in warnings[0], warnings
    assert "restart the bot" in warnings[0] and infos == [] and tracebacks == 0
    if how == "deleted":
        assert not path.exists()  # nothing was written anywhere
    else:
        assert stored_moves(path, game) == 0
    await store.close()


async def test_a_file_moved_back_is_written_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = await opened(tmp_path)
    path, aside = tmp_path / "bot.db", tmp_path / "aside.db"
    caplog.set_level(logging.INFO, logger="bot.storage")
    path.rename(aside)
    with pytest.raises(DatabaseDownError):
        await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    aside.rename(path)
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    await store.ping()
    warnings, infos, _ = outage_lines(caplog)
    assert len(warnings) == 1 and len(infos) == 1 and "is back" in infos[0]
    await store.close()
    assert stored_moves(path, game) == 1


async def test_health_calls_a_nearly_full_disk_down_without_logging_an_outage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store, game = await opened(tmp_path)
    caplog.set_level(logging.INFO, logger="bot.storage")
    monkeypatch.setattr(backend, "_free_bytes", lambda _: backend.FREE_FLOOR - 1)
    with pytest.raises(DatabaseDownError, match="is full"):
        await store.ping()
    # Moves still go while SQLite can write: the probe warns before they fail.
    await store.save_move(game, '{"a": 1}', "running", expect_move_no=0)
    monkeypatch.setattr(backend, "_free_bytes", lambda _: backend.FREE_FLOOR)
    await store.ping()
    assert outage_lines(caplog) == ([], [], 0)
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
    from bot.runtime.answering import MARGIN

    store, _ = await opened(tmp_path)
    async with store._conn.execute("PRAGMA busy_timeout") as cursor:  # type: ignore[attr-defined]
        (waited,) = await cursor.fetchone()
    assert waited == backend.BUSY_SECONDS * 1000 and backend.BUSY_SECONDS <= MARGIN
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
