"""Shard leases: which process runs each Discord shard, kept in the shared database.

A lease is one row per (shard count, shard id): its holder and when it runs out. Taking
is one conditional upsert, so two processes racing for a free shard cannot both win:
the row is written only if it is free, run out, already ours, or held by the one holder
the caller found gone (bot/runtime/leases.py decides that; storage knows no processes). Times
come from the storage's clock, so processes on several machines need clocks in step
(README, Running at scale).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from bot.storage.driver import Driver
from bot.storage.plan import statements

TAKE = (
    "INSERT INTO shard_leases (shard_count, shard_id, holder, taken_at, expires_at)"
    " VALUES (:count, :shard, :holder, :now, :expires)"
    " ON CONFLICT (shard_count, shard_id) DO UPDATE SET"
    " holder = excluded.holder, expires_at = excluded.expires_at,"
    " taken_at = CASE WHEN shard_leases.holder = excluded.holder"
    " THEN shard_leases.taken_at ELSE excluded.taken_at END"
    " WHERE shard_leases.holder = excluded.holder OR shard_leases.expires_at <= :now"
    " OR shard_leases.holder = :lapsed"
)
RELEASE = "DELETE FROM shard_leases WHERE shard_count = ? AND shard_id = ? AND holder = ?"
READ = (
    "SELECT shard_id, holder, taken_at, expires_at FROM shard_leases"
    " WHERE shard_count = ? ORDER BY shard_id"
)


@dataclass(frozen=True, slots=True)
class ShardLease:
    """One shard's lease as stored: who holds it, since when, and until when."""

    shard_id: int
    holder: str
    taken_at: float
    expires_at: float


class ShardLeaseQueries:
    """The shard leases over one `Driver`, on the storage's clock."""

    def __init__(self, db: Driver, clock: Callable[[], float]) -> None:
        self._db = db
        self._clock = clock

    async def take_shard_leases(
        self,
        shard_count: int,
        shard_ids: Iterable[int],
        holder: str,
        seconds: float,
        *,
        lapsed: Mapping[int, str] | None = None,
        now: float | None = None,
    ) -> tuple[int, ...]:
        """Take or renew the leases of ``shard_ids`` for ``seconds``, in one transaction;
        the shards now held by ``holder``. A lease is taken if it is free, has run out,
        is already ``holder``'s, or is held by ``lapsed[shard]`` (a holder the caller
        knows to be gone); any other live holder keeps it."""
        if seconds <= 0:
            raise ValueError(f"a lease lasts a positive number of seconds, not {seconds}")
        stamp = float(self._clock() if now is None else now)
        wanted = sorted(set(shard_ids))
        gone = lapsed or {}
        counts = await self._db.run(
            statements(
                [
                    (
                        TAKE,
                        {
                            "count": shard_count,
                            "shard": shard,
                            "holder": holder,
                            "now": stamp,
                            "expires": stamp + seconds,
                            "lapsed": gone.get(shard),
                        },
                    )
                    for shard in wanted
                ]
            )
        )
        return tuple(shard for shard, n in zip(wanted, counts, strict=True) if n == 1)

    async def release_shard_leases(
        self, shard_count: int, shard_ids: Iterable[int], holder: str
    ) -> tuple[int, ...]:
        """Give up ``holder``'s leases of ``shard_ids`` at once, so a waiting process
        takes them without waiting for them to run out; the shards released. Leases
        another process holds now are left alone."""
        wanted = sorted(set(shard_ids))
        counts = await self._db.run(
            statements([(RELEASE, (shard_count, shard, holder)) for shard in wanted])
        )
        return tuple(shard for shard, n in zip(wanted, counts, strict=True) if n == 1)

    async def shard_leases(self, shard_count: int) -> dict[int, ShardLease]:
        """Every stored lease of a ``shard_count``-shard bot (run out or not), by shard."""
        rows = await self._db.fetchall(READ, (shard_count,))
        return {
            int(row[0]): ShardLease(int(row[0]), str(row[1]), float(row[2]), float(row[3]))
            for row in rows
        }
