"""`python -m bot` as a real process: settings errors, login failure, start-up, signals, sync.

The bot runs against the local Discord stand-in of ``tests/support/standin.py`` (README,
section Tests), which accepts only ``FAKE_TOKEN`` and keeps the calls made to it.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.adapter.permissions import INVITE_PERMISSIONS
from tests.support.procs import FAKE_TOKEN, base_env
from tests.support.standin import APP_ID, StandIn

pytestmark = pytest.mark.slow  # starts bot processes

DEV_GUILD_ID = 987654321098765432
LOGIN = "GET /users/@me"
GLOBAL_SYNC = "PUT /applications/{app}/commands"
GUILD_SYNC = "PUT /applications/{app}/guilds/{gid}/commands"
INVITE = (
    f"https://discord.com/oauth2/authorize?client_id={APP_ID}"
    f"&scope=bot+applications.commands&permissions={INVITE_PERMISSIONS}"
)


def clean_env(**settings: str) -> dict[str, str]:
    """No inherited DISCORD_* variables; just enough to find Python and the package."""
    return base_env(PYTHONDONTWRITEBYTECODE="1", **settings)


async def start_bot(cwd: Path, env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def run_bot(cwd: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    proc = await start_bot(cwd, env, *args)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    """One guild (DEV_GUILD_ID) with one channel; only FAKE_TOKEN is accepted."""
    server = StandIn(channels=1, members=2, first_guild_id=DEV_GUILD_ID, token=FAKE_TOKEN)
    await server.start()
    yield server
    await server.stop()


def fake_settings(tmp_path: Path, server: StandIn, **extra: str) -> dict[str, str]:
    return clean_env(
        DISCORD_TOKEN=FAKE_TOKEN,
        DATABASE_PATH=str(tmp_path / "db" / "bot.db"),
        DISCORD_API_BASE=server.api_base,
        DISCORD_GATEWAY_URL=server.gateway_url,
        LOG_LEVEL="DEBUG",
        **extra,
    )


def assert_all_answered(server: StandIn) -> None:
    """Every call the bot made was one the stand-in knows, with the right token."""
    assert server.unknown_routes == {}, server.unknown_routes
    assert server.unauthorized == 0
    assert all(auth == f"Bot {FAKE_TOKEN}" for _, _, auth in server.requests), server.requests


async def test_missing_token_is_one_clear_line(tmp_path: Path) -> None:
    code, _, err = await run_bot(tmp_path, clean_env())
    assert code != 0
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "copy .env.example to .env and set DISCORD_TOKEN" in lines[0]


async def test_invalid_dev_guild_id_is_one_clear_line(tmp_path: Path) -> None:
    code, _, err = await run_bot(tmp_path, clean_env(DISCORD_TOKEN=FAKE_TOKEN, DEV_GUILD_ID="abc"))
    assert code != 0
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert "DEV_GUILD_ID" in err
    assert FAKE_TOKEN not in err


async def test_token_read_from_dotenv_file(tmp_path: Path) -> None:
    """A `.env` in the working directory is read; here its bad LOG_LEVEL proves it."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\nLOG_LEVEL=LOUD\n")
    code, _, err = await run_bot(tmp_path, clean_env())
    assert code != 0
    assert "LOG_LEVEL" in err
    assert "Traceback" not in err


async def test_refused_token_is_one_clear_line(tmp_path: Path, standin: StandIn) -> None:
    standin.token = "a token Discord knows, not the one in the settings"
    code, out, err = await run_bot(tmp_path, fake_settings(tmp_path, standin))
    assert code == 1
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert errors == [
        "mexican-bot: error: Discord refused DISCORD_TOKEN: copy the bot token again from "
        "the developer portal (Bot > Reset Token) into .env"
    ]
    # The REST override was used, with the token, and the token was never echoed.
    assert standin.requests[0] == ("GET", "/users/@me", f"Bot {FAKE_TOKEN}")
    # Every call was refused (401), and the bot gave up without going to the gateway.
    assert standin.unauthorized == len(standin.requests)
    assert standin.rest_counts == {}
    assert standin.connections == 0
    assert FAKE_TOKEN not in out + err
    assert "database closed" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_starts_syncs_and_stops_cleanly_on_signal(
    tmp_path: Path, standin: StandIn, sig: signal.Signals
) -> None:
    env = fake_settings(tmp_path, standin, DEV_GUILD_ID=str(DEV_GUILD_ID))
    proc = await start_bot(tmp_path, env)
    assert proc.stderr is not None
    seen: list[str] = []

    async def wait_for_ready() -> None:
        assert proc.stderr is not None
        async for raw in proc.stderr:
            seen.append(raw.decode())
            if "ready as" in seen[-1]:
                return
        raise AssertionError("bot exited before READY:\n" + "".join(seen))

    await asyncio.wait_for(wait_for_ready(), timeout=30)
    proc.send_signal(sig)
    out, rest = await asyncio.wait_for(proc.communicate(), timeout=30)
    err = "".join(seen) + rest.decode()

    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "database closed" in err
    assert FAKE_TOKEN not in err + out.decode()
    # The REST and gateway overrides were used: one login, one gateway session.
    assert standin.requests[0][:2] == ("GET", "/users/@me")
    assert standin.rest_counts[LOGIN] == 1
    assert standin.identify_tokens == [FAKE_TOKEN]
    # Guild events only: message and typing events would be parsed for every chat line.
    assert standin.identify_intents == [discord.Intents(guilds=True).value]
    assert standin.connections == 1
    # The commands were synced once, to the dev guild only.
    sync_path = f"/applications/{APP_ID}/guilds/{DEV_GUILD_ID}/commands"
    assert list(standin.synced) == [sync_path]
    assert standin.rest_counts[GUILD_SYNC] == 1
    assert GLOBAL_SYNC not in standin.rest_counts
    names = [c["name"] for c in standin.synced[sync_path]]
    assert {"rules", "newgame", "roll", "claim", "bullshit", "stand"} <= set(names)
    assert_all_answered(standin)
    assert (tmp_path / "db" / "bot.db").is_file()


async def test_sync_command_publishes_globally_and_exits(tmp_path: Path, standin: StandIn) -> None:
    code, out, err = await run_bot(tmp_path, fake_settings(tmp_path, standin), "sync")
    assert code == 0, err
    assert re.search(r"synced \d+ global command\(s\): /rules, /help, /newgame", out)
    # The six die faces go up as the application's emojis, once: a second sync adds none.
    assert "die faces: 6 uploaded, 0 already there" in out
    assert [e["name"] for e in standin.emojis] == [f"die_{n}" for n in range(1, 7)]
    # The next step, inviting, with this application's link and the bot's permissions.
    assert out.splitlines()[-1] == f"invite the bot with {INVITE}"
    assert list(standin.synced) == [f"/applications/{APP_ID}/commands"]
    assert standin.rest_counts[GLOBAL_SYNC] == 1
    assert GUILD_SYNC not in standin.rest_counts
    assert standin.rest_counts[LOGIN] == 1
    # No gateway connection needed.
    assert standin.connections == 0
    assert standin.identify_tokens == []
    assert_all_answered(standin)
    assert FAKE_TOKEN not in out + err
    code, again, err = await run_bot(tmp_path, fake_settings(tmp_path, standin), "sync")
    assert code == 0, err
    assert "die faces: 0 uploaded, 6 already there" in again
    assert len(standin.emojis) == 6


async def test_invite_prints_the_link_alone(tmp_path: Path, standin: StandIn) -> None:
    """`invite` logs in over REST for the application's id, prints the link, and touches
    neither the commands, the gateway nor the database."""
    code, out, err = await run_bot(tmp_path, fake_settings(tmp_path, standin), "invite")
    assert code == 0, err
    assert out == INVITE + "\n"
    assert standin.rest_counts[LOGIN] == 1
    assert standin.synced == {}
    assert standin.connections == 0
    assert not (tmp_path / "db").exists()
    assert_all_answered(standin)
    assert FAKE_TOKEN not in out + err
    # It connects to no gateway, so no intents matter: discord.py's warning about the
    # guilds intent contradicted the README's "needs no intents".
    assert "intent" not in err.lower(), err


async def test_invite_with_a_refused_token_is_one_clear_line(
    tmp_path: Path, standin: StandIn
) -> None:
    standin.token = "a token Discord knows, not the one in the settings"
    code, out, err = await run_bot(tmp_path, fake_settings(tmp_path, standin), "invite")
    assert code == 1
    assert out == ""
    assert [line for line in err.splitlines() if "error:" in line] == [
        "mexican-bot: error: Discord refused DISCORD_TOKEN: copy the bot token again from "
        "the developer portal (Bot > Reset Token) into .env"
    ]
