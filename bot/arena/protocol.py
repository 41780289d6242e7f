"""The Mäxchen protocol's words: reading a datagram and writing the server's messages
(README, Bot arena: The protocol). Pure: no sockets, no clock.

Everything a datagram says is hostile input, so reading never raises: a datagram that is
too long, not UTF-8, or not one of the commands with its fields reads as ``None``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.rolls import Roll, make_roll

#: The longest datagram read; the longest valid command (``ANNOUNCE;d,d;token``) is far
#: shorter, and ``ECHO`` texts longer than this are not echoed.
MAX_DATAGRAM = 512
#: A name as the protocol allows it: up to 20 characters, no whitespace, colon,
#: semicolon or comma; control and other invisible characters are refused too.
_NAME = re.compile(r"[^\s:;,]{1,20}")

#: The commands a client sends, and how many ``;`` fields follow each (None: the rest of
#: the datagram is one field, so a name with a ``;`` in it is refused as a name).
ARITY: dict[str, int | None] = {
    "REGISTER": None,
    "REGISTER_SPECTATOR": None,
    "UNREGISTER": 0,
    "JOIN": 1,
    "ROLL": 1,
    "SEE": 1,
    "ANNOUNCE": 2,
    "ECHO": None,
}
#: The commands that answer the server and end in the token it sent.
TOKENED = frozenset({"JOIN", "ROLL", "SEE", "ANNOUNCE"})


@dataclass(frozen=True, slots=True)
class Command:
    """One datagram read: its verb and fields (the token, when it has one, last)."""

    verb: str
    fields: tuple[str, ...]

    @property
    def token(self) -> str | None:
        return self.fields[-1] if self.verb in TOKENED else None


def valid_name(name: str) -> bool:
    """Whether a name may register (README, Bot arena: Registering)."""
    return _NAME.fullmatch(name) is not None and name.isprintable()


def parse(data: bytes) -> Command | None:
    """A datagram as a command, or None when it is none the protocol knows."""
    if len(data) > MAX_DATAGRAM:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.rstrip("\r\n")
    verb, _, rest = text.partition(";")
    if verb not in ARITY:
        return None
    arity = ARITY[verb]
    if arity is None:
        return Command(verb, (rest,))
    fields = tuple(rest.split(";")) if rest or arity else ()
    if len(fields) != arity or (arity and not all(fields)):
        return None
    return Command(verb, fields)


def parse_dice(text: str) -> Roll | None:
    """``"d1,d2"`` (either die first) as a roll, or None."""
    a, sep, b = text.partition(",")
    if not sep or len(a) != 1 or len(b) != 1 or a not in "123456" or b not in "123456":
        return None
    return make_roll(int(a), int(b))


def dice(roll: Roll) -> str:
    """A roll as the protocol writes it, high die first: ``"6,5"``, ``"2,1"``."""
    return f"{roll[0]},{roll[1]}"
