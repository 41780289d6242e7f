"""A threshold caller for the Mäxchen arena (docs/arena.md).

It sees every claim at or above a threshold (6-4 unless told otherwise) and rolls
against anything lower. Rolling, it announces the truth when that is high enough, and
otherwise the least claim that is (a small lie, but one a see may catch).

    python examples/threshold.py [--threshold 64] [--host 127.0.0.1] [--port 9000]
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


class Threshold:
    """The bot's answers, one message at a time (no sockets: easy to test)."""

    def __init__(self, threshold: str = "64") -> None:
        self.threshold = RANKS.index(threshold)
        self.claim: int | None = None  # the standing claim's rank this round

    def hear(self, message: str) -> str | None:
        head, *fields = message.split(";")
        if head == "ROUND STARTING":
            return f"JOIN;{fields[0]}"
        if head == "ROUND STARTED":
            self.claim = None
        elif head == "ANNOUNCED":
            self.claim = rank(fields[1])
        elif head == "YOUR TURN":
            see = self.claim is not None and self.claim >= self.threshold
            return f"{'SEE' if see else 'ROLL'};{fields[0]}"
        elif head == "ROLLED":
            mine = rank(fields[0])
            if self.claim is not None and mine <= self.claim:
                mine = min(self.claim + 1, len(RANKS) - 2)  # the least lie, short of 21
            return f"ANNOUNCE;{dice(mine)};{fields[1]}"
        return None


def play(bot: Threshold, name: str, host: str, port: int, quiet: float = 10.0) -> None:
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
    parser.add_argument("--name", default="threshold")
    parser.add_argument("--threshold", default="64", choices=RANKS)
    args = parser.parse_args()
    play(Threshold(args.threshold), args.name, args.host, args.port)
