"""The real bot process through database trouble (README, Running at scale: While the
database is down), on PostgreSQL behind a proxy (tests/support/pgproxy.py) and the local
Discord stand-in: a COMMIT whose answer was lost, and a database that goes away and
comes back while a timed table waits for an idle player."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.present.i18n import talk
from bot.storage import Storage
from tests.support.driver import Driver, Table, accepted
from tests.support.pgproxy import PgProxy, started
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import EPHEMERAL, Interaction, StandIn

pytestmark = pytest.mark.slow  # starts bot processes

DOWN_TEXT = talk("en")("database-down")


class Rig:
    """A stand-in, a proxy to the test's database, and one bot process behind both."""

    def __init__(self, work: Path, url: str, proxy: PgProxy) -> None:
        self.work, self.url, self.proxy = work, url, proxy
        self.log = work / "bot.log"
        self.standin = StandIn(channels=4, members=6)
        self.driver = Driver(self.standin, random.Random(11), slash_share=0.3, timeout=10.0)
        self.private: dict[int, list[str]] = {}  # ephemeral texts by interaction id
        self.acked: dict[int, int] = {}  # moves the bot took, by channel
        self.game_ids: dict[int, int] = {}
        self.bot: BotProcess | None = None
        hook = self.standin.on_message

        def seen(channel_id: int, message: dict[str, Any], how: str, inter: Any) -> None:
            if inter is not None and message.get("flags", 0) & EPHEMERAL:
                self.private.setdefault(inter.id, []).append(message.get("content") or "")
            if hook is not None:
                hook(channel_id, message, how, inter)

        self.standin.on_message = seen

    async def start(self) -> None:
        await self.standin.start()
        env = bot_env(
            self.standin,
            self.work / "unused.db",
            LOG_LEVEL="INFO",
            DATABASE_URL=self.proxy.url(self.url),
        )
        del env["DATABASE_PATH"]
        self.bot = BotProcess("bot", env, self.work, self.log)
        await self.bot.start()
        try:
            await asyncio.wait_for(self.standin.ready.wait(), 30)
        except TimeoutError:
            raise AssertionError(self.log.read_text()[-3000:]) from None

    def table(self, index: int, players: list[int], timer: int) -> Table:
        cid = self.standin.channels[index]
        return self.driver.add_table(cid, players, "mexican", {"turn_timer": timer})

    async def send(self, inter: Interaction) -> Interaction:
        await self.driver.send(inter)
        if accepted(inter):
            self.acked[inter.channel_id] = self.acked.get(inter.channel_id, 0) + 1
        return inter

    async def open(self, table: Table) -> None:
        table.phase, table.live, table.live_no = "lobby", None, -1
        for inter in self.driver.lobby_steps(table):
            assert accepted(await self.send(inter)), self.log.read_text()[-3000:]

    async def move(self, table: Table) -> Interaction:
        """One move read off the table's messages, sent as a player would."""
        for _ in range(200):
            inter = self.driver.next_move(table)
            if inter is not None:
                return await self.send(inter)
            await asyncio.sleep(0.05)
        raise AssertionError(f"no move to make at {table.channel_id}")

    async def played(self, table: Table) -> None:
        """One move the bot took (the driver's random pick may be refused by the rules)."""
        for _ in range(20):
            if accepted(await self.move(table)):
                return
        raise AssertionError("no move was taken")

    async def until_cut(self, table: Table) -> Interaction:
        """Moves until one meets the proxy's COMMIT cut (a move the rules refuse
        commits nothing); that move's interaction."""
        cuts = len(self.proxy.cuts)
        for _ in range(20):
            inter = await self.move(table)
            if len(self.proxy.cuts) > cuts:
                return inter
        raise AssertionError("no move reached the COMMIT")

    def told(self, inter: Interaction) -> list[str]:
        return self.private.get(inter.id, [])

    async def stored(self, table: Table) -> tuple[int, int]:
        """The stored moves players made at ``table``, and the turn timer's."""
        return (await self.game(table))[:2]

    async def game(self, table: Table) -> tuple[int, int, bool]:
        """The stored moves players made at ``table``, the turn timer's, and whether the
        game is over."""
        store = await Storage.open(self.url)
        try:
            if table.channel_id not in self.game_ids:
                record = await store.get_game_for_channel(table.channel_id)
                assert record is not None
                self.game_ids[table.channel_id] = record.id
            record = await store.get_game(self.game_ids[table.channel_id])
            assert record is not None
            moves = [e.payload["move"] for e in await store.events(record.id) if e.kind == "move"]
        finally:
            await store.close()
        timeouts = moves.count("timeout")
        return len(moves) - timeouts, timeouts, record.status == "over"

    async def close(self) -> None:
        if self.bot is not None:
            await self.bot.kill()
        await self.standin.stop()


@pytest.fixture
async def rig(tmp_path: Path, postgres_url: str) -> AsyncIterator[Rig]:
    proxy = await started(postgres_url)
    shared = Rig(tmp_path, postgres_url, proxy)
    try:
        yield shared
    finally:
        await shared.close()
        await proxy.stop()


async def until(check: Callable[[], Any], seconds: float, what: str, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        assert time.monotonic() < deadline, f"{what}\n{log.read_text()[-3000:]}"
        await asyncio.sleep(0.1)


async def test_a_lost_commit_answer_is_told_truthfully(rig: Rig) -> None:
    await rig.start()
    players = rig.standin.members
    table = rig.table(0, players[:2], 0)
    await rig.open(table)
    await rig.played(table)

    # The server commits the move, but its answer never reaches the bot: it counted.
    rig.proxy.cut_commit("after")
    before = await rig.stored(table)
    cut = await rig.until_cut(table)
    assert rig.proxy.cuts == ["after"]
    assert accepted(cut) and DOWN_TEXT not in rig.told(cut)
    assert await rig.stored(table) == (before[0] + 1, 0)  # once, and shown as taken
    assert rig.acked[table.channel_id] == before[0] + 1

    # The COMMIT never reaches the server: the move did not happen, and the player is
    # told so; the table plays on from where it was.
    rig.proxy.cut_commit("before")
    lost = await rig.until_cut(table)
    assert rig.proxy.cuts == ["after", "before"]
    assert not accepted(lost) and rig.told(lost) == [DOWN_TEXT]
    assert await rig.stored(table) == (before[0] + 1, 0)
    await rig.played(table)
    assert await rig.stored(table) == (rig.acked[table.channel_id], 0)
    log = rig.log.read_text()
    assert "Traceback" not in log, log[-3000:]


async def test_the_database_away_and_back(rig: Rig) -> None:
    await rig.start()
    players = rig.standin.members
    timed = rig.table(0, players[:2], 2)  # nobody moves here: only its timer does
    busy = rig.table(1, players[2:4], 0)
    await rig.open(timed)
    await rig.open(busy)
    await rig.played(busy)

    async def timed_out(n: int) -> bool:
        return (await rig.stored(timed))[1] >= n

    await until(lambda: timed_out(1), 10, "the timer never ran", rig.log)

    await rig.proxy.go_down()
    down_at = time.monotonic()
    # Every command gets the same clear private answer, and changes nothing.
    lone = rig.standin.channels[2]
    user = players[4]
    asks = [
        await rig.move(busy),
        await rig.send(rig.standin.slash(lone, user, "newgame", {"ruleset": "mexican"})),
        await rig.send(rig.standin.slash(lone, user, "leaderboard")),
        await rig.send(rig.standin.slash(lone, user, "stats")),
        await rig.send(rig.standin.slash(busy.channel_id, user, "history")),
    ]
    for inter in asks:
        assert rig.told(inter) == [DOWN_TEXT], (inter.kind, rig.told(inter))
        assert not accepted(inter) or inter.kind.startswith("slash:")
    await asyncio.sleep(max(0.0, 4.0 - (time.monotonic() - down_at)))  # a timer falls due

    await rig.proxy.come_back()
    _, at_return, over = await rig.game(timed)
    assert not over

    async def timing_again() -> bool:
        # Back: the idle timed table times out again, twice (the overdue move, then the
        # next one), unless the first ended the game.
        _, timeouts, over = await rig.game(timed)
        return timeouts >= at_return + 2 or (over and timeouts > at_return)

    await until(timing_again, 25, "no timeouts after the outage", rig.log)
    await rig.played(busy)

    # Nothing lost: every move the players were told was taken is stored, once.
    for table in (timed, busy):
        assert (await rig.stored(table))[0] == rig.acked[table.channel_id]
    log = rig.log.read_text()
    assert log.count("can't be reached") == 1, log[-3000:]
    assert log.count("is back after") == 1, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
