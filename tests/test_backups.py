"""The backups README, Running at scale: Backups tells operators to take, done as it says.

SQLite: SQLite's online backup (the same API as the `sqlite3` shell's `.backup`) taken
while a table service keeps moving games gives a copy whose every game loads and whose
event log agrees with its move number. PostgreSQL: `pg_dump -Fc` and `pg_restore` into
an empty database answer the same as the original.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.engine import Act, Move
from bot.game.tables import Table, TableService
from bot.storage import Storage, open_storage
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.slow  # PostgreSQL and pg_dump

GUILD = 7


async def seat(service: TableService, channels: range) -> None:
    """Open a mexen table per channel, two players, started."""
    for channel in channels:
        await service.open_table(GUILD, channel, "1", "mexen", {"turn_timer": 0}, 0.0)
        await service.act(channel, "2", Move(Act.JOIN), 1.0)
        await service.act(channel, "1", Move(Act.START), 2.0)


async def play(service: TableService, channels: range, moves: int) -> None:
    """``moves`` moves at each table, in turn."""
    for step in range(moves):
        for channel in channels:
            table = service.get(channel)
            if table is None or table.game.to_move is None:
                continue
            player = table.game.to_move
            action = table.game.legal_actions(player)[0]
            await service.act(channel, player, action, 3.0 + step)
        await asyncio.sleep(0)


async def whole(store: Storage) -> dict[int, int]:
    """Every unfinished game loads, and its log holds one move entry per stored move."""
    found = {}
    for record in await store.load_running_games():
        Table.from_record(record.id, record.guild_id, record.channel_id, record.state_json)
        moves = [e for e in await store.events(record.id) if e.kind == "move"]
        assert len(moves) == record.move_no + 1, record.id
        found[record.id] = record.move_no
    return found


async def test_a_sqlite_backup_taken_while_the_bot_plays_is_whole(tmp_path: Path) -> None:
    source, copy = tmp_path / "mexican.db", tmp_path / "backup.db"
    store = await open_storage(f"sqlite:///{source}")
    try:
        service = TableService(store, random.Random(4))

        def backup() -> None:
            with sqlite3.connect(source) as src, sqlite3.connect(copy) as dst:
                src.backup(dst, pages=4)  # a few pages a step: moves land in between

        await seat(service, range(100, 110))
        playing = asyncio.ensure_future(play(service, range(100, 110), 40))
        await asyncio.sleep(0.05)
        await asyncio.to_thread(backup)
        await playing
    finally:
        await store.close()
    async with await open_storage(f"sqlite:///{copy}") as backed_up:
        games = await whole(backed_up)
    assert len(games) == 10 and all(n >= 2 for n in games.values()), games


async def test_a_postgres_dump_restores_to_the_same_answers(
    postgres_server: PostgresServer, postgres_url: str, tmp_path: Path
) -> None:
    async with await open_storage(postgres_url) as store:
        service = TableService(store, random.Random(5))
        await seat(service, range(200, 205))
        await play(service, range(200, 205), 12)
        before = await whole(store)
        totals = await store.player_totals(GUILD, 1)
    pg_dump = postgres_server.bindir / "pg_dump"
    pg_restore = postgres_server.bindir / "pg_restore"
    tools = [str(p) if p.exists() else shutil.which(p.name) for p in (pg_dump, pg_restore)]
    assert all(tools), "pg_dump and pg_restore come with the PostgreSQL server package"
    dump = tmp_path / "mexican.dump"
    subprocess.run([tools[0], "-Fc", "-f", str(dump), postgres_url], check=True, timeout=60)
    restored = postgres_server.create_database("restored")
    try:
        subprocess.run([tools[1], "-d", restored, str(dump)], check=True, timeout=60)
        async with await open_storage(restored) as store:
            assert await whole(store) == before
            assert await store.player_totals(GUILD, 1) == totals
    finally:
        postgres_server.drop_database(restored)
