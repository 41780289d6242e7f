"""Typed, frozen settings read from the environment and an optional `.env` file.

Everything the bot can be configured with lives here, so a wrong value fails at start-up
with one readable line instead of somewhere deep inside discord.py later.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data/mexican.db")
DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")


class SettingsError(Exception):
    """A setting is missing or malformed; the message tells the operator what to do."""


class Secret:
    """A string that never shows itself in repr, str, f-strings or logs.

    The only way to the real value is `get_secret_value()`, which makes every place that
    handles the token easy to find.
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('**********')"

    def __str__(self) -> str:
        return "**********"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __reduce__(self) -> tuple[object, ...]:
        # Pickling would be a way to leak the value into some store; refuse it.
        raise TypeError("Secret values cannot be pickled")


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's whole configuration; built once in `main()` and passed down."""

    discord_token: Secret
    dev_guild_id: int | None = None
    database_path: Path = DEFAULT_DATABASE_PATH
    log_level: str = DEFAULT_LOG_LEVEL
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
) -> Settings:
    """Read settings; real environment variables win over the `.env` file.

    The `.env` file is read with `dotenv_values` rather than `load_dotenv`, so loading
    settings never writes the token into `os.environ` where child processes would inherit it.
    """
    merged: dict[str, str] = {}
    try:
        if env_file is not None and env_file.is_file():
            merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    except OSError as exc:
        raise SettingsError(
            f"cannot read {os.path.abspath(env_file or '.env')} ({exc.strerror or exc}): make "
            "it and its folder readable for the user the bot runs as"
        ) from exc
    merged.update(os.environ if environ is None else environ)
    return parse_settings(merged)


def parse_settings(values: Mapping[str, str]) -> Settings:
    """Validate raw strings into `Settings`; raises `SettingsError` with an actionable message."""

    def get(name: str) -> str | None:
        raw = values.get(name)
        if raw is None:
            return None
        raw = raw.strip()
        return raw or None

    token = get("DISCORD_TOKEN")
    if token is None:
        raise SettingsError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and set DISCORD_TOKEN "
            "(the bot token from the Discord developer portal)"
        )
    if any(ch.isspace() for ch in token):
        raise SettingsError(
            "DISCORD_TOKEN contains whitespace: paste the bot token exactly as the Discord "
            "developer portal shows it"
        )

    return Settings(
        discord_token=Secret(token),
        dev_guild_id=_parse_guild_id(get("DEV_GUILD_ID")),
        database_path=_parse_database_path(get("DATABASE_PATH")),
        log_level=_parse_log_level(get("LOG_LEVEL")),
        discord_api_base=_parse_url("DISCORD_API_BASE", get("DISCORD_API_BASE"), ("http", "https")),
        discord_gateway_url=_parse_url(
            "DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL"), ("ws", "wss")
        ),
    )


def _parse_guild_id(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not raw.isdigit() or int(raw) <= 0:
        raise SettingsError(
            f"DEV_GUILD_ID must be a server id (a positive whole number), got {raw!r}: "
            "right-click your server in Discord with developer mode on and pick 'Copy Server ID', "
            "or leave DEV_GUILD_ID empty"
        )
    return int(raw)


def _parse_database_path(raw: str | None) -> Path:
    """Only what can be told without touching the disk; `Storage.open` checks the rest
    (a parent that is a file, a read-only file or folder) at start-up."""
    if raw is None:
        return DEFAULT_DATABASE_PATH
    ends_in_folder = raw.endswith(("/", os.sep))
    if ends_in_folder or raw in (".", ".."):
        folder = raw if ends_in_folder else raw + "/"
        raise SettingsError(
            f"DATABASE_PATH must name the database file, not a folder, got {raw!r}: "
            f"e.g. {folder}mexican.db"
        )
    return Path(raw)


def _parse_log_level(raw: str | None) -> str:
    level = (raw or DEFAULT_LOG_LEVEL).upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {raw!r}")
    return level


def _parse_url(name: str, raw: str | None, schemes: tuple[str, ...]) -> str | None:
    if raw is None:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in schemes or not parts.netloc:
        wanted = " or ".join(f"{s}://" for s in schemes)
        raise SettingsError(f"{name} must be a URL starting with {wanted}, got {raw!r}")
    return raw.rstrip("/")


def log_level_number(settings: Settings) -> int:
    """The numeric level for `logging`, kept here so the names list has one home."""
    return logging.getLevelNamesMapping()[settings.log_level]
