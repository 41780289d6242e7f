"""The computers' timing as plain values: who acts, after what pause, still due or not."""

from __future__ import annotations

import random

from bot.ai.personas import PERSONAS
from bot.ai.scheduler import THINK_SECONDS, Pending, next_move, still_due
from bot.engine import Act, Game, Move

COMPUTER = next(iter(PERSONAS))


def started(preset: str = "mexican", computer_first: bool = False) -> Game:
    game = Game.create(preset, "ana")
    game.apply("ana", Move(Act.ADD_COMPUTER, to=COMPUTER))
    game.apply("ana", Move(Act.START), random.Random(1))
    rng = random.Random(2)
    for _ in range(10):  # ana rolls, then stands as soon as she may
        if computer_first == (game.to_move == COMPUTER):
            return game
        legal = game.legal_actions(game.to_move)
        stand = [m for m in legal if m.act is Act.STAND]
        game.apply(game.to_move, (stand or legal)[0], rng)
    raise AssertionError("the turn never came round")


def test_nobody_acts_in_a_lobby() -> None:
    game = Game.create("mexican", "ana")
    game.apply("ana", Move(Act.ADD_COMPUTER, to=COMPUTER))
    assert next_move(game, random.Random(0)) is None


def test_a_computer_to_move_acts_after_a_pause_in_range() -> None:
    game = started(computer_first=True)
    pending = next_move(game, random.Random(0))
    assert pending is not None
    assert pending.actor == COMPUTER and pending.move_no == game.move_no
    assert THINK_SECONDS[0] <= pending.delay <= THINK_SECONDS[1]


def test_the_pause_is_drawn_from_the_given_rng() -> None:
    game = started(computer_first=True)
    low, high = THINK_SECONDS
    expected = low + random.Random(7).random() * (high - low)
    assert next_move(game, random.Random(7)) == Pending(COMPUTER, game.move_no, expected)


def test_a_person_to_move_waits_for_no_computer() -> None:
    game = started(computer_first=False)
    if any(Move(Act.TAP) in game.legal_actions(p) for p in game.computers):
        return  # a tapping computer acts out of turn; covered by the live tests
    assert game.to_move == "ana"
    assert next_move(game, random.Random(0)) is None


def test_a_move_is_due_only_while_the_table_is_where_it_was() -> None:
    game = started(computer_first=True)
    pending = next_move(game, random.Random(0))
    assert pending is not None
    assert still_due(game, pending)
    assert not still_due(None, pending)
    assert not still_due(game, Pending(pending.actor, pending.move_no - 1, 1.0))
