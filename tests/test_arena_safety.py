"""The arena server is safe in the open (README, Bot arena: Safe in the open): addresses
bound, rates limited, memory bounded, sleepers benched, and a fuzz of hostile datagrams
that neither crashes it nor leaves a round stuck."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.arena.server import ArenaConfig, ArenaServer
from tests.arena_helpers import Bot, arena, autoplay, join


async def test_a_registered_name_answers_only_from_its_own_address() -> None:
    async with arena(faces=[6, 6]) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        thief = await place.bot()  # same IP, another port, not registered
        play = asyncio.create_task(place.server.play_round())
        await join(ana, ben)
        token = ana.token(await ana.next("YOUR TURN"))
        thief.say(f"SEE;{token}")  # would lose ana the round
        thief.say("UNREGISTER")
        await asyncio.sleep(0.02)
        ana.say(f"ROLL;{token}")
        assert (await ana.next("ROLLED")).startswith("ROLLED;6,6;")
        assert "ana" in place.server.clients
        play.cancel()


async def test_a_flood_is_cut_to_the_rate() -> None:
    async with arena(rate=10.0, burst=5.0) as place:
        bot = await place.bot()
        for i in range(200):
            bot.say(f"ECHO;{i}")
        await asyncio.sleep(0.1)
        answered = [m for m in bot.drain() if m.startswith("ECHOING")]
        assert 5 <= len(answered) <= 8
        assert place.server.dropped >= 190


def test_rates_are_remembered_for_a_bounded_number_of_addresses() -> None:
    async def flood() -> ArenaServer:
        server = ArenaServer(ArenaConfig(max_addresses=100))
        for i in range(5000):
            server.datagram_received(b"ECHO;x", (f"10.0.{i // 256}.{i % 256}", 9))
        return server

    server = asyncio.run(flood())
    assert len(server.buckets) == 100


async def test_registrations_are_bounded_in_all_and_per_address() -> None:
    async with arena(max_clients=3, max_per_ip=2) as place:
        await place.player("a1")
        await place.player("a2")
        third = await place.bot()
        third.say("REGISTER;a3")
        assert await third.next() == "REJECTED;TOO_MANY_FROM_ADDRESS"
        place.server.config = ArenaConfig(max_clients=2, max_per_ip=99)
        third.say("REGISTER;a3")
        assert await third.next() == "REJECTED;SERVER_FULL"
        assert sorted(place.server.clients) == ["a1", "a2"]


async def test_a_bot_that_keeps_timing_out_is_benched_until_it_registers_again() -> None:
    async with arena(faces=[], window=0.03, bench_after=2) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        for _ in range(2):  # ana joins but never takes her turn: two rounds lost by it
            play = asyncio.create_task(place.server.play_round())
            await join(ana, ben)
            assert await ben.next("PLAYER LOST") == "PLAYER LOST;ana;DID_NOT_TAKE_TURN"
            await play
        assert place.server.clients["ana"].benched
        play = asyncio.create_task(place.server.play_round())
        await join(ana, ben)  # ana's JOIN is not taken: she is not invited
        assert await ben.next("ROUND STARTED") == "ROUND STARTED;3;ben"
        await play
        ana.say("REGISTER;ana")
        await ana.next("REGISTERED")
        assert not place.server.clients["ana"].benched


async def test_one_timeout_among_answered_rounds_does_not_bench() -> None:
    async with arena(faces=[], window=0.03, bench_after=2) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        for see in (False, True, False):
            play = asyncio.create_task(place.server.play_round())
            await join(ana, ben)
            if see:
                ana.say(f"SEE;{ana.token(await ana.next('YOUR TURN'))}")
            await play
        assert place.server.clients["ana"].missed == 1
        assert not place.server.clients["ana"].benched


# --- the fuzz ---------------------------------------------------------------------------

VERBS = ["REGISTER", "REGISTER_SPECTATOR", "UNREGISTER", "JOIN", "ROLL", "SEE", "ANNOUNCE", "ECHO"]
FIELD = st.text(alphabet=st.sampled_from(list("12367,;:ab \t\x00é\u200b")), max_size=24)
DATAGRAM = st.one_of(
    st.binary(max_size=700),
    st.text(max_size=80).map(str.encode),
    st.builds(lambda v, f: f"{v};{f}".encode(), st.sampled_from(VERBS), FIELD),
    st.builds(lambda v: v.encode(), st.sampled_from(VERBS)),
    st.builds(
        lambda d, t: f"ANNOUNCE;{d};{t}".encode(),
        st.sampled_from(["2,1", "6,6", "9,9", "1", ""]),
        FIELD,
    ),
)
#: Senders: the two playing bots' own addresses (filled in per run), others on their IP,
#: and strangers.
SENDERS = st.integers(0, 5)
PER_EXAMPLE = 500
EXAMPLES = 20


@pytest.mark.slow  # about 2-3 s: 10,000 datagrams through a server playing rounds
def test_fuzz_10000_datagrams_no_crash_no_round_stuck() -> None:
    sent = [0]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.lists(st.tuples(SENDERS, DATAGRAM), min_size=PER_EXAMPLE, max_size=PER_EXAMPLE))
    def run(datagrams: list[tuple[int, bytes]]) -> None:
        sent[0] += asyncio.run(fuzz(datagrams))

    run()
    assert sent[0] >= 10_000


async def fuzz(datagrams: list[tuple[int, bytes]]) -> int:
    """Send the datagrams while two bots play; then the server must still deal rounds."""
    async with arena(rng=random.Random(1), window=0.03, idle_pause=0.0) as place:
        server = place.server
        bots = [await place.player("ana"), await place.player("ben")]
        addrs = [server.clients[n].addr for n in ("ana", "ben")]
        senders = [*addrs, ("127.0.0.1", 1), ("127.0.0.1", addrs[0][1] + 1), ("10.9.8.7", 9000)]
        senders.append(("::1", 9000))
        tasks = [asyncio.create_task(autoplay(b, random.Random(i))) for i, b in enumerate(bots)]
        dealer = asyncio.create_task(server.play())
        for i, (who, data) in enumerate(datagrams):
            server.datagram_received(data, senders[who])
            if i % 25 == 0:
                await asyncio.sleep(0)
        # Whatever the fuzz unregistered or moved, the bots take their names back ...
        for name, bot in zip(("ana", "ben"), bots, strict=True):
            await reclaim(place.server, bot, name)
        # ... and a round is played to its end within its bound (22 turns, two windows each).
        before = server.rounds_played
        async with asyncio.timeout(3.0):
            while server.rounds_played < before + 1:
                await asyncio.sleep(0.01)
        dealer.cancel()
        for task in tasks:
            task.cancel()
        assert server.faults == 0
        assert len(server.asks) <= 1
        return len(datagrams)


async def reclaim(server: ArenaServer, bot: Bot, name: str) -> None:
    """Register ``bot`` under ``name`` again (its own or a fuzz-made spectator)."""
    client = server.clients.get(name)
    assert bot.transport is not None
    here = bot.transport.get_extra_info("sockname")
    if client is not None and client.addr == here and not client.spectator:
        return
    squatter = server.by_addr.get(here)
    if squatter is not None:
        bot.say("UNREGISTER")
    if client is not None and client.addr[0] != here[0]:
        server._drop(client)  # a name the fuzz took from another IP: the test frees it
    await asyncio.sleep(0.002)
    bot.say(f"REGISTER;{name}")
    await asyncio.sleep(0.002)
