"""The metrics and health server (README, Running at scale: Metrics and health), and the
glue that feeds bot/runtime/metrics.py from a running bot.

It runs on the bot's own event loop (aiohttp's web server; aiohttp comes with
discord.py), only when METRICS_PORT is set. The game layer is observed through its own
hook; the lower and the Discord side's calls are counted by wrapping them on this bot's
own objects at start-up, so the code that plays, stores and answers knows nothing of it:

- the table service's observers (bot/game/tables.py): moves stored and moves refused
  (every move, a person's, a computer's or the timer's, is told there);
- the storage object's public methods: database latency and errors;
- ``bot.http.request`` (discord.py's REST client) and the webhook adapter interaction
  answers go through: Discord calls, and the time from an interaction received (the
  ``on_interaction`` event) to its answer sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from prometheus_client import CONTENT_TYPE_LATEST

from bot import __version__
from bot.engine import GameError
from bot.runtime.metrics import OPENED, PHASES, Metrics, Snapshot, instrument
from bot.runtime.settings import Settings
from bot.storage import ChannelBusyError, GameNotFoundError, StaleGameError, Storage

if TYPE_CHECKING:
    from bot.game.tables import Outcome, TableService
    from bot.runtime.client import MexicanBot

log = logging.getLogger(__name__)

#: How long /health waits for the database before calling it unreachable: a probe must
#: answer well within its own timeout (curl's, a load balancer's).
PING_SECONDS = 2.0
#: Storage answers that are no failure of the database: a race another process won.
EXPECTED_STORAGE = (ChannelBusyError, StaleGameError, GameNotFoundError)
#: Where Discord takes an interaction's answer (discord.py's route template).
CALLBACK_ROUTE = "/interactions/{webhook_id}/{webhook_token}/callback"
#: Interactions waiting for their answer are forgotten after this long: Discord takes
#: none after 3 s, and a stuck handler must not grow the map without end.
PENDING_SECONDS = 30.0


class MetricsPortError(Exception):
    """METRICS_HOST:METRICS_PORT can't be listened on; the message says what to change."""


# --- reading the bot ---------------------------------------------------------------------


def snapshot(bot: MexicanBot) -> Snapshot:
    """The gauges' values now: tables by phase, computers pausing, shards held."""
    tables = {phase: 0 for phase in PHASES}
    for table in list(bot.tables.tables.values()):
        phase = table.game.phase
        if phase in tables:
            tables[phase] += 1
    thinking = 0
    if bot.dealer is not None:
        thinking = sum(not task.done() for task in list(bot.dealer.thinking.values()))
    return Snapshot(tables=tables, thinking=thinking, shards_held=len(shards_held(bot)))


def shards_held(bot: MexicanBot) -> tuple[int, ...]:
    """The shards whose games this process runs: its shard leases' when it has them
    (README, Running at scale), else the shards it was configured with (unsharded: the
    one shard 0)."""
    leases = getattr(bot, "leases", None)
    if leases is not None:
        return tuple(leases.held)
    if bot.sharding is not None:
        return tuple(bot.sharding.ids)
    return (0,)


async def health(bot: MexicanBot, storage: Storage) -> dict[str, bool]:
    """Each check by name, True when it passes (README, Metrics and health)."""
    return {
        "gateway": gateway_connected(bot),
        "database": await database_reachable(storage),
        "shards": shards_ok(bot),
    }


def gateway_connected(bot: discord.Client) -> bool:
    if bot.is_closed() or not bot.is_ready():
        return False
    if isinstance(bot, discord.AutoShardedClient):
        shards = list(bot.shards.values())
        return bool(shards) and not any(shard.is_closed() for shard in shards)
    return True


async def database_reachable(storage: Storage, timeout: float = PING_SECONDS) -> bool:
    try:
        await asyncio.wait_for(storage.ping(), timeout)
    except Exception as exc:  # any failure is the answer; the reason goes to the log
        log.warning("health: database unreachable (%s)", type(exc).__name__)
        return False
    return True


def shards_ok(bot: MexicanBot) -> bool:
    """The shard leases are held and fresh; without leases, the configured shards are
    this process's by configuration and nothing can take them."""
    leases = getattr(bot, "leases", None)
    return leases is None or bool(leases.ok)


# --- counting ----------------------------------------------------------------------------


class _MoveCounter:
    """A table service observer (bot/game/tables.py) counting into the metrics."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    def moved(self, outcome: Outcome) -> None:
        self._metrics.moved(OPENED if outcome.move is None else outcome.move.act.value)

    def refused(self, err: GameError) -> None:
        self._metrics.refused(err)


def count_moves(metrics: Metrics, tables: TableService) -> None:
    """Count stored moves (by act) and refusals (by key) of this table service only, as
    it tells its observers."""
    tables.observers.append(_MoveCounter(metrics))


class _Answers:
    """When each interaction arrived, until its answer is sent."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics
        self._received: OrderedDict[int, float] = OrderedDict()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        now = time.perf_counter()
        self._received[interaction.id] = now
        while self._received:
            oldest = next(iter(self._received.values()))
            if now - oldest < PENDING_SECONDS:
                break
            self._received.popitem(last=False)

    def answered(self, interaction_id: Any) -> None:
        with contextlib.suppress(TypeError, ValueError):
            started = self._received.pop(int(interaction_id), None)
            if started is not None:
                self._metrics.answer_seconds.observe(time.perf_counter() - started)


def count_discord_calls(metrics: Metrics, http: discord.http.HTTPClient) -> None:
    """Count every REST call the bot makes through its HTTP client (this instance only)."""
    request = http.request

    async def counted(route: discord.http.Route, **kwargs: Any) -> Any:
        metrics.called_discord(route.method, route.path)
        return await request(route, **kwargs)

    http.request = counted  # type: ignore[method-assign]  # wraps this one client's method


class _CountingAdapter(AsyncWebhookAdapter):
    """discord.py sends interaction answers and follow-ups through a webhook adapter it
    looks up in a context variable, not through ``bot.http``; this one counts those calls
    and times answers, then hands each to the adapter that was there before. Neither the
    variable nor the adapter is in discord.py's documentation: the wire test of the
    metrics (tests/test_metrics_wire.py) fails if answers stop being counted."""

    def __init__(self, inner: AsyncWebhookAdapter, metrics: Metrics, answers: _Answers) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py leaves it untyped
        self._inner = inner
        self._metrics = metrics
        self._answers = answers

    async def request(self, route: Any, *args: Any, **kwargs: Any) -> Any:
        self._metrics.called_discord(route.method, route.path)
        result = await self._inner.request(route, *args, **kwargs)
        if route.path == CALLBACK_ROUTE:
            self._answers.answered(route.webhook_id)
        return result


# --- the server --------------------------------------------------------------------------


@dataclass(slots=True)
class Monitor:
    """A running metrics server; `stop` it at close."""

    metrics: Metrics
    answers: _Answers
    runner: web.AppRunner
    url: str

    async def stop(self) -> None:
        await self.runner.cleanup()


def build_app(bot: MexicanBot, storage: Storage, metrics: Metrics) -> web.Application:
    async def get_metrics(request: web.Request) -> web.Response:
        return web.Response(body=metrics.render(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def get_health(request: web.Request) -> web.Response:
        checks = await health(bot, storage)
        healthy = all(checks.values())
        body = {"status": "ok" if healthy else "failing", "version": __version__, "checks": checks}
        return web.Response(
            text=json.dumps(body), status=200 if healthy else 503, content_type="application/json"
        )

    app = web.Application()
    app.router.add_get("/metrics", get_metrics)
    app.router.add_get("/health", get_health)
    return app


def attach(bot: MexicanBot, storage: Storage) -> tuple[Metrics, _Answers]:
    """Wrap this bot's table service, storage and HTTP client to count into new metrics."""
    metrics = Metrics(lambda: snapshot(bot))
    count_moves(metrics, bot.tables)
    instrument(metrics, storage, EXPECTED_STORAGE)
    count_discord_calls(metrics, bot.http)
    answers = _Answers(metrics)
    bot.add_listener(answers.on_interaction, "on_interaction")
    return metrics, answers


async def start(bot: MexicanBot, storage: Storage, host: str, port: int) -> Monitor:
    metrics, answers = attach(bot, storage)
    runner = web.AppRunner(build_app(bot, storage, metrics), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise MetricsPortError(
            f"METRICS_PORT={port}: can't listen on {host}:{port} ({exc.strerror or exc}): "
            "another process may be using it; pick a free port or stop that process"
        ) from None
    url = f"http://{host}:{port}"
    log.info("metrics and health at %s/metrics and %s/health", url, url)
    return Monitor(metrics, answers, runner, url)


@contextlib.asynccontextmanager
async def serving(bot: MexicanBot, settings: Settings) -> AsyncIterator[Monitor | None]:
    """Serve /metrics and /health while the bot runs, if METRICS_PORT is set.

    Entered in the task that then starts the bot, so the counting webhook adapter set
    here is the one every task the bot creates afterwards inherits."""
    if settings.metrics_port is None:
        yield None
        return
    monitor = await start(bot, bot.storage, settings.metrics_host, settings.metrics_port)
    adapter = _CountingAdapter(async_context.get(), monitor.metrics, monitor.answers)
    token = async_context.set(adapter)
    try:
        yield monitor
    finally:
        with contextlib.suppress(ValueError):  # a context left by cancellation
            async_context.reset(token)
        await monitor.stop()
