"""What operators can graph (README, Running at scale: Metrics and health): the bot's
counters, histograms and gauges, on a Prometheus registry of its own.

Knows no Discord: the glue that reads the bot and wraps its calls is bot/runtime/monitor.py. A
registry per bot (not prometheus_client's global one) lets tests, and several bots in one
process, count apart.

Every label value comes from a small set fixed by the code: an engine act, a refusal's
key, a storage method's name, an HTTP method and a route template. None is user input or
an id, so the number of series stays bounded; and nothing here reads a die.
"""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.engine import GameError

P = ParamSpec("P")
R = TypeVar("R")

PREFIX = "mexican"
#: What the table service calls opening a table (its event log's word): not an engine act.
OPENED = "newgame"
#: A refusal whose key is a sentence rather than a catalog key (README, The engine) is
#: counted under its class's name instead; this is what a catalog key looks like.
_KEY = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_KEY_MAX = 40
#: The phases a table in memory can be in (a finished one leaves memory at once).
PHASES = ("lobby", "playing")

#: Discord answers within 3 s or the click fails: the buckets are dense below that.
ANSWER_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
DATABASE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)


def refusal_reason(err: GameError) -> str:
    """The bounded label of a refusal: its catalog key, or its class's name in the same
    style when the key is a sentence (``NoGameHere`` -> ``no-game-here``)."""
    key = err.key
    if len(key) <= _KEY_MAX and _KEY.fullmatch(key):
        return key
    return re.sub(r"(?<!^)(?=[A-Z])", "-", type(err).__name__).lower()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the gauges show, read from the bot at scrape time."""

    #: Tables in memory by phase (PHASES).
    tables: Mapping[str, int] = field(default_factory=dict)
    #: Computer players pausing or choosing a move now.
    thinking: int = 0
    #: The Discord shards this process runs the games of.
    shards_held: int = 0


class _Gauges(Collector):
    """Gauges computed when scraped, so nothing has to keep them up to date."""

    def __init__(self, read: Callable[[], Snapshot]) -> None:
        self._read = read

    def collect(self) -> Iterable[Metric]:
        snap = self._read()
        games = GaugeMetricFamily(
            f"{PREFIX}_games_running", "Tables in memory, by phase.", labels=["phase"]
        )
        for phase in PHASES:
            games.add_metric([phase], snap.tables.get(phase, 0))
        yield games
        yield GaugeMetricFamily(
            f"{PREFIX}_computers_thinking", "Computer players about to move.", snap.thinking
        )
        yield GaugeMetricFamily(
            f"{PREFIX}_shards_held", "Discord shards this process runs.", snap.shards_held
        )


class Metrics:
    """The bot's metrics on a registry of their own; `render` is what /metrics serves."""

    def __init__(self, read: Callable[[], Snapshot] = Snapshot) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter(
            f"{PREFIX}_moves", "Moves stored, by kind (the engine's act).", ["act"], registry=r
        )
        self.refusals = Counter(
            f"{PREFIX}_refusals", "Moves the tables refused, by reason.", ["reason"], registry=r
        )
        self.answer_seconds = Histogram(
            f"{PREFIX}_answer_seconds",
            "Interaction received to its answer sent.",
            buckets=ANSWER_BUCKETS,
            registry=r,
        )
        self.discord_calls = Counter(
            f"{PREFIX}_discord_calls",
            "Discord HTTP calls, by method and route template.",
            ["method", "route"],
            registry=r,
        )
        self.database_seconds = Histogram(
            f"{PREFIX}_database_seconds",
            "Database calls, by storage operation.",
            ["operation"],
            buckets=DATABASE_BUCKETS,
            registry=r,
        )
        self.database_errors = Counter(
            f"{PREFIX}_database_errors",
            "Database calls that failed, by storage operation.",
            ["operation"],
            registry=r,
        )
        r.register(_Gauges(read))

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def moved(self, act: str) -> None:
        self.moves.labels(act=act).inc()

    def refused(self, err: GameError) -> None:
        self.refusals.labels(reason=refusal_reason(err)).inc()

    def called_discord(self, method: str, route: str) -> None:
        self.discord_calls.labels(method=method, route=route).inc()

    def timed(
        self,
        operation: str,
        call: Callable[P, Awaitable[R]],
        expected: tuple[type[BaseException], ...] = (),
    ) -> Callable[P, Awaitable[R]]:
        """``call`` timed under ``operation``; an exception counts as a database error
        unless it is ``expected`` (an answer, such as "another process moved first")."""
        seconds = self.database_seconds.labels(operation=operation)
        errors = self.database_errors.labels(operation=operation)

        @wraps(call)
        async def timed_call(*args: P.args, **kwargs: P.kwargs) -> R:
            start = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            except expected:
                raise
            except Exception:
                errors.inc()
                raise
            finally:
                seconds.observe(time.perf_counter() - start)

        return timed_call


def storage_operations(storage: Any) -> list[str]:
    """The public coroutine methods of a storage object: what `instrument` times. Its
    lifecycle (open, close) is not an operation."""
    names = []
    for name in dir(type(storage)):
        if name.startswith("_") or name in ("open", "close"):
            continue
        if inspect.iscoroutinefunction(getattr(type(storage), name, None)):
            names.append(name)
    return names


def instrument(
    metrics: Metrics, target: Any, expected: tuple[type[BaseException], ...] = ()
) -> list[str]:
    """Time every public coroutine method of ``target`` (a storage object), on the
    instance only: the class, and any other instance, are untouched."""
    names = storage_operations(target)
    for name in names:
        setattr(target, name, metrics.timed(name, getattr(target, name), expected))
    return names
