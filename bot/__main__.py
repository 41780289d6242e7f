"""`python -m bot` (or `mexican-bot`): run the bot; `python -m bot sync`: publish commands;
`python -m bot invite`: print the invite link; `python -m bot migrate-db FROM TO`: copy
the database (e.g. SQLite into PostgreSQL); `python -m bot web`: the web companion alone
(README, Web companion); `python -m bot arena`: the bot arena's server (README, Bot arena).

Operator mistakes (no token, bad setting, token refused, Discord unreachable, a
DEV_GUILD_ID the bot may not add commands to, a DATABASE_PATH it can't write, a
DATABASE_URL it can't reach, shards another process keeps running) end with one line
on stderr and a non-zero exit, never a traceback: the operator needs to know what to
fix, not where in discord.py it was noticed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
import traceback
from collections.abc import Callable, Sequence

import aiohttp
import discord

from bot import __version__
from bot.adapter.faces import upload_faces
from bot.adapter.permissions import invite_url
from bot.arena.cli import main as arena_main
from bot.game.shards import Shards
from bot.present.faces import EMOJI_NAMES
from bot.runtime import collector, monitor
from bot.runtime.answering import lean_callbacks
from bot.runtime.client import MexicanBot, create_bot
from bot.runtime.endpoints import apply_endpoints
from bot.runtime.leases import ShardLeases, ShardsHeldError
from bot.runtime.logs import setup_logging
from bot.runtime.settings import Settings, SettingsError, load_settings
from bot.storage import Storage, StorageError, open_storage
from bot.storage.copy import CopyError, copy_database
from bot.storage.sqlite import DatabasePathError
from bot.web.serve import WebPortError, run_web, serving

log = logging.getLogger("bot")

PROG = "mexican-bot"
EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_BAD_SETTINGS = 2


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop where it is installed (it is a dependency off Windows): the same asyncio,
    roughly a third less CPU per move in the wire benchmark."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["web"]:
        _web_parser().parse_args(given[1:])  # its own --help; nothing else to read
        return _web()
    if given[:1] == ["arena"]:
        return _arena(given[1:])
    args = _parse_args(argv)
    if args.command == "migrate-db":
        return _migrate_db(args.source, args.target)
    if args.command == "web":
        return _web()
    try:
        settings = load_settings()
    except SettingsError as exc:
        _fail(str(exc))
        return EXIT_BAD_SETTINGS

    setup_logging(settings)
    collector.tune()
    apply_endpoints(settings.discord_api_base, settings.discord_gateway_url)
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            if args.command == "invite":
                return runner.run(print_invite(settings))
            return runner.run(run(settings, sync_only=args.command == "sync"))
    except discord.LoginFailure:
        _fail(
            "Discord refused DISCORD_TOKEN: copy the bot token again from the developer "
            "portal (Bot > Reset Token) into .env"
        )
    except (aiohttp.ClientError, ConnectionError, TimeoutError) as exc:
        _fail(
            f"cannot reach Discord ({type(exc).__name__}): check the network, "
            "DISCORD_API_BASE and DISCORD_GATEWAY_URL"
        )
    except (monitor.MetricsPortError, WebPortError) as exc:
        _fail(str(exc))
    except ShardsHeldError as exc:
        _fail(_shards_held(settings, exc))
    except DatabasePathError as exc:
        shown = settings.database if settings.database_url else settings.database_path
        _fail(f"{_path_setting(settings)}={shown} can't be used: {exc}")
    except (StorageError, sqlite3.Error, OSError) as exc:
        _fail(_database_problem(settings, exc), settings.secrets())
    except discord.HTTPException as exc:
        if settings.dev_guild_id is not None and _from_dev_guild_sync(exc, settings.dev_guild_id):
            _fail(_dev_guild_refused(settings.dev_guild_id, exc))
        else:
            _fail(f"Discord answered with an error at start-up: {exc.status} {exc.text}")
    except KeyboardInterrupt:
        return EXIT_OK
    return EXIT_FAILURE


async def run(settings: Settings, *, sync_only: bool = False) -> int:
    """Open storage, take the shards' leases, run the bot until it is closed, then give
    the leases back and close storage.

    The leases are taken before the bot logs in: logging in loads the cogs, which restore
    the shards' games, and only the process holding a shard may do that (README, Running
    at scale). They are given back only once the bot is closed, so its moves under way
    are stored and answered before a waiting process takes over."""
    storage = await open_storage(settings, pool_size=settings.database_pool_size)
    log.info("database open at %s", settings.database)  # the URL shown without its password
    leases: ShardLeases | None = None
    try:
        bot = create_bot(settings, storage, sync_dev_guild=not sync_only)
        async with bot:
            stopper = _Stopper(bot)
            stopper.install()
            try:
                if sync_only:
                    return await _sync_globally(bot, settings)
                leases = bot.leases = _leases(settings, storage, on_lost=stopper.stop)
                if not await leases.acquire(settings.shard_wait_seconds, stopper.stopping):
                    return EXIT_OK  # stopped while waiting: nothing was started
                leases.keep_renewing()
                async with contextlib.AsyncExitStack() as serve:
                    serve.enter_context(lean_callbacks())  # before the metrics wrap it
                    await serve.enter_async_context(monitor.serving(bot, settings))
                    if settings.web_port is not None:  # README, Web companion
                        await serve.enter_async_context(
                            serving(storage, settings.web_host, settings.web_port, bot.league)
                        )
                    running = asyncio.ensure_future(
                        bot.start(settings.discord_token.get_secret_value())
                    )
                    stopper.running = running
                    await running
            except (aiohttp.ClientError, RuntimeError, asyncio.CancelledError):
                # Closing mid-login makes the pending request fail, and a connection
                # being retried is cut short (`_Stopper`): both are a clean stop.
                if not stopper.requested:
                    raise
            finally:
                stopper.uninstall()
    finally:
        if leases is not None:
            await leases.release()
        await storage.close()
        log.info("database closed")
    if leases is not None and leases.lost_to is not None:
        return EXIT_FAILURE  # a supervisor should notice: another process runs our shards
    log.info("stopped")
    return EXIT_OK


def _leases(settings: Settings, storage: Storage, on_lost: Callable[[], None]) -> ShardLeases:
    """The leases of this process's shards; an unsharded process runs shard 0 of 1."""
    shards = settings.shards or Shards(1, (0,))
    return ShardLeases(
        storage, shards.count, shards.ids, seconds=settings.shard_lease_seconds, on_lost=on_lost
    )


def _shards_held(settings: Settings, exc: ShardsHeldError) -> str:
    """The one line for a start-up that waited in vain for its shards."""
    holders = ", ".join(sorted(set(exc.holders.values())))
    waited = f"SHARD_WAIT_SECONDS={settings.shard_wait_seconds}"
    if settings.shards is None:
        return (
            f"the bot already runs on this database in another process ({holders}), which "
            f"did not stop within {waited}: run one bot per database, or share the shards "
            "out between processes with SHARD_COUNT and SHARD_IDS"
        )
    ids = ",".join(map(str, sorted(exc.holders)))
    mine = ",".join(map(str, settings.shards.ids))
    return (
        f"shard(s) {ids} of {exc.shard_count} are held by another running process "
        f"({holders}), which did not let go within {waited}: check SHARD_IDS={mine} (each "
        "shard runs in one process only), or stop the other process first"
    )


async def _sync_globally(bot: MexicanBot, settings: Settings) -> int:
    """Global sync is slow to propagate and rate-limited, so it is an explicit step."""
    await bot.login(settings.discord_token.get_secret_value())
    synced = await bot.tree.sync()
    names = ", ".join(f"/{command.name}" for command in synced) or "none"
    print(f"synced {len(synced)} global command(s): {names}")
    uploaded = await upload_faces(bot)
    print(f"die faces: {uploaded} uploaded, {len(EMOJI_NAMES) - uploaded} already there")
    # The step after publishing is inviting: the link for this very application.
    assert bot.application_id is not None  # login read it; the sync needed it
    print(f"invite the bot with {invite_url(bot.application_id)}")
    return EXIT_OK


async def print_invite(settings: Settings) -> int:
    """`invite`: the link for the application the token belongs to, read from Discord.

    A bare client logs in (REST only, no gateway, no database): the token names the bot
    user, but only Discord knows its application's id for certain."""
    # Guilds on only so discord.py does not warn about it: no gateway is opened, so no
    # intent is ever sent (README, Quick start: the bot needs no privileged intents).
    async with discord.Client(intents=discord.Intents(guilds=True)) as client:
        await client.login(settings.discord_token.get_secret_value())
        assert client.application_id is not None  # login reads the application
        print(invite_url(client.application_id))
    return EXIT_OK


def _from_dev_guild_sync(exc: discord.HTTPException, guild_id: int) -> bool:
    """Whether Discord refused the start-up sync of commands to DEV_GUILD_ID.

    A 403 (the bot is not in that server, or lacks the applications.commands scope) or a
    404 (no such server) counts if it was raised inside `MexicanBot.sync_to_dev_guild`,
    or if the refused request was the dev guild's commands route: either is enough, so
    the message survives a refactor of one side. Anything else keeps the generic message.
    """
    if not isinstance(exc, discord.Forbidden | discord.NotFound):
        return False
    sync_code = getattr(MexicanBot.sync_to_dev_guild, "__code__", None)
    if any(frame.f_code is sync_code for frame, _ in traceback.walk_tb(exc.__traceback__)):
        return True
    url = str(getattr(exc.response, "url", "") or "")
    return f"/guilds/{guild_id}/commands" in url


def _dev_guild_refused(guild_id: int, exc: discord.HTTPException) -> str:
    said = " ".join(f"{exc.status} {exc.text}".split())  # one line, whatever Discord sent
    return (
        f"DEV_GUILD_ID={guild_id}: Discord refused to add the slash commands to that server "
        f"({said}). Invite the bot to that server with the bot and applications.commands "
        "scopes, or set DEV_GUILD_ID to a server the bot is in, or leave it empty"
    )


#: Seconds closing may take (moves under way drained, connection closed); the storage
#: closes after, all within the 15 s the README's systemd unit gives.
CLOSE_SECONDS = 10.0
#: Seconds the connection loop gets to end by itself once the bot is closed.
LOOP_SECONDS = 1.0


class _Stopper:
    """Turns SIGINT/SIGTERM into `bot.close()`, so `run` unwinds and closes storage."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, bot: MexicanBot) -> None:
        self._bot = bot
        self._loop = asyncio.get_running_loop()
        self._task: asyncio.Task[None] | None = None
        #: The bot's connection loop, cut short if closing did not end it.
        self.running: asyncio.Future[None] | None = None
        self.requested = False
        #: Set at the first stop: a start-up still waiting for its shards gives up.
        self.stopping = asyncio.Event()

    def install(self) -> None:
        for sig in self.SIGNALS:
            # Not available on Windows; there Ctrl-C still cancels asyncio.run cleanly.
            with contextlib.suppress(NotImplementedError, RuntimeError):
                self._loop.add_signal_handler(sig, self._on_signal, sig)

    def uninstall(self) -> None:
        for sig in self.SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                self._loop.remove_signal_handler(sig)

    def _on_signal(self, sig: signal.Signals) -> None:
        if not self.requested:
            log.info("received %s, shutting down", sig.name)
        self.stop()

    def stop(self) -> None:
        """Close the bot, once (a signal, or a shard lease lost to another process)."""
        if self.requested:
            return
        self.requested = True
        self.stopping.set()
        # A second Ctrl-C falls back to the default handler: a way out if closing hangs.
        self.uninstall()
        self._task = self._loop.create_task(self._close())

    async def _close(self) -> None:
        """Close the bot within the stop timeout (README, Running at scale: the systemd
        unit's TimeoutStopSec): discord.py sees a close only between two attempts to reach the
        gateway, and may sleep a minute between them, so the connection loop is cut
        short once the bot is closed, or once closing took too long."""
        try:
            await asyncio.wait_for(self._bot.close(), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("closing took over %.0f s; stopping without waiting more", CLOSE_SECONDS)
        running = self.running
        if running is not None and not running.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(running), LOOP_SECONDS)
            running.cancel()


def _path_setting(settings: Settings) -> str:
    return "DATABASE_URL" if settings.database_url is not None else "DATABASE_PATH"


def _database_problem(settings: Settings, exc: BaseException) -> str:
    """One line for a database that failed at start-up, naming the setting to fix."""
    if settings.database.dialect == "postgresql":
        if isinstance(exc, StorageError):
            return f"{exc} (check DATABASE_URL)"
        return f"cannot use the database at {settings.database}: {exc} (check DATABASE_URL)"
    setting = _path_setting(settings)
    return f"cannot use the database at {settings.database_path}: {exc} (check {setting})"


#: Where `python -m bot web` listens when WEB_PORT is not set.
DEFAULT_WEB_PORT = 8080


def _web() -> int:
    """`web`: the companion's pages alone, on the bot's database; no token needed."""
    try:
        settings = load_settings(need_token=False)
    except SettingsError as exc:
        _fail(str(exc))
        return EXIT_BAD_SETTINGS
    setup_logging(settings)
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(run_web(settings, settings.web_port or DEFAULT_WEB_PORT))
    except WebPortError as exc:
        _fail(str(exc))
        return EXIT_FAILURE
    except (StorageError, sqlite3.Error, OSError) as exc:
        _fail(_database_problem(settings, exc), settings.secrets())
        return EXIT_FAILURE
    except KeyboardInterrupt:
        pass
    return EXIT_OK


def _arena(argv: Sequence[str]) -> int:
    """`arena`: the bot arena's server, its ladder in the bot's database; no token needed."""
    try:
        settings = load_settings(need_token=False)
    except SettingsError as exc:
        _fail(str(exc))
        return EXIT_BAD_SETTINGS
    return arena_main(argv, settings.database)


def _migrate_db(source: str, target: str) -> int:
    """`migrate-db FROM TO`: copy every table, then compare the counts table by table.

    Needs no token and no Discord: it only opens the two databases."""
    secrets = tuple(s for raw in (source, target) for s in _url_secrets(raw))
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(copy_database(source, target, out=sys.stdout))
    except (ValueError, CopyError, StorageError, sqlite3.Error, OSError) as exc:
        _fail(f"migrate-db: {exc}", secrets)
        return EXIT_FAILURE
    return EXIT_OK


def _url_secrets(raw: str) -> tuple[str, ...]:
    from bot.storage import database_url

    try:
        return database_url(raw).secrets()
    except (ValueError, TypeError):
        return ()


def _fail(message: str, secrets: tuple[str, ...] = ()) -> None:
    # Errors from the database driver may quote what it was given: scrub the password.
    for secret in secrets:
        if secret:
            message = message.replace(secret, "***")
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _web_parser() -> argparse.ArgumentParser:
    """`python -m bot web --help`: the companion's own settings (docs/web.md)."""
    return argparse.ArgumentParser(
        prog=f"{PROG} web",
        description="Serve the web companion alone: a server's leaderboards, season, "
        "profiles and replays as pages, read from the bot's database. Needs no Discord "
        "token.",
        epilog="settings (environment or .env): DATABASE_PATH or DATABASE_URL (the bot's "
        "database); WEB_PORT (default 8080); WEB_HOST (default 127.0.0.1); METRICS_PORT "
        "(/metrics and /health there too, like the bot). Put it behind a reverse proxy "
        "with TLS (docs/web.md); servers turn their pages on with /web in Discord.",
    )


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Discord bot for the dice game Mexican / Mia / Mexen."
    )
    parser.add_argument(
        "command",
        nargs="?",
        choices=("run", "sync", "invite", "migrate-db", "web", "arena"),
        default="run",
        help="run the bot (default), sync its slash commands globally and exit, print "
        "the invite link (invite), migrate-db FROM TO: copy every table of one database "
        "into another, empty one, or web: serve the web companion alone (WEB_PORT, "
        "default 8080; no token needed), or arena: the bot arena's UDP server "
        "(arena --help; no token needed)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "source", nargs="?", metavar="FROM", help="migrate-db: sqlite:///path or a file path"
    )
    parser.add_argument(
        "target", nargs="?", metavar="TO", help="migrate-db: postgresql://user:password@host/db"
    )
    args = parser.parse_args(argv)
    if args.command == "migrate-db" and (args.source is None or args.target is None):
        parser.error(
            "migrate-db needs FROM and TO, e.g. migrate-db sqlite:///data/mexican.db "
            "postgresql://user:password@localhost/mexican"
        )
    elif args.command != "migrate-db" and args.source is not None:
        parser.error(f"{args.command} takes no further arguments")
    return args


if __name__ == "__main__":
    sys.exit(main())
