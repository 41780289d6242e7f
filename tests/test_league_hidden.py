"""Hidden stays hidden in the league (README, Leaderboard and stats): nothing
the league stores or returns exists before a game is over, so no rating, achievement or
progress count can say anything about dice still under a cup. Read from the outside:
the stored tables and the outcomes the bot renders."""

from __future__ import annotations

import random

import pytest

from bot.engine import Act, Move
from bot.game.tables import TableService
from bot.league.service import League
from bot.storage import Storage
from tests.db_helpers import storage_fixture
from tests.league_games import PEOPLE

storage = storage_fixture()

GUILD, CHANNEL = 7, 70
LEAGUE_ROWS = (
    "SELECT (SELECT COUNT(*) FROM ratings) + (SELECT COUNT(*) FROM rated_games)"
    " + (SELECT COUNT(*) FROM achievements) + (SELECT COUNT(*) FROM achievement_progress)"
    " + (SELECT COUNT(*) FROM closed_seasons)"
)


@pytest.mark.parametrize("preset", ["mexican", "dollar", "mexico"])
@pytest.mark.parametrize("seed", [1, 2])
async def test_nothing_of_the_league_exists_until_the_game_is_over(
    storage: Storage, preset: str, seed: int
) -> None:
    now = 1_796_000_000.0
    service = TableService(storage, random.Random(seed), league=League(storage, lambda: now))
    people = PEOPLE[:3]
    await service.open_table(GUILD, CHANNEL, people[0], preset, {"turn_timer": 0}, now)
    for person in people[1:]:
        await service.act(CHANNEL, person, Move(Act.JOIN), now)
    outcome = await service.act(CHANNEL, people[0], Move(Act.START), now)
    rng, moves = random.Random(seed), 0
    while (table := service.get(CHANNEL)) is not None:
        assert outcome.result is None, "a running game has no result"
        assert (await storage._fetchone(LEAGUE_ROWS, ()))[0] == 0, f"stored at move {moves}"
        game = table.game
        if moves == 60:  # sips tables never end by themselves: the host ends it
            outcome = await service.act(CHANNEL, game.host, Move(Act.END), now)
            continue
        mover = game.to_move
        assert mover is not None
        options = [m for m in game.legal_actions(mover) if m.act not in (Act.END, Act.LEAVE)]
        outcome = await service.act(CHANNEL, mover, rng.choice(options), now)
        moves += 1
    assert outcome.table.game.phase == "over" and moves > 3
    assert outcome.result is not None, "the last move rates the game"
    assert set(outcome.result.changes) == set(people)
    assert (await storage._fetchone("SELECT COUNT(*) FROM rated_games", ()))[0] == 1
