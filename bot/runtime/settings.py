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
from typing import TypedDict
from urllib.parse import urlsplit

from dotenv import dotenv_values
from dotenv.parser import parse_stream

from bot.game.shards import Shards
from bot.league.ratings import FULL_LEND_DAYS
from bot.storage.url import DatabaseUrl

DEFAULT_DATABASE_PATH = Path("data/mexican.db")
DEFAULT_LOG_LEVEL = "INFO"
#: Loopback only by default: metrics and health tell anyone who can reach them how busy
#: the bot is, which is for the operator's scraper, not for the internet.
DEFAULT_METRICS_HOST = "127.0.0.1"
#: PostgreSQL connections per bot process (README, Running at scale).
DEFAULT_POOL_SIZE = 8
MAX_POOL_SIZE = 100
DEFAULT_SHARD_LEASE_SECONDS = 30
DEFAULT_SHARD_WAIT_SECONDS = 120
#: Shorter leases would need renewals under a second apart.
MIN_SHARD_LEASE_SECONDS = 3
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
    #: DATABASE_URL as given (its password never shows); None: SQLite at database_path.
    database_url: DatabaseUrl | None = None
    log_level: str = DEFAULT_LOG_LEVEL
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    #: The Discord shards this process runs (SHARD_COUNT, SHARD_IDS); None: unsharded.
    shards: Shards | None = None
    #: Where /metrics and /health are served (README, Metrics and health); None: nowhere.
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    #: At most this many PostgreSQL connections per process (unused with SQLite).
    database_pool_size: int = DEFAULT_POOL_SIZE
    #: How long a shard's lease lasts unrenewed (SHARD_LEASE_SECONDS; README, Running at scale).
    shard_lease_seconds: int = DEFAULT_SHARD_LEASE_SECONDS
    #: How long start-up waits for another process to free this one's shards.
    shard_wait_seconds: int = DEFAULT_SHARD_WAIT_SECONDS
    #: Where the web companion listens (README, Web companion): in the bot's process
    #: when WEB_PORT is set, and in `python -m bot web`; None: the bot serves no pages.
    web_port: int | None = None
    web_host: str = DEFAULT_METRICS_HOST
    #: The address people open the pages at (behind the reverse proxy): what /web prints.
    web_url: str | None = None
    #: An opponent account younger than this many days lends a rating less
    #: (NEW_ACCOUNT_DAYS; docs/league.md, Farming); 0 turns that off.
    new_account_days: float = FULL_LEND_DAYS

    @property
    def database(self) -> DatabaseUrl:
        """The database to open (`bot.storage.open_storage` takes it): DATABASE_URL, or
        else the SQLite file at DATABASE_PATH."""
        if self.database_url is not None:
            return self.database_url
        return DatabaseUrl.sqlite(self.database_path)

    def secrets(self) -> tuple[str, ...]:
        """Every value that must never reach a log line or an error message."""
        return (self.discord_token.get_secret_value(), *self.database.secrets())


def load_settings(
    environ: Mapping[str, str] | None = None,
    env_file: Path | None = Path(".env"),
    *,
    need_token: bool = True,
) -> Settings:
    """Read settings; real environment variables win over the `.env` file.

    The `.env` file is read with `dotenv_values` rather than `load_dotenv`, so loading
    settings never writes the token into `os.environ` where child processes would inherit it.
    """
    merged: dict[str, str] = {}
    try:
        if env_file is not None and env_file.is_file():
            _check_env_file(env_file)
            merged.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    except OSError as exc:
        raise SettingsError(
            f"cannot read {os.path.abspath(env_file or '.env')} ({exc.strerror or exc}): make "
            "it and its folder readable for the user the bot runs as"
        ) from exc
    merged.update(os.environ if environ is None else environ)
    return parse_settings(merged, need_token=need_token)


def _check_env_file(env_file: Path) -> None:
    """A line python-dotenv cannot read is skipped with a warning, so an unclosed quote
    around the token showed up as "DISCORD_TOKEN is not set": name the line instead,
    never its text (it may hold the token)."""
    with env_file.open(encoding="utf-8") as stream:
        for binding in parse_stream(stream):
            if binding.error:
                raise SettingsError(
                    f"line {binding.original.line} of {os.path.abspath(env_file)} can't be "
                    "read (an unclosed quote?): write it as NAME=value, with a quote at "
                    "both ends of a quoted value or none at all"
                )


def parse_settings(values: Mapping[str, str], *, need_token: bool = True) -> Settings:
    """Validate raw strings into `Settings`; raises `SettingsError` with an actionable message.

    ``need_token`` False: `python -m bot web`, which never talks to Discord."""

    def get(name: str) -> str | None:
        raw = values.get(name)
        if raw is None:
            return None
        raw = raw.strip()
        return raw or None

    token = get("DISCORD_TOKEN")
    if token is None and not need_token:
        token = ""
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
        **_parse_database(get("DATABASE_URL"), get("DATABASE_PATH")),
        log_level=_parse_log_level(get("LOG_LEVEL")),
        discord_api_base=_parse_url("DISCORD_API_BASE", get("DISCORD_API_BASE"), ("http", "https")),
        discord_gateway_url=_parse_url(
            "DISCORD_GATEWAY_URL", get("DISCORD_GATEWAY_URL"), ("ws", "wss")
        ),
        shards=_parse_shards(get("SHARD_COUNT"), get("SHARD_IDS")),
        **_parse_metrics(get("METRICS_PORT"), get("METRICS_HOST")),
        **_parse_web(get("WEB_PORT"), get("WEB_HOST"), get("WEB_URL")),
        database_pool_size=_parse_pool_size(get("DATABASE_POOL_SIZE")),
        shard_lease_seconds=_parse_seconds(
            "SHARD_LEASE_SECONDS",
            get("SHARD_LEASE_SECONDS"),
            DEFAULT_SHARD_LEASE_SECONDS,
            MIN_SHARD_LEASE_SECONDS,
            "how long a process's hold on its shards lasts unrenewed",
        ),
        shard_wait_seconds=_parse_seconds(
            "SHARD_WAIT_SECONDS",
            get("SHARD_WAIT_SECONDS"),
            DEFAULT_SHARD_WAIT_SECONDS,
            0,
            "how long start-up waits for another process to free this one's shards",
        ),
        new_account_days=_parse_days(get("NEW_ACCOUNT_DAYS")),
    )


def _parse_days(raw: str | None) -> float:
    """NEW_ACCOUNT_DAYS: a number of days, 0 or more (0: every account lends alike)."""
    if raw is None:
        return FULL_LEND_DAYS
    try:
        days = float(raw)
    except ValueError:
        days = -1.0
    if not 0 <= days <= 3650:
        raise SettingsError(
            f"NEW_ACCOUNT_DAYS must be a number of days from 0 to 3650, got {raw!r}: how "
            f"old an opponent's Discord account must be to count fully in a rating (default "
            f"{FULL_LEND_DAYS:g}); 0 counts every account fully"
        )
    return days


class _Metrics(TypedDict, total=False):
    """The `Settings` fields METRICS_PORT and METRICS_HOST give (none: no metrics)."""

    metrics_port: int | None
    metrics_host: str


def _parse_metrics(port_raw: str | None, host_raw: str | None) -> _Metrics:
    """METRICS_PORT turns the metrics and health server on; METRICS_HOST alone would
    turn nothing on, which is more likely a forgotten port than a wish."""
    if port_raw is None:
        if host_raw is not None:
            raise SettingsError(
                f"METRICS_HOST={host_raw} needs METRICS_PORT: set METRICS_PORT to the port "
                "to serve /metrics and /health on (e.g. 9108), or leave METRICS_HOST empty"
            )
        return {}
    if not port_raw.isdigit() or not 1 <= int(port_raw) <= 65535:
        raise SettingsError(
            f"METRICS_PORT must be a port number from 1 to 65535, got {port_raw!r}: "
            "e.g. 9108, or leave it empty to serve no metrics"
        )
    host = host_raw or DEFAULT_METRICS_HOST
    if any(ch.isspace() or ch in "/[]" for ch in host):
        raise SettingsError(
            f"METRICS_HOST must be an address or host name to listen on, got {host_raw!r}: "
            "e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
        )
    return {"metrics_port": int(port_raw), "metrics_host": host}


class _Web(TypedDict, total=False):
    """The `Settings` fields WEB_PORT, WEB_HOST and WEB_URL give."""

    web_port: int | None
    web_host: str
    web_url: str | None


def _parse_web(port_raw: str | None, host_raw: str | None, url_raw: str | None) -> _Web:
    """WEB_PORT turns the pages on in the bot's process; WEB_URL is where people reach
    them (README, Web companion). WEB_HOST alone is a forgotten port."""
    found: _Web = {}
    url = _parse_url("WEB_URL", url_raw, ("http", "https"))
    if url is not None:
        found["web_url"] = url.rstrip("/")
    if port_raw is None:
        if host_raw is not None:
            raise SettingsError(
                f"WEB_HOST={host_raw} needs WEB_PORT: set WEB_PORT to the port to serve the "
                "web pages on (e.g. 8080), or leave WEB_HOST empty"
            )
        return found
    if not port_raw.isdigit() or not 1 <= int(port_raw) <= 65535:
        raise SettingsError(
            f"WEB_PORT must be a port number from 1 to 65535, got {port_raw!r}: "
            "e.g. 8080, or leave it empty to serve no web pages"
        )
    host = host_raw or DEFAULT_METRICS_HOST
    if any(ch.isspace() or ch in "/[]" for ch in host):
        raise SettingsError(
            f"WEB_HOST must be an address or host name to listen on, got {host_raw!r}: "
            "e.g. 127.0.0.1 (behind a reverse proxy on this machine)"
        )
    found["web_port"] = int(port_raw)
    found["web_host"] = host
    return found


def _parse_pool_size(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_POOL_SIZE
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_POOL_SIZE:
        raise SettingsError(
            f"DATABASE_POOL_SIZE must be a whole number from 1 to {MAX_POOL_SIZE}, got "
            f"{raw!r}: the PostgreSQL connections each bot process may open (default "
            f"{DEFAULT_POOL_SIZE}); keep their sum over all processes below the server's "
            "max_connections"
        )
    return int(raw)


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


class _Database(TypedDict):
    """The `Settings` fields DATABASE_URL and DATABASE_PATH give."""

    database_path: Path
    database_url: DatabaseUrl | None


def _parse_database(url_raw: str | None, path_raw: str | None) -> _Database:
    """``database_path`` and ``database_url`` from DATABASE_URL and DATABASE_PATH.

    DATABASE_URL picks the backend. A sqlite:/// URL is another way to write
    DATABASE_PATH, so the two may not name different files. A PostgreSQL URL wins over
    DATABASE_PATH, which only says where a SQLite file would be (process managers and
    test rigs often set it for every process)."""
    if url_raw is None:
        return {"database_path": _parse_database_path(path_raw), "database_url": None}
    try:
        url = DatabaseUrl.parse(url_raw)
    except ValueError as exc:
        raise SettingsError(f"DATABASE_URL={exc}") from None
    if url.dialect != "sqlite":
        return {"database_path": _parse_database_path(path_raw), "database_url": url}
    file = url_raw.split("://", 1)[1][1:]
    path = _parse_database_path(file, "DATABASE_URL")
    if path_raw is not None and _parse_database_path(path_raw) != path:
        raise SettingsError(
            f"DATABASE_URL={url_raw} and DATABASE_PATH={path_raw} name two different SQLite "
            "files: set only one of them"
        )
    return {"database_path": path, "database_url": url}


def _parse_database_path(raw: str | None, setting: str = "DATABASE_PATH") -> Path:
    """Only what can be told without touching the disk; `Storage.open` checks the rest
    (a parent that is a file, a read-only file or folder) at start-up."""
    if raw is None:
        return DEFAULT_DATABASE_PATH
    ends_in_folder = raw.endswith(("/", os.sep))
    if ends_in_folder or raw in (".", ".."):
        folder = raw if ends_in_folder else raw + "/"
        raise SettingsError(
            f"{setting} must name the database file, not a folder, got {raw!r}: "
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


def _parse_seconds(name: str, raw: str | None, default: int, least: int, what: str) -> int:
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < least:
        raise SettingsError(
            f"{name} must be a whole number of seconds, {least} or more, got {raw!r}: "
            f"{what} (default {default}), or leave it empty"
        )
    return int(raw)


def _parse_shards(count_raw: str | None, ids_raw: str | None) -> Shards | None:
    """SHARD_COUNT alone runs every shard in this process; SHARD_IDS picks some of them
    (``0-3``, ``0,2``, ``1``), so several processes can share the shards between them."""
    if count_raw is None:
        if ids_raw is not None:
            raise SettingsError(
                f"SHARD_IDS={ids_raw} needs SHARD_COUNT: set SHARD_COUNT to the number of "
                "shards all bot processes run together (e.g. 2), or leave SHARD_IDS empty"
            )
        return None
    if not count_raw.isdigit() or int(count_raw) < 1:
        raise SettingsError(
            f"SHARD_COUNT must be a whole number of shards, 1 or more, got {count_raw!r}: "
            "the number of shards all bot processes run together, or leave it empty"
        )
    count = int(count_raw)
    if ids_raw is None:
        return Shards(count, tuple(range(count)))
    ids = _parse_shard_ids(ids_raw)
    outside = [i for i in ids if i >= count]
    if outside:
        raise SettingsError(
            f"SHARD_IDS={ids_raw} names shard {outside[0]}, but SHARD_COUNT={count} has shards "
            f"0 to {count - 1} only: pick ids below SHARD_COUNT"
        )
    return Shards(count, ids)


def _parse_shard_ids(raw: str) -> tuple[int, ...]:
    """A list of ids and ranges, e.g. ``0-3``, ``0,2`` or ``0-1,4``; sorted, each once."""
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise SettingsError(
                f"SHARD_IDS must list shard numbers and ranges like 0-3, 0,2 or 1, got {raw!r}"
            )
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise SettingsError(
                f"SHARD_IDS range {part} runs backwards: write it low to high, e.g. {last}-{first}"
            )
        taken = ids.intersection(range(first, last + 1))
        if taken:
            raise SettingsError(f"SHARD_IDS={raw} names shard {min(taken)} twice: name it once")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def log_level_number(settings: Settings) -> int:
    """The numeric level for `logging`, kept here so the names list has one home."""
    return logging.getLevelNamesMapping()[settings.log_level]
