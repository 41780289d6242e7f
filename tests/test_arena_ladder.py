"""The arena's ladder (README, Bot arena: The ladder): rounds rated as the league rates a
table, stored once before anyone is told, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.arena.ladder import Ladder, ladder_text, rater
from bot.engine.maexchen import Loss, Lost
from bot.league.ratings import NEW, Skill, rate
from bot.storage import Storage
from bot.storage.arena_queries import ArenaBot, ArenaRound
from tests.arena_helpers import arena, autoplay
from tests.db_helpers import INTEGRITY_ERRORS, storage_fixture

storage = storage_fixture()


def test_survivors_share_first_place_and_losers_second() -> None:
    seats = ("ana", "ben", "cas")
    after = rater(seats, ("ben",))(dict.fromkeys(seats))
    assert after["ana"] == after["cas"]
    assert after["ana"][0] > NEW.mu > after["ben"][0]
    expected = rate([(0, 1), (1, 2), (2, 1)], {})
    assert after["ben"] == (expected[1].mu, expected[1].sigma, expected[1].shown)


def test_a_known_bot_is_rated_from_its_stored_skill() -> None:
    strong = ArenaBot("ana", 35.0, 2.0, 0, 50, 40)
    after = rater(("ana", "ben"), ("ana",))({"ana": strong, "ben": None})
    expected = rate([(0, 2), (1, 1)], {0: Skill(35.0, 2.0, 50)})
    assert after["ana"][:2] == (expected[0].mu, expected[0].sigma)


def played(no: int, seats: tuple[str, ...], losers: tuple[str, ...]) -> ArenaRound:
    return ArenaRound(no, 1000.0 + no, seats, losers, "SEE_FAILED")


async def test_a_round_is_stored_once_with_points_rounds_and_reasons(storage: Storage) -> None:
    seats = ("ana", "ben", "cas")
    after = await storage.record_arena_round(played(1, seats, ("ben",)), rater(seats, ("ben",)))
    assert {n: (b.rounds, b.points) for n, b in after.items()} == {
        "ana": (1, 1),
        "ben": (1, 0),
        "cas": (1, 1),
    }
    await storage.record_arena_round(played(2, ("ben", "ana"), ("ana",)), rater(seats, ("ana",)))
    with pytest.raises(INTEGRITY_ERRORS):  # the same round again: refused as a whole
        await storage.record_arena_round(played(2, ("ben", "ana"), ("ana",)), rater(seats, ()))
    ana = await storage.arena_bot("ana")
    assert ana is not None and (ana.rounds, ana.points) == (2, 1)
    assert await storage.last_arena_round() == 2
    assert await storage.arena_losses(["ana", "ben", "dan"]) == {
        "ana": {"SEE_FAILED": 1},
        "ben": {"SEE_FAILED": 1},
        "dan": {},
    }
    ladder = await storage.arena_ladder(10)
    assert ladder[0].name == "cas"  # unbeaten
    text = await ladder_text(storage)
    assert text.splitlines()[1].split()[:2] == ["1", "cas"]


async def test_the_server_scores_from_the_ladder(storage: Storage) -> None:
    names = ("ana", "ben", "cas")
    async with arena(rng=random.Random(3)) as place:
        place.server.recorder = Ladder(storage)
        bots = [await place.player(n) for n in names]
        tasks = [asyncio.create_task(autoplay(b, random.Random(i))) for i, b in enumerate(bots)]
        results = [await place.server.play_round() for _ in range(15)]
        for task in tasks:
            task.cancel()
    stored = {b.name: b for b in await storage.arena_ladder(10)}
    assert {n: stored[n].rounds for n in names} == dict.fromkeys(names, 15)
    wins = {n: sum(n in r.winners for r in results if r) for n in names}
    assert {n: stored[n].points for n in names} == wins
    assert {n: place.server.clients[n].points for n in names} == wins
    losses = await storage.arena_losses(list(names))
    assert sum(sum(v.values()) for v in losses.values()) == sum(
        len(r.lost.players) for r in results if r
    )


async def test_a_round_the_database_refuses_scores_for_nobody() -> None:
    class Down:
        async def last_round(self) -> int:
            return 0

        async def record(self, result: object) -> dict[str, int]:
            raise ConnectionError("down")

    async with arena(rng=random.Random(3)) as place:
        place.server.recorder = Down()
        bots = [await place.player(n) for n in ("ana", "ben")]
        tasks = [asyncio.create_task(autoplay(b, random.Random(i))) for i, b in enumerate(bots)]
        result = await place.server.play_round()
        assert result is not None
        score = await bots[0].next("SCORE")
        assert sorted(score.removeprefix("SCORE;").split(",")) == ["ana:0", "ben:0"]
        for task in tasks:
            task.cancel()
    assert place.server.unstored == 1


def test_lost_reasons_are_the_protocols() -> None:
    assert str(Lost(("a",), Loss.MIA).reason) == "MIA"
