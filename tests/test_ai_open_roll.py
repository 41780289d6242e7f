"""The open-roll computer player (bot/ai/open_roll.py): its choices in hand-built situations,
its expectations (its penalty less the others' average) against hand sums, exact sums and
play, the Knight's prices against the title's long run, legality in random games of every
open preset and house-rule mix, that it decides from the view alone, and that it takes
fewer penalties than a player who always stands after the first roll (README, Rule sets).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import statistics
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from bot.ai import open_roll
from bot.ai.open_roll import decide, expected_penalties
from bot.engine import RANK, Act, Game, Move

from .engine_helpers import ScriptedDice

Brain = Callable[[Mapping[str, Any], random.Random], "Move | None"]
STAND = Move(Act.STAND)
ROLL = Move(Act.ROLL)
TAP = Move(Act.TAP)


def table(preset: str, players: list[str], options: dict[str, Any] | None = None) -> Game:
    game = Game.create(preset, players[0], options or {})
    for player in players[1:]:
        game.join(player)
    game.start(players[0], ScriptedDice())
    return game


def play(game: Game, *steps: tuple[str, Any]) -> Game:
    """Scripted steps: (player, (high, low)) rolls those dice, (player, "stand") stands."""
    for player, what in steps:
        if what == "stand":
            game.apply(player, STAND)
        else:
            game.apply(player, ROLL, ScriptedDice(list(what)))
    return game


def chosen(game: Game, player: str, risk: float = 0.0) -> Move | None:
    return decide(game.view(player), random.Random(0), risk=risk)


# --- hand-built situations ---------------------------------------------------------------------
def test_holding_21_it_never_rolls() -> None:
    # The engine ends a turn on a 21 by itself, so the view is built by hand: the player to
    # move shows a 21 with rolls left and is offered both moves.
    game = play(table("mexen", ["ana", "ben", "cy"]), ("ana", (6, 5)))
    view = game.view("ana")
    view.update(last=[2, 1], mex_count=1, legal_moves=["roll", "stand"])
    values = expected_penalties(view)
    assert values["stand"] < values["roll"]
    assert decide(view, random.Random(0)) == STAND


def test_last_to_roll_and_above_the_lowest_it_stands() -> None:
    game = play(
        table("mexen", ["ana", "ben", "cy"]),
        ("ana", (5, 2)),
        ("ana", (4, 2)),
        ("ana", "stand"),
        ("ben", (6, 6)),
        ("ben", "stand"),
        ("cy", (5, 1)),
    )
    assert "roll" in game.view("cy")["legal_moves"]
    # ana drinks the sip: against the two others' average that is half a sip for cy.
    assert expected_penalties(game.view("cy"))["stand"] == -0.5
    assert chosen(game, "cy") == STAND


def test_last_to_roll_and_below_the_lowest_it_rolls() -> None:
    game = play(
        table("mexen", ["ana", "ben", "cy"]),
        ("ana", (5, 2)),
        ("ana", (4, 2)),
        ("ana", "stand"),
        ("ben", (6, 6)),
        ("ben", "stand"),
        ("cy", (4, 1)),
    )
    assert expected_penalties(game.view("cy"))["stand"] == 1.0  # lowest, nobody to come
    assert chosen(game, "cy") == ROLL


def test_a_stuck_3_2_is_tapped_by_whoever_it_helps() -> None:
    # ana (first) stands on 4-1 after two rolls, ben on 6-6; cy throws 3-2 with a roll left.
    game = play(
        table("mexico", ["ana", "ben", "cy", "dan"]),
        ("ana", (5, 1)),
        ("ana", (4, 1)),
        ("ana", "stand"),
        ("ben", (6, 6)),
        ("ben", "stand"),
        ("cy", (3, 2)),
    )
    assert game.stuck and game.to_move == "cy"
    assert chosen(game, "ana") == TAP  # lowest so far: a locked 3-2 saves her
    assert chosen(game, "dan") == TAP  # yet to roll: he then only has to beat 3-2
    assert chosen(game, "ben") is None  # already safe above ana, and not the Knight
    game.knight = "ben"
    assert chosen(game, "ben") == TAP  # the Knight sips on every double cy would throw


def test_no_tap_on_offer_means_no_move() -> None:
    game = play(table("mexico", ["ana", "ben"]), ("ana", (6, 4)))
    assert game.view("ben")["legal_moves"] == []
    assert chosen(game, "ben") is None


def test_a_stuck_3_2_before_anyone_rolled_is_tapped() -> None:
    game = play(table("mexico", ["ana", "ben", "cy"]), ("ana", (3, 2)))
    assert game.stuck
    assert chosen(game, "ben") == TAP
    assert chosen(game, "cy") == TAP


def test_standing_first_on_65_against_the_table() -> None:
    # ben then has one roll (3-1 is handed out and re-rolled, so out of 34). ana pays when
    # he beats 6-5: a double (6 in 34: 1 sip) or a 21 (2 in 34: doubled, 2 sips), or ties
    # (2 in 34: a roll-off, lost half the time): 11 in 34. ben pays 1 sip for his 24 lower
    # rolls and the other half of the tie: 25 in 34. And each 3-1 he throws (2 in 34 before
    # his counting roll) hands ana a sip: -14/34 + 2/34.
    game = play(table("mexen", ["ana", "ben"]), ("ana", (6, 5)))
    assert expected_penalties(game.view("ana"))["stand"] == pytest.approx(-12 / 34, abs=1e-12)
    assert expected_penalties(game.view("ana"))["stand"] == pytest.approx(
        brute_force_stand((6, 5), [], 1, 1, 4), abs=1e-12
    )
    assert chosen(game, "ana") == STAND


def test_mexicanen_lives_standing_first_on_65() -> None:
    # 3-1 is a real roll here (out of 36), and a 21 costs 2 lives: ana loses 11/36 lives
    # (as above), ben 26/36 for his lower rolls and the other half of the tie: -16/36.
    game = play(table("mexicanen", ["ana", "ben"]), ("ana", (6, 5)))
    assert expected_penalties(game.view("ana"))["stand"] == pytest.approx(-16 / 36, abs=1e-12)


def test_mexico_pot_standing_first_on_65() -> None:
    # ben has one roll. A 21 makes the untouched pot 8, a double d makes it 1 + d, a tie is
    # a roll-off for the pot of 1, an Elbow starts his turn over. ana drinks
    # (16 + 27 + 1) / 34; whoever loses drinks (16 + 27 + 26) / 34, ben the difference.
    game = play(table("mexico", ["ana", "ben"], {"knight": False}), ("ana", (6, 5)))
    assert expected_penalties(game.view("ana"))["stand"] == pytest.approx(19 / 34, abs=1e-12)
    # With nobody the Knight yet, ben's 1-1 (1 in 34) makes him the first to hold it:
    # 21 / 2 sips behind the table, so as much ahead for ana.
    game = play(table("mexico", ["ana", "ben"]), ("ana", (6, 5)))
    assert expected_penalties(game.view("ana"))["stand"] == pytest.approx(8.5 / 34, abs=1e-12)


def test_a_pot_the_others_will_likely_drink_is_worth_growing() -> None:
    # Standing on 6-5 heads-up leaves ben one roll; rolling on sets a higher limit, and
    # the doubles and 21s on the way grow a pot ben is the likelier to drink. Counted for
    # ana alone, standing would be cheaper (44/34 against more for rolling on).
    game = play(table("mexico", ["ana", "ben"], {"knight": False}), ("ana", (6, 5)))
    values = expected_penalties(game.view("ana"))
    assert values["roll"] < values["stand"]
    assert chosen(game, "ana") == ROLL


def brute_force_stand(
    mine: tuple[int, int], standing: list[tuple[int, int]], later: int, base: int, cap: int
) -> float:
    """The expectation for standing on ``mine`` in mexen, against the table, with the
    results ``standing`` of those who rolled and ``later`` players of one roll each to
    come, counted throw by throw: each 3-1 is handed out (to any other alike) and
    re-rolled, so the other rolls are out of 34, and a player throws 2/34 of them."""
    players = 1 + len(standing) + later
    other = 1 / (players - 1)
    rolls = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    rolls = [(max(r), min(r)) for r in rolls if sorted(r) != [1, 3]]
    total = 0.0
    for throw in itertools.product(rolls, repeat=later):
        ranks = [RANK[mine]] + [RANK[r] for r in standing] + [RANK[r] for r in throw]
        lowest = min(ranks)
        lose = (ranks[0] == lowest) / ranks.count(lowest)
        sips = min(base * 2 ** sum(r == (2, 1) for r in throw), cap)
        total += sips * (lose - other * (1 - lose))
    # A hand-out comes to me one time in (players - 1), else puts another behind me.
    hand_outs = later * 2 / 34 * (other - (players - 2) * other * other)
    return total / len(rolls) ** later + hand_outs


def test_mexen_very_low_roll_no_rolls_left_ends_the_round_when_cheaper() -> None:
    # ana set the limit at one roll; ben's 3-2 is lowest with three players to come, each
    # of whose 21s would double his sips: standing costs more than ending the round (1 sip).
    game = play(
        table("mexen", ["ana", "ben", "cy", "dan", "eve"]), ("ana", (6, 6)), ("ana", "stand")
    )
    play(game, ("ben", (3, 2)))
    view = game.view("ben")
    assert sorted(view["legal_moves"]) == ["endround", "stand"]
    values = expected_penalties(view)
    assert values["stand"] == pytest.approx(brute_force_stand((3, 2), [(6, 6)], 3, 1, 4), abs=1e-12)
    assert values["endround"] == 1.0
    assert values["stand"] > values["endround"]
    assert chosen(game, "ben") == Move(Act.ENDROUND)


def test_mexen_very_low_roll_no_rolls_left_stands_when_cheaper() -> None:
    # One player to come: 4-1 loses unless cy throws 3-2 (2 in 34: then cy pays, half a
    # sip against ben's table of two) or ties (a roll-off), but only his 21 doubles the sip.
    game = play(table("mexen", ["ana", "ben", "cy"]), ("ana", (6, 6)), ("ana", "stand"))
    play(game, ("ben", (4, 1)))
    values = expected_penalties(game.view("ben"))
    assert values["stand"] == pytest.approx(brute_force_stand((4, 1), [(6, 6)], 1, 1, 4), abs=1e-12)
    assert values["stand"] < 1.0
    assert chosen(game, "ben") == STAND


def exact_pot_stand(results: list[int], mine: int, later: int, limit: int, pot: int) -> float:
    """The expectation for standing on rank ``mine`` in a pot game where a 3-1 is a plain
    roll and nobody keeps, STUCK and the Knight are off: every later player rolls until
    above the lowest result before them or out of ``limit`` rolls, enumerated throw by
    throw with who is lowest after each of them."""
    players = 1 + len(results) + later
    other = 1 / (players - 1)
    throws = [(RANK[(max(a, b), min(a, b))], 1 / 36) for a in range(1, 7) for b in range(1, 7)]
    top = RANK[(2, 1)]

    def grow(pot: int, rank: int) -> int:
        high, low = next((h, lo) for (h, lo), r in RANK.items() if r == rank)
        if rank == top:
            return 8 if pot == 1 else 2 * pot
        return pot + high if high == low else pot

    @functools.cache
    def turn(j: int, lowest: int, tied: int, me: bool, pot: int) -> float:
        if j == later:
            lose = 1 / tied if me else 0.0
            return pot * (lose - other * (1 - lose))
        return roll(j, 1, lowest, tied, me, pot)

    @functools.cache
    def roll(j: int, n: int, lowest: int, tied: int, me: bool, pot: int) -> float:
        total = 0.0
        for rank, p in throws:
            grown = grow(pot, rank)
            if rank <= lowest and n < limit and rank != top:
                total += p * roll(j, n + 1, lowest, tied, me, grown)
            elif rank < lowest:
                total += p * turn(j + 1, rank, 1, False, grown)
            elif rank == lowest:
                total += p * turn(j + 1, lowest, tied + 1, me, grown)
            else:
                total += p * turn(j + 1, lowest, tied, me, grown)
        return total

    lowest = min([mine, *results])
    return turn(0, lowest, [mine, *results].count(lowest), mine == lowest, pot)


def test_the_later_players_roll_against_whoever_is_lowest_before_them() -> None:
    # ana stands on 6-2 after two rolls: three players with two rolls each. Whoever goes
    # below her is the one the rest must beat, so they roll less, and the pot they grow
    # (drunk by whoever loses, which counts for ana too) grows less.
    options = {"keep": False, "knight": False, "stuck": False, "three_one": "low"}
    game = play(table("mexico", ["ana", "ben", "cy", "dan"], options), ("ana", (5, 4)))
    play(game, ("ana", (6, 2)))
    values = expected_penalties(game.view("ana"))
    exact = exact_pot_stand([], RANK[(6, 2)], 3, 2, 1)
    assert values["stand"] == pytest.approx(exact, abs=1e-12)


def test_no_ending_early_once_a_21_was_rolled() -> None:
    game = play(table("mexen", ["ana", "ben", "cy"]), ("ana", (2, 1)), ("ben", (3, 2)))
    view = game.view("ben")
    assert "endround" not in view["legal_moves"] and "endround" not in expected_penalties(view)


def handout_table(totals: dict[str, int], options: dict[str, Any] | None = None) -> Game:
    game = table("mexen", ["ana", "ben", "cy", "dan"], options)
    for player, sips in totals.items():
        game.players[player].totals = {"sip": sips}
    return play(game, ("ana", (3, 1)))


def test_the_hand_out_goes_to_the_leader() -> None:
    game = handout_table({"ben": 5, "cy": 1, "dan": 3})
    assert game.pending == "handout"
    assert chosen(game, "ana") == Move(Act.HANDOUT, to="cy")
    game = handout_table({"ben": 2, "cy": 4, "dan": 3})
    assert chosen(game, "ana") == Move(Act.HANDOUT, to="ben")


def test_in_a_lives_game_the_leader_has_the_most_lives() -> None:
    game = table("mexen", ["ana", "ben", "cy", "dan"], {"lives": True})
    game.players["ben"].lives, game.players["cy"].lives, game.players["dan"].lives = 2, 3, 6
    game.players["dan"].totals = {"sip": 9}
    play(game, ("ana", (3, 1)))
    assert chosen(game, "ana") == Move(Act.HANDOUT, to="dan")


def test_the_next_knight_is_the_leader() -> None:
    game = table("mexico", ["ana", "ben", "cy"])
    game.knight = "ana"
    game.players["ben"].totals = {"sip": 7}
    game.players["cy"].totals = {"sip": 2}
    play(game, ("ana", (1, 1)))
    assert game.pending == "knight"
    assert chosen(game, "ana") == Move(Act.KNIGHT, to="cy")


def test_the_knight_title_weighs_on_keeping_a_1() -> None:
    # Keeping the 1 of a 4-1 throws 1-1 one time in 6: that makes you the Knight, who sips
    # on every double until the next 1-1; the Knight's own 1-1 hands the title on.
    def first_roll_41(options: dict[str, Any], knight: str | None) -> Game:
        game = table("mexico", ["ana", "ben", "cy"], options)
        game.knight = knight
        return play(game, ("ana", (4, 1)))

    assert chosen(first_roll_41({"knight": False}, None), "ana") == Move(Act.KEEP, die=1)
    assert chosen(first_roll_41({}, None), "ana") == ROLL
    assert chosen(first_roll_41({}, "cy"), "ana") == ROLL
    assert chosen(first_roll_41({}, "ana"), "ana") == Move(Act.KEEP, die=1)
    plain = expected_penalties(first_roll_41({"knight": False}, None).view("ana"))["keep.1"]
    become = expected_penalties(first_roll_41({}, None).view("ana"))["keep.1"]
    shed = expected_penalties(first_roll_41({}, "ana").view("ana"))["keep.1"]
    # The 1-1 of the kept 1 alone: 14 sips behind the table (21 * 2/3) as the first
    # Knight, 20 ahead of it (21 less the sip) for the Knight who names the next.
    assert become - plain > 14 / 6 * 0.75
    assert shed < plain - 20 / 6 * 0.75


def title_long_run(players: int, throws: int) -> dict[str, float]:
    """My sips less the others' average over ``throws`` throws of a table where everyone
    throws alike and a Knight who throws 1-1 names any other alike, from each holder of
    the title (``me``, ``other``, ``none``), counted exactly throw by throw."""
    other = 1 / (players - 1)
    # A throw: 1-1 (1 in 36), another double d (1 in 36 each), or no double.
    value = {"me": 0.0, "other": 0.0, "none": 0.0}
    for _ in range(throws):
        me, them, none = value["me"], value["other"], value["none"]
        p_mine, p_knights = 1 / players, 1 / players  # my throw; the Knight's throw (other)
        value = {
            # I hold it: every double is my sip; any 1-1 costs my sip and passes it on.
            "me": (20 + 1) / 36 + (1 / 36) * them + (35 / 36) * me,
            # Another holds it: their sips count for me at 1/(players - 1) against me;
            # my 1-1 makes me the Knight, the Knight's 1-1 names me one time in
            # (players - 1), anyone else's 1-1 passes it between the others.
            "other": -(21 / 36) * other
            + (p_mine / 36) * me
            + (p_knights / 36) * (other * me + (1 - other) * them)
            + ((1 - p_mine - p_knights) / 36) * them
            + (35 / 36) * them,
            "none": (p_mine / 36) * me + ((1 - p_mine) / 36) * them + (35 / 36) * none,
        }
    return value


@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_knight_prices_are_the_title_s_long_run(players: int) -> None:
    # Holding the title rather than not is worth one tenure, 21 sips, at any table size;
    # while nobody holds it, the first holder falls 21 (players - 1) / players behind.
    run = title_long_run(players, 3000)
    assert run["me"] - run["other"] == pytest.approx(open_roll._KNIGHT_SIPS, abs=1e-6)
    assert run["me"] - run["none"] == pytest.approx(21 * (players - 1) / players, abs=1e-6)
    assert run["other"] - run["none"] == pytest.approx(-21 / players, abs=1e-6)
    # Each price is a throw's sips plus what it does to the title, so a throw, mine or a
    # later player's, where it changes nothing about the title on average costs nothing.
    me = open_roll._knight("me", players, 0.0)
    other = open_roll._knight("other", players, 1.0)
    counts = [1 if a == b else 2 for a, b in open_roll.ORDER]  # throws of 36 showing each
    assert sum(c * x for c, x in zip(counts, me.mine, strict=True)) == pytest.approx(0.0)
    assert me.their_one_one + 20 * me.their_die == pytest.approx(0.0)
    assert me.mine[open_roll._ONE_ONE] == pytest.approx(run["other"] - run["me"] + 1, abs=1e-6)
    # The Knight throwing after me names me one time in (players - 1).
    named = run["me"] - run["other"]
    assert other.their_one_one + 20 * other.their_die == pytest.approx(
        -21 / (players - 1) + named / (players - 1)
    )


def test_later_players_keep_no_1_where_the_knight_is_played() -> None:
    # ana is the Knight and stands on 6-5: the three after her have one roll each, so
    # nobody keeps. Rolling on gives them more rolls; were they to keep their lone 1s,
    # their 1-1s would take the title off her often enough to make that worth it.
    game = table("mexico", ["ana", "ben", "cy", "dan"])
    game.knight = "ana"
    play(game, ("ana", (6, 5)))
    assert chosen(game, "ana") == STAND
    r = open_roll._rules(game.view("ana")["options"])
    assert open_roll._their_keep(r) == (2,)
    assert open_roll._their_keep(r._replace(knight=False)) == (1, 2)
    assert open_roll._their_keep(r._replace(keep=False)) == ()


def test_risk_tips_close_calls_only() -> None:
    game = play(table("mexen", ["ana", "ben"]), ("ana", (6, 5)))
    values = expected_penalties(game.view("ana"))
    gap = values["roll"] - values["stand"]  # the stake is 1 sip
    assert 0 < gap < 1
    assert chosen(game, "ana") == STAND
    assert chosen(game, "ana", risk=gap - 0.01) == STAND
    assert chosen(game, "ana", risk=gap + 0.01) == ROLL
    # Cautious: a spot where rolling is better by a small margin.
    game = table("mexico", ["ana", "ben", "cy"], {"knight": False})
    play(game, ("ana", (6, 3)), ("ana", (5, 4)))
    values = expected_penalties(game.view("ana"))
    stake = game.pot
    gap = values["stand"] - values["roll"]
    assert 0 < gap < stake
    assert chosen(game, "ana") == ROLL
    assert chosen(game, "ana", risk=-(gap / stake) + 0.01) == ROLL
    assert chosen(game, "ana", risk=-(gap / stake) - 0.01) == STAND


# --- against play ------------------------------------------------------------------------------
def model_player(game: Game, rng: random.Random) -> Move:
    """A later player as the model assumes: rolls until above the lowest result standing,
    or out of rolls; never keeps, never ends early; hands out at random."""
    assert game.to_move is not None
    legal = game.legal_actions(game.to_move)
    targets = [m for m in legal if m.act in (Act.HANDOUT, Act.KNIGHT)]
    if targets:
        return rng.choice(targets)
    if len(legal) == 1:
        return legal[0]
    lowest = min((RANK[r] for r in game.results.values()), default=None)
    assert game.last is not None
    if ROLL in legal and (lowest is None or RANK[game.last] <= lowest):
        return ROLL
    return STAND


def play_out(text: str, mover: str, first: Move, seed: int) -> float:
    """Replay the round from ``text`` with ``first`` for ``mover``, the brain playing
    ``mover`` and the model the others; the round's penalty ``mover`` pays less the
    others' average."""
    game = Game.from_json(text)
    rng = random.Random(seed)
    mark, rounds = len(game.ledger), len(game.rounds)
    game.apply(mover, first, rng)
    while len(game.rounds) == rounds:
        if game.stuck:
            game.apply(next(p for p in game.seats if p != game.to_move), TAP)
        elif game.to_move == mover:
            move = decide(game.view(mover), rng)
            assert move is not None
            game.apply(mover, move, rng)
        else:
            game.apply(game.to_move, model_player(game, rng), rng)
    causes = ("lowest", "pot", "ended_early", "handed_out")
    other = 1 / (len(game.seats) - 1)
    lines = [p for p in game.ledger[mark:] if p.cause in causes]
    return sum(p.amount if p.player == mover else -other * p.amount for p in lines)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "options", "players", "steps", "mover"),
    [
        ("mexen", {"rolloff": False}, ["a", "b", "c", "d"], [("a", (5, 4))], "a"),
        (
            "mexicanen",
            {"rolloff": False},
            ["a", "b", "c"],
            [("a", (6, 2)), ("a", (5, 5)), ("a", "stand"), ("b", (6, 3))],
            "b",
        ),
        (
            "mexico",
            {"keep": False, "knight": False},
            ["a", "b", "c"],
            [("a", (6, 3)), ("a", (5, 4))],
            "a",
        ),
    ],
)
def test_expectations_match_play(
    preset: str, options: dict[str, Any], players: list[str], steps: list[Any], mover: str
) -> None:
    # Roll-offs are off where 21s thrown in them would raise the stake (not modelled),
    # keeping is off so the model player above plays exactly the model, and the Knight is
    # off: its tenure reaches beyond the round that is played out here.
    game = play(table(preset, players, options), *steps)
    values = expected_penalties(game.view(mover))
    text = game.to_json()
    for move, seed in ((STAND, 1), (ROLL, 2)):
        if move.encode() not in values:
            continue
        paid = [play_out(text, mover, move, seed * 1_000_003 + i) for i in range(3000)]
        mean = statistics.fmean(paid)
        error = statistics.stdev(paid) / len(paid) ** 0.5
        assert abs(mean - values[move.encode()]) < 4 * error, (move, mean, error, values)


# --- legality, over many random games ----------------------------------------------------------
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("mexen", {}),
    ("mexicanen", {}),
    ("mexico", {}),
    ("mexen", {"lives": True}),
    ("mexen", {"rolloff": False, "max_rolls": 2, "units": "points"}),
    ("mexen", {"three_one": "elbow", "keep": True, "max_rolls": 5, "cap": None}),
    ("mexen", {"knight": True, "stuck": True, "three_one": "social"}),
    ("mexicanen", {"keep": True, "stuck": True, "knight": True, "lives_per_mex": 1}),
    ("mexicanen", {"last_standing": True, "max_rolls": 1}),
    ("mexico", {"cap": 10}),
    ("mexico", {"three_one": "social", "first": "random"}),
    ("mexico", {"lives": 2, "rolloff": False}),
    ("mexico", {"three_one": "handout", "end_early": True, "max_rolls": 4}),
]


def random_games(
    preset: str, options: dict[str, Any], games: int
) -> Iterator[tuple[Game, str, random.Random]]:
    """Seeded games where half the moves are random and half the brain's, yielding every
    (game, seat) the brain is asked about: the player to move, and anyone offered TAP."""
    for seed in range(games):
        rng = random.Random(seed)
        players = [f"p{i}" for i in range(2 + seed % 5)]
        game = Game.create(preset, players[0], options)
        for player in players[1:]:
            game.join(player)
        game.start(players[0], rng)
        for _ in range(120):
            if game.phase != "playing":
                break
            assert game.to_move is not None
            yield game, game.to_move, rng
            if game.stuck:
                for seat in [p for p in game.seats if p != game.to_move]:
                    yield game, seat, rng
            if game.stuck and rng.random() < 0.5:
                game.apply(rng.choice([p for p in game.seats if p != game.to_move]), TAP)
                continue
            mover = game.to_move
            assert mover is not None
            if rng.random() < 0.5:
                move = decide(game.view(mover), rng)
                assert move is not None
            else:
                move = rng.choice(game.legal_actions(mover))
            game.apply(mover, move, rng)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "options"), CONFIGS)
def test_only_legal_moves_in_random_games(preset: str, options: dict[str, Any]) -> None:
    asked = taps = 0
    for game, seat, rng in random_games(preset, options, 40):
        view = game.view(seat)
        move = decide(view, rng, risk=rng.choice((-0.3, 0.0, 0.3)))
        asked += 1
        if seat == game.to_move:
            assert move is not None, view
        if move is not None:
            assert move.encode() in view["legal_moves"], (move, view)
            taps += move.act is Act.TAP
    assert asked > 500
    if options.get("stuck") or preset == "mexico":
        assert taps > 0


# --- the view, and nothing else ----------------------------------------------------------------
class RecordingView(Mapping[str, Any]):
    """A view that notes which fields are read."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        self.read.add("<every field>")
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


@pytest.mark.slow
def test_it_decides_from_the_view_alone() -> None:
    fields: set[str] = set()
    for preset in ("mexen", "mexicanen", "mexico"):
        for game, seat, _ in random_games(preset, {}, 6):
            view = game.view(seat)
            before = json.dumps(view, sort_keys=True)
            recording = RecordingView(view)
            move = decide(recording, random.Random(1))
            fields |= recording.read
            # Plain data in, the same move out: nothing but the view's contents matters,
            # whatever the random source, and the view is left as it was.
            assert decide(json.loads(before), random.Random(2)) == move
            assert json.dumps(view, sort_keys=True) == before
    assert fields, "the brain must read the view"
    hidden_or_history = {"cup", "seen_by", "ledger", "rounds", "<every field>"}
    assert not fields & hidden_or_history, fields & hidden_or_history
    assert "last" in fields and "results" in fields


# --- against the baseline ----------------------------------------------------------------------
def baseline(view: Mapping[str, Any], rng: random.Random) -> Move | None:
    """Always stand after the first roll; hand out or name the Knight at random; no TAP."""
    legal = view["legal_moves"]
    if not legal or view["to_move"] != view["viewer"]:
        return None
    targets = [m for m in legal if m.startswith(("handout.", "knight."))]
    if targets:
        return Move.decode(rng.choice(targets))
    return STAND if "stand" in legal else Move.decode(legal[0])


def arena(preset: str, seats: dict[str, Brain], games: int, rounds: int) -> dict[str, float]:
    """Penalties per round for each seat over seeded games (lives in lives games, else
    every sip: hand-outs, the Knight and the pot included)."""
    paid = dict.fromkeys(seats, 0)
    played = 0
    for seed in range(games):
        rng = random.Random(10_000 + seed)
        game = Game.create(preset, "ai", {})
        for player in list(seats)[1:]:
            game.join(player)
        game.start("ai", rng)
        while game.phase == "playing" and len(game.rounds) < rounds:
            if game.stuck:
                tapper = next(
                    (p for p in game.seats if p != game.to_move and seats[p](game.view(p), rng)),
                    None,
                )
                if tapper is not None:
                    game.apply(tapper, TAP)
                    continue
            mover = game.to_move
            assert mover is not None
            move = seats[mover](game.view(mover), rng)
            assert move is not None
            game.apply(mover, move, rng)
        played += len(game.rounds)
        lives = game.options.lives is not None
        for line in game.ledger:
            if (line.unit == "life") == lives:
                paid[line.player] += line.amount
    return {player: amount / played for player, amount in paid.items()}


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["mexen", "mexicanen", "mexico"])
def test_fewer_penalties_than_always_standing(preset: str) -> None:
    per_round = arena(
        preset, {"ai": decide, "b1": baseline, "b2": baseline, "b3": baseline}, 300, 10
    )
    others = statistics.fmean(per_round[p] for p in ("b1", "b2", "b3"))
    print(f"{preset}: brain {per_round['ai']:.3f} per round, baseline {others:.3f}")
    # Over batches of 300 games the ratio ran 0.73-0.88 (mean 0.83); 0.95 leaves room for
    # the dice without letting a brain no better than the baseline pass.
    assert per_round["ai"] < 0.95 * others, per_round
