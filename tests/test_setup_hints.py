"""Set-up that tells you the next step (README, Quick start): a bot whose slash commands
were never published logs one line naming ``python -m bot sync`` and the invite link of
its own application; a bot whose commands are published, or that syncs to DEV_GUILD_ID,
says nothing of it. A bot in no server logs the invite link, once. Over the wire, against
the Discord stand-in."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.adapter.permissions import INVITE_PERMISSIONS
from bot.game.shards import Shards
from cogs.publishing import Publishing, this_python
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import APP_ID, StandIn

pytestmark = pytest.mark.slow  # starts bot processes

HINT = "python -m bot sync"
LISTED = "GET /applications/{app}/commands"
INVITE = (
    f"https://discord.com/oauth2/authorize?client_id={APP_ID}"
    f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
)
PUBLISHED = [{"name": "newgame", "description": "Open a table in this channel", "type": 1}]


def publish(standin: StandIn) -> None:
    """As after `python -m bot sync`: the global commands are out."""
    standin.synced[f"/applications/{APP_ID}/commands"] = list(PUBLISHED)


async def _run_until_listed(tmp_path: Path, standin: StandIn, *, dev_guild: bool) -> str:
    """Start the bot, wait until it is ready and has had time to list its commands, and
    return its log."""
    env = bot_env(standin, tmp_path / "bot.db")
    if not dev_guild:
        del env["DEV_GUILD_ID"]
    log = tmp_path / "bot.log"
    bot = BotProcess("bot", env, tmp_path, log)
    try:
        await bot.start()
        await asyncio.wait_for(standin.ready.wait(), 30)
        for _ in range(20 if dev_guild else 100):  # the listing follows "ready"
            if standin.rest_counts.get(LISTED):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # the log line follows the listing's answer
        assert await bot.stop() == 0
    finally:
        await bot.kill()
        await standin.stop()
    return log.read_text(encoding="utf-8", errors="replace")


async def test_unpublished_commands_get_one_line_with_the_sync_step_and_invite(
    tmp_path: Path,
) -> None:
    standin = StandIn(channels=1, members=2)
    await standin.start()
    text = await _run_until_listed(tmp_path, standin, dev_guild=False)
    hints = [line for line in text.splitlines() if HINT in line]
    assert len(hints) == 1, text[-2000:]
    assert "DEV_GUILD_ID" in hints[0]
    assert INVITE in hints[0]
    assert text.count(INVITE) == 1
    assert standin.rest_counts.get(LISTED) == 1


async def test_published_commands_get_no_hint(tmp_path: Path) -> None:
    standin = StandIn(channels=1, members=2)
    publish(standin)
    await standin.start()
    text = await _run_until_listed(tmp_path, standin, dev_guild=False)
    assert standin.rest_counts.get(LISTED) == 1
    assert HINT not in text, text[-2000:]
    assert INVITE not in text, text[-2000:]  # it is in a server: nothing to invite


async def test_a_bot_in_no_server_logs_the_invite_link_once(tmp_path: Path) -> None:
    standin = StandIn(channels=0, members=2, invited=False)
    publish(standin)
    await standin.start()
    text = await _run_until_listed(tmp_path, standin, dev_guild=False)
    lines = [line for line in text.splitlines() if INVITE in line]
    assert len(lines) == 1, text[-2000:]
    assert "in no server" in lines[0]
    assert HINT not in text


async def test_unpublished_and_in_no_server_gives_the_link_once(tmp_path: Path) -> None:
    standin = StandIn(channels=0, members=2, invited=False)
    await standin.start()
    text = await _run_until_listed(tmp_path, standin, dev_guild=False)
    lines = [line for line in text.splitlines() if INVITE in line]
    assert len(lines) == 1, text[-2000:]
    assert HINT in lines[0]  # the one line says both steps


async def test_a_dev_guild_bot_is_not_told_to_sync(tmp_path: Path) -> None:
    standin = StandIn(channels=1, members=2)
    await standin.start()
    text = await _run_until_listed(tmp_path, standin, dev_guild=True)
    assert not standin.rest_counts.get(LISTED)
    assert HINT not in text, text[-2000:]


@pytest.mark.parametrize(
    ("guilds", "shards", "app_count", "nowhere"),
    [
        ([], None, 5, True),  # one process sees every server: its own list is the truth
        (["a guild"], None, 0, False),
        ([], Shards(2, (1,)), 3, False),  # the other shard's servers
        ([], Shards(2, (1,)), 0, True),
        (["a guild"], Shards(2, (1,)), 0, False),
    ],
)
def test_in_no_server_asks_the_application_when_sharded(
    guilds: list[str], shards: Shards | None, app_count: int, nowhere: bool
) -> None:
    bot: Any = SimpleNamespace(
        guilds=guilds,
        sharding=shards,
        application=SimpleNamespace(approximate_guild_count=app_count),
    )
    assert Publishing(bot).in_no_server() is nowhere


def test_the_sync_hint_names_the_python_that_runs_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed with the system's `python`, the hint failed (no discord.py there): it names
    the interpreter running the bot, relative to where the operator stands."""
    venv_python = tmp_path / ".venv" / "bin" / "python"
    monkeypatch.setattr(sys, "executable", str(venv_python))
    monkeypatch.chdir(tmp_path)
    assert this_python() == ".venv/bin/python"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert this_python() == str(venv_python)
