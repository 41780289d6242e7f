"""How benchmarks that build the bot's parts in their own process run them: as the bot's
process runs (README, Benchmarks), on its event loop (uvloop where it is installed) and
with its garbage collector settings, so what they time is what the bot spends."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from bot.__main__ import loop_factory
from bot.runtime import collector

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` as `python -m bot` runs the bot."""
    collector.tune()
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(coro)
