"""The PostgreSQL a benchmark measures: one the operator names, or a throwaway one.

``--database postgresql://…`` names an empty database on a server of your own: the
benchmark refuses one that already holds games or rounds (it never overwrites data), and
empties what it wrote itself before each later run. ``--database postgres`` starts a
throwaway server from the machine's own binaries instead (the one the tests use,
``tests/support/postgres.py``; README, section Tests), gives every run a fresh database
of its own, and removes the server at the end. Only then is the server's CPU known (its
processes are ours to read in /proc), so only then is it reported next to the bot's: on
PostgreSQL part of the work per move moves out of the bot process into the server.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from bot.storage import DATA_TABLES
from tests.support.postgres import PostgresServer, _run_coroutine

#: What ``--database`` takes to mean "start a throwaway server".
THROWAWAY = "postgres"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def is_postgres(spec: str | None) -> bool:
    return spec is not None and (
        spec == THROWAWAY or spec.startswith(("postgres://", "postgresql://"))
    )


class Postgres:
    """Hands out an empty PostgreSQL database per run (``fresh``) and, for a throwaway
    server, reads how much CPU the server spent (``server_cpu``)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.server: PostgresServer | None = None
        self.runs = 0

    @property
    def throwaway(self) -> bool:
        return self.server is not None

    def start(self) -> None:
        if self.spec == THROWAWAY:
            self.server = PostgresServer().start()
        else:
            _run_coroutine(_refuse_data(self.spec))

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def fresh(self, hint: str) -> str:
        """The URL of an empty database for the next run."""
        self.runs += 1
        if self.server is not None:
            return self.server.create_database(hint)
        if self.runs > 1:  # the operator's own database: empty what the last run wrote
            _run_coroutine(_truncate(self.spec))
        return self.spec

    def describe(self) -> str:
        if self.server is not None:
            return f"throwaway PostgreSQL {self.server.version} (fsync off), 127.0.0.1"
        return "PostgreSQL at the URL given"

    def server_cpu(self) -> float:
        """CPU seconds (user + system) of the throwaway server's processes so far: the
        postmaster (with its exited children) and every backend and helper it runs.
        NaN for a server of the operator's, which may be on another machine."""
        if self.server is None or self.server.proc is None:
            return float("nan")
        root = self.server.proc.pid
        total = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                pid, ppid = int(stat.parent.name), int(fields[1])
                if pid == root:  # its own, and its children's that have exited
                    total += sum(int(f) for f in fields[11:15]) / CLOCK_TICKS
                elif ppid == root:
                    total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        return total


@contextlib.contextmanager
def postgres(spec: str) -> Iterator[Postgres]:
    db = Postgres(spec)
    db.start()
    try:
        yield db
    finally:
        db.stop()


async def _refuse_data(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        for table in ("games", "rounds"):
            exists = await conn.fetchval("SELECT to_regclass($1)", table)
            if exists and await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise SystemExit(
                    f"{table} in {url.split('@')[-1]} is not empty: give the benchmark an "
                    "empty database (it empties it again between its runs), or "
                    f"--database {THROWAWAY} for a throwaway server"
                )
    finally:
        await conn.close()


async def _truncate(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"TRUNCATE {', '.join(DATA_TABLES)} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
