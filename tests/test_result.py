"""The one definition of a game's result (docs/league.md, Ratings: when a game counts): a
started game has no free exit, the timer plays for nobody, and games stored before these
rules are judged as they were then."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Act, Game, Move
from bot.engine.presets import PRESET_NAMES
from bot.engine.result import CUT_SHORT_ROUNDS, banked, counts, places, takes_part, winners


def table(preset: str, players: tuple[str, ...], **options: object) -> Game:
    game = Game.create(preset, players[0], dict(options))
    for p in players[1:]:
        game.apply(p, Move(Act.JOIN))
    game.apply(players[0], Move(Act.START), random.Random(1))
    return game


def play(game: Game, player: str, rng: random.Random) -> None:
    """One move of ``player``'s own (never a table move or a tap)."""
    moves = [m for m in game.legal_actions(player) if m.act is not Act.TAP]
    game.apply(player, rng.choice(moves), rng)


def test_leaving_after_a_move_is_last_place_and_no_escape() -> None:
    game = table("mexican", ("a", "b", "c"))
    rng = random.Random(2)
    while not all(game.players[p].moved for p in game.seats):  # each plays themselves
        mover = game.to_move
        assert mover is not None
        play(game, mover, rng)
    mover = game.to_move
    assert mover is not None
    game.apply(mover, Move(Act.LEAVE))
    game.apply(game.host if game.host != mover else "b", Move(Act.END))
    assert counts(game)
    standing = dict(places(game))
    assert standing[mover] == 3, standing
    assert mover not in winners(game)


def test_a_leaver_in_a_lives_game_ranks_above_those_knocked_out_before() -> None:
    """Leaving is being knocked out at that moment: last among those still in then."""
    game = table("mexican", ("a", "b", "c"), lives=1, last_standing=True)
    rng = random.Random(3)
    while len(game.seats) == 3 and game.phase == "playing":
        mover = game.to_move
        assert mover is not None
        play(game, mover, rng)
    knocked = next(p for p in game.players if p not in game.seats)
    left = next(p for p in game.seats if p != game.host) if game.phase == "playing" else None
    if left is None:
        pytest.skip("the seed ended the game at once")
    game.apply(left, Move(Act.LEAVE))
    assert game.phase == "over"
    standing = dict(places(game))
    assert standing[left] == 2 and standing[knocked] == 3, standing
    assert winners(game) == {game.host}


def ended_after(seed: int, ender: str) -> Game:
    """A game of `mexen` without lives, four at the table: each moves, ``d`` leaves, and
    ``ender`` ends it."""
    game = table("mexen", ("a", "b", "c", "d"))
    rng = random.Random(seed)
    while not all(state.moved for state in game.players.values()):
        mover = game.to_move
        assert mover is not None
        play(game, mover, rng)
    game.apply("d", Move(Act.LEAVE))
    game.apply(ender, Move(Act.END), force=ender not in game.seats)
    return game


def test_endgame_by_the_leader_names_no_winner_and_the_seated_share_first() -> None:
    for seed in range(40):
        game = ended_after(seed, "a")
        if dict(game.final_places())["a"] == 1:
            break
    else:
        pytest.fail("no seed put the host in the lead")
    assert counts(game) and banked(game)
    assert sorted(places(game)) == [("a", 1), ("b", 1), ("c", 1), ("d", 4)]
    assert winners(game) == frozenset()


def test_endgame_by_a_player_behind_keeps_their_loss_and_the_leader_wins() -> None:
    for seed in range(40):
        game = ended_after(seed, "a")
        if dict(game.final_places())["a"] > 1:
            break
    else:
        pytest.fail("no seed put the host behind")
    assert counts(game) and not banked(game)
    assert places(game) == game.final_places()
    assert "a" not in winners(game) and winners(game)
    assert places(game)[-1] == ("d", 4)


def test_a_moderator_ending_it_from_outside_lets_the_standing_stand() -> None:
    game = ended_after(1, "mod")
    assert not banked(game)
    assert places(game) == game.final_places()


def test_a_game_ended_before_anyone_moved_counts_for_nothing() -> None:
    game = table("mexican", ("a", "b"), lives=3)
    game.apply("a", Move(Act.END))
    assert not counts(game) and winners(game) == frozenset()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_timer_plays_for_nobody_in_every_rule_set(preset: str) -> None:
    """``b`` never presses a button: every turn of theirs is the timer's. They count for
    nothing, and a game left with one player who played counts for nothing at all."""
    game = table(preset, ("a", "b"), lives=1)
    rng = random.Random(6)
    while game.phase == "playing":
        mover = game.to_move
        assert mover is not None
        if mover == "b":
            game.apply("b", Move(Act.TIMEOUT), rng)
        else:
            play(game, mover, rng)
    assert game.players["b"].timed and not game.players["b"].moved
    assert not takes_part(game, "b")
    assert not counts(game), preset
    assert winners(game) == frozenset()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_sleeper_beside_two_players_is_left_out_of_the_result(preset: str) -> None:
    game = table(preset, ("a", "b", "c"), lives=3)
    rng = random.Random(7)
    while game.phase == "playing":
        mover = game.to_move
        assert mover is not None
        if mover == "c":
            game.apply("c", Move(Act.TIMEOUT), rng)
        else:
            play(game, mover, rng)
    assert counts(game) and game.players["c"].timed
    assert [p for p, _ in places(game)] in (["a", "b"], ["b", "a"]), places(game)
    assert "c" not in winners(game)


def test_leaving_before_a_computer_moved_is_a_loss_to_it() -> None:
    """A computer takes part from its seat: leaving before its first move is no exit."""
    game = Game.create("mexican", "a", {"lives": 3, "first": "host"})
    game.apply("a", Move(Act.ADD_COMPUTER, to="c:expert"))
    game.apply("a", Move(Act.START), random.Random(1))
    play(game, "a", random.Random(8))  # a roll: the computer has not moved yet
    game.apply("a", Move(Act.LEAVE))
    assert counts(game) and not game.players["c:expert"].moved
    assert winners(game) == {"c:expert"}


def test_a_person_whose_turn_never_came_counts_for_nothing() -> None:
    """The one exit left (docs/league.md): heads-up between two people, the first to
    move leaves before the other's first move, and the game counts for nobody."""
    game = table("mexican", ("a", "b"), lives=3, first="host")
    play(game, "a", random.Random(8))
    game.apply("a", Move(Act.LEAVE))
    assert not takes_part(game, "b") and not counts(game)


def test_a_game_stored_before_these_rules_is_judged_as_it_was_then() -> None:
    game = table("mexen", ("a", "b"))
    rng = random.Random(9)
    while (game.played_rounds or 0) < CUT_SHORT_ROUNDS - 1:
        mover = game.to_move
        assert mover is not None
        play(game, mover, rng)
    game.apply("a", Move(Act.END))
    assert counts(game)  # rules 2: a started game has no free exit
    data = json.loads(game.to_json())
    del data["rules"], data["ended_by"]
    for state in data["players"].values():
        del state["moved"], state["timed"]
    old = Game.from_dict(data)
    assert old.rules == 1
    assert not counts(old)  # rules 1: cut short under 5 rounds, nothing
    assert places(old) == old.final_places()
