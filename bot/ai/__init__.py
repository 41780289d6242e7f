"""Computer players: decide a move from what the engine shows their seat, and nothing else
(README, Playing against the computer).

A brain is a function of ``Game.view(seat)`` (the cup only if this seat saw it; the
legal moves; every public field) and a random source: it can only know what a player
sitting there would know. No Discord, no I/O, no clock, like the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any

from bot.engine import Move

View = Mapping[str, Any]
"""What ``Game.view(seat)`` returns for the seat that decides."""

Brain = Callable[[View, Random], "Move | None"]
"""A strategy: the move to make now (``None``: nothing to do, e.g. no TAP wanted)."""
