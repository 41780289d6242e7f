"""`python -m bot` as a real process: settings errors, login failure, start-up, signals, sync."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fake_discord import APP_ID, FakeDiscord

REPO_ROOT = Path(__file__).resolve().parent.parent
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.fake-token-for-tests-0123456789abcdef"
DEV_GUILD_ID = 987654321098765432


def clean_env(**settings: str) -> dict[str, str]:
    """No inherited DISCORD_* variables; just enough to find Python and the package."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO_ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        **settings,
    }


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
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


def fake_settings(tmp_path: Path, server: FakeDiscord, **extra: str) -> dict[str, str]:
    return clean_env(
        DISCORD_TOKEN=FAKE_TOKEN,
        DATABASE_PATH=str(tmp_path / "db" / "bot.db"),
        DISCORD_API_BASE=server.api_base,
        DISCORD_GATEWAY_URL=server.gateway_url,
        LOG_LEVEL="DEBUG",
        **extra,
    )


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


async def test_refused_token_is_one_clear_line(tmp_path: Path, fake_discord: FakeDiscord) -> None:
    fake_discord.accept_token = False
    code, out, err = await run_bot(tmp_path, fake_settings(tmp_path, fake_discord))
    assert code == 1
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert errors == [
        "mexican-bot: error: Discord refused DISCORD_TOKEN: copy the bot token again from "
        "the developer portal (Bot > Reset Token) into .env"
    ]
    # The REST override was used, with the token, and the token was never echoed.
    assert fake_discord.requests[0][:2] == ("GET", "/users/@me")
    assert fake_discord.requests[0][2] == f"Bot {FAKE_TOKEN}"
    assert FAKE_TOKEN not in out + err
    assert "database closed" in err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_starts_syncs_and_stops_cleanly_on_signal(
    tmp_path: Path, fake_discord: FakeDiscord, sig: signal.Signals
) -> None:
    env = fake_settings(tmp_path, fake_discord, DEV_GUILD_ID=str(DEV_GUILD_ID))
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
    assert fake_discord.identify_tokens == [FAKE_TOKEN]  # gateway override used
    sync_path = f"/applications/{APP_ID}/guilds/{DEV_GUILD_ID}/commands"
    names = [c["name"] for c in fake_discord.synced[sync_path]]
    assert {"rules", "newgame", "roll", "claim", "bullshit", "stand"} <= set(names)
    assert (tmp_path / "db" / "bot.db").is_file()


async def test_sync_command_publishes_globally_and_exits(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    code, out, err = await run_bot(tmp_path, fake_settings(tmp_path, fake_discord), "sync")
    assert code == 0, err
    assert re.search(r"synced \d+ global command\(s\): /rules, /newgame", out)
    assert list(fake_discord.synced) == [f"/applications/{APP_ID}/commands"]
    assert fake_discord.identify_tokens == []  # no gateway connection needed
    assert FAKE_TOKEN not in out + err
