"""The arena server: Mäxchen protocol rounds over UDP on asyncio (README, Bot arena).

One round at a time for everyone registered, dealt by the engine's arena rule set
(``bot/engine/maexchen.py``); this module keeps the clock, the tokens, the addresses and
the seals. Every datagram is hostile input: it is read by ``protocol.parse``, counted
against its address's rate, and either answered with a reason or dropped; nothing a
client sends can raise out of ``datagram_received`` or hold a round past its deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, cast

from bot.arena.protocol import Command, dice, parse, parse_dice, valid_name
from bot.engine.maexchen import Loss, Lost, MiaRound, Outcome
from bot.game.fairness import Commitment, message

log = logging.getLogger("bot.arena")

Address = tuple[str, int]


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """The server's settings (README, Bot arena: Running the server)."""

    host: str = "0.0.0.0"  # a game server listens on every interface
    port: int = 9000
    #: How long a bot has to answer a message, in seconds (the protocol's 250 ms).
    window: float = 0.25
    heartbeat: float = 2.0
    #: A player who loses this many played rounds in a row by not answering is benched.
    bench_after: int = 5
    max_clients: int = 1000
    max_per_ip: int = 50
    #: Datagrams an IP address may send per second, and in one burst.
    rate: float = 1000.0
    burst: float = 2000.0
    #: Addresses whose rates are remembered at once; the oldest is forgotten beyond it.
    max_addresses: int = 10_000
    #: Seconds between rounds, and after a round nobody (or one player) joined.
    pause: float = 0.0
    idle_pause: float = 1.0


@dataclass(slots=True)
class Client:
    """A registered player or spectator, bound to the address it registered from."""

    name: str
    addr: Address
    spectator: bool
    points: int = 0
    #: Played rounds in a row lost by not answering in time.
    missed: int = 0
    benched: bool = False
    #: A house player's answers (bot/arena/house.py): it is sent nothing over UDP.
    local: Callable[[str], str | None] | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Seal:
    """One roll of a round: who rolled, and its commitment (dice, salt, digest)."""

    player: str
    commitment: Commitment


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round, for the ladder: its number, seats in order, and its loss."""

    number: int
    seats: tuple[str, ...]
    lost: Lost
    seals: tuple[Seal, ...] = ()

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if p not in self.lost.players)


class Recorder(Protocol):
    """Where rounds are scored for good (the ladder, bot/arena/ladder.py)."""

    async def last_round(self) -> int:
        """The last round number stored; the server numbers on from it."""
        ...

    async def record(self, result: RoundResult) -> Mapping[str, int]:
        """Store a round; each seat's points after it."""
        ...


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


@dataclass(slots=True)
class _Joining:
    """A round's invitation: its token, who was invited, who joined, and whether all did."""

    token: str
    invited: frozenset[str]
    joined: set[str] = field(default_factory=set)
    everyone: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(slots=True)
class _Ask:
    """A message waiting for its answer: the token it carries, and where the answer goes."""

    token: str
    answer: asyncio.Future[Command] = field(repr=False)


#: The answers a turn takes (anything else with the turn's token is INVALID_TURN).
TURN_VERBS = frozenset({"ROLL", "SEE"})


class ArenaServer(asyncio.DatagramProtocol):
    """The server: a datagram protocol that answers registrations, and ``play`` that
    deals rounds until cancelled."""

    def __init__(
        self,
        config: ArenaConfig | None = None,
        rng: random.Random | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.config = config or ArenaConfig()
        # Dice and seating from the operating system's cryptographic source (README, Bot
        # arena: Fair dice); tests pass a seeded one.
        self.rng = rng or secrets.SystemRandom()
        self.recorder = recorder
        self.transport: asyncio.DatagramTransport | None = None
        self.clients: dict[str, Client] = {}
        self.by_addr: dict[Address, Client] = {}
        self.per_ip: dict[str, int] = {}
        self.buckets: dict[str, _Bucket] = {}
        self.asks: dict[str, _Ask] = {}
        #: Set when a player registers, so an idle server deals at once.
        self.arrived = asyncio.Event()
        self.joining: _Joining | None = None
        self.round_no = 0
        self.rounds_played = 0
        #: Datagrams dropped unread (over the rate, or no command), and any that raised.
        self.dropped = 0
        self.faults = 0
        #: Rounds the recorder could not store: played, but scored for nobody.
        self.unstored = 0

    # --- the socket -------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A datagram endpoint's transport (not a DatagramTransport subclass on Python 3.11).
        self.transport = cast(asyncio.DatagramTransport, transport)

    def datagram_received(self, data: bytes, addr: Address) -> None:
        try:
            if not self._allow(addr[0]):
                self.dropped += 1
                return
            command = parse(data)
            if command is None:
                self.dropped += 1
                return
            self._handle(command, (addr[0], addr[1]))
        except Exception as exc:  # one bad datagram must never stop the server
            self.faults += 1
            log.error("arena: a datagram from %s was dropped: %r", addr[0], exc)

    def error_received(self, exc: Exception) -> None:
        log.debug("arena: socket error %s", exc)

    def send(self, addr: Address, text: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.sendto(text.encode("utf-8"), addr)

    def deliver(self, client: Client, text: str) -> None:
        """A message to one client: over UDP, or to a house player in this process."""
        if client.local is None:
            self.send(client.addr, text)
        else:
            asyncio.get_running_loop().call_soon(self._house_answer, client, text)

    def broadcast(self, text: str) -> None:
        for client in self.clients.values():
            self.deliver(client, text)

    def to_spectators(self, text: str) -> None:
        for client in self.clients.values():
            if client.spectator:
                self.deliver(client, text)

    def seat_house(self, name: str, answer: Callable[[str], str | None]) -> None:
        """Register a house player: its name is held for it (from no IP address)."""
        client = Client(name, ("house", len(self.clients)), spectator=False, local=answer)
        self.clients[name] = client
        self.by_addr[client.addr] = client

    def _house_answer(self, client: Client, text: str) -> None:
        """A house player's answer, taken as any bot's; one that took longer than the
        window to think is dropped, as a late datagram would be."""
        assert client.local is not None
        began = asyncio.get_running_loop().time()
        answer = client.local(text)
        if answer is None or asyncio.get_running_loop().time() - began > self.config.window:
            return
        command = parse(answer.encode("utf-8"))
        if command is not None and self.clients.get(client.name) is client:
            self._handle(command, client.addr)

    # --- datagrams ----------------------------------------------------------------------
    def _allow(self, ip: str) -> bool:
        """A token bucket per IP address, at most ``max_addresses`` remembered."""
        now = asyncio.get_running_loop().time()
        bucket = self.buckets.get(ip)
        if bucket is None:
            if len(self.buckets) >= self.config.max_addresses:
                del self.buckets[next(iter(self.buckets))]
            bucket = self.buckets[ip] = _Bucket(self.config.burst, now)
        bucket.tokens = min(self.config.burst, bucket.tokens + (now - bucket.at) * self.config.rate)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def _handle(self, command: Command, addr: Address) -> None:
        verb = command.verb
        if verb == "ECHO":
            self.send(addr, f"ECHOING;{command.fields[0]}")
        elif verb in ("REGISTER", "REGISTER_SPECTATOR"):
            self._register(command.fields[0], addr, spectator=verb == "REGISTER_SPECTATOR")
        else:
            client = self.by_addr.get(addr)
            if client is None:
                return  # not registered from here: nothing to answer
            if verb == "UNREGISTER":
                self._drop(client)
                self.send(addr, "UNREGISTERED")
            elif verb == "JOIN":
                self._join(client, command.fields[0])
            else:
                ask = self.asks.get(client.name)
                if ask is not None and ask.token == command.token and not ask.answer.done():
                    ask.answer.set_result(command)

    def _register(self, name: str, addr: Address, spectator: bool) -> None:
        reason = self._refusal(name, addr)
        if reason is not None:
            self.send(addr, f"REJECTED;{reason}")
            return
        old = self.clients.get(name)
        if old is not None:  # the same name again from the same IP: it moves here
            del self.by_addr[old.addr]
            old.addr, old.spectator, old.benched, old.missed = addr, spectator, False, 0
            self.by_addr[addr] = old
        else:
            client = Client(name, addr, spectator)
            self.clients[name] = client
            self.by_addr[addr] = client
            self.per_ip[addr[0]] = self.per_ip.get(addr[0], 0) + 1
        self.send(addr, "REGISTERED")
        if not spectator:
            self.arrived.set()

    def _refusal(self, name: str, addr: Address) -> str | None:
        """Why a registration is refused, or None (README, Bot arena: Registering)."""
        if not valid_name(name):
            return "INVALID_NAME"
        old = self.clients.get(name)
        if old is not None:
            if old.addr[0] != addr[0]:
                return "NAME_ALREADY_TAKEN"
            here = self.by_addr.get(addr)
            return None if here is None or here is old else "ADDRESS_ALREADY_REGISTERED"
        if addr in self.by_addr:
            return "ADDRESS_ALREADY_REGISTERED"
        if len(self.clients) >= self.config.max_clients:
            return "SERVER_FULL"
        if self.per_ip.get(addr[0], 0) >= self.config.max_per_ip:
            return "TOO_MANY_FROM_ADDRESS"
        return None

    def _drop(self, client: Client) -> None:
        del self.clients[client.name]
        del self.by_addr[client.addr]
        left = self.per_ip.get(client.addr[0], 1) - 1
        if left > 0:
            self.per_ip[client.addr[0]] = left
        else:
            self.per_ip.pop(client.addr[0], None)

    def _join(self, client: Client, token: str) -> None:
        joining = self.joining
        if joining is None or token != joining.token or client.name not in joining.invited:
            return
        joining.joined.add(client.name)
        if len(joining.joined) == len(joining.invited):
            joining.everyone.set()

    # --- rounds -------------------------------------------------------------------------
    async def play(self, rounds: int | None = None) -> None:
        """Deal rounds one after another (``rounds`` of them, or until cancelled)."""
        if self.recorder is not None:
            self.round_no = max(self.round_no, await self.recorder.last_round())
        heart = asyncio.create_task(self._heartbeat())
        try:
            while rounds is None or self.rounds_played < rounds:
                self.arrived.clear()
                played = await self.play_round()
                if played:
                    await asyncio.sleep(self.config.pause)
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.arrived.wait(), self.config.idle_pause)
        finally:
            heart.cancel()

    async def _heartbeat(self) -> None:
        while True:
            self.broadcast("HEARTBEAT")
            await asyncio.sleep(self.config.heartbeat)

    async def play_round(self) -> RoundResult | None:
        """One round: invite, seat, play to the first loss, score, publish the seals."""
        seats = await self._gather()
        if len(seats) < 2:
            if seats:
                self.round_no += 1
                self.broadcast(f"ROUND STARTED;{self.round_no};{seats[0]}")
                self.broadcast("ROUND CANCELED;ONLY_ONE_PLAYER")
            else:
                self.broadcast("ROUND CANCELED;NO_PLAYERS")
            return None
        self.round_no += 1
        self.broadcast(f"ROUND STARTED;{self.round_no};{','.join(seats)}")
        game = MiaRound(seats)
        seals: list[Seal] = []
        lost: Lost | None = None
        while lost is None:
            outcome = await self._turn(game, seals)
            if outcome.shown is not None:
                self.broadcast(f"ACTUAL DICE;{dice(outcome.shown)}")
            lost = outcome.lost
        result = RoundResult(self.round_no, game.seats, lost, tuple(seals))
        stored = await self._store(result)  # stored before anyone is told (docs/arena.md)
        self.broadcast(f"PLAYER LOST;{','.join(lost.players)};{lost.reason}")
        self._score(result, stored)
        self.rounds_played += 1
        return result

    async def _store(self, result: RoundResult) -> Mapping[str, int] | None:
        """The seats' points as stored after the round; None without a recorder, and
        none when storing failed (the round then scores for nobody)."""
        if self.recorder is None:
            return None
        try:
            return await self.recorder.record(result)
        except Exception as exc:  # the database down: play on, count nothing
            self.unstored += 1
            log.error("arena: round %s not stored: %s", result.number, type(exc).__name__)
            return {}

    async def _gather(self) -> list[str]:
        """Invite everyone registered to the round; the players who join in time, shuffled."""
        invited = frozenset(
            c.name for c in self.clients.values() if not c.spectator and not c.benched
        )
        joining = self.joining = _Joining(secrets.token_hex(8), invited)
        self.broadcast(f"ROUND STARTING;{joining.token}")
        try:
            if invited:
                await asyncio.wait_for(joining.everyone.wait(), self.config.window)
        except TimeoutError:
            pass
        finally:
            self.joining = None
        seats = sorted(name for name in joining.joined if name in self.clients)
        self.rng.shuffle(seats)
        return seats

    async def _turn(self, game: MiaRound, seals: list[Seal]) -> Outcome:
        """The player to move: roll and announce, or see (README, Arena rules)."""
        player = game.to_move
        answer = await self._ask(player, "YOUR TURN")
        if answer is None:
            return game.fault(Loss.DID_NOT_TAKE_TURN)
        if answer.verb not in TURN_VERBS:
            return game.fault(Loss.INVALID_TURN)
        if answer.verb == "SEE":
            self.broadcast(f"PLAYER WANTS TO SEE;{player}")
            return game.see()
        self.broadcast(f"PLAYER ROLLS;{player}")
        rolled = game.roll(self.rng)
        seal = Commitment.seal(rolled)
        seals.append(Seal(player, seal))
        self.to_spectators(f"SEALED;{player};{seal.digest}")
        answer = await self._ask(player, "ROLLED", dice(rolled))
        if answer is None:
            return game.fault(Loss.DID_NOT_ANNOUNCE)
        claim = parse_dice(answer.fields[0]) if answer.verb == "ANNOUNCE" else None
        if claim is None:
            return game.fault(Loss.INVALID_TURN)
        self.broadcast(f"ANNOUNCED;{player};{dice(claim)}")
        return game.announce(claim)

    async def _ask(self, player: str, head: str, *parts: str) -> Command | None:
        """Send ``player`` a message with a fresh token; its answer with that token, or
        None when none came within the window (a wrong token is no answer)."""
        client = self.clients.get(player)
        if client is None:  # unregistered mid-round: a player who does not answer
            return None
        token = secrets.token_hex(8)
        ask = _Ask(token, asyncio.get_running_loop().create_future())
        self.asks[player] = ask
        self.deliver(client, ";".join((head, *parts, token)))
        try:
            return await asyncio.wait_for(ask.answer, self.config.window)
        except TimeoutError:
            return None
        finally:
            self.asks.pop(player, None)

    def _score(self, result: RoundResult, stored: Mapping[str, int] | None) -> None:
        """A point for every player who did not lose (as stored, with a recorder); the
        timeouts that bench a bot; the seals of the round to the spectators."""
        timed_out = result.lost.reason in (Loss.DID_NOT_TAKE_TURN, Loss.DID_NOT_ANNOUNCE)
        for name in result.seats:
            client = self.clients.get(name)
            if client is None:
                continue
            if stored is not None:
                client.points = stored.get(name, client.points)
            elif name in result.winners:
                client.points += 1
            if timed_out and name in result.lost.players:
                client.missed += 1
                client.benched = client.missed >= self.config.bench_after
            else:
                client.missed = 0
        scores = (
            f"{c.name}:{c.points}" for n in result.seats if (c := self.clients.get(n)) is not None
        )
        self.broadcast(f"SCORE;{','.join(scores)}")
        for seal in result.seals:
            cup = seal.commitment
            shown = message(cup.dice, cup.salt)
            self.to_spectators(f"SEAL;{result.number};{seal.player};{shown};{cup.digest}")
