"""Two shard processes of the real bot on one PostgreSQL database, against the stand-in.

One stand-in with ``SHARDS`` shards (its guilds alternate between them, one table each),
one ``python -m bot`` process per shard (``SHARD_COUNT=2``, ``SHARD_IDS=<shard>``,
``DATABASE_URL`` only), and a driver that plays the tables (README, Running at scale).
Used by ``tests/test_shards.py`` and ``benchmarks.cluster_bench``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .driver import Driver, Table, accepted
from .procs import BotProcess, bot_env
from .standin import StandIn

SHARDS = 2
#: The line a table re-posted after a restart starts with (en.ftl, back-after-restart).
BACK = "The bot restarted"

#: A table's rule set and its /newgame options.
Game = tuple[str, dict[str, Any]]


class ShardRig:
    """One stand-in with two shards, bot processes per shard, one PostgreSQL database.
    ``games`` gives each channel's table (so also how many channels there are); turn
    timers are off unless a table's options set one."""

    def __init__(
        self,
        work: Path,
        url: str,
        games: Sequence[Game],
        *,
        seed: int,
        timeout: float = 10.0,
        members: int = 6,
    ) -> None:
        self.work = work
        self.url = url
        self.standin = StandIn(
            channels=len(games), members=members, shard_count=SHARDS, channels_per_guild=1
        )
        self.driver = Driver(self.standin, random.Random(seed), slash_share=0.3, timeout=timeout)
        self.bots: dict[int, BotProcess] = {}
        self.tables: dict[int, list[Table]] = {shard: [] for shard in range(SHARDS)}
        members_ = self.standin.members
        for i, cid in enumerate(self.standin.channels):
            preset, options = games[i]
            players = members_[2 * (i % 3) : 2 * (i % 3) + 2]
            table = self.driver.add_table(cid, players, preset, {"turn_timer": 0, **options})
            self.tables[self.standin.shard_of_channel(cid)].append(table)

    def log(self, shard: int | str) -> Path:
        return self.work / f"shard{shard}.log"

    def process(self, shard: int, log: Path | None = None, **extra: str) -> BotProcess:
        """A process for shard ``shard`` (not started), with the settings of README,
        Running at scale; ``extra`` adds or overrides settings."""
        env = bot_env(
            self.standin,
            self.work / "unused.db",
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=str(shard),
            LOG_LEVEL="INFO",
            DATABASE_URL=self.url,
            **extra,
        )
        del env["DATABASE_PATH"]  # the database is the shared one of DATABASE_URL only
        return BotProcess("bot", env, self.work, log or self.log(shard))

    async def start(self, shard: int, timeout: float = 30.0) -> None:
        """Start shard ``shard``'s process and wait until its guilds are sent."""
        bot = self.bots[shard] = self.process(shard)
        await bot.start()
        ready = self.standin.links[shard].ready
        try:
            await asyncio.wait_for(ready.wait(), timeout)
        except TimeoutError:
            raise AssertionError(self.log(shard).read_text()[-3000:]) from None

    async def kill(self, shard: int) -> None:
        await self.bots[shard].kill()
        self.standin.abandon_pending(shard)
        self.standin.reset_connection(shard)

    async def step(self, table: Table, until: float) -> bool:
        """One accepted move at ``table`` (read off the bot's last messages); False if the
        game is over."""
        while table.phase != "over":
            assert time.perf_counter() < until, f"channel {table.channel_id} stuck"
            inter = self.driver.next_move(table)
            if inter is None:  # the turn message is not here yet (a restart re-posts it)
                await asyncio.sleep(0.05)
                continue
            await self.driver.send(inter)
            if accepted(inter):
                return True
        return False

    async def play(self, tables: list[Table], moves: int | None) -> None:
        """``moves`` accepted moves at each table (None: until each game is over)."""
        until = time.perf_counter() + 40

        async def one(table: Table) -> None:
            made = 0
            while moves is None or made < moves:
                if not await self.step(table, until):
                    assert moves is None, f"{table.preset} ended after {made} move(s)"
                    return
                made += 1

        await asyncio.gather(*(one(t) for t in tables))

    def reposted(self, table: Table) -> bool:
        """Whether the bot re-posted ``table`` after a restart (README, Playing: Nothing
        lost)."""
        return any(
            int(m["channel_id"]) == table.channel_id and BACK in (m.get("content") or "")
            for m in self.standin.messages.values()
        )

    async def close(self) -> None:
        """Kill whatever still runs and stop the stand-in."""
        for bot in self.bots.values():
            await bot.kill()
        await self.standin.stop()
