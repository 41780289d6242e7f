"""The house players and the example bots (README, Bot arena: The house players; Example
bots): legal play, their personas' differences, the same answer window, and the
examples over real UDP."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import threading
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.ai import bluff_policy
from bot.ai.personas import PERSONAS
from bot.arena.cli import main as arena_main
from bot.arena.house import HOUSE_NAMES, HousePlayer, house
from bot.arena.reader import MEMORY, MOST, Reader
from bot.arena.server import ArenaConfig, ArenaServer, RoundResult
from bot.engine.maexchen import Loss
from tests.arena_helpers import arena

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: Losses a bot that answers every message with a legal move never has.
FAULTS = {Loss.DID_NOT_TAKE_TURN, Loss.DID_NOT_ANNOUNCE, Loss.INVALID_TURN}


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def house_rounds(
    players: list[tuple[str, Any]], rounds: int, **config: Any
) -> tuple[ArenaServer, list[RoundResult]]:
    """``rounds`` rounds among in-process players (``(name, answer)``), no sockets."""
    server = ArenaServer(ArenaConfig(**config), rng=random.Random(46))
    for name, answer in players:
        server.seat_house(name, answer)
    results = [await server.play_round() for _ in range(rounds)]
    return server, [r for r in results if r is not None]


async def test_the_house_players_only_ever_play_legal_moves() -> None:
    players = house(list(HOUSE_NAMES), random.Random(1))
    server, results = await house_rounds([(p.name, p.hear) for p in players], 150)
    assert len(results) == 150
    reasons = Counter(r.lost.reason for r in results)
    assert not FAULTS & set(reasons)
    assert reasons[Loss.ANNOUNCED_LOSING_DICE] == 0  # the strategy claims only higher
    assert reasons[Loss.CAUGHT_BLUFFING] + reasons[Loss.SEE_FAILED] > 100
    assert sum(c.points for c in server.clients.values()) == sum(len(r.winners) for r in results)


def test_the_personas_differ_as_at_the_table() -> None:
    spots = [(c, s) for c in range(1, 20) for s in [None, *range(c)]]

    def sees(key: str) -> int:
        player = HousePlayer(PERSONAS[key], random.Random(5))
        total = 0
        for c, s in spots:
            player.claims = [c] if s is None else [s, c]
            total += sum(player.turn() == "SEE" for _ in range(20))
        return total

    def truths(key: str) -> int:
        player = HousePlayer(PERSONAS[key], random.Random(5))
        player.claims = [5]
        return sum(player.claim(d) == d for d in range(6, 20) for _ in range(20))

    assert sees("caller") > sees("expert") > sees("cautious")
    assert truths("cautious") > truths("expert")
    bold, ada = HousePlayer(PERSONAS["bold"], random.Random(2)), HousePlayer(PERSONAS["expert"])
    bold.claims = ada.claims = [8]
    lies = [(bold.claim(2), ada.claim(2)) for _ in range(300)]
    assert sum(b for b, _ in lies) > sum(a for _, a in lies)
    assert all(9 <= b < 20 and 9 <= a <= 20 for b, a in lies)


async def test_a_house_player_that_thinks_too_long_is_late_like_any_bot() -> None:
    ada = HousePlayer(PERSONAS["expert"], random.Random(1))

    def slow(text: str) -> str | None:
        if text.startswith("YOUR TURN"):
            time.sleep(0.05)
        return ada.hear(text)

    quick = HousePlayer(PERSONAS["caller"], random.Random(2))
    players = [("a_slow", slow), ("b_quick", quick.hear)]
    _, results = await house_rounds(players, 4, window=0.02)
    # Every turn of hers comes too late: she loses each round at her first one.
    assert len(results) == 4
    assert {(r.lost.players, r.lost.reason) for r in results} == {
        (("a_slow",), Loss.DID_NOT_TAKE_TURN)
    }


async def test_a_house_name_cannot_be_taken_from_outside() -> None:
    async with arena() as place:
        place.server.seat_house("ExpertAda", HousePlayer(PERSONAS["expert"]).hear)
        bot = await place.bot()
        bot.say("REGISTER;ExpertAda")
        assert await bot.next() == "REJECTED;NAME_ALREADY_TAKEN"


def test_an_unknown_house_persona_ends_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena_main(["--house", "expert,nobody"]) == 1
    assert "--house: no persona 'nobody'" in capsys.readouterr().err


# --- the example bots -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["truthful", "threshold", "learner"])
def test_each_example_is_short(name: str) -> None:
    assert len((EXAMPLES / f"{name}.py").read_text("utf-8").splitlines()) < 150


async def test_the_examples_play_over_udp_with_their_own_loops() -> None:
    bots = {
        "truthful": example("truthful").Truthful(),
        "threshold": example("threshold").Threshold("64"),
        "learner": example("learner").Learner(),
    }
    async with arena(rng=random.Random(9)) as place:
        server = place.server
        server.seat_house("ExpertAda", HousePlayer(PERSONAS["expert"], random.Random(3)).hear)
        host, port = place.addr
        threads = [
            threading.Thread(
                target=example(name).play, args=(bot, name, host, port, 0.3), daemon=True
            )
            for name, bot in bots.items()
        ]
        for thread in threads:
            thread.start()
        async with asyncio.timeout(5):
            while len([c for c in server.clients.values() if not c.local]) < 3:
                await asyncio.sleep(0.01)
        results = [await server.play_round() for _ in range(40)]
        # The server closes; each bot's loop notices the quiet and returns.
    for thread in threads:
        await asyncio.to_thread(thread.join, 3)
        assert not thread.is_alive()
    played = [r for r in results if r is not None]
    assert len(played) == 40 and all(len(r.seats) == 4 for r in played)
    faults = [r for r in played if r.lost.reason in FAULTS]
    assert not faults
    learner = bots["learner"]
    assert sum(learner.shown.values()) > 0  # it has learned something of someone


# --- Ada's reading of the bots she meets ------------------------------------------------


def reader() -> Reader:
    return Reader(bluff_policy.policy("maexchen"))


def test_a_bot_she_has_not_met_is_played_with_the_solved_strategy() -> None:
    r = reader()
    assert r.weight("new") == 0.0
    for _ in range(400):
        r.answered("old", 5, saw=False)
    assert 0.8 < r.weight("old") <= MOST


def test_a_bot_never_caught_lying_is_never_seen() -> None:
    r = reader()
    for c in range(6, 20):
        for _ in range(40):
            r.lifted("honest", c, c)
    answer = r.answer("honest", "honest", True, 0.75)
    assert not [c for c in range(20) if answer.see(c, None)]


def test_a_bot_always_caught_lying_is_seen() -> None:
    r = reader()
    for c in range(6, 20):
        for _ in range(40):
            r.lifted("liar", c, 0)
    answer = r.answer("liar", "liar", True, 0.75)
    assert all(answer.see(c, c - 1) for c in range(8, 20))


def test_she_lies_where_the_next_bot_does_not_look() -> None:
    r = reader()
    for c in range(20):  # a 6-4 caller: sees every claim of 6-4 or more, no other
        for _ in range(60):
            r.answered("caller", c, saw=c >= 12)
    answer = r.answer("x", "caller", True, 0.75)
    assert 6 <= answer.best_claim(5, 0) < 12  # a 3-1 over 5-1: a lie it will not see
    assert answer.best_claim(12, 0) != 20  # never a false 21: it is shown at once


def test_she_remembers_a_bounded_number_of_bots() -> None:
    r = reader()
    for i in range(MEMORY + 50):
        r.answered(f"bot{i}", 3, saw=False)
    assert len(r.records) == MEMORY and "bot0" not in r.records


@pytest.mark.slow  # about 1.5 s: 600 rounds (seeded: the same rounds each run)
async def test_heads_up_she_loses_under_45_percent_to_the_truthful_example() -> None:
    truthful = example("truthful").Truthful()
    ada = HousePlayer(PERSONAS["expert"], random.Random(11))
    _, results = await house_rounds([("ExpertAda", ada.hear), ("truthful", truthful.hear)], 600)
    lost = sum("ExpertAda" in r.lost.players for r in results)
    assert lost / len(results) < 0.45
