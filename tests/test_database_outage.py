"""Storage through a database outage (README, Running at scale: While the database is
down): connection-level failures of either backend raise `DatabaseDownError`, the log
says "down" once and "back" once however many calls fail, and a URL that asks for TLS
from a server without it says so at start-up."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import DatabaseDownError, DatabaseUnavailableError, Storage
from tests.support.pgproxy import started

pytestmark = pytest.mark.slow  # PostgreSQL, and timeouts


def outage_lines(caplog: pytest.LogCaptureFixture) -> tuple[list[str], list[str], int]:
    """The storage's warnings and infos, and how many records carry a traceback."""
    mine = [r for r in caplog.records if r.name == "bot.storage"]
    warnings = [r.getMessage() for r in mine if r.levelno == logging.WARNING]
    infos = [r.getMessage() for r in mine if r.levelno == logging.INFO]
    return warnings, infos, sum(1 for r in caplog.records if r.exc_info)


async def test_sqlite_locked_past_its_timeout_is_down_then_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Storage.open(tmp_path / "bot.db")
    game = await store.create_game(1, 2, "mexican", "{}")
    await store._conn.execute("PRAGMA busy_timeout = 50")  # type: ignore[attr-defined]
    holder = sqlite3.connect(tmp_path / "bot.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    caplog.set_level(logging.INFO, logger="bot.storage")
    for _ in range(3):
        with pytest.raises(DatabaseDownError):
            await store.save_move(game.id, '{"a": 1}', "running", expect_move_no=0)
    assert await store.get_game(game.id) is not None  # WAL: reads go on meanwhile
    holder.execute("ROLLBACK")
    holder.close()
    await store.save_move(game.id, '{"a": 1}', "running", expect_move_no=0)
    stored = await store.get_game(game.id)
    assert stored is not None and stored.move_no == 1  # nothing was written while down
    warnings, infos, tracebacks = outage_lines(caplog)
    assert len(warnings) == 1 and "can't be reached" in warnings[0]
    assert len(infos) == 1 and "is back" in infos[0]
    assert tracebacks == 0
    await store.close()


async def test_postgres_refusing_connections_is_down_then_back(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    proxy = await started(postgres_url)
    store = await Storage.open(proxy.url(postgres_url))
    game = await store.create_game(1, 2, "mexican", "{}")
    caplog.set_level(logging.INFO, logger="bot.storage")
    await proxy.go_down()  # live connections cut, new ones refused
    for _ in range(3):
        with pytest.raises(DatabaseDownError):
            await store.save_move(game.id, '{"a": 1}', "running", expect_move_no=0)
        with pytest.raises(DatabaseDownError):
            await store.leaderboard(1, "wins", limit=10)
    await proxy.come_back()
    await store.save_move(game.id, '{"a": 1}', "running", expect_move_no=0)
    stored = await store.get_game(game.id)
    assert stored is not None and stored.move_no == 1
    warnings, infos, tracebacks = outage_lines(caplog)
    assert len(warnings) == 1 and len(infos) == 1 and tracebacks == 0
    assert "password" not in warnings[0].lower()
    await store.close()
    await proxy.stop()


async def test_tls_asked_of_a_server_without_it_is_named(postgres_url: str) -> None:
    with pytest.raises(DatabaseUnavailableError) as caught:
        await Storage.open(postgres_url + "?sslmode=require")
    message = str(caught.value)
    assert "does not accept TLS" in message and "sslmode" in message
    assert "is the server running" not in message


async def test_a_connection_a_shutdown_left_half_closed_counts_as_down(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the cluster_bench outage run: as the server shut down, the next transaction
    on a pooled connection failed with asyncpg's InternalClientError ("cannot switch to
    state …"). Nothing was written, so it is an outage, not a bug: DatabaseDownError."""
    import asyncpg

    store = await Storage.open(postgres_url)
    try:
        game = await store.create_game(1, 500, "mexen", "{}")

        execute = asyncpg.Connection.execute

        async def half_closed(self: asyncpg.Connection, query: str, *args: object) -> str:
            if query.startswith("BEGIN"):  # a transaction's first statement
                raise asyncpg.InternalClientError(
                    "cannot switch to state 15; another operation (2) is in progress"
                )
            return await execute(self, query, *args)

        monkeypatch.setattr(asyncpg.Connection, "execute", half_closed)
        with pytest.raises(DatabaseDownError):
            await store.save_move(game.id, "{}", "lobby", [], expect_move_no=0)
        monkeypatch.undo()
        assert (await store.get_game(game.id)).move_no == 0  # type: ignore[union-attr]
    finally:
        await store.close()
