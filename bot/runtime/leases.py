"""Shards are held, not assumed: a process runs its Discord shards only while it holds
their leases in the shared database (README, Running at scale).

Two processes on the same shard (a SHARD_IDS mistake, or the old and the new process of a
rolling restart) would both answer the same guilds, and only one of their answers can be
stored. So a process takes its shards' leases before it connects to Discord or restores
a game, waits while a live process holds them, renews them while it runs, and gives them
up when it stops. An unsharded process is shard 0 of 1, so two of those are caught too.

A lease lapses when its time runs out, or at once when its holder ran on this machine,
in the same process namespace, and is gone (a kill -9 and a restart take over without
waiting out the lease). No Discord here: the bot reads `held` and `ok`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.storage import DatabaseDownError, Storage

log = logging.getLogger(__name__)

#: How often a process waiting for its shards looks again: a rolling restart's new
#: process takes over within this long of the old one letting go.
POLL_SECONDS = 0.5
#: Renewals per lease length: two can fail (a short database hiccup) before it runs out.
RENEWALS_PER_LEASE = 3


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a lease: the machine, the process there, and a token of its own (a
    restarted container may get the same host name and pid as the process before it).
    ``space`` names the process namespace, since a pid means something only inside one."""

    host: str
    pid: int
    space: str
    token: str

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.space}:{self.token}"

    @property
    def shown(self) -> str:
        """What an operator needs to find the process: ``host:pid``."""
        return f"{self.host}:{self.pid}"

    @classmethod
    def parse(cls, text: str) -> Holder | None:
        """The holder a lease names; None for text this code did not write."""
        host, sep, rest = text.partition(":")
        parts = rest.split(":")
        if not sep or len(parts) != 3 or not parts[0].isdigit():
            return None
        return cls(host, int(parts[0]), parts[1], parts[2])

    @classmethod
    def this_process(cls) -> Holder:
        return cls(socket.gethostname(), os.getpid(), _pid_namespace(), secrets.token_hex(6))


def shown(holder: str) -> str:
    """A stored holder as an operator reads it."""
    parsed = Holder.parse(holder)
    return parsed.shown if parsed is not None else holder


def _pid_namespace() -> str:
    """The kernel's id of our pid namespace (Linux); empty where there is none to read."""
    try:
        return os.readlink("/proc/self/ns/pid").removeprefix("pid:").strip("[]")
    except OSError:
        return ""


def pid_running(pid: int) -> bool:
    """Whether a process ``pid`` exists here and is not a zombie (killed, not yet
    reaped by its parent: it holds nothing any more)."""
    if pid <= 0:
        return True  # never ours to judge (0 and -1 mean process groups to kill())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[:1] != ["Z"]


def gone(holder: Holder, me: Holder) -> bool:
    """Whether ``holder`` is a process of this machine and namespace that no longer runs
    (its lease lapses at once); a holder elsewhere is judged by its lease's time only."""
    if holder.host != me.host or holder.space != me.space:
        return False
    if holder.pid == me.pid:
        return holder.token != me.token  # our pid, not us: whoever had it is gone
    return not pid_running(holder.pid)


class ShardsHeldError(Exception):
    """Start-up gave up: other live processes still hold some of the shards after the
    wait. ``holders`` maps each such shard to its holder, as an operator reads it."""

    def __init__(self, shard_count: int, holders: dict[int, str], waited: float) -> None:
        super().__init__(f"shard(s) {_ids(holders)} of {shard_count} are held by {holders}")
        self.shard_count = shard_count
        self.holders = holders
        self.waited = waited


class ShardLeases:
    """The leases of the shards one process runs: `acquire` before connecting,
    `keep_renewing` while running, `release` after the bot closed.

    ``on_lost`` is called once if a renewal finds another process holding one of our
    shards (it took over after our lease ran out, say in a long database outage): the
    caller stops the bot, which must not keep answering for a shard it does not hold.
    """

    def __init__(
        self,
        storage: Storage,
        shard_count: int,
        shard_ids: Iterable[int],
        *,
        seconds: float,
        on_lost: Callable[[], None] | None = None,
        me: Holder | None = None,
        poll: float = POLL_SECONDS,
    ) -> None:
        self._storage = storage
        self.shard_count = shard_count
        self.wanted: tuple[int, ...] = tuple(sorted(set(shard_ids)))
        self._seconds = seconds
        self._on_lost = on_lost
        self.me = me or Holder.this_process()
        self._poll = poll
        self._held: tuple[int, ...] = ()
        self._renewer: asyncio.Task[None] | None = None
        #: The holder that took one of our shards from us, once that happened.
        self.lost_to: str | None = None

    @property
    def held(self) -> tuple[int, ...]:
        """The shards whose leases this process holds now."""
        return self._held

    @property
    def ok(self) -> bool:
        """Whether every shard this process runs is held by it."""
        return self._held == self.wanted

    @property
    def holder(self) -> str:
        return str(self.me)

    # ------------------------------------------------------------------ start-up

    async def acquire(self, wait: float, stop: asyncio.Event | None = None) -> bool:
        """Take every wanted lease, waiting up to ``wait`` seconds for live holders to
        let go (one log line says who holds what). True once all are held; False if
        ``stop`` was set meanwhile. Raises `ShardsHeldError` when the wait is over; the
        leases taken meanwhile are given back either way."""
        deadline = time.monotonic() + wait
        told = False
        while True:
            blocked = await self._take_free()
            if not blocked:
                log.info("holding shard(s) %s of %d", _ids(self._held), self.shard_count)
                return True
            if not told:
                told = True
                log.warning(
                    "shard(s) %s of %d are held by another running process (%s); waiting up "
                    "to %g s for it to stop",
                    _ids(blocked),
                    self.shard_count,
                    ", ".join(sorted(set(blocked.values()))),
                    wait,
                )
            left = deadline - time.monotonic()
            if left <= 0:
                await self.release()
                raise ShardsHeldError(self.shard_count, blocked, wait)
            if stop is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), min(self._poll, left))
                if stop.is_set():
                    await self.release()
                    return False
            else:
                await asyncio.sleep(min(self._poll, left))

    async def _take_free(self) -> dict[int, str]:
        """Take what can be taken now; the shards live holders keep, and who they are."""
        stored = await self._storage.shard_leases(self.shard_count)
        lapsed: dict[int, str] = {}
        for shard in self.wanted:
            lease = stored.get(shard)
            holder = Holder.parse(lease.holder) if lease is not None else None
            if lease is not None and holder is not None and gone(holder, self.me):
                lapsed[shard] = lease.holder
        taken = await self._storage.take_shard_leases(
            self.shard_count, self.wanted, self.holder, self._seconds, lapsed=lapsed
        )
        for shard in taken:
            if shard not in self._held and shard in stored and stored[shard].holder != self.holder:
                why = "its process is gone" if shard in lapsed else "its lease ran out"
                log.info("took over shard %d from %s: %s", shard, shown(stored[shard].holder), why)
        self._held = taken
        return {
            s: shown(stored[s].holder) if s in stored else "another process"
            for s in self.wanted
            if s not in taken
        }

    # ------------------------------------------------------------------- running

    def keep_renewing(self) -> None:
        """Renew the leases in the background, a few times per lease length."""
        if self._renewer is None:
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        every = self._seconds / RENEWALS_PER_LEASE
        failing = False
        while True:
            await asyncio.sleep(min(every, self._poll * 2) if failing else every)
            try:
                taken = await asyncio.wait_for(self.renew(), every)
            except Exception as exc:  # the database is away: not a loss by itself
                if not failing:
                    # An outage is logged once by storage (README, Running at scale: While
                    # the database is down); anything else is news for the operator.
                    level = logging.DEBUG if isinstance(exc, DatabaseDownError) else logging.WARNING
                    log.log(
                        level,
                        "could not renew the shard lease(s), retrying: %s: %s",
                        type(exc).__name__,
                        exc,
                    )
                failing = True
                continue
            if failing:
                log.debug("shard lease(s) renewed again")
                failing = False
            if taken != self.wanted:
                await self._lost()
                return

    async def renew(self) -> tuple[int, ...]:
        """Extend our leases; the shards still ours (a shard missing: another holds it)."""
        taken = await self._storage.take_shard_leases(
            self.shard_count, self.wanted, self.holder, self._seconds
        )
        self._held = taken
        return taken

    async def _lost(self) -> None:
        missing = [s for s in self.wanted if s not in self._held]
        try:
            stored = await self._storage.shard_leases(self.shard_count)
        except Exception:
            stored = {}
        others = sorted({shown(stored[s].holder) for s in missing if s in stored})
        self.lost_to = ", ".join(others) or "another process"
        log.error(
            "lost shard(s) %s of %d to another process (%s), which runs them now: stopping, "
            "so that only one process answers for them",
            _ids(missing),
            self.shard_count,
            self.lost_to,
        )
        if self._on_lost is not None:
            self._on_lost()

    # ------------------------------------------------------------------- shutdown

    async def release(self) -> None:
        """Stop renewing and give the leases back, so a waiting process takes over at
        once; if the database is away they simply run out."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
            self._renewer = None
        if not self._held:
            return
        held, self._held = self._held, ()
        try:
            await self._storage.release_shard_leases(self.shard_count, held, self.holder)
        except Exception as exc:
            log.warning(
                "could not release the shard lease(s); they run out in %g s: %s: %s",
                self._seconds,
                type(exc).__name__,
                exc,
            )
            return
        log.info("released shard(s) %s of %d", _ids(held), self.shard_count)


def _ids(shards: Iterable[int]) -> str:
    return ",".join(map(str, sorted(shards)))
