"""What leaves the game layer, and the one door it leaves through.

Every outcome a table has, whoever caused it (a person's click or slash command, the turn
timer, a computer player, another process that moved the game, a reminder falling due),
is handed to one `Sink` with its `Origin` (bot/game/moves.py keeps the door): the bot's
sink is bot/present/showing.py, which plans the Discord calls that show it and keeps
what each channel shows (README, How the table talks). Nothing here knows Discord: the
one who asked (the Discord side's interaction) travels through as an opaque value.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol, TypeAlias, TypeVar

from bot.game.tables import Outcome, Table


class Origin(enum.Enum):
    """Where a move (or a showing) came from: it decides what can be answered in place."""

    CLICK_LIVE = "click-live"  # a button or menu on the live turn message
    CLICK_STRAY = "click-stray"  # on an older public message that still had buttons
    CLICK_MENU = "click-menu"  # on the mover's private menu
    SLASH = "slash"  # a slash command (or a click on a message with nothing to act on)
    TIMER = "timer"  # the turn timer ran out (or is half gone); nobody clicked
    COMPUTER = "computer"  # a computer player moved; nobody clicked
    FALLBACK = "fallback"  # the answer to the one who moved failed
    ELSEWHERE = "elsewhere"  # another process moved the game; this one read it again


#: Origins with an interaction to answer.
ANSWERED = frozenset({Origin.CLICK_LIVE, Origin.CLICK_STRAY, Origin.CLICK_MENU, Origin.SLASH})


@dataclass(frozen=True, slots=True)
class Reminder:
    """Half the turn's time is gone: the player to move may be pinged."""

    table: Table
    deadline: float


@dataclass(frozen=True, slots=True)
class Reloaded:
    """A table read back from storage because another process moved it: its clock and
    computer players go on from the stored move."""

    table: Table


#: What a sink is handed: a stored move, a reminder due, or a table read again.
News: TypeAlias = Outcome | Reminder | Reloaded

Asker = TypeVar("Asker", contravariant=True)


class Sink(Protocol[Asker]):
    """The one door out of the game layer. ``asker`` is whoever asked for the move (the
    Discord side's interaction), None for what nobody asked for (the timer, a computer,
    a reload)."""

    async def deliver(self, news: News, origin: Origin, asker: Asker | None = None) -> None: ...
