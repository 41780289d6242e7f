"""`python -m bot migrate-db FROM TO`: move the bot's data to another database.

Typically from the SQLite file into PostgreSQL when one process is no longer enough
(README, Moving a SQLite database to PostgreSQL), but any backend to any other works.
A SQLite source must exist (a misspelt path is not an empty database). The target is
brought to the latest schema first, must hold no data, and receives every table in one
transaction, committed only if every table's rows add up to the source's (all or nothing);
the source is brought to the latest schema too, so both have the same columns.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, TextIO

from bot.storage.base import DATA_TABLES, CopyCountError, Storage
from bot.storage.factory import database_url, open_storage


class CopyError(Exception):
    """The copy can't start (a target with data, the same database twice) or its counts
    differ afterwards; the message says which."""


async def copy_database(source: Any, target: Any, *, out: TextIO | None = None) -> dict[str, int]:
    """Copy every table from ``source`` to ``target`` (URLs or paths, as `open_storage`
    takes them); returns the rows copied per table, and prints them to ``out``."""
    src_url, dst_url = database_url(source), database_url(target)
    if src_url == dst_url:
        raise CopyError("FROM and TO are the same database")
    if src_url.dialect == "sqlite" and not Path(src_url.path or "").is_file():
        # Opening it would create an empty database and "copy" nothing, all "ok".
        raise CopyError(f"FROM {src_url.path} does not exist: check the path of the SQLite file")
    src = await open_storage(src_url)
    try:
        dst = await open_storage(dst_url)
        try:
            return await _copy(src, dst, str(src_url), str(dst_url), out)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(
    src: Storage, dst: Storage, src_name: str, dst_name: str, out: TextIO | None
) -> dict[str, int]:
    filled = {t: n for t in DATA_TABLES if (n := await dst.count_rows(t))}
    if filled:
        listed = ", ".join(f"{t} ({n} row{'s' if n != 1 else ''})" for t, n in filled.items())
        raise CopyError(
            f"{dst_name} already holds data in {listed}: migrate-db copies only into an empty "
            "database, so nothing is overwritten; create a new one and give that as TO"
        )
    expected = {t: await src.count_rows(t) for t in DATA_TABLES}

    async def batches() -> AsyncIterator[tuple[str, list[tuple[Any, ...]]]]:
        for table in DATA_TABLES:  # parents first: a game before its events
            async for rows in src.read_rows(table):
                yield table, rows

    try:
        await dst.load_rows(batches(), expected)
    except CopyCountError as err:  # rolled back: TO is as empty as it was
        _print_counts(out, src_name, dst_name, expected, err.counted)
        raise CopyError(
            "row counts differ in "
            + ", ".join(
                f"{t} ({expected[t]} in FROM, {err.counted[t]} read)"
                for t in DATA_TABLES
                if err.counted[t] != expected[t]
            )
            + ": was the bot still writing to FROM? Nothing was copied; stop the bot and "
            "copy again"
        ) from err
    copied = {t: await dst.count_rows(t) for t in DATA_TABLES}
    _print_counts(out, src_name, dst_name, expected, copied)
    wrong = [t for t in DATA_TABLES if copied[t] != expected[t]]
    if wrong:
        raise CopyError(
            "row counts differ after the copy in "
            + ", ".join(f"{t} ({expected[t]} in FROM, {copied[t]} in TO)" for t in wrong)
            + ": was the bot still writing to FROM? Stop it, empty TO and copy again"
        )
    return copied


def _print_counts(
    out: TextIO | None,
    src_name: str,
    dst_name: str,
    expected: Mapping[str, int],
    copied: Mapping[str, int],
) -> None:
    if out is None:
        return
    print(f"copied {src_name} -> {dst_name}", file=out)
    for table in DATA_TABLES:
        mark = "ok" if copied[table] == expected[table] else "MISMATCH"
        print(f"  {table:<13} {expected[table]:>9} -> {copied[table]:>9}  {mark}", file=out)
