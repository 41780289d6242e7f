"""The game engine: pure Python, no Discord, no I/O, no clock, no module-level randomness.

The caller passes a ``random.Random`` into every move that rolls (``random.SystemRandom()``
in the bot, a seeded one in tests) and renders the returned events.
"""

from .errors import (
    BadOptions,
    GameError,
    GameOver,
    IllegalMove,
    InvalidClaim,
    NotInGame,
    NotYourTurn,
    StaleAction,
    TableFull,
)
from .game import MOVES, Game
from .presets import PRESET_NAMES, PRESETS, Options, make_options
from .rolls import ORDER, RANK, Roll, code, make_roll, name, parse_roll
from .state import FORMAT_VERSION, Event, Penalty

__all__ = [
    "FORMAT_VERSION", "MOVES", "ORDER", "PRESETS", "PRESET_NAMES", "RANK",
    "BadOptions", "Event", "Game", "GameError", "GameOver", "IllegalMove", "InvalidClaim",
    "NotInGame", "NotYourTurn", "Options", "Penalty", "Roll", "StaleAction", "TableFull",
    "code", "make_options", "make_roll", "name", "parse_roll",
]  # fmt: skip
