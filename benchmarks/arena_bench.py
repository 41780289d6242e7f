"""The bot arena's figures (README, Benchmarks: The bot arena): Expert Ada against the
example bots, and how many rounds a second the server deals.

Not ``benchmarks/ai_arena.py``, which plays the Discord table's rule sets in the engine
alone: this one runs the arena's own server (``bot.arena.server.ArenaServer``) dealing the
arena's rules, with Ada as the arena seats her (``bot.arena.house``).

``python -m benchmarks.arena_bench ada [--rounds 10000]``: Ada heads-up against each
opponent, then at tables of 3 to 6 (Ada and copies of one opponent), ``--rounds`` rounds a
pairing. The opponents are the examples in ``examples/`` (truthful, threshold callers at
6-4 and at 5-5, the learner) and two more written here, random and always lying. Shortcut,
said so: every player answers in-process through the server's house-player path (the same
tokens, the same answer window, the same engine), not over UDP, so that 10,000 rounds
take seconds, not minutes; the throughput run below is over UDP.

``python -m benchmarks.arena_bench throughput [--seconds 10]``: the server on 127.0.0.1
with ten players, as the arena runs: the four house players in the server's process, and
six example bots (two of each) in a second process, each on its own UDP socket; it reports
rounds a second, the server's CPU per round, and how many rounds a bot lost by answering
too late (none may: the 250 ms window is kept for every bot).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib.util
import math
import multiprocessing
import random
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.arena.house import HOUSE_NAMES, HousePlayer, house
from bot.arena.server import ArenaConfig, ArenaServer
from bot.engine.maexchen import Loss
from bot.engine.rolls import ORDER, RANK

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
Answer = Callable[[str], str | None]


def example(name: str) -> ModuleType:
    """One of the example bots, loaded from its file as its author runs it."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rank(text: str) -> int:
    a, b = (int(x) for x in text.split(","))
    return RANK[(max(a, b), min(a, b))]


def _dice(rank: int) -> str:
    return f"{ORDER[rank][0]},{ORDER[rank][1]}"


class RandomBot:
    """Rolls or sees at random (once there is a claim), announces any legal claim."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.claim = rng, -1

    def hear(self, text: str) -> str | None:
        head, *fields = text.split(";")
        if head == "ROUND STARTING":
            return f"JOIN;{fields[0]}"
        if head == "ROUND STARTED":
            self.claim = -1
        elif head == "ANNOUNCED":
            self.claim = _rank(fields[1])
        elif head == "YOUR TURN":
            see = self.claim >= 0 and self.rng.random() < 0.5
            return f"{'SEE' if see else 'ROLL'};{fields[0]}"
        elif head == "ROLLED":
            return f"ANNOUNCE;{_dice(self.rng.randint(min(self.claim + 1, 20), 20))};{fields[1]}"
        return None


class LiarBot:
    """Never announces its dice: always a claim above the standing one that it did not
    roll (21 only when nothing else is left); never sees."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.claim = rng, -1

    def hear(self, text: str) -> str | None:
        head, *fields = text.split(";")
        if head == "ROUND STARTING":
            return f"JOIN;{fields[0]}"
        if head == "ROUND STARTED":
            self.claim = -1
        elif head == "ANNOUNCED":
            self.claim = _rank(fields[1])
        elif head == "YOUR TURN":
            return f"ROLL;{fields[0]}"
        elif head == "ROLLED":
            mine = _rank(fields[0])
            choices = [r for r in range(self.claim + 1, 20) if r != mine] or [20]
            return f"ANNOUNCE;{_dice(self.rng.choice(choices[:3]))};{fields[1]}"
        return None


def opponents() -> dict[str, Callable[[random.Random], Any]]:
    """Each opponent's maker, by name."""
    truthful, threshold, learner = example("truthful"), example("threshold"), example("learner")
    return {
        "truthful": lambda rng: truthful.Truthful(),
        "threshold-64": lambda rng: threshold.Threshold("64"),
        "threshold-55": lambda rng: threshold.Threshold("55"),
        "learner": lambda rng: learner.Learner(),
        "random": RandomBot,
        "liar": LiarBot,
    }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """A 95 % interval for a rate of k in n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


async def pairing(
    make: Callable[[random.Random], Any], seats: int, rounds: int, seed: int
) -> tuple[int, int, int, int]:
    """Ada and ``seats - 1`` copies of one opponent for ``rounds`` rounds: (rounds Ada
    lost, all seats' losses, rounds played, rounds lost by an answer over the window)."""
    rng = random.Random(seed)
    server = ArenaServer(ArenaConfig(), rng=random.Random(seed + 1))
    ada = HousePlayer(house(["expert"])[0].persona, random.Random(seed + 2))
    server.seat_house("ExpertAda", ada.hear)
    for i in range(seats - 1):
        server.seat_house(f"opp{i}", make(random.Random(rng.random())).hear)
    lost = losses = played = late = 0
    while played < rounds:
        result = await server.play_round()
        if result is None:
            continue
        played += 1
        losses += len(result.lost.players)
        lost += "ExpertAda" in result.lost.players
        # On a busy machine a player can be descheduled past the window: counted, shown.
        late += result.lost.reason in (Loss.DID_NOT_TAKE_TURN, Loss.DID_NOT_ANNOUNCE)
    return lost, losses, played, late


def ada(rounds: int, only: list[str]) -> None:
    print(f"Expert Ada (as the arena seats her) against the example bots, {rounds} rounds")
    print(
        f"{'opponent':<14} {'seats':>5} {'Ada lost':>9} {'95% interval':>16} {'vs even':>8}"
        f" {'late':>5}"
    )
    for name, make in opponents().items():
        if only and name not in only:
            continue
        for seats in (2, 3, 4, 5, 6):
            lost, losses, played, late = asyncio.run(pairing(make, seats, rounds, seed=seats))
            low, high = wilson(lost, played)
            even = losses / (played * seats)  # each seat's share, were all equal
            print(
                f"{name:<14} {seats:>5} {lost / played:>9.1%} "
                f"{f'{low:.1%}-{high:.1%}':>16} {lost / played / even:>7.2f}x {late:>5}",
                flush=True,
            )


# --- throughput over UDP ------------------------------------------------------------------


def _bots_process(port: int, ready: Any) -> None:
    """Six example bots, each on its own UDP socket, in one process of their own."""

    async def run() -> None:
        loop = asyncio.get_running_loop()
        makers = opponents()
        bots = [
            makers[n](random.Random(i))
            for i, n in enumerate(["truthful", "threshold-64", "learner"] * 2)
        ]

        class Socket(asyncio.DatagramProtocol):
            def __init__(self, bot: Any) -> None:
                self.bot = bot

            def connection_made(self, transport: Any) -> None:
                self.transport = transport

            def datagram_received(self, data: bytes, addr: Any) -> None:
                reply = self.bot.hear(data.decode())
                if reply is not None:
                    self.transport.sendto(reply.encode())

        for i, bot in enumerate(bots):
            transport, _ = await loop.create_datagram_endpoint(
                functools.partial(Socket, bot), remote_addr=("127.0.0.1", port)
            )
            transport.sendto(f"REGISTER;bot{i}".encode())
        ready.set()
        await asyncio.sleep(3600)

    asyncio.run(run())


def throughput(seconds: float) -> None:
    async def run() -> None:
        loop = asyncio.get_running_loop()
        server = ArenaServer(ArenaConfig(host="127.0.0.1", port=0))
        for player in house(list(HOUSE_NAMES)):
            server.seat_house(player.name, player.hear)
        transport, _ = await loop.create_datagram_endpoint(
            lambda: server, local_addr=("127.0.0.1", 0)
        )
        port = transport.get_extra_info("sockname")[1]
        ready = multiprocessing.Event()
        bots = multiprocessing.Process(target=_bots_process, args=(port, ready), daemon=True)
        bots.start()
        await asyncio.to_thread(ready.wait, 10)
        while len(server.clients) < 10:
            await asyncio.sleep(0.01)
        late: dict[str, int] = {}
        began, cpu = time.perf_counter(), time.process_time()
        played = 0
        while time.perf_counter() - began < seconds:
            result = await server.play_round()
            if result is None:
                continue
            played += 1
            if result.lost.reason in (Loss.DID_NOT_TAKE_TURN, Loss.DID_NOT_ANNOUNCE):
                for name in result.lost.players:
                    late[name] = late.get(name, 0) + 1
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        bots.terminate()
        transport.close()
        seated = sum(len(r) for r in [server.clients]) - 0
        print(f"10 players ({seated} registered), {played} rounds in {wall:.1f} s")
        print(
            f"{played / wall:.0f} rounds a second; server CPU {cpu / played * 1e3:.2f} ms a round"
        )
        print(f"rounds lost by answering late: {sum(late.values())} {late or ''}")

    asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.arena_bench", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="what", required=True)
    a = sub.add_parser("ada", help="Expert Ada against the example bots")
    a.add_argument("--rounds", type=int, default=10_000)
    a.add_argument("--only", default="", help="opponents to play, comma-separated (all)")
    t = sub.add_parser("throughput", help="rounds a second with 10 players over UDP")
    t.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    if args.what == "ada":
        ada(args.rounds, [n for n in args.only.split(",") if n])
    else:
        throughput(args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
