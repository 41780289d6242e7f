"""Running the web companion (README, Web companion): beside the bot in its process when
WEB_PORT is set, or alone with `python -m bot web`, which needs no Discord token.

Each link's token is made here: 32 random bytes from the operating system's
cryptographic source, URL-safe, so a link cannot be guessed or derived from a server id.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
from collections.abc import AsyncIterator

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.league.service import League
from bot.runtime.metrics import Metrics, instrument
from bot.runtime.settings import Settings
from bot.storage import Storage, open_storage
from bot.web.app import STORAGE, health, make_app

log = logging.getLogger(__name__)


class WebPortError(Exception):
    """The web port is taken or may not be used: one line for the operator."""


def new_token() -> str:
    return secrets.token_urlsafe(32)


@contextlib.asynccontextmanager
async def serving(
    storage: Storage, host: str, port: int, league: League | None = None
) -> AsyncIterator[None]:
    """The companion listening on ``host:port`` for the duration of the block."""
    async with _listening(make_app(storage, league), host, port, "the web pages", "WEB_PORT"):
        log.info("web pages served on http://%s:%s/", host, port)
        yield


@contextlib.asynccontextmanager
async def _listening(
    app: web.Application, host: str, port: int, what: str, setting: str
) -> AsyncIterator[None]:
    """``app`` on ``host:port`` for the block; a port that can't be had is one line naming
    the setting to change."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            raise WebPortError(
                f"cannot serve {what} on {host}:{port} ({exc.strerror or exc}): "
                f"choose a free {setting}"
            ) from exc
        yield
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def metrics_serving(
    storage: Storage, host: str, port: int | None
) -> AsyncIterator[Metrics | None]:
    """`/metrics` and `/health` on METRICS_PORT, as the bot serves them (docs/operations.md,
    Metrics and health): here the database calls the pages make, by operation, timed and
    counted. Nothing without METRICS_PORT."""
    if port is None:
        yield None
        return
    metrics = Metrics()
    instrument(metrics, storage)

    async def get_metrics(request: web.Request) -> web.Response:
        return web.Response(body=metrics.render(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    app = web.Application()
    app.router.add_get("/metrics", get_metrics)
    app.router.add_get("/health", health)
    app[STORAGE] = storage
    async with _listening(app, host, port, "/metrics", "METRICS_PORT"):
        log.info("metrics and health at http://%s:%s/metrics", host, port)
        yield metrics


async def run_web(settings: Settings, port: int) -> None:
    """`python -m bot web`: the pages alone, until SIGINT or SIGTERM."""
    storage = await open_storage(settings, pool_size=settings.database_pool_size)
    try:
        async with (
            metrics_serving(storage, settings.metrics_host, settings.metrics_port),
            serving(storage, settings.web_host, port),
        ):
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, stop.set)
            await stop.wait()
    finally:
        await storage.close()
