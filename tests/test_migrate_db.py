"""`python -m bot migrate-db FROM TO`: a SQLite database with played games moves into an
empty PostgreSQL database (or another SQLite file) and answers every leaderboard, card
and history question the same afterwards."""

from __future__ import annotations

import asyncio
import io
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.arena.ladder import rater
from bot.engine import Act, Move
from bot.game.tables import TableService
from bot.league.achievements import ACHIEVEMENTS
from bot.league.service import League
from bot.storage import DATA_TABLES, STATS, SqliteStorage, Storage, open_storage
from bot.storage.arena_queries import ArenaRound
from bot.storage.copy import CopyError, copy_database

from .db_helpers import POSTGRESQL

GUILD = 42
PLAYERS = ["101", "102", "103"]
#: Seconds between the games' starts: 40 days, a month apart and more.
MONTHS = 40 * 86400.0


async def play_games(url: str, games: int = 4) -> None:
    """Whole games through the table service, so every table gets real rows: games,
    events, counters, rounds, claims and catches, and the league's ratings, rated games
    and seasons (each game in a month of its own, so seasons close). The last one is left
    running."""
    store = await open_storage(url)
    try:
        league = League(store, clock=lambda: games * MONTHS)
        service = TableService(store, random.Random(7), league=league)
        for n in range(games):
            channel = 1000 + n
            preset = "mexican" if n % 2 else "mexen"
            start = n * MONTHS
            await service.open_table(
                GUILD, channel, PLAYERS[0], preset, {"turn_timer": 0, "lives": 2}, start
            )
            for player in PLAYERS[1:]:
                await service.act(channel, player, Move(Act.JOIN), start)
            await service.act(channel, PLAYERS[0], Move(Act.START), start)
            rng = random.Random(n)
            for step in range(400 if n < games - 1 else 6):
                table = service.get(channel)
                if table is None or table.game.to_move is None:
                    break
                player = table.game.to_move
                moves = [m for m in table.game.legal_actions(player) if m.act is not Act.END]
                await service.act(channel, player, rng.choice(moves), start + step / 1000)
        await store.open_web_link(GUILD, "t" * 43, 1.0)  # the web companion opted in
        seats = ("ana", "ben")  # and a round of the bot arena
        played = ArenaRound(1, 1.0, seats, ("ben",), "SEE_FAILED")
        await store.record_arena_round(played, rater(seats, ("ben",)))
    finally:
        await store.close()


async def answers(store: Storage) -> dict[str, Any]:
    """Everything the bot's stats commands read."""
    found: dict[str, Any] = {}
    for stat in STATS:
        for period in ("all", "month", "week"):
            found[f"{stat}/{period}"] = await store.leaderboard(GUILD, stat, period=period, now=1.0)
        found[f"{stat}/mine"] = [await store.rank_of(GUILD, stat, int(p), now=1.0) for p in PLAYERS]
    for player in map(int, PLAYERS):
        found[f"card/{player}"] = (
            await store.player_totals(GUILD, player),
            await store.favourite_claim(GUILD, player),
            await store.nemesis(GUILD, player),
        )
    for channel in range(1000, 1004):
        found[f"history/{channel}"] = await store.history(channel, 25)
    found["running"] = await store.load_running_games()
    found["events"] = [await store.events(game.id) for game in found["running"]]
    found["arena"] = await store.arena_ladder(10), await store.arena_losses(["ana", "ben"])
    return found


async def counts(store: Storage) -> dict[str, int]:
    return {table: await store.count_rows(table) for table in DATA_TABLES}


@pytest.fixture
def target_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'copy' / 'mexican.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.mark.parametrize("target_url", [POSTGRESQL, "sqlite"], indirect=True)
async def test_a_copy_answers_the_same(tmp_path: Path, target_url: str) -> None:
    source = f"sqlite:///{tmp_path / 'data' / 'mexican.db'}"
    await play_games(source)
    async with await open_storage(source) as store:
        before, source_counts = await answers(store), await counts(store)
    # Every table has rows to copy; the achievements' only once there are achievements
    # to earn (bot/league/achievements.py defines them; until then no game can earn one).
    unearnable = {"achievements", "achievement_progress"} if not ACHIEVEMENTS else set()
    assert all(n for t, n in source_counts.items() if t not in unearnable), source_counts

    out = io.StringIO()
    copied = await copy_database(source, target_url, out=out)
    assert copied == source_counts
    for table, n in source_counts.items():
        assert f"{table}" in out.getvalue() and f"{n} ->" in out.getvalue()

    async with await open_storage(target_url) as store:
        assert await answers(store) == before
        # New games and rounds are numbered after the copied ones.
        game = await store.create_game(GUILD, 5000, "mexen", "{}")
        assert game.id > max(g.id for g in before["running"])


@pytest.mark.slow
async def test_a_target_with_data_is_refused(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "source.db"
    await play_games(f"sqlite:///{source}", games=1)
    await copy_database(source, postgres_url)
    async with await open_storage(postgres_url) as store:
        kept = await counts(store)
    with pytest.raises(CopyError, match="already holds data"):
        await copy_database(source, postgres_url)
    async with await open_storage(postgres_url) as store:
        assert await counts(store) == kept
    with pytest.raises(CopyError, match="same database"):
        await copy_database(source, f"sqlite:///{source}")


@pytest.mark.slow
def test_the_command_copies_and_prints_the_counts(tmp_path: Path, postgres_url: str) -> None:
    """The command as an operator runs it: no token needed, and the password stays out."""
    source = tmp_path / "data" / "mexican.db"
    asyncio.run(play_games(f"sqlite:///{source}", games=2))
    # The test server trusts every login and ignores a password; it is here to be hidden.
    user, at, rest = postgres_url.split("://", 1)[1].partition("@")
    assert at, postgres_url
    with_password = f"postgresql://{user}:hunter2@{rest}"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(Path.cwd())}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", str(source), with_password],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    for table in DATA_TABLES:
        assert table in done.stdout
    assert "MISMATCH" not in done.stdout

    again = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", f"sqlite:///{source}", with_password],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert again.returncode == 1
    assert "already holds data" in again.stderr
    assert "hunter2" not in again.stdout + again.stderr + done.stdout + done.stderr


@pytest.mark.slow
def test_a_source_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    """A misspelt SQLite path is not an empty database: one line, exit 1, and neither
    file is created."""
    missing, target = tmp_path / "data" / "mexcian.db", tmp_path / "copy.db"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(Path.cwd())}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", f"sqlite:///{missing}", str(target)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "does not exist" in done.stderr, done.stderr
    assert "ok" not in done.stdout
    assert not missing.exists() and not target.exists()


@pytest.mark.parametrize("target_url", [POSTGRESQL, "sqlite"], indirect=True)
@pytest.mark.parametrize("failure", ["read error", "rows added meanwhile"])
async def test_a_copy_that_fails_half_way_leaves_the_target_empty(
    tmp_path: Path, target_url: str, failure: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All or nothing: a source that fails while it is read, or whose rows do not add up
    to what was counted (the bot still writing), leaves no row in the target."""
    source = f"sqlite:///{tmp_path / 'data' / 'mexican.db'}"
    await play_games(source, games=2)
    real_read, real_count = SqliteStorage.read_rows, SqliteStorage.count_rows
    last = list(DATA_TABLES)[-1]

    async def failing_read(self: Storage, table: str, batch: int = 5000) -> Any:
        # Fails on the last table whether it has rows or not (two games close no season).
        if table == last:
            raise sqlite3.OperationalError("disk I/O error")
        async for rows in real_read(self, table, batch):
            yield rows

    async def undercount(self: Storage, table: str) -> int:
        n = await real_count(self, table)
        return n - 1 if table == "game_events" and n else n

    if failure == "read error":
        monkeypatch.setattr(SqliteStorage, "read_rows", failing_read)
        with pytest.raises(sqlite3.OperationalError):
            await copy_database(source, target_url)
    else:
        monkeypatch.setattr(SqliteStorage, "count_rows", undercount)
        with pytest.raises(CopyError, match="Nothing was copied"):
            await copy_database(source, target_url)
        monkeypatch.setattr(SqliteStorage, "count_rows", real_count)
    async with await open_storage(target_url) as store:
        assert set((await counts(store)).values()) == {0}
