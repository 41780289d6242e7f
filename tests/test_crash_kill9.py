"""Crash test: the real ``python -m bot`` killed with SIGKILL at random moments mid-game.

The bot runs in its own process against the local Discord stand-in
(``tests.support.standin``) and is killed with SIGKILL again and again, at a random moment
after each start (during start-up, mid-move, while answering), then started again on the
same database. The driver records every move the bot ANSWERED (its interaction callback
reached the stand-in) and every move it sent that the bot never answered (it died first),
and afterwards checks the ``move`` rows of ``game_events``: each answered move is there,
in order, and nothing else is, bar some of the unanswered ones, so no move is stored twice.
After the last restart every game carries on: further moves are accepted and every game
can be ended.

It runs on both storage backends: SQLite (a file) and PostgreSQL (``DATABASE_URL``, a
fresh database on the test session's server, see ``postgres_url`` in tests/conftest.py).
The database is read directly (sqlite3, asyncpg), not through ``bot.storage``, whose own
reading is part of what is under test.

The kill counts are ``CRASH_KILLS`` (SQLite, default 100) and ``CRASH_KILLS_PG``
(PostgreSQL, default 50: each restart costs a start-up of about a second, and 50 keeps
the second run at half the first one's time); more kills::

    CRASH_KILLS=300 .venv/bin/python -m pytest -p no:cacheprovider -s tests/test_crash_kill9.py

Turn timers are off, so every stored move comes from an interaction. The README
(Benchmarks) says what this run guarantees.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from pathlib import Path

import pytest

from tests.support.driver import PRESETS, Driver, Table, accepted
from tests.support.ledger import Ledger, StoredGames, check_stored, move_from_db
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import Interaction, StandIn

pytestmark = pytest.mark.slow  # starts bot processes

KILLS = {
    "sqlite": int(os.environ.get("CRASH_KILLS", "100")),
    "postgresql": int(os.environ.get("CRASH_KILLS_PG", "50")),
}
GAMES = 4
SEED = int(os.environ.get("CRASH_SEED", "9"))


class CrashRun:
    def __init__(self, tmp: Path, kills: int, seed: int, database_url: str | None) -> None:
        self.tmp = tmp
        self.kills = kills
        self.rng = random.Random(seed)
        self.standin = StandIn(channels=GAMES, members=8)
        self.db = tmp / "bot.db"
        self.database_url = database_url
        self.stored = StoredGames(self.db, database_url, pool_size=GAMES)
        self.driver = Driver(self.standin, self.rng, slash_share=0.3, timeout=5.0)
        self.ledger = Ledger()
        self.starts: list[float] = []  # spawn -> connected, seconds
        self.kill_phases = {"before connect": 0, "while playing": 0}
        for i, cid in enumerate(self.standin.channels):
            players = self.standin.members[2 * i : 2 * i + 2 + i % 3]
            self.driver.add_table(cid, players, PRESETS[i % len(PRESETS)], {"turn_timer": 0})

    def bot(self) -> BotProcess:
        env = bot_env(self.standin, self.db)
        if self.database_url is not None:
            del env["DATABASE_PATH"]
            env["DATABASE_URL"] = self.database_url
        return BotProcess("bot", env, self.tmp, self.tmp / "bot.log")

    # ------------------------------------------------------------ moves from the DB

    async def move_from_db(self, table: Table) -> Interaction | None:
        return await move_from_db(self.stored, self.standin, table, self.rng)

    async def play(self, table: Table, until: float) -> None:
        from_db = True
        while time.perf_counter() < until:
            inter = None if from_db else self.driver.next_move(table)
            if inter is None:
                inter = await self.move_from_db(table)
            if inter is None:
                await asyncio.sleep(0.02)
                continue
            try:
                await self.driver.send(inter)
            except (TimeoutError, ConnectionError):
                self.ledger.record(inter)
                return
            self.ledger.record(inter)
            # A refusal, a lobby step or a finished game: read the database next time.
            from_db = not accepted(inter) or table.phase != "playing"

    # -------------------------------------------------------------------- the run

    async def cycle(self, kill_after: float, *, from_connect: bool) -> None:
        """Start the bot, play every game as fast as it answers, SIGKILL it ``kill_after``
        seconds after its start, or after it connected (``from_connect``), wherever it is.

        Kills timed from the connection land while the bot plays however long start-up
        takes on this machine (about a second idle, twice that on a busy machine); kills
        timed from the start mostly hit start-up itself."""
        bot = self.bot()
        await bot.start()

        async def connect_and_play() -> None:
            await self.standin.connected.wait()
            self.starts.append(time.perf_counter() - bot.started)
            tables = self.driver.tables.values()
            # Until the kill: a move the dying bot never answers ends each player.
            await asyncio.gather(*(self.play(t, time.perf_counter() + 60) for t in tables))

        players = asyncio.create_task(connect_and_play())
        if from_connect:
            await asyncio.wait_for(self.standin.connected.wait(), 30)
            kill_at = time.perf_counter() + kill_after
        else:
            kill_at = bot.started + kill_after
        await asyncio.sleep(max(0.0, kill_at - time.perf_counter()))
        connected = self.standin.connected.is_set()
        await bot.kill()
        assert bot.proc is not None and bot.proc.returncode == -9
        self.kill_phases["while playing" if connected else "before connect"] += 1
        self.standin.abandon_pending()
        self.standin.reset_connection()
        if not connected:
            players.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(players, 10)

    async def run(self) -> None:
        await self.standin.start()
        try:
            for _ in range(self.kills):
                # Two in three timed from the start, within 1.2 s: mostly during start-up
                # (about a second), on a fast machine also just after it. One in three
                # timed from the connection, so that they land while playing on any
                # machine, within 0.6 s (while the bot re-posts the turn messages and
                # answers the first moves: dozens a second). Each of those waits for a
                # whole start-up, so they are kept to a third to keep the run short.
                if self.rng.random() < 0.65:
                    await self.cycle(self.rng.uniform(0.05, 1.2), from_connect=False)
                else:
                    await self.cycle(self.rng.uniform(0.0, 0.6), from_connect=True)
            await self.finish()
        finally:
            await self.standin.stop()
            await self.stored.close()

    async def finish(self) -> None:
        """Last start: every game must take moves again, and be ended by its host."""
        bot = self.bot()
        await bot.start()
        await asyncio.wait_for(self.standin.connected.wait(), 30)
        try:
            carried_on = {}
            for table in self.driver.tables.values():
                before = self.ledger.accepted
                await self.play(table, time.perf_counter() + 0.5)
                carried_on[table.channel_id] = self.ledger.accepted - before
            assert all(n > 0 for n in carried_on.values()), carried_on
            for table in self.driver.tables.values():
                found = await self.stored.open_game(table.channel_id)
                if found is None:
                    continue
                # The host: the first player, or who took over when a host was out.
                host = int(found[1]["engine"]["host"])
                end = self.standin.slash(table.channel_id, host, "endgame")
                await self.driver.send(end)
                self.ledger.record(end)
                assert accepted(end), (end.message or {}).get("content")
                assert await self.stored.open_game(table.channel_id) is None, "not ended"
        finally:
            code = await bot.stop()
        assert code == 0, (self.tmp / "bot.log").read_text()[-3000:]


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> tuple[str, str | None]:
    """The backend's name and its DATABASE_URL (None: the SQLite file in tmp_path). Only
    the PostgreSQL run asks for a server."""
    if request.param == "sqlite":
        return "sqlite", None
    return "postgresql", request.getfixturevalue("postgres_url")


async def test_kill9_never_loses_an_answered_move(
    tmp_path: Path, backend: tuple[str, str | None]
) -> None:
    name, url = backend
    started = time.perf_counter()
    run = CrashRun(tmp_path, KILLS[name], SEED, url)
    await run.run()
    runtime = time.perf_counter() - started

    try:
        stored = await run.stored.moves()
        open_games = await run.stored.open_games()
    finally:
        await run.stored.close()
    for channel_id, sent in run.ledger.sent.items():
        wrong = check_stored(sent, stored.get(channel_id, []))
        assert wrong is None, f"channel {channel_id}: {wrong}"
    assert set(stored) <= set(run.ledger.sent), "moves stored in channels never played"
    ledger = run.ledger
    verified = sum(must for sent in ledger.sent.values() for must, _ in sent)
    in_db = sum(len(rows) for rows in stored.values())
    starts = sorted(run.starts)
    print(
        f"\ncrash test ({name}): {run.kills} SIGKILLs ({run.kill_phases['before connect']} "
        f"before the bot connected, {run.kill_phases['while playing']} while playing) in "
        f"{runtime:.1f} s; {ledger.answered} interactions answered, {ledger.accepted} moves "
        f"accepted and all {verified} found once in the database, {ledger.refused} refused, "
        f"{ledger.lost} lost with the process ({in_db - verified} of those stored); start "
        f"to gateway: median {starts[len(starts) // 2]:.2f} s, max {starts[-1]:.2f} s"
    )
    assert verified == ledger.accepted
    assert ledger.accepted >= run.kills  # the games really moved between the kills
    assert open_games == 0  # all games ended at the end
