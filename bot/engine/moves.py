"""A move is a value: what a player does, with everything it needs, in one frozen type.

The engine lists moves whole (``Game.legal_actions``) and applies them
(``Game.apply``); buttons, slash commands, benchmarks and tests all build the same
``Move``, and a button's custom id carries its one text form (``Move.encode``), so no
caller re-derives which argument a move takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.engine.errors import IllegalMove
from bot.engine.rolls import RANK, Roll, code, from_code


class Act(StrEnum):
    """Every kind of move. The values are stable: they are stored in the event log and
    carried in button ids."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    END = "end"
    ROLL = "roll"
    ROLL_BLIND = "blind"
    CLAIM = "claim"
    PASS = "pass"
    ACCEPT = "accept"
    BULLSHIT = "bullshit"
    FOLD = "fold"
    STAND = "stand"
    KEEP = "keep"
    ENDROUND = "endround"
    TAP = "tap"
    HANDOUT = "handout"
    KNIGHT = "knight"
    TIMEOUT = "timeout"
    ADD_COMPUTER = "addbot"  # the host seats a computer player (``to``: its id)
    REMOVE_COMPUTER = "removebot"


#: Which argument each act takes: a claimed roll, a target player, or a die to keep.
CLAIMS = frozenset({Act.CLAIM, Act.PASS})
TARGETED = frozenset({Act.HANDOUT, Act.KNIGHT, Act.ADD_COMPUTER, Act.REMOVE_COMPUTER})
#: Acts only the bot itself makes (the turn timer), never a player's button or command.
BOT_ONLY = frozenset({Act.TIMEOUT})
#: Acts that act on the table rather than the round.
TABLE_ACTS = frozenset(
    {Act.JOIN, Act.LEAVE, Act.START, Act.END, Act.ADD_COMPUTER, Act.REMOVE_COMPUTER}
)

_ACTS = {act.value: act for act in Act}


@dataclass(frozen=True, slots=True)
class Move:
    act: Act
    roll: Roll | None = None  # the value of a claim or a pass
    to: str | None = None  # who gets a hand-out, or who becomes Knight
    die: int | None = None  # the die kept

    def encode(self) -> str:
        """The move as short text: ``roll``, ``claim.65``, ``handout.1234``, ``keep.2``."""
        if self.roll is not None:
            return f"{self.act.value}.{code(self.roll)}"
        if self.to is not None:
            return f"{self.act.value}.{self.to}"
        if self.die is not None:
            return f"{self.act.value}.{self.die}"
        return self.act.value

    @classmethod
    def decode(cls, text: str) -> Move:
        """Read ``encode``'s text back; anything malformed is refused as an illegal move,
        so a forged or garbled button id gets an answer, not a crash."""
        name, _, arg = text.partition(".")
        act = _ACTS.get(name)
        if act is None or len(text) > 40:
            raise IllegalMove("button-not-ours")
        if act in CLAIMS:
            if len(arg) != 2 or not arg.isdigit() or from_code_safe(arg) is None:
                raise IllegalMove("claim-not-a-roll")
            return cls(act, roll=from_code(arg))
        if act in TARGETED:
            if not (arg.isdigit() or arg.isidentifier()):
                raise IllegalMove("choice-names-no-player")
            return cls(act, to=arg)
        if act is Act.KEEP:
            if arg not in ("1", "2"):
                raise IllegalMove("keep-one-or-two")
            return cls(act, die=int(arg))
        if arg:
            raise IllegalMove("move-takes-no-value")
        return cls(act)


def from_code_safe(text: str) -> Roll | None:
    """``from_code`` for untrusted text: ``None`` unless both digits are dice."""
    if len(text) != 2 or not all(ch in "123456" for ch in text):
        return None
    roll = from_code(text)
    return roll if roll in RANK else None
