"""A bot that learns, for the Mäxchen arena (docs/arena.md).

Every time dice are shown it notes whether the announcer had lied, per opponent, and
from those counts guesses how often each one bluffs (starting from 1 in 3). It sees a
claim when the announcer is likelier to be lying than its own roll is to fall short:
the more an opponent is caught, the sooner it is seen. It tells the truth when it can.

    python examples/learner.py [--host 127.0.0.1] [--port 9000] [--name learner]
"""

from __future__ import annotations

import argparse
import socket

#: The 21 rolls, lowest first: a roll's index is its rank (docs/arena-rules.md).
RANKS = [
    "31", "32", "41", "42", "43", "51", "52", "53", "54",
    "61", "62", "63", "64", "65", "11", "22", "33", "44", "55", "66", "21",
]  # fmt: skip


def rank(dice: str) -> int:
    """``"3,5"`` (either die first) as its rank."""
    high, low = sorted(dice.split(","), reverse=True)
    return RANKS.index(high + low)


def dice(claim: int) -> str:
    """A rank as the protocol writes dice: ``"6,4"``."""
    return ",".join(RANKS[claim])


def chance_to_beat(claim: int) -> float:
    """How often one roll of two dice is higher than the claim."""
    return sum(1 if r[0] == r[1] else 2 for r in RANKS[claim + 1 :]) / 36


class Learner:
    """The bot's answers, one message at a time (no sockets: easy to test)."""

    def __init__(self) -> None:
        self.claim: int | None = None  # the standing claim's rank this round
        self.announcer = ""  # who made it
        self.lies: dict[str, int] = {}  # per opponent: dice shown under a lie
        self.shown: dict[str, int] = {}  # per opponent: dice shown at all

    def bluffs(self, name: str) -> float:
        """How often ``name`` lies, as far as shown dice tell (1 in 3 to begin with)."""
        return (self.lies.get(name, 0) + 1) / (self.shown.get(name, 0) + 3)

    def hear(self, message: str) -> str | None:
        head, *fields = message.split(";")
        if head == "ROUND STARTING":
            return f"JOIN;{fields[0]}"
        if head == "ROUND STARTED":
            self.claim = None
        elif head == "ANNOUNCED":
            self.announcer, self.claim = fields[0], rank(fields[1])
        elif head == "ACTUAL DICE" and self.claim is not None:
            name = self.announcer
            self.shown[name] = self.shown.get(name, 0) + 1
            self.lies[name] = self.lies.get(name, 0) + (rank(fields[0]) < self.claim)
        elif head == "YOUR TURN":
            return f"{'SEE' if self.should_see() else 'ROLL'};{fields[0]}"
        elif head == "ROLLED":
            mine = rank(fields[0])
            if self.claim is not None and mine <= self.claim:
                mine = min(self.claim + 1, len(RANKS) - 2)  # the least lie, short of 21
            return f"ANNOUNCE;{dice(mine)};{fields[1]}"
        return None

    def should_see(self) -> bool:
        """See when the claim is likelier a lie than my roll is to fall short of it
        (and then be seen, about half the time)."""
        if self.claim is None:
            return False
        short = 1 - chance_to_beat(self.claim)
        return self.bluffs(self.announcer) > 1 - short * 0.6


def play(bot: Learner, name: str, host: str, port: int, quiet: float = 10.0) -> None:
    """Register (asking again each second until the server answers), then answer it until
    it goes quiet (no heartbeat for ``quiet`` seconds)."""
    server = (host, port)
    register = f"REGISTER;{name}".encode()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(min(1.0, quiet))
        sock.sendto(register, server)
        registered, silent = False, 0.0
        while silent < quiet:
            try:
                data, _ = sock.recvfrom(2048)
            except (TimeoutError, ConnectionRefusedError):  # not up yet, or gone
                silent += min(1.0, quiet)
                if not registered:
                    sock.sendto(register, server)
                continue
            silent = 0.0
            message = data.decode("utf-8", "replace")
            registered = registered or message == "REGISTERED"
            if message.startswith(("REJECTED", "PLAYER LOST", "SCORE")):
                print(message)
            reply = bot.hear(message)
            if reply is not None:
                sock.sendto(reply.encode(), server)
        print("the server went quiet")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--name", default="learner")
    args = parser.parse_args()
    play(Learner(), args.name, args.host, args.port)
