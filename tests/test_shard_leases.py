"""Shard leases (README, Running at scale): the storage's take / renew / release on both
backends, and `bot.runtime.leases.ShardLeases` deciding who holds a shard: a live holder keeps
it, a lease that ran out or whose process on this machine is gone is taken over, a lost
lease is noticed, and a database outage is waited out.

Times are the storage's clock, given explicitly (``now=``) where a test needs a lease
to have run out; the few tests of the renewal timer use leases of a fraction of a
second, so they wait for events, never for fixed sleeps.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.runtime.leases import Holder, ShardLeases, ShardsHeldError, gone, pid_running
from bot.storage import DatabaseDownError, ShardLease, Storage

from .db_helpers import database_url_fixture, storage_fixture

database_url = database_url_fixture()
storage = storage_fixture()

ME = Holder.this_process()
#: Another process of this machine (same host and pid namespace), alive: our parent.
NEIGHBOUR = Holder(ME.host, os.getppid(), ME.space, "neighbour")
#: A process on another machine: only its lease's time says whether it still runs.
ELSEWHERE = Holder("other-host", 4242, "4026531836", "elsewhere")


def finished_pid() -> int:
    """The pid of a process that ran here and was reaped: nothing runs under it now."""
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(proc.stdout)


# ------------------------------------------------------------------ storage, both backends


async def test_take_renew_and_release(storage: Storage) -> None:
    assert await storage.take_shard_leases(2, (0, 1), "a", 30, now=100.0) == (0, 1)
    assert await storage.shard_leases(2) == {
        0: ShardLease(0, "a", 100.0, 130.0),
        1: ShardLease(1, "a", 100.0, 130.0),
    }
    # Held and live: another holder gets nothing, and changes nothing.
    assert await storage.take_shard_leases(2, (1,), "b", 30, now=110.0) == ()
    assert (await storage.shard_leases(2))[1] == ShardLease(1, "a", 100.0, 130.0)
    # Renewing is taking again: the lease runs on from now, still taken at 100.
    assert await storage.take_shard_leases(2, (0, 1), "a", 30, now=120.0) == (0, 1)
    assert (await storage.shard_leases(2))[1] == ShardLease(1, "a", 100.0, 150.0)
    # Another shard count is another set of shards.
    assert await storage.take_shard_leases(4, (1,), "b", 30, now=120.0) == (1,)

    # Only the holder releases; the row is gone, and the shard is free at once.
    assert await storage.release_shard_leases(2, (0, 1), "b") == ()
    assert await storage.release_shard_leases(2, (1,), "a") == (1,)
    assert set(await storage.shard_leases(2)) == {0}
    assert await storage.take_shard_leases(2, (1,), "b", 30, now=121.0) == (1,)


async def test_a_lease_that_ran_out_is_taken_over(storage: Storage) -> None:
    await storage.take_shard_leases(1, (0,), "a", 30, now=100.0)
    assert await storage.take_shard_leases(1, (0,), "b", 30, now=129.9) == ()
    assert await storage.take_shard_leases(1, (0,), "b", 30, now=130.0) == (0,)
    assert (await storage.shard_leases(1))[0] == ShardLease(0, "b", 130.0, 160.0)
    # The old holder's renewal now fails: it lost the shard.
    assert await storage.take_shard_leases(1, (0,), "a", 30, now=131.0) == ()


async def test_a_lapsed_holder_named_by_the_caller_is_taken_over(storage: Storage) -> None:
    """The caller found the holder's process gone: its live lease is taken at once, but
    only if that holder still has it (a third process may have been quicker)."""
    await storage.take_shard_leases(2, (0, 1), "dead", 30, now=100.0)
    taken = await storage.take_shard_leases(
        2, (0, 1), "b", 30, lapsed={0: "dead", 1: "someone-else"}, now=101.0
    )
    assert taken == (0,)
    assert {s: lease.holder for s, lease in (await storage.shard_leases(2)).items()} == {
        0: "b",
        1: "dead",
    }


async def test_two_processes_racing_for_a_free_shard_never_both_win(storage: Storage) -> None:
    results = await asyncio.gather(
        *(storage.take_shard_leases(3, (0, 1, 2), f"p{i}", 30, now=100.0) for i in range(6))
    )
    for shard in range(3):
        assert sum(shard in taken for taken in results) == 1
    holders = {lease.holder for lease in (await storage.shard_leases(3)).values()}
    assert len(holders) == 1 and results[int(holders.pop()[1:])] == (0, 1, 2)


async def test_bad_lease_values_are_refused(storage: Storage) -> None:
    with pytest.raises(ValueError, match="positive"):
        await storage.take_shard_leases(1, (0,), "a", 0)
    assert await storage.shard_leases(1) == {}


# ------------------------------------------------------------------------- who is gone


def test_a_holder_names_itself_and_reads_back() -> None:
    assert Holder.parse(str(ME)) == ME
    assert ME.shown == f"{ME.host}:{os.getpid()}"
    assert Holder.parse("not a holder") is None
    assert Holder.parse("host:pid:x:y") is None


def test_which_holders_are_gone() -> None:
    assert not gone(ME, ME)
    assert not gone(NEIGHBOUR, ME)  # alive
    assert gone(Holder(ME.host, finished_pid(), ME.space, "t"), ME)
    # Our own pid with another token: an earlier process (a restarted container).
    assert gone(Holder(ME.host, ME.pid, ME.space, "earlier"), ME)
    # Elsewhere, or in another pid namespace, a pid says nothing: never judged gone.
    assert not gone(Holder("other-host", finished_pid(), ME.space, "t"), ME)
    assert not gone(Holder(ME.host, finished_pid(), "another-space", "t"), ME)


def test_a_killed_process_not_yet_reaped_is_gone() -> None:
    child = subprocess.Popen(["true"])
    try:
        stat = Path(f"/proc/{child.pid}/stat")
        for _ in range(500):  # until it has exited: a zombie, since we have not reaped it
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                break
            time.sleep(0.01)
        assert stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"
        assert not pid_running(child.pid)
    finally:
        child.wait()
    assert not pid_running(child.pid)
    assert pid_running(os.getpid()) and pid_running(os.getppid())


# ------------------------------------------------------------------------ ShardLeases


def leases(storage: Storage, ids: tuple[int, ...], count: int = 2, **kw: Any) -> ShardLeases:
    kw.setdefault("seconds", 30)
    kw.setdefault("poll", 0.05)
    return ShardLeases(storage, count, ids, **kw)


async def test_acquire_free_shards_and_release(storage: Storage) -> None:
    mine = leases(storage, (0, 1), me=ME)
    assert mine.held == () and not mine.ok
    assert await mine.acquire(wait=0)
    assert mine.held == (0, 1) and mine.ok
    assert {lease.holder for lease in (await storage.shard_leases(2)).values()} == {str(ME)}
    await mine.release()
    assert mine.held == () and await storage.shard_leases(2) == {}


async def test_a_live_holder_keeps_its_shard_and_start_up_gives_up(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    await storage.take_shard_leases(2, (1,), str(NEIGHBOUR), 30)
    mine = leases(storage, (0, 1), me=ME)
    logged = caplog.at_level(logging.INFO, logger="bot.runtime.leases")
    with logged, pytest.raises(ShardsHeldError) as err:
        await mine.acquire(wait=0.3)
    assert err.value.holders == {1: NEIGHBOUR.shown}
    waiting = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert waiting == [
        f"shard(s) 1 of 2 are held by another running process ({NEIGHBOUR.shown}); "
        "waiting up to 0.3 s for it to stop"
    ]  # once, though it looked again every 0.05 s
    # Shard 0, taken while waiting, was given back; shard 1 is still the neighbour's.
    assert mine.held == ()
    stored = await storage.shard_leases(2)
    assert set(stored) == {1} and stored[1].holder == str(NEIGHBOUR)


async def test_a_gone_process_on_this_machine_is_taken_over_at_once(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    """A kill -9 and a restart: the lease has 30 s left, but its pid runs no more."""
    dead = Holder(ME.host, finished_pid(), ME.space, "killed")
    await storage.take_shard_leases(2, (0, 1), str(dead), 30)
    mine = leases(storage, (0, 1), me=ME)
    with caplog.at_level(logging.INFO, logger="bot.runtime.leases"):
        assert await mine.acquire(wait=0)
    assert mine.ok
    assert f"took over shard 0 from {dead.shown}: its process is gone" in caplog.messages


async def test_elsewhere_only_the_time_counts(storage: Storage) -> None:
    await storage.take_shard_leases(1, (0,), str(ELSEWHERE), 30)
    mine = ShardLeases(storage, 1, (0,), seconds=30, me=ME)
    with pytest.raises(ShardsHeldError):
        await mine.acquire(wait=0)
    await storage.take_shard_leases(1, (0,), str(ELSEWHERE), 30, now=time.time() - 31)  # ran out
    assert await mine.acquire(wait=0) and mine.held == (0,)


async def test_a_rolling_restart_takes_over_when_the_old_process_lets_go(
    storage: Storage,
) -> None:
    old = leases(storage, (0, 1), me=NEIGHBOUR)
    assert await old.acquire(wait=0)
    new = leases(storage, (0, 1), me=ME)
    waiting = asyncio.create_task(new.acquire(wait=30))
    await asyncio.sleep(0.2)  # it is waiting, not done: the old one still holds both
    assert not waiting.done() and new.held == ()
    await old.release()
    assert await asyncio.wait_for(waiting, 5)
    assert new.ok


async def test_a_stop_while_waiting_gives_up_quietly(storage: Storage) -> None:
    await storage.take_shard_leases(2, (1,), str(NEIGHBOUR), 30)
    mine = leases(storage, (0, 1), me=ME)
    stop = asyncio.Event()
    waiting = asyncio.create_task(mine.acquire(wait=30, stop=stop))
    await asyncio.sleep(0.1)
    stop.set()
    assert await asyncio.wait_for(waiting, 5) is False
    assert mine.held == () and set(await storage.shard_leases(2)) == {1}


async def test_renewal_keeps_the_leases_and_notices_a_loss(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    lost = asyncio.Event()
    mine = leases(storage, (0, 1), seconds=0.3, me=ME, on_lost=lost.set)
    assert await mine.acquire(wait=0)
    mine.keep_renewing()
    first = (await storage.shard_leases(2))[0].expires_at
    for _ in range(100):  # renewed every 0.1 s: the expiry moves on
        await asyncio.sleep(0.05)
        if (await storage.shard_leases(2))[0].expires_at > first:
            break
    assert (await storage.shard_leases(2))[0].expires_at > first
    assert not lost.is_set()

    # Another process takes shard 1, as after our lease ran out in an outage.
    await storage.release_shard_leases(2, (1,), str(ME))
    await storage.take_shard_leases(2, (1,), str(ELSEWHERE), 60)
    with caplog.at_level(logging.ERROR, logger="bot.runtime.leases"):
        await asyncio.wait_for(lost.wait(), 5)
    assert mine.held == (0,) and not mine.ok and mine.lost_to == ELSEWHERE.shown
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR] == [
        f"lost shard(s) 1 of 2 to another process ({ELSEWHERE.shown}), which runs them "
        "now: stopping, so that only one process answers for them"
    ]
    await mine.release()  # gives back shard 0 only
    assert {s: lease.holder for s, lease in (await storage.shard_leases(2)).items()} == {
        1: str(ELSEWHERE)
    }


@pytest.mark.parametrize("down", [ConnectionRefusedError, DatabaseDownError])
async def test_an_unreachable_database_is_retried_not_a_loss(
    storage: Storage,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    down: type[Exception],
) -> None:
    """Renewals retried through an outage: not a loss. An outage storage reports itself
    (DatabaseDownError) is logged there, once; anything else gets one warning here."""
    lost = asyncio.Event()
    mine = leases(storage, (0,), count=1, seconds=0.3, me=ME, on_lost=lost.set)
    assert await mine.acquire(wait=0)
    real = storage.take_shard_leases
    calls: list[str] = []

    async def flaky(*args: Any, **kwargs: Any) -> tuple[int, ...]:
        calls.append("try")
        if len(calls) <= 3:
            raise down("the database is down")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "take_shard_leases", flaky)
    with caplog.at_level(logging.DEBUG, logger="bot.runtime.leases"):
        mine.keep_renewing()
        for _ in range(200):
            await asyncio.sleep(0.02)
            if "shard lease(s) renewed again" in caplog.messages:
                break
    assert "shard lease(s) renewed again" in caplog.messages
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    said = (
        "could not renew the shard lease(s), retrying: ConnectionRefusedError: the database is down"
    )
    # One line for the outage, not one per try; none when storage has logged it.
    assert warnings == ([said] if down is ConnectionRefusedError else [])
    assert len(calls) >= 4 and not lost.is_set() and mine.ok
    await mine.release()
