"""A real arena server on 127.0.0.1 (a free port) and bots that speak to it over UDP."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any, cast

from bot.arena.protocol import dice, parse_dice
from bot.arena.server import Address, ArenaConfig, ArenaServer
from bot.engine.rolls import ORDER, RANK, Roll

#: How long a test waits for a message the server must send; far above any window used.
WAIT = 2.0


class Scripted(random.Random):
    """Dice that show the faces given, in order, and seats left in name order."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)

    def shuffle(self, x: Any) -> None:
        return None


class Bot(asyncio.DatagramProtocol):
    """A bot's socket: what it is sent queues up; ``say`` sends to the server."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[str] = asyncio.Queue()
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A datagram endpoint's transport (not a DatagramTransport subclass on Python 3.11).
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: Address) -> None:
        self.inbox.put_nowait(data.decode("utf-8"))

    def say(self, text: str | bytes) -> None:
        assert self.transport is not None
        self.transport.sendto(text.encode("utf-8") if isinstance(text, str) else text)

    async def next(self, prefix: str = "") -> str:
        """The next message starting with ``prefix``; heartbeats and others are skipped."""
        async with asyncio.timeout(WAIT):
            while True:
                text = await self.inbox.get()
                if text.startswith(prefix) and (prefix or text != "HEARTBEAT"):
                    return text

    def token(self, text: str) -> str:
        return text.rsplit(";", 1)[1]

    def drain(self) -> list[str]:
        """Everything received so far, without waiting."""
        out: list[str] = []
        while not self.inbox.empty():
            out.append(self.inbox.get_nowait())
        return out


class Arena:
    """A server bound to a free loopback port, and the bots made for it."""

    def __init__(self, server: ArenaServer, addr: Address) -> None:
        self.server = server
        self.addr = addr
        self.transports: list[asyncio.DatagramTransport] = []

    async def bot(self) -> Bot:
        loop = asyncio.get_running_loop()
        transport, bot = await loop.create_datagram_endpoint(Bot, remote_addr=self.addr)
        self.transports.append(transport)
        return bot

    async def player(self, name: str, spectator: bool = False) -> Bot:
        bot = await self.bot()
        bot.say(f"REGISTER{'_SPECTATOR' if spectator else ''};{name}")
        assert await bot.next("REGISTERED") == "REGISTERED"
        return bot


@asynccontextmanager
async def arena(
    faces: Iterable[int] = (), rng: random.Random | None = None, **config: Any
) -> AsyncIterator[Arena]:
    """A server on 127.0.0.1 with a free port; ``faces`` script its dice."""
    loop = asyncio.get_running_loop()
    server = ArenaServer(
        ArenaConfig(host="127.0.0.1", port=0, **config), rng=rng or Scripted(faces)
    )
    transport, _ = await loop.create_datagram_endpoint(lambda: server, local_addr=("127.0.0.1", 0))
    host, port = transport.get_extra_info("sockname")[:2]
    place = Arena(server, (host, port))
    try:
        yield place
    finally:
        for t in place.transports:
            t.close()
        transport.close()


async def join(*bots: Bot) -> None:
    """Every bot joins the round being gathered."""
    for bot in bots:
        bot.say(f"JOIN;{bot.token(await bot.next('ROUND STARTING'))}")


async def autoplay(bot: Bot, rng: random.Random) -> None:
    """Play every round for ``bot`` until cancelled: join, roll and tell the truth when it
    is higher, else claim one rank above; see a standing claim of 61 or more half the time."""
    last: Roll | None = None
    while True:
        head, *fields = (await bot.inbox.get()).split(";")
        if head == "ROUND STARTING":
            bot.say(f"JOIN;{fields[0]}")
        elif head == "ROUND STARTED":
            last = None
        elif head == "ANNOUNCED":
            last = parse_dice(fields[1])
        elif head == "YOUR TURN":
            see = last is not None and RANK[last] >= RANK[(6, 1)] and rng.random() < 0.5
            bot.say(f"{'SEE' if see else 'ROLL'};{fields[0]}")
        elif head == "ROLLED":
            roll = parse_dice(fields[0])
            assert roll is not None
            if last is not None and RANK[roll] <= RANK[last]:
                roll = ORDER[min(RANK[last] + 1, len(ORDER) - 1)]
            bot.say(f"ANNOUNCE;{dice(roll)};{fields[1]}")
