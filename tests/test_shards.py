"""Sharded bot processes over one shared database (README, Running at scale).

Unit level: the bot becomes discord.py's AutoShardedBot only with shard settings, and a
table service restores only the games of the guilds its shards own. Wire level: two real
``python -m bot`` processes, shard 0 and shard 1 of 2, against the local Discord stand-in
(which sends each guild's events on its shard's connection only) and one database:
games in guilds of both shards are played to the end; SIGKILL of one process leaves the
other's games answering; its restart resumes its own games and only those.
"""

from __future__ import annotations

import asyncio
import random
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest
from discord.ext import commands

from bot.engine import Game
from bot.engine.result import counts, takes_part
from bot.game.shards import Shards
from bot.game.tables import TableService
from bot.runtime.client import MexicanBot, ShardedMexicanBot, create_bot
from bot.runtime.settings import Settings
from bot.storage import Storage, open_storage
from tests.support.shardrig import SHARDS, ShardRig
from tests.support.standin import StandIn, shard_of

pytestmark = pytest.mark.slow  # starts bot processes

#: Two guilds per shard, one table each. Lives make every game end by itself within a
#: few rounds, yet never within its first three moves (a `dollar` round takes three
#: moves or more and costs one life; in `mexicanen` three moves cost three lives at the
#: most, by aborting rounds), so every game outlives the kill in the middle.
GAMES = (("dollar", {"lives": 2}), ("mexicanen", {"lives": 6}))
MOVES_BEFORE_KILL = 2
MOVES_WHILE_DOWN = 1
SEED = 13


# ------------------------------------------------------------------------- unit level


def test_shard_settings_make_an_auto_sharded_bot(settings: Settings, storage: Storage) -> None:
    plain = create_bot(settings, storage)
    assert type(plain) is MexicanBot and not isinstance(plain, commands.AutoShardedBot)
    assert plain.sharding is None and plain.tables.owns(12345)

    sharded_settings = Settings(
        discord_token=settings.discord_token,
        database_path=settings.database_path,
        shards=Shards(4, (1, 3)),
    )
    sharded = create_bot(sharded_settings, storage)
    assert isinstance(sharded, ShardedMexicanBot)
    assert isinstance(sharded, commands.AutoShardedBot) and isinstance(sharded, MexicanBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    assert sharded.tables.owns(1 << 22) and not sharded.tables.owns(2 << 22)


async def test_restore_takes_the_games_of_owned_guilds_only(storage: Storage) -> None:
    """Every process reads the one shared database; each resumes (re-posts, times, plays
    computers in) only the games Discord sends its shards' events for."""
    opener = TableService(storage, random.Random(1))
    guilds = [(k << 22) + 777 for k in range(6)]
    for i, guild in enumerate(guilds):
        await opener.open_table(guild, 5000 + i, "1", "mexen", {"turn_timer": 30}, 100.0)

    for shard in range(SHARDS):
        mine = TableService(storage, random.Random(2), owns=Shards(SHARDS, (shard,)).owns)
        restored = await mine.restore(now=200.0)
        assert sorted(t.guild_id for t in restored) == guilds[shard::SHARDS]
        assert set(mine.tables) == {5000 + i for i in range(shard, len(guilds), SHARDS)}

    everything = TableService(storage, random.Random(3))  # unsharded: every game
    assert len(await everything.restore(now=200.0)) == len(guilds)


async def test_the_standin_shards_like_discord() -> None:
    """The stand-in the wire test relies on: /gateway/bot gives the shard count, each
    IDENTIFY gets its own shard's guilds only, and an unsharded or wrong one is closed."""
    standin = StandIn(channels=4, shard_count=SHARDS, channels_per_guild=1)
    await standin.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{standin.api_base}/gateway/bot") as answer:
                assert (await answer.json())["shards"] == SHARDS

            async def identify(shard: list[int] | None) -> tuple[list[dict[str, Any]], int]:
                ws = await http.ws_connect(standin.gateway_url)
                await ws.receive_json()  # HELLO
                await ws.send_json({"op": 2, "d": {"token": "x", "shard": shard}})
                got: list[dict[str, Any]] = []
                while len(got) < 1 + len(standin.guilds) // SHARDS:
                    msg = await ws.receive()
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    got.append(msg.json())
                await ws.close()
                return got, ws.close_code or 0

            for shard in range(SHARDS):
                got, _ = await identify([shard, SHARDS])
                assert got[0]["t"] == "READY" and got[0]["d"]["shard"] == [shard, SHARDS]
                sent = [int(e["d"]["id"]) for e in got[1:] if e["t"] == "GUILD_CREATE"]
                assert sent == [g.id for g in standin.shard_guilds(shard)] and sent
                assert all(shard_of(g, SHARDS) == shard for g in sent)
            assert (await identify(None))[1] == 4011  # sharding required
            assert (await identify([0, 3]))[1] == 4010  # invalid shard
    finally:
        await standin.stop()


# ------------------------------------------------------------------------- wire level


@pytest.fixture
async def rig(tmp_path: Path, postgres_url: str) -> AsyncIterator[ShardRig]:
    games = [GAMES[(i // SHARDS) % len(GAMES)] for i in range(len(GAMES) * SHARDS)]
    shared = ShardRig(tmp_path, postgres_url, games, seed=SEED)
    await shared.standin.start()
    try:
        yield shared
    finally:
        await shared.close()


async def test_two_shard_processes_one_database(rig: ShardRig) -> None:
    started = time.perf_counter()
    every = [t for shard in range(SHARDS) for t in rig.tables[shard]]
    assert all(rig.tables[s] for s in range(SHARDS)), "the guilds must span both shards"
    assert {shard_of(rig.standin.channel_guild[t.channel_id], SHARDS) for t in every} == {0, 1}

    await asyncio.gather(*(rig.start(shard) for shard in range(SHARDS)))
    for table in every:  # each lobby on its guild's shard, so its process
        await rig.driver.open_game(table)
    await rig.play(every, MOVES_BEFORE_KILL)

    # Shard 1's process dies: shard 0's games carry on, shard 1's guilds hear nothing.
    await rig.kill(1)
    await rig.play(rig.tables[0], MOVES_WHILE_DOWN)
    with pytest.raises(ConnectionError):
        await rig.standin.dispatch(
            rig.driver.next_move(rig.tables[1][0]) or rig.driver.end_game(rig.tables[1][0])
        )

    # Its restart resumes its own games (and only those) from the shared database: it
    # re-posts their tables once its guilds are in, and they play on to the end.
    await rig.start(1)
    for _ in range(300):
        if all(rig.reposted(t) for t in rig.tables[1]):
            break
        await asyncio.sleep(0.05)
    assert all(rig.reposted(t) for t in rig.tables[1]), rig.log(1).read_text()[-3000:]
    assert not any(rig.reposted(t) for t in rig.tables[0])
    await rig.play(every, None)
    assert all(t.phase == "over" for t in every)

    for shard in range(SHARDS):
        assert await rig.bots[shard].stop() == 0, rig.log(shard).read_text()[-3000:]
    restarted = rig.log(1).read_text()
    mine = len(rig.tables[1])
    assert f"restored {mine} unfinished game(s)" in restarted, restarted[-3000:]
    # The killed process's lease had not run out: its pid being gone freed shard 1 at once.
    assert f"took over shard 1 from {socket.gethostname()}:" in restarted
    assert "its process is gone" in restarted
    guilds = len(rig.standin.shard_guilds(1))
    assert f"in {guilds} guild(s), shard(s) 1 of {SHARDS}" in restarted  # its shard's only
    assert "Traceback" not in rig.log(0).read_text() + restarted

    # One database holds both processes' games, all finished, and every guild's totals
    # (what /leaderboard and /stats read, the same from either process).
    store = await open_storage(rig.url)
    try:
        assert await store.load_running_games() == []
        assert await store.count_rows("games") == len(every)
        finished = dict(await store.recently_finished(0.0))  # channel -> its one game
        counted = 0
        for table in every:
            guild = rig.standin.channel_guild[table.channel_id]
            record = await store.get_game(finished[table.channel_id])
            assert record is not None
            game = Game.from_dict(orjson.loads(record.state_json)["engine"])
            for player in table.players:
                # Once, from whichever process ended it; a game in which one person did
                # all the playing (say, ending every round early) counts for nobody.
                played = int(counts(game) and takes_part(game, str(player)))
                totals = await store.player_totals(guild, player)
                assert totals.games_played == played, (guild, player, totals)
                counted += played
        assert counted >= len(every), "most games count: the check is not vacuous"
    finally:
        await store.close()
    print(
        f"\nshards: {len(every)} games over 2 shard processes in "
        f"{time.perf_counter() - started:.1f} s"
    )
