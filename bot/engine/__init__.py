"""The game engine: pure Python, no Discord, no I/O, no clock, no module-level randomness.

The caller passes a ``random.Random`` into every move that rolls (``random.SystemRandom()``
in the bot, a seeded one in tests) and renders the returned events.
"""

from bot.engine.errors import (
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
from bot.engine.events import Cause, Event, Kind, Penalty, Reason
from bot.engine.game import MOVES, Game
from bot.engine.moves import BOT_ONLY, Act, Move
from bot.engine.presets import PRESET_NAMES, PRESETS, Options, make_options
from bot.engine.rolls import ORDER, RANK, Roll, code, from_code, make_roll, name, parse_roll
from bot.engine.state import FORMAT_VERSION

__all__ = [
    "BOT_ONLY",
    "FORMAT_VERSION",
    "MOVES",
    "ORDER",
    "PRESETS",
    "PRESET_NAMES",
    "RANK",
    "Act",
    "BadOptions",
    "Cause",
    "Event",
    "Game",
    "GameError",
    "GameOver",
    "IllegalMove",
    "InvalidClaim",
    "Kind",
    "Move",
    "NotInGame",
    "NotYourTurn",
    "Options",
    "Penalty",
    "Reason",
    "Roll",
    "StaleAction",
    "TableFull",
    "code",
    "from_code",
    "make_options",
    "make_roll",
    "name",
    "parse_roll",
]  # fmt: skip
