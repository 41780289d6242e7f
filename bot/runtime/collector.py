"""How the bot sets Python's garbage collector (README, Benchmarks).

Every interaction leaves reference cycles behind (discord.py's interaction and its
response point at each other, as do asyncio's tasks and futures), which only the cyclic
collector frees. With CPython's default thresholds it ran a young collection every 700
allocations and, every hundred of those, walked the whole heap: discord.py's guild and
member caches, the catalogs and every running game. Measured under saturating load
(wire_bench), that was 18% of the bot's CPU. Collecting young objects ~30 times less often
frees the same garbage in fewer passes, and freezing what exists once the bot is ready
takes the start-up heap out of the older passes for good.
"""

from __future__ import annotations

import gc

#: Young collections every 20,000 net allocations (default 700); the older generations
#: keep their default ratios over that.
THRESHOLDS = (20_000, 10, 10)
_tuned = False


def tune() -> None:
    """Set the thresholds; called once when the bot's process starts (not by a test
    running a bot inside its own process, whose heap is the test runner's)."""
    global _tuned
    gc.set_threshold(*THRESHOLDS)
    _tuned = True


def freeze_startup_heap() -> bool:
    """Move everything alive now into the permanent generation, which the collector never
    walks: modules, catalogs, discord.py's caches at READY. Only the first call freezes
    (a reconnect's READY would freeze running games, whose cycles would then never be
    freed); returns whether this call did. Nothing happens unless `tune` ran."""
    if not _tuned or gc.get_freeze_count():
        return False
    gc.freeze()  # no collection first: it would walk the whole heap while players wait
    return True
