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

from bot.endpoints import apply_endpoints
from bot.logs import REDACTED, RedactingFormatter, setup_logging
from bot.settings import (
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


def test_every_setting_parsed() -> None:
    settings = parse_settings(
        {
            "DISCORD_TOKEN": f"  {TOKEN}\n",
            "DEV_GUILD_ID": "123456789012345678",
            "DATABASE_PATH": "/tmp/x/bot.db",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://localhost:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://localhost:8080/",
        }
    )
    assert settings == Settings(
        discord_token=Secret(TOKEN),
        dev_guild_id=123456789012345678,
        database_path=Path("/tmp/x/bot.db"),
        log_level="DEBUG",
        discord_api_base="http://localhost:8080/api/v10",
        discord_gateway_url="ws://localhost:8080",
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
