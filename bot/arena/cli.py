"""``python -m bot arena``: run the arena server (README, Bot arena: Running the server).

An operator's mistake (a port in use, a bad number) ends with one line on stderr and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sqlite3
import sys
from collections.abc import Sequence

from bot.arena.house import HOUSE_NAMES, house
from bot.arena.ladder import Ladder, ladder_text
from bot.arena.server import ArenaConfig, ArenaServer
from bot.storage import Storage, StorageError, open_storage

log = logging.getLogger("bot.arena")

EXIT_OK = 0
EXIT_FAILURE = 1


class PortError(Exception):
    """The arena's port can't be bound: the one line to show."""


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    defaults = ArenaConfig()
    parser = argparse.ArgumentParser(
        prog="mexican-bot arena",
        description="A Mäxchen protocol server where bots play each other (docs/arena.md).",
    )
    parser.add_argument("--host", default=defaults.host, help="address to listen on")
    parser.add_argument("--port", type=int, default=defaults.port, help="UDP port (9000)")
    parser.add_argument(
        "--window-ms",
        type=int,
        default=round(defaults.window * 1000),
        help="how long a bot has to answer, in milliseconds (250)",
    )
    parser.add_argument(
        "--bench-after",
        type=int,
        default=defaults.bench_after,
        help="bench a bot after this many rounds in a row lost by not answering (5)",
    )
    parser.add_argument(
        "--max-clients", type=int, default=defaults.max_clients, help="registrations (1000)"
    )
    parser.add_argument(
        "--pause", type=float, default=defaults.pause, help="seconds between rounds (0)"
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help="stop after this many played rounds"
    )
    parser.add_argument(
        "--house",
        default=",".join(HOUSE_NAMES),
        help="the house players who play every round, by persona: "
        f"{','.join(HOUSE_NAMES)} (all, the default) or none",
    )
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="print the ladder from the database (DATABASE_URL or DATABASE_PATH) and exit",
    )
    parser.add_argument("--top", type=int, default=50, help="--ladder: how many bots (50)")
    return parser.parse_args(list(argv))


def house_keys(text: str) -> list[str]:
    """The personas ``--house`` names (``none``: no house players)."""
    keys = [] if text == "none" else [k for k in text.split(",") if k]
    unknown = [k for k in keys if k not in HOUSE_NAMES]
    if unknown:
        raise ValueError(f"--house: no persona {unknown[0]!r} (there are {', '.join(HOUSE_NAMES)})")
    return keys


def config_from(args: argparse.Namespace) -> ArenaConfig:
    """The settings the arguments name; a number out of its range is a usage error."""
    checks = (
        (0 <= args.port <= 65535, "--port must be 0-65535"),
        (10 <= args.window_ms <= 10_000, "--window-ms must be 10-10000"),
        (args.bench_after >= 1, "--bench-after must be at least 1"),
        (args.max_clients >= 1, "--max-clients must be at least 1"),
        (args.pause >= 0, "--pause must not be negative"),
        (args.rounds is None or args.rounds >= 1, "--rounds must be at least 1"),
    )
    for ok, problem in checks:
        if not ok:
            raise ValueError(problem)
    house_keys(args.house)
    return ArenaConfig(
        host=args.host,
        port=args.port,
        window=args.window_ms / 1000,
        bench_after=args.bench_after,
        max_clients=args.max_clients,
        pause=args.pause,
    )


async def serve(
    config: ArenaConfig,
    rounds: int | None = None,
    storage: Storage | None = None,
    personas: Sequence[str] = (),
) -> ArenaServer:
    """Bind the port and deal rounds until cancelled (or ``rounds`` are played), each
    scored on the ladder in ``storage`` (none: scores last as long as the process), with
    the house players of ``personas`` at every table."""
    loop = asyncio.get_running_loop()
    server = ArenaServer(config, recorder=Ladder(storage) if storage is not None else None)
    for player in house(list(personas)):
        server.seat_house(player.name, player.hear)
    try:
        transport, _ = await loop.create_datagram_endpoint(
            lambda: server, local_addr=(config.host, config.port)
        )
    except OSError as exc:
        raise PortError(f"cannot listen on {config.host}:{config.port} ({exc.strerror})") from exc
    host, port = transport.get_extra_info("sockname")[:2]
    log.info("arena: listening on %s:%s (UDP)", host, port)
    try:
        await server.play(rounds)
    finally:
        transport.close()
    return server


async def run(args: argparse.Namespace, config: ArenaConfig, database: object | None) -> None:
    """The server (or, with ``--ladder``, the ladder printed) on the database given."""
    if database is None:
        if args.ladder:
            raise StorageError("no database to read the ladder from")
        await serve(config, args.rounds, None, house_keys(args.house))
        return
    storage = await open_storage(database)
    try:
        if args.ladder:
            print(await ladder_text(storage, args.top))
        else:
            await serve(config, args.rounds, storage, house_keys(args.house))
    finally:
        await storage.close()


def main(argv: Sequence[str], database: object | None = None) -> int:
    """The command; ``database`` is what ``open_storage`` opens (the bot's settings give
    it: DATABASE_URL, else the SQLite file at DATABASE_PATH); None keeps no ladder."""
    args = parse_args(argv)
    try:
        config = config_from(args)
    except ValueError as exc:
        return _fail(str(exc))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(args, config, database))
    except PortError as exc:
        return _fail(str(exc))
    except (StorageError, sqlite3.Error, OSError) as exc:
        # The type only: a database's message may carry its address.
        return _fail(
            f"the ladder's database can't be used ({type(exc).__name__}): check "
            "DATABASE_URL or DATABASE_PATH"
        )
    return EXIT_OK


def _fail(problem: str) -> int:
    print(f"mexican-bot arena: {problem}", file=sys.stderr)
    return EXIT_FAILURE
