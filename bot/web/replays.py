"""Replays that cost the table nothing (docs/web.md, Replays): each is built once in a
worker process and kept, so the loop that serves the pages (and, with WEB_PORT, plays
the games) never words a long game itself.

A finished game never changes, so a built replay stays right for as long as the names
it shows do: it is kept by game, language and the server's names (their digest), the
most recently read ones first, up to `KEEP_BYTES`. Readers of a replay being built wait
for that one build.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.web.build import Built

#: The built replays kept, in bytes of JSON.
KEEP_BYTES = 64 * 1024 * 1024
#: Worker processes building replays: one is enough for a bar's server, and leaves the
#: other cores to the bot.
WORKERS = 1

Key = tuple[int, int, str, str]
_pool: ProcessPoolExecutor | None = None


def pool() -> Executor:
    """The worker processes, started on the first replay (spawned: a fork of a running
    bot would copy its threads' locks)."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"))
    return _pool


def _lost_pool() -> None:
    global _pool
    _pool = None


class Replays:
    """The built replays of one application."""

    def __init__(self, keep_bytes: int = KEEP_BYTES) -> None:
        self.keep_bytes = keep_bytes
        self._built: OrderedDict[Key, Built] = OrderedDict()
        self._held = 0
        self._building: dict[Key, asyncio.Future[Built]] = {}

    def cached(self, key: Key) -> Built | None:
        built = self._built.get(key)
        if built is not None:
            self._built.move_to_end(key)
        return built

    async def get(self, key: Key, make: Callable[[], Awaitable[Built]]) -> Built:
        """The replay under ``key``: kept, being built, or built now by ``make`` (to its
        end, even if the reader who asked first goes away)."""
        built = self.cached(key)
        if built is not None:
            return built
        task = self._building.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self._building[key] = task
            task.add_done_callback(lambda done: self._done(key, done))
        return await asyncio.shield(task)

    def _done(self, key: Key, task: asyncio.Future[Built]) -> None:
        self._building.pop(key, None)
        if task.cancelled():
            return
        failed = task.exception()
        if isinstance(failed, BrokenProcessPool):
            _lost_pool()
        if failed is None:
            self._keep(key, task.result())

    def _keep(self, key: Key, built: Built) -> None:
        self._built[key] = built
        self._held += built.size
        while self._held > self.keep_bytes and self._built:
            _, dropped = self._built.popitem(last=False)
            self._held -= dropped.size
