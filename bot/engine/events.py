"""What the engine reports: event kinds, penalty causes and reasons as enums, so every
consumer (presenter, statistics, event log) handles a closed set and a new kind cannot
slip through unrendered.

Rolls inside event data are always their code text (``"65"``, ``"55"``, ``"21"``): the
same in memory, in the event log and in a saved state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

Unit = Literal["sip", "shot", "chug", "life", "point"]


class Kind(StrEnum):
    LOBBY = "lobby"  # a table opened (made by the table service, not a move)
    JOINED = "joined"
    WAITING = "waiting"  # joined a running game; sits down next round
    SEATED = "seated"
    LEFT = "left"
    OUT = "out"
    HOST = "host"
    STARTED = "started"
    ROUND_STARTED = "round_started"
    TURN = "turn"
    ROLLED = "rolled"
    DICE = "dice"  # private: the roller's own dice
    SOCIAL = "social"  # a 3-1 as Social
    HANDOUT = "handout"  # a 3-1 that hands out a sip
    ELBOW = "elbow"  # a 3-1 as Elbow
    CLAIMED = "claimed"
    PASSED = "passed"
    ACCEPTED = "accepted"
    REVEAL = "reveal"
    FOLDED = "folded"
    PENALTY = "penalty"
    ROUND_OVER = "round_over"
    STOOD = "stood"
    ENDED_ROUND = "ended_round"
    TAPPED = "tapped"
    STUCK = "stuck"
    POT = "pot"
    KNIGHT = "knight"
    KNIGHT_CHOICE = "knight_choice"
    LIMIT = "limit"
    TIMEOUT = "timeout"
    ROLLOFF = "rolloff"
    GAME_OVER = "game_over"


class Cause(StrEnum):
    """Why a penalty was paid. Details (the rolls involved) travel in ``Penalty.detail``
    so each table can word them in its own vocabulary."""

    CAUGHT = "caught"  # detail: claim, cup
    WRONG_CALL = "wrong_call"  # detail: claim, cup
    FOLDED = "folded"  # detail: claim
    SOCIAL = "social"
    TIMER = "timer"
    HANDED_OUT = "handed_out"
    KNIGHT_ONE_ONE = "knight_11"
    KNIGHT_DOUBLE = "knight_double"  # detail: die
    ENDED_EARLY = "ended_early"
    LOWEST = "lowest"  # detail: roll (None: the last of the tied players left), mexes
    POT = "pot"  # detail: roll, pot


class Reason(StrEnum):
    """Why a player left the table, or why a round ended."""

    LEFT_LOBBY = "lobby"
    LEFT_QUEUE = "queue"
    LEFT_GAME = "game"
    NO_LIVES = "no_lives"
    TIMEOUTS = "timeouts"
    KNIGHT_LEFT = "knight_left"
    # round endings
    CALL = "call"
    FOLD = "fold"
    TIMER = "timer"
    VOID = "void"
    LOWEST = "lowest"
    END_EARLY = "end_early"


@dataclass(slots=True)
class Event:
    """Something that happened, as data for the bot to render.

    ``to`` is ``None`` for a public event, or the one player allowed to see it (a private
    reveal of one's own dice).
    """

    kind: Kind
    player: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    to: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "player": self.player, "data": self.data, "to": self.to}


@dataclass(slots=True)
class Penalty:
    """One line of the ledger: who took what, who caused it, and why."""

    player: str
    unit: Unit
    amount: int
    cause: str  # a Cause; text from before causes were codes stays as it was stored
    by: str | None
    round: int
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "unit": self.unit, "amount": self.amount,
            "cause": self.cause, "by": self.by, "round": self.round, "detail": self.detail,
        }  # fmt: skip
