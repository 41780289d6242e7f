"""/metrics and /health of a real `python -m bot` process against the Discord stand-in
(README, Running at scale: Metrics and health).

A game is played over the wire and the counters are read as Prometheus reads them: moves,
refusals, Discord calls (through both of discord.py's HTTP paths), answers, database calls
and the games gauge rise as they should. On PostgreSQL the health check turns 503, naming
the database, while the bot's database takes no connections, and 200 again after. Without
METRICS_PORT the process listens on no port; with a port in use it stops with one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import __version__
from tests.support.driver import Driver, accepted
from tests.support.postgres import PostgresServer
from tests.support.procs import REPO_ROOT, BotProcess, bot_env
from tests.support.standin import StandIn

pytestmark = pytest.mark.slow  # starts bot processes

SEED = 11
ALL_PASS = {"gateway": True, "database": True, "shards": True}
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on, from its socket fds and /proc/net/tcp*."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def scrape(port: int) -> Samples:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/metrics") as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain")
        text = await r.text()
    out: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def health(port: int) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/health") as r:
        assert r.headers["Content-Type"].startswith("application/json")
        return r.status, json.loads(await r.text())


async def healthy(port: int, timeout: float = 15.0) -> tuple[int, dict[str, Any]]:
    """/health once it answers 200 (or its last answer): the gateway check passes once
    discord.py calls the bot ready, a moment after the guilds have arrived."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        status, body = await health(port)
        if status == 200 or asyncio.get_running_loop().time() > deadline:
            return status, body
        await asyncio.sleep(0.1)


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every series of ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


async def until(port: int, check: Callable[[Samples], bool], timeout: float = 10.0) -> Samples:
    """The first scrape ``check`` accepts: an answer is counted once the bot has read
    Discord's reply, which can be just after the stand-in saw the request."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        samples = await scrape(port)
        if check(samples) or asyncio.get_running_loop().time() > deadline:
            return samples
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def running_bot(
    tmp_path: Path, shards: int = 1, **settings: str
) -> AsyncIterator[tuple[StandIn, BotProcess]]:
    standin = StandIn(channels=2, members=4, shard_count=shards, channels_per_guild=1)
    await standin.start()
    env = bot_env(standin, tmp_path / "bot.db", LOG_LEVEL="INFO", **settings)
    if "DATABASE_URL" in settings:
        del env["DATABASE_PATH"]
    bot = BotProcess("bot", env, tmp_path, tmp_path / "bot.log")
    try:
        await bot.start()
        try:
            await asyncio.wait_for(standin.ready.wait(), 30)
        except TimeoutError:
            raise AssertionError((tmp_path / "bot.log").read_text()[-3000:]) from None
        yield standin, bot
    finally:
        await bot.stop()
        await standin.stop()


async def test_metrics_count_a_game_played_over_the_wire(tmp_path: Path) -> None:
    port = free_port()
    async with running_bot(tmp_path, METRICS_PORT=str(port)) as (standin, bot):
        assert listening_ports(bot.pid) == {port}  # the check below sees listening ports
        before = await scrape(port)
        # The start-up command sync went through bot.http.request, and was counted.
        sync = ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
        assert value(before, "mexican_discord_calls_total", method=sync[0], route=sync[1]) == 1
        assert value(before, "mexican_games_running", phase="playing") == 0
        assert value(before, "mexican_shards_held") == 1

        driver = Driver(standin, random.Random(SEED), slash_share=0.3)
        channel = standin.channels[0]
        table = driver.add_table(channel, standin.members[:2], "mexican", {"turn_timer": 0})
        interactions = await driver.open_game(table)  # /newgame, /join, /start
        assert all(accepted(i) for i in interactions)
        played = await until(port, lambda s: value(s, "mexican_games_running", phase="playing"))
        assert value(played, "mexican_games_running", phase="playing") == 1
        assert value(played, "mexican_moves_total", act="newgame") == 1
        assert value(played, "mexican_moves_total", act="join") == 1
        assert value(played, "mexican_moves_total", act="start") == 1

        # A refusal: someone who is not at the table rolls.
        stranger = standin.members[3]
        refused = await driver.send(standin.slash(channel, stranger, "roll"))
        assert refused.ephemeral and not accepted(refused)
        moves = 3
        for _ in range(6):
            inter = driver.next_move(table)
            if inter is None:
                break
            await driver.send(inter)
            moves += accepted(inter)
        answers = 4 + (moves - 3)
        after = await until(port, lambda s: value(s, "mexican_answer_seconds_count") >= answers)
        refusals = {ls: v for (n, ls), v in after.items() if n == "mexican_refusals_total"}
        assert refusals == {(("reason", "not-in-game"),): 1.0}
        assert total(after, "mexican_moves_total") == moves
        assert value(after, "mexican_answer_seconds_count") == answers
        assert value(after, "mexican_answer_seconds_sum") > 0
        callback = "/interactions/{webhook_id}/{webhook_token}/callback"
        assert value(after, "mexican_discord_calls_total", method="POST", route=callback) >= answers
        stored = value(after, "mexican_database_seconds_count", operation="save_move")
        assert stored == moves - 1  # every move but the opening one (create_game)
        assert value(after, "mexican_database_seconds_count", operation="create_game") == 1
        assert total(after, "mexican_database_errors_total") == 0
        # No label names a player, channel or guild.
        ids = {str(i) for i in (*standin.members, *standin.channels, standin.dev_guild_id)}
        assert not {v for _, ls in after for _, v in ls} & ids

        status, body = await healthy(port)
        assert (status, body) == (200, {"status": "ok", "version": __version__, "checks": ALL_PASS})


async def test_a_process_of_two_shards_is_healthy_with_both_connected(tmp_path: Path) -> None:
    """The gateway check of a sharded process looks at every shard's connection."""
    port = free_port()
    async with running_bot(tmp_path, shards=2, METRICS_PORT=str(port), SHARD_COUNT="2"):
        assert await healthy(port) == (
            200,
            {"status": "ok", "version": __version__, "checks": ALL_PASS},
        )
        assert value(await scrape(port), "mexican_shards_held") == 2


async def test_without_metrics_port_nothing_listens(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (_, bot):
        assert listening_ports(bot.pid) == set()


async def test_health_names_the_database_while_postgresql_refuses_it(
    tmp_path: Path, postgres_server: PostgresServer, postgres_url: str
) -> None:
    port = free_port()
    name = postgres_url.rsplit("/", 1)[1]
    settings = {"METRICS_PORT": str(port), "DATABASE_URL": postgres_url}
    async with running_bot(tmp_path, **settings):
        assert (await healthy(port))[0] == 200
        postgres_server.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        postgres_server.execute(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'"
        )
        try:
            status, body = await health(port)
            assert status == 503
            assert body == {
                "status": "failing",
                "version": __version__,
                "checks": {**ALL_PASS, "database": False},
            }
            samples = await scrape(port)
            assert value(samples, "mexican_database_errors_total", operation="ping") >= 1
        finally:
            postgres_server.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        assert await health(port) == (
            200,
            {"status": "ok", "version": __version__, "checks": ALL_PASS},
        )


async def test_a_metrics_port_in_use_stops_start_up_with_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        standin = StandIn(channels=1, members=2)
        await standin.start()
        try:
            env = bot_env(standin, tmp_path / "bot.db", METRICS_PORT=str(port))
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=REPO_ROOT,
                env=env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            out, err = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            await standin.stop()
    assert not out.strip(), out
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 1
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"mexican-bot: error: METRICS_PORT={port}: can't listen on ")
    assert "pick a free port" in lines[0]
