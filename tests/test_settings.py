"""Settings parsing, the secret type, logging redaction and endpoint overrides."""

from __future__ import annotations

import dataclasses
import io
import logging
import os
import pickle
from pathlib import Path

import discord.http
import pytest
from discord.gateway import DiscordWebSocket

from bot.game.shards import Shards, owns_all, shard_of
from bot.runtime.endpoints import apply_endpoints
from bot.runtime.logs import REDACTED, RedactingFormatter, setup_logging
from bot.runtime.settings import (
    DEFAULT_DATABASE_PATH,
    Secret,
    Settings,
    SettingsError,
    load_settings,
    parse_settings,
)

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-part-of-the-token"


def test_defaults() -> None:
    settings = parse_settings({"DISCORD_TOKEN": TOKEN})
    assert settings.discord_token.get_secret_value() == TOKEN
    assert settings.dev_guild_id is None
    assert settings.database_path == DEFAULT_DATABASE_PATH == Path("data/mexican.db")
    assert settings.log_level == "INFO"
    assert settings.discord_api_base is None and settings.discord_gateway_url is None
    assert (settings.shard_lease_seconds, settings.shard_wait_seconds) == (30, 120)


def test_every_setting_parsed() -> None:
    settings = parse_settings(
        {
            "DISCORD_TOKEN": f"  {TOKEN}\n",
            "DEV_GUILD_ID": "123456789012345678",
            "DATABASE_PATH": "/tmp/x/bot.db",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://localhost:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://localhost:8080/",
            "SHARD_LEASE_SECONDS": "10",
            "SHARD_WAIT_SECONDS": "0",
            "NEW_ACCOUNT_DAYS": "7.5",
        }
    )
    assert settings == Settings(
        discord_token=Secret(TOKEN),
        dev_guild_id=123456789012345678,
        database_path=Path("/tmp/x/bot.db"),
        log_level="DEBUG",
        discord_api_base="http://localhost:8080/api/v10",
        discord_gateway_url="ws://localhost:8080",
        shard_lease_seconds=10,
        shard_wait_seconds=0,
        new_account_days=7.5,
    )


@pytest.mark.parametrize("values", [{}, {"DISCORD_TOKEN": ""}, {"DISCORD_TOKEN": "   "}])
def test_missing_token_says_what_to_do(values: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match=r"copy \.env\.example to \.env and set DISCORD_TOKEN"):
        parse_settings(values)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "abc"),
        ("DEV_GUILD_ID", "-5"),
        ("DEV_GUILD_ID", "0"),
        ("DEV_GUILD_ID", "12.5"),
        ("LOG_LEVEL", "LOUD"),
        ("DISCORD_API_BASE", "localhost:8080"),
        ("DISCORD_API_BASE", "ws://localhost"),
        ("DISCORD_GATEWAY_URL", "http://localhost"),
        ("SHARD_LEASE_SECONDS", "2"),
        ("SHARD_LEASE_SECONDS", "ten"),
        ("SHARD_WAIT_SECONDS", "-1"),
        ("SHARD_WAIT_SECONDS", "1.5"),
        ("NEW_ACCOUNT_DAYS", "-1"),
        ("NEW_ACCOUNT_DAYS", "a month"),
        ("NEW_ACCOUNT_DAYS", "nan"),
    ],
)
def test_invalid_values_name_the_setting(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name) as info:
        parse_settings({"DISCORD_TOKEN": TOKEN, name: value})
    assert TOKEN not in str(info.value)
    assert "\n" not in str(info.value)


def test_token_with_whitespace_is_refused_without_echoing_it() -> None:
    with pytest.raises(SettingsError) as info:
        parse_settings({"DISCORD_TOKEN": "abc def"})
    assert "abc" not in str(info.value)


def test_token_is_never_shown() -> None:
    settings = parse_settings({"DISCORD_TOKEN": TOKEN})
    for text in (repr(settings), str(settings), f"{settings.discord_token}", repr(Secret(TOKEN))):
        assert TOKEN not in text
        assert all(part not in text for part in TOKEN.split("."))
    with pytest.raises(TypeError):
        pickle.dumps(settings.discord_token)


def test_settings_are_frozen() -> None:
    settings = parse_settings({"DISCORD_TOKEN": TOKEN})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.log_level = "DEBUG"  # type: ignore[misc]


def test_dotenv_file_is_read_and_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=WARNING\nDEV_GUILD_ID=42\n")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    settings = load_settings({"LOG_LEVEL": "ERROR"}, env_file=env_file)
    assert settings.discord_token == Secret(TOKEN)
    assert settings.log_level == "ERROR"
    assert settings.dev_guild_id == 42
    assert "DISCORD_TOKEN" not in os.environ  # read, not exported to child processes


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("2", "0", Shards(2, (0,))),
        ("2", "1", Shards(2, (1,))),
        ("4", "0-3", Shards(4, (0, 1, 2, 3))),
        ("4", "0,2", Shards(4, (0, 2))),
        ("8", " 6, 0-1 ,3 ", Shards(8, (0, 1, 3, 6))),
        ("3", None, Shards(3, (0, 1, 2))),  # SHARD_COUNT alone: every shard here
        ("1", "0", Shards(1, (0,))),
        (None, None, None),  # unsharded, as before
    ],
)
def test_shard_settings(count: str | None, ids: str | None, expected: Shards | None) -> None:
    values = {"DISCORD_TOKEN": TOKEN}
    values |= {"SHARD_COUNT": count} if count is not None else {}
    values |= {"SHARD_IDS": ids} if ids is not None else {}
    assert parse_settings(values).shards == expected


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, "0", r"SHARD_IDS=0 needs SHARD_COUNT"),
        ("0", None, r"SHARD_COUNT must be a whole number of shards, 1 or more, got '0'"),
        ("two", None, r"SHARD_COUNT must be a whole number .* got 'two'"),
        ("-2", "0", r"SHARD_COUNT must be a whole number .* got '-2'"),
        ("2", "2", r"SHARD_IDS=2 names shard 2, but SHARD_COUNT=2 has shards 0 to 1 only"),
        ("4", "0-4", r"names shard 4, but SHARD_COUNT=4 has shards 0 to 3 only"),
        ("4", "3-1", r"SHARD_IDS range 3-1 runs backwards: .* e\.g\. 1-3"),
        ("4", "0,0", r"names shard 0 twice"),
        ("4", "0-2,1", r"names shard 1 twice"),
        ("4", "a", r"SHARD_IDS must list shard numbers and ranges like 0-3, 0,2 or 1, got 'a'"),
        ("4", "0,", r"SHARD_IDS must list .* got '0,'"),
        ("4", "-1", r"SHARD_IDS must list .* got '-1'"),
        ("4", "1-", r"SHARD_IDS must list .* got '1-'"),
        ("4", "0;1", r"SHARD_IDS must list .* got '0;1'"),
    ],
)
def test_bad_shard_settings_say_what_to_fix(count: str | None, ids: str | None, says: str) -> None:
    values = {"DISCORD_TOKEN": TOKEN}
    values |= {"SHARD_COUNT": count} if count is not None else {}
    values |= {"SHARD_IDS": ids} if ids is not None else {}
    with pytest.raises(SettingsError, match=says) as info:
        parse_settings(values)
    assert "\n" not in str(info.value)


def test_shard_of_is_discords_rule() -> None:
    # Discord's documented formula: the guild id's timestamp bits, modulo the shard count.
    assert shard_of(0, 2) == 0
    assert shard_of(1 << 22, 2) == 1
    assert shard_of((5 << 22) | 0x3FFFFF, 4) == 1  # the low 22 bits do not count
    assert shard_of(81384788765712384, 16) == (81384788765712384 >> 22) % 16


def test_a_process_owns_the_guilds_of_its_shards_only() -> None:
    guilds = [(k << 22) + 12345 for k in range(8)]
    evens, odds = Shards(2, (0,)), Shards(2, (1,))
    assert [g for g in guilds if evens.owns(g)] == guilds[0::2]
    assert [g for g in guilds if odds.owns(g)] == guilds[1::2]
    # Every guild is owned by exactly one of the processes that share the shards.
    quarters = [Shards(4, (0, 1)), Shards(4, (2,)), Shards(4, (3,))]
    assert all(sum(q.owns(g) for q in quarters) == 1 for g in guilds)
    assert all(owns_all(g) for g in guilds)  # unsharded: one process sees everything
    with pytest.raises(ValueError, match="do not fit"):
        Shards(2, (2,))


def test_missing_dotenv_file_is_fine() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, env_file=Path("/nonexistent/.env"))
    assert settings.discord_token == Secret(TOKEN)


def test_formatter_redacts_token_in_messages_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter((TOKEN,)))
    logger = logging.getLogger("test.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("oops %s", TOKEN)
        try:
            raise ValueError(f"bad token {TOKEN}")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert TOKEN not in text
    assert text.count(REDACTED) == 2


def test_setup_logging_uses_the_level_and_redacts() -> None:
    settings = parse_settings({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "WARNING"})
    stream = io.StringIO()
    root = logging.getLogger()
    old_level = root.level
    handler = setup_logging(settings, stream)
    try:
        logging.getLogger("bot.test").info("hidden")
        logging.getLogger("bot.test").warning("token is %s", TOKEN)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    assert "hidden" not in stream.getvalue()
    assert f"token is {REDACTED}" in stream.getvalue()


def test_endpoint_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered first so monkeypatch restores the real addresses afterwards.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)
    default_gateway = DiscordWebSocket.DEFAULT_GATEWAY

    apply_endpoints(None, None)
    assert discord.http.Route("GET", "/users/@me").url == "https://discord.com/api/v10/users/@me"
    assert default_gateway == DiscordWebSocket.DEFAULT_GATEWAY

    apply_endpoints("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gw")
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:9/gw"
