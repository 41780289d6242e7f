"""The arena server speaks the Mäxchen protocol (README, Bot arena: The protocol): a test
per message and per loss reason, over real UDP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import hashlib
import random
import socket

import pytest

import bot.__main__ as bot_main
from bot.arena.cli import main as arena_main
from bot.arena.protocol import parse, parse_dice, valid_name
from bot.arena.server import ArenaServer
from tests.arena_helpers import Bot, arena, autoplay, join


async def turn(bot: Bot, command: str) -> None:
    """Answer the bot's next turn with ``command`` and the turn's token."""
    bot.say(f"{command};{bot.token(await bot.next('YOUR TURN'))}")


async def announce(bot: Bot, dice: str) -> str:
    """Answer the bot's roll with an announcement; the ROLLED message it answered."""
    rolled = await bot.next("ROLLED")
    bot.say(f"ANNOUNCE;{dice};{bot.token(rolled)}")
    return rolled


# --- reading datagrams ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["ada", "Bot_9", "ü-bot", "x" * 20, "a.b-c"], ids=lambda n: n[:8])
def test_valid_names(name: str) -> None:
    assert valid_name(name)


@pytest.mark.parametrize(
    "name", ["", "a b", "a\tb", "a:b", "a;b", "a,b", "x" * 21, "a\x00b", "a\u200bb"]
)
def test_invalid_names(name: str) -> None:
    assert not valid_name(name)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"ROLL",
        b"ROLL;",
        b"JOIN;a;b",
        b"ANNOUNCE;3,1",
        b"UNREGISTER;x",
        b"\xff\xfe",
        b"HELLO;x",
        b"x" * 600,
    ],
)
def test_malformed_datagrams_read_as_nothing(data: bytes) -> None:
    assert parse(data) is None


def test_dice_read_either_way_round_and_nothing_else() -> None:
    assert parse_dice("1,2") == (2, 1) == parse_dice("2,1")
    for bad in ("7,1", "0,1", "31", "3,1,1", "", ",", "a,b", "3 ,1"):
        assert parse_dice(bad) is None


# --- registering ----------------------------------------------------------------------


async def test_register_and_unregister() -> None:
    async with arena() as place:
        bot = await place.player("ana")
        assert "ana" in place.server.clients
        bot.say("UNREGISTER")
        assert await bot.next("UNREGISTERED") == "UNREGISTERED"
        assert "ana" not in place.server.clients


@pytest.mark.parametrize("name", ["a b", "a:b", "a;b", "a,b", "x" * 21, ""])
async def test_an_invalid_name_is_rejected_with_a_reason(name: str) -> None:
    async with arena() as place:
        bot = await place.bot()
        bot.say(f"REGISTER;{name}")
        assert await bot.next() == "REJECTED;INVALID_NAME"
        assert place.server.clients == {}


async def test_a_name_taken_from_another_ip_is_rejected() -> None:
    async with arena() as place:
        await place.player("ana")
        loop = asyncio.get_running_loop()
        transport, other = await loop.create_datagram_endpoint(
            Bot, local_addr=("127.0.0.2", 0), remote_addr=place.addr
        )
        place.transports.append(transport)
        other.say("REGISTER;ana")
        assert await other.next() == "REJECTED;NAME_ALREADY_TAKEN"
        assert place.server.clients["ana"].addr[0] == "127.0.0.1"


async def test_the_same_ip_may_register_again_from_a_new_port() -> None:
    async with arena() as place:
        old = await place.player("ana")
        new = await place.player("ana")
        assert place.server.clients["ana"].addr == new.transport.get_extra_info("sockname")  # type: ignore[union-attr]
        old.say("UNREGISTER")  # the old port speaks for nobody now
        new.say("ECHO;still here")
        assert await new.next("ECHOING") == "ECHOING;still here"
        assert "ana" in place.server.clients


async def test_one_address_holds_one_name() -> None:
    async with arena() as place:
        bot = await place.player("ana")
        bot.say("REGISTER;ben")
        assert await bot.next("REJECTED") == "REJECTED;ADDRESS_ALREADY_REGISTERED"


async def test_echo() -> None:
    async with arena() as place:
        bot = await place.bot()
        bot.say("ECHO;hello;world")
        assert await bot.next() == "ECHOING;hello;world"


async def test_heartbeat_and_no_players() -> None:
    async with arena(heartbeat=0.05, idle_pause=0.05) as place:
        watcher = await place.player("eve", spectator=True)
        play = asyncio.create_task(place.server.play())
        try:
            assert await watcher.next("HEARTBEAT") == "HEARTBEAT"
            assert await watcher.next("ROUND CANCELED") == "ROUND CANCELED;NO_PLAYERS"
            assert await watcher.next("HEARTBEAT") == "HEARTBEAT"
        finally:
            play.cancel()


async def test_a_lone_player_starts_and_cancels() -> None:
    async with arena() as place:
        ana = await place.player("ana")
        play = asyncio.create_task(place.server.play_round())
        await join(ana)
        assert await ana.next("ROUND STARTED") == "ROUND STARTED;1;ana"
        assert await ana.next("ROUND CANCELED") == "ROUND CANCELED;ONLY_ONE_PLAYER"
        assert await play is None


async def test_only_those_who_join_are_seated() -> None:
    async with arena(faces=[3, 1]) as place:
        ana, ben, cas = [await place.player(n) for n in ("ana", "ben", "cas")]
        play = asyncio.create_task(place.server.play_round())
        await join(ana, cas)
        assert await ben.next("ROUND STARTED") == "ROUND STARTED;1;ana,cas"
        await turn(ana, "SEE")
        result = await play
        assert result is not None and result.seats == ("ana", "cas")


# --- a round, message by message ------------------------------------------------------


async def test_a_round_message_by_message_with_its_seals() -> None:
    async with arena(faces=[3, 2]) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        eve = await place.player("eve", spectator=True)
        play = asyncio.create_task(place.server.play_round())
        await join(ana, ben)
        assert await eve.next("ROUND STARTING") != ""
        assert await eve.next("ROUND STARTED") == "ROUND STARTED;1;ana,ben"
        await turn(ana, "ROLL")
        assert await ben.next("PLAYER ROLLS") == "PLAYER ROLLS;ana"
        rolled = await announce(ana, "5,5")
        assert rolled.startswith("ROLLED;3,2;")
        sealed = await eve.next("SEALED")
        assert await ben.next("ANNOUNCED") == "ANNOUNCED;ana;5,5"
        await turn(ben, "SEE")
        for bot in (ana, ben, eve):
            assert await bot.next("PLAYER WANTS TO SEE") == "PLAYER WANTS TO SEE;ben"
            assert await bot.next("ACTUAL DICE") == "ACTUAL DICE;3,2"
            assert await bot.next("PLAYER LOST") == "PLAYER LOST;ana;CAUGHT_BLUFFING"
            assert await bot.next("SCORE") == "SCORE;ana:0,ben:1"
        await play
        # Nobody but the roller is told the dice before they are lifted.
        assert not any(m.startswith("ROLLED") for m in ben.drain() + eve.drain())
        # The seal, published before the claim, checks out against the dice shown.
        seal = await eve.next("SEAL;")
        _, number, player, text, digest = seal.split(";")
        assert (number, player, text[:4]) == ("1", "ana", "3-2:")
        assert hashlib.sha256(text.encode()).hexdigest() == digest == sealed.split(";")[2]


async def test_a_wrong_token_is_ignored() -> None:
    async with arena(faces=[4, 1]) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        play = asyncio.create_task(place.server.play_round())
        await join(ana, ben)
        token = ana.token(await ana.next("YOUR TURN"))
        ana.say("SEE;not-the-token")
        ana.say(f"ROLL;{token}")
        rolled = await ana.next("ROLLED")
        ana.say(f"ANNOUNCE;4,1;{token}")  # the turn's token, not the roll's
        ana.say(f"ANNOUNCE;4,1;{ana.token(rolled)}")
        assert await ben.next("ANNOUNCED") == "ANNOUNCED;ana;4,1"
        await turn(ben, "SEE")
        assert await ben.next("PLAYER LOST") == "PLAYER LOST;ben;SEE_FAILED"
        await play


async def test_every_message_has_a_fresh_token() -> None:
    async with arena(faces=[4, 1, 5, 1]) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        play = asyncio.create_task(place.server.play_round())
        starting = await ana.next("ROUND STARTING")
        await join(ben)
        ana.say(f"JOIN;{ana.token(starting)}")
        seen = [ana.token(starting)]
        for bot, dice in ((ana, "4,1"), (ben, "5,1")):
            turn_msg = await bot.next("YOUR TURN")
            bot.say(f"ROLL;{bot.token(turn_msg)}")
            rolled = await announce(bot, dice)
            seen += [bot.token(turn_msg), bot.token(rolled)]
        await turn(ana, "SEE")
        await play
        assert len(set(seen)) == len(seen) == 5


# --- every loss reason ----------------------------------------------------------------

#: Each script: dice faces, then the moves in turn order (``"!text"`` is raw text sent
#: with the message's token), then the messages that end it.
LOSSES: dict[str, tuple[list[int], list[str], list[str | None]]] = {
    "SEE_BEFORE_FIRST_ROLL": ([], ["SEE"], [None, "PLAYER LOST;ana;SEE_BEFORE_FIRST_ROLL"]),
    "LIED_ABOUT_MIA": (
        [6, 6],
        ["ROLL", "2,1"],
        ["ACTUAL DICE;6,6", "PLAYER LOST;ana;LIED_ABOUT_MIA"],
    ),
    "MIA": ([1, 2], ["ROLL", "1,2"], ["ACTUAL DICE;2,1", "PLAYER LOST;ben,cas;MIA"]),
    "ANNOUNCED_LOSING_DICE": (
        [5, 4, 6, 6],
        ["ROLL", "5,4", "ROLL", "5,4"],
        [None, "PLAYER LOST;ben;ANNOUNCED_LOSING_DICE"],
    ),
    "INVALID_TURN": ([], ["!ANNOUNCE;3,1"], [None, "PLAYER LOST;ana;INVALID_TURN"]),
    "INVALID_TURN:dice": ([3, 1], ["ROLL", "7,7"], [None, "PLAYER LOST;ana;INVALID_TURN"]),
    "SEE_FAILED": (
        [5, 4],
        ["ROLL", "5,4", "SEE"],
        ["ACTUAL DICE;5,4", "PLAYER LOST;ben;SEE_FAILED"],
    ),
    "CAUGHT_BLUFFING": (
        [3, 2],
        ["ROLL", "6,6", "SEE"],
        ["ACTUAL DICE;3,2", "PLAYER LOST;ana;CAUGHT_BLUFFING"],
    ),
}


@pytest.mark.parametrize("case", list(LOSSES))
async def test_each_loss_reason_on_the_wire(case: str) -> None:
    faces, moves, ending = LOSSES[case]
    async with arena(faces=faces) as place:
        bots = {n: await place.player(n) for n in ("ana", "ben", "cas")}
        play = asyncio.create_task(place.server.play_round())
        await join(*bots.values())
        order = ["ana", "ben", "cas"]
        who = 0
        for move in moves:
            bot = bots[order[who % 3]]
            if move[0].isdigit():
                await announce(bot, move)
                who += 1
            elif move.startswith("!"):
                await turn(bot, move[1:])
            else:
                await turn(bot, move)
        watcher = bots["cas"] if case != "MIA" else bots["ana"]
        for expected in ending:
            if expected is not None:
                assert await watcher.next(expected.split(";")[0]) == expected
        result = await play
        assert result is not None and str(result.lost.reason) == case.split(":")[0]


@pytest.mark.parametrize(
    ("rolls", "reason"), [(False, "DID_NOT_TAKE_TURN"), (True, "DID_NOT_ANNOUNCE")]
)
async def test_a_bot_that_does_not_answer_in_time_loses(rolls: bool, reason: str) -> None:
    async with arena(faces=[4, 2], window=0.05) as place:
        ana, ben = await place.player("ana"), await place.player("ben")
        play = asyncio.create_task(place.server.play_round())
        await join(ana, ben)
        if rolls:
            await turn(ana, "ROLL")
        assert await ben.next("PLAYER LOST") == f"PLAYER LOST;ana;{reason}"
        assert await ben.next("SCORE") == "SCORE;ana:0,ben:1"
        await play


# --- seats, dice, points over many rounds ----------------------------------------------


async def test_seats_are_shuffled_every_round_and_every_survivor_scores() -> None:
    names = ("ana", "ben", "cas", "dan")
    async with arena(rng=random.Random(46)) as place:
        bots = [await place.player(n) for n in names]
        players = [asyncio.create_task(autoplay(b, random.Random(i))) for i, b in enumerate(bots)]
        results = [await place.server.play_round() for _ in range(24)]
        for task in players:
            task.cancel()
    assert all(r is not None for r in results)
    orders = {r.seats for r in results if r is not None}
    assert len(orders) > 6
    assert {r.seats[0] for r in results if r is not None} == set(names)
    points = dict.fromkeys(names, 0)
    for r in results:
        assert r is not None
        for name in r.winners:
            points[name] += 1
    assert {n: place.server.clients[n].points for n in names} == points
    assert sum(points.values()) == sum(len(r.seats) - len(r.lost.players) for r in results if r)


def test_the_server_rolls_with_the_cryptographic_source() -> None:
    assert isinstance(ArenaServer().rng, random.SystemRandom)


# --- the command ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv", [["--port", "70000"], ["--window-ms", "5"], ["--bench-after", "0"], ["--rounds", "0"]]
)
def test_bad_arguments_end_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert arena_main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("mexican-bot arena: --")


def test_a_port_in_use_ends_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        assert arena_main(["--host", "127.0.0.1", "--port", str(port)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err


def test_python_m_bot_arena_is_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    def fake(argv: list[str], database: object) -> int:
        seen.append(list(argv))
        return 0

    monkeypatch.setattr(bot_main, "arena_main", fake)
    assert bot_main.main(["arena", "--port", "9100"]) == 0
    assert seen == [["--port", "9100"]]
