"""A truthful bot for the Mäxchen arena: it never lies (docs/arena.md).

It rolls and announces exactly what it rolled, so a see never catches it; when its dice
are not higher than the standing claim it says so anyway and loses the round. It sees a
claim when a roll of its own would beat it less than half the time.

    python examples/truthful.py [--host 127.0.0.1] [--port 9000] [--name truthful]
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


def chance_to_beat(claim: int) -> float:
    """How often one roll of two dice is higher than the claim."""
    return sum(1 if r[0] == r[1] else 2 for r in RANKS[claim + 1 :]) / 36


class Truthful:
    """The bot's answers, one message at a time (no sockets: easy to test)."""

    def __init__(self) -> None:
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
            see = self.claim is not None and chance_to_beat(self.claim) < 0.5
            return f"{'SEE' if see else 'ROLL'};{fields[0]}"
        elif head == "ROLLED":
            return f"ANNOUNCE;{fields[0]};{fields[1]}"  # the truth, always
        return None


def play(bot: Truthful, name: str, host: str, port: int, quiet: float = 10.0) -> None:
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
    parser.add_argument("--name", default="truthful")
    args = parser.parse_args()
    play(Truthful(), args.name, args.host, args.port)
