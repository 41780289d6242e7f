"""`open_storage`: the one place that picks a backend from what the operator configured."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from bot.storage.base import Clock, Storage
from bot.storage.migrations import MIGRATIONS, Migration
from bot.storage.url import DatabaseUrl


def database_url(target: Any) -> DatabaseUrl:
    """What ``target`` names: a `DatabaseUrl`; a ``sqlite:///`` or ``postgresql://`` URL;
    a plain path (a SQLite file); or settings with a ``database`` attribute (bot.runtime.settings:
    DATABASE_URL, or the SQLite file of DATABASE_PATH)."""
    if isinstance(target, DatabaseUrl):
        return target
    if isinstance(target, str) and "://" in target:
        return DatabaseUrl.parse(target)
    if isinstance(target, str | os.PathLike):
        return DatabaseUrl.sqlite(os.fspath(target))
    database = getattr(target, "database", None)
    if isinstance(database, DatabaseUrl):
        return database
    raise TypeError(f"no database in {type(target).__name__}: give a URL, a path or settings")


async def open_storage(
    target: Any,
    *,
    clock: Clock = time.time,
    migrations: Sequence[Migration] = MIGRATIONS,
    pool_size: int | None = None,
) -> Storage:
    """Open the database ``target`` names and bring its schema up to date: SQLite for a
    path or ``sqlite:///…``, PostgreSQL for ``postgresql://…`` (or ``postgres://``).
    ``pool_size`` caps PostgreSQL's connections (DATABASE_POOL_SIZE); SQLite has one."""
    url = database_url(target)
    if url.dialect == "postgresql":
        from bot.storage.postgres import POOL_SIZE, PostgresStorage  # asyncpg: loaded only if used

        return await PostgresStorage.open(
            url, clock=clock, migrations=migrations, pool_size=pool_size or POOL_SIZE
        )
    from bot.storage.sqlite import SqliteStorage

    assert url.path is not None
    return await SqliteStorage.open(url.path, clock=clock, migrations=migrations)


Storage.opener = open_storage
