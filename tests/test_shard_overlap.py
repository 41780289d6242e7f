"""Shards are held, not assumed (README, Running at scale), over the wire: real
``python -m bot`` processes on one PostgreSQL database and the Discord stand-in, built
on the shard rig of tests/test_shards.py.

A rolling restart: a second process started on a shard another process runs waits
(its one log line names the holder), neither logs in nor connects, and takes the shard
over when the first one is stopped with SIGTERM; the games the first one opened are then
played to their end on the second. A process whose shard stays held gives up after
SHARD_WAIT_SECONDS with one stderr line naming SHARD_IDS; one stopped while it waits
just stops.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import open_storage
from tests.support.procs import BotProcess
from tests.support.shardrig import SHARDS, ShardRig
from tests.test_shards import GAMES, SEED

pytestmark = pytest.mark.slow  # starts bot processes

LOGIN = "GET /users/@me"
WAITING = "are held by another running process"
PREFIX = "mexican-bot: error: "


class OverlapRig(ShardRig):
    """The shard rig, plus processes started on shards another process may hold."""

    def __init__(self, work: Path, url: str) -> None:
        games = [GAMES[(i // SHARDS) % len(GAMES)] for i in range(len(GAMES) * SHARDS)]
        super().__init__(work, url, games, seed=SEED)
        self.others: list[BotProcess] = []

    async def start_another(self, shard: int, name: str, **extra: str) -> BotProcess:
        """Start one more process for ``shard``, with `ShardRig.start`'s settings plus
        ``extra``, without waiting for anything."""
        bot = self.process(shard, self.work / f"{name}.log", **extra)
        self.others.append(bot)
        await bot.start()
        return bot


async def log_line(log: Path | None, text: str, timeout: float = 30.0) -> str:
    """The first line of ``log`` that contains ``text``, once the process wrote it."""
    until = time.perf_counter() + timeout
    while time.perf_counter() < until:
        found = [line for line in _read(log).splitlines() if text in line]
        if found:
            return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {text!r} in {log.name}:\n{_read(log)[-3000:]}")


def _read(log: Path | None) -> str:
    return log.read_text() if log is not None and log.exists() else ""


@pytest.fixture
async def rig(tmp_path: Path, postgres_url: str) -> AsyncIterator[OverlapRig]:
    shared = OverlapRig(tmp_path, postgres_url)
    await shared.standin.start()
    try:
        yield shared
    finally:
        for bot in [*shared.bots.values(), *shared.others]:
            await bot.kill()
        await shared.standin.stop()


async def test_rolling_restart_waits_then_takes_over_and_plays_on(rig: OverlapRig) -> None:
    every = [t for shard in range(SHARDS) for t in rig.tables[shard]]
    await asyncio.gather(*(rig.start(shard) for shard in range(SHARDS)))
    for table in every:
        await rig.driver.open_game(table)
    await rig.play(every, 2)
    old = rig.bots[1]

    # The new process for shard 1 starts while the old one still runs it: it waits.
    logins, connections = rig.standin.rest_counts[LOGIN], rig.standin.connections
    new = await rig.start_another(1, "new1")
    waiting = await log_line(new.log, WAITING)
    holder = f"{socket.gethostname()}:{old.pid}"
    assert waiting.endswith(
        f"shard(s) 1 of {SHARDS} are held by another running process ({holder}); "
        "waiting up to 120 s for it to stop"
    ), waiting
    # Meanwhile the old process answers shard 1's players; the new one neither logs in
    # nor connects, and has restored nothing.
    await rig.play(rig.tables[1], 1)
    assert new.alive
    assert rig.standin.rest_counts[LOGIN] == logins
    assert rig.standin.connections == connections
    assert "restored" not in _read(new.log)

    # SIGTERM to the old one: it drains, closes and lets go; the new one takes over.
    assert await old.stop() == 0, _read(rig.log(1))[-3000:]
    let_go = time.perf_counter()
    await log_line(new.log, f"holding shard(s) 1 of {SHARDS}")
    takeover = time.perf_counter() - let_go
    await asyncio.wait_for(rig.standin.links[1].ready.wait(), 30)
    connected = time.perf_counter() - let_go
    rig.bots[1] = new

    # The games the old process opened are played to their end on the new one.
    await rig.play(every, None)
    assert all(t.phase == "over" for t in every)
    for bot in (rig.bots[0], new):
        assert await bot.stop() == 0

    old_log, new_log = _read(rig.log(1)), _read(new.log)
    assert f"released shard(s) 1 of {SHARDS}" in old_log
    assert "took over" not in new_log  # given back by the old one, not lapsed
    assert new_log.count(WAITING) == 1
    assert f"restored {len(rig.tables[1])} unfinished game(s)" in new_log
    assert "Traceback" not in old_log + new_log + _read(rig.log(0))
    store = await open_storage(rig.url)
    try:
        assert await store.load_running_games() == []
        assert await store.shard_leases(SHARDS) == {}  # every process gave its shards back
    finally:
        await store.close()
    print(
        f"\nrolling restart: shard taken over {takeover:.2f} s and connected "
        f"{connected:.2f} s after the old process exited"
    )


async def test_a_shard_that_stays_held_ends_start_up_with_one_line(rig: OverlapRig) -> None:
    await rig.start(0)
    connections = rig.standin.connections
    second = await rig.start_another(0, "second", SHARD_WAIT_SECONDS="1")
    code = await asyncio.wait_for(second.wait(), 60)

    output = _read(second.log)
    holder = f"{socket.gethostname()}:{rig.bots[0].pid}"
    assert code == 1, output
    assert [line for line in output.splitlines() if line.startswith(PREFIX)] == [
        f"{PREFIX}shard(s) 0 of {SHARDS} are held by another running process ({holder}), "
        "which did not let go within SHARD_WAIT_SECONDS=1: check SHARD_IDS=0 (each shard "
        "runs in one process only), or stop the other process first"
    ]
    assert output.count(WAITING) == 2  # the one waiting line, and the exit line
    assert "Traceback" not in output
    assert rig.standin.connections == connections  # it never connected

    # One that is stopped while it waits just stops: no error, nothing left behind.
    third = await rig.start_another(0, "third")
    await log_line(third.log, WAITING)
    assert await third.stop() == 0
    stopped = _read(third.log)
    assert [line for line in stopped.splitlines() if line.startswith(PREFIX)] == []
    assert "Traceback" not in stopped and "database closed" in stopped
    assert rig.standin.connections == connections

    assert rig.bots[0].alive  # and the holder runs on, still holding its shard
    store = await open_storage(rig.url)
    try:
        leases = await store.shard_leases(SHARDS)
    finally:
        await store.close()
    assert {s: lease.holder.split(":")[1] for s, lease in leases.items()} == {
        0: str(rig.bots[0].pid)
    }


async def test_a_lease_lost_to_another_process_stops_the_bot(rig: OverlapRig) -> None:
    """As after a long database outage in which the lease ran out and another process
    took the shard: the next renewal finds it held by someone else, and the bot stops
    rather than keep answering for a shard it does not hold."""
    bot = await rig.start_another(1, "loser", SHARD_LEASE_SECONDS="3")
    await asyncio.wait_for(rig.standin.links[1].ready.wait(), 30)
    store = await open_storage(rig.url)
    try:
        mine = (await store.shard_leases(SHARDS))[1].holder
        assert await store.release_shard_leases(SHARDS, (1,), mine) == (1,)
        assert await store.take_shard_leases(SHARDS, (1,), "other-host:4242:1:t", 60) == (1,)
        code = await asyncio.wait_for(bot.wait(), 30)
        assert (await store.shard_leases(SHARDS))[1].holder == "other-host:4242:1:t"
    finally:
        await store.close()

    output = _read(bot.log)
    assert code == 1, output
    assert output.count("lost shard(s) 1 of 2 to another process (other-host:4242)") == 1
    assert "Traceback" not in output and "database closed" in output
    for _ in range(100):  # the stand-in notices the closed gateway connection
        if not rig.standin.links[1].ready.is_set():
            break
        await asyncio.sleep(0.05)
    assert not rig.standin.links[1].ready.is_set()
