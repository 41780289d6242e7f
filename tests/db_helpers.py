"""Running the storage tests against both backends.

A module that says ``database_url = database_url_fixture()`` gets a ``database_url``
fixture parametrized over SQLite (a file in tmp_path) and PostgreSQL (an empty database
of its own on the session's server: ``postgres_url`` in tests/conftest.py), so the same
test body checks that both backends behave the same. ``storage = storage_fixture()``
does the same for conftest's ``storage`` (and so for the ``sim`` bot built on it).

The PostgreSQL side is marked ``slow`` (README, Tests): it needs the session's server,
so ``pytest -m "not slow"`` runs the SQLite side only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

#: The ``postgresql`` parameter: slow, as every test that starts PostgreSQL is.
POSTGRESQL = pytest.param("postgresql", marks=pytest.mark.slow)
BACKENDS = ("sqlite", POSTGRESQL)

#: What each backend raises when a CHECK or a syntax error stops a statement.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.IntegrityConstraintViolationError,
)
SQL_ERRORS: tuple[type[Exception], ...] = (sqlite3.OperationalError, asyncpg.PostgresSyntaxError)


def database_url_fixture() -> Any:
    """A fresh, empty database per test, on each backend in turn, as a URL."""

    @pytest.fixture(params=BACKENDS)
    def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
        if request.param == "sqlite":
            yield f"sqlite:///{tmp_path / 'nested' / 'folder' / 'test.db'}"
        else:
            yield request.getfixturevalue("postgres_url")

    return database_url


def storage_fixture() -> Any:
    """An up-to-date store per test, on each backend in turn."""
    from bot.storage import Storage, open_storage

    @pytest.fixture(params=BACKENDS)
    async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'data' / 'mexican.db'}"
        else:
            url = request.getfixturevalue("postgres_url")
        store = await open_storage(url)
        try:
            yield store
        finally:
            await store.close()

    return storage


async def raw_fetch(url: str, sql: str) -> list[tuple[Any, ...]]:
    """Run one query on the database itself, past the bot's storage layer."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            return [tuple(row) for row in conn.execute(sql)]
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(sql)]
    finally:
        await conn.close()


async def raw_execute(url: str, sql: str) -> None:
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.execute(sql)
        return
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def stored_version(url: str) -> int:
    """The schema version as the database records it."""
    if url.startswith("sqlite:///"):
        return int((await raw_fetch(url, "PRAGMA user_version"))[0][0])
    rows = await raw_fetch(url, "SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(rows[0][0])


async def set_stored_version(url: str, version: int) -> None:
    if url.startswith("sqlite:///"):
        await raw_execute(url, f"PRAGMA user_version = {int(version)}")
    else:
        await raw_execute(url, f"UPDATE schema_version SET version = {int(version)}")


async def table_names(url: str) -> set[str]:
    """Tables and indexes."""
    if url.startswith("sqlite:///"):
        sql = "SELECT name FROM sqlite_master WHERE type IN ('table', 'index')"
    else:
        sql = (
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " UNION SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
        )
    return {str(row[0]) for row in await raw_fetch(url, sql)}
