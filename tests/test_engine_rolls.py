"""README, Rule sets: the rolls, their order, names, spellings and odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.engine import ORDER, RANK, Game, InvalidClaim, code, make_roll, parse_roll
from bot.engine.rolls import chance_to_beat, name, odds_in_36
from bot.present.i18n import talk
from bot.present.screens import error_text


def test_there_are_21_rolls_from_31_up_to_21() -> None:
    assert len(ORDER) == 21 == len(set(ORDER))
    assert [code(r) for r in ORDER] == [
        "31",
        "32",
        "41",
        "42",
        "43",
        "51",
        "52",
        "53",
        "54",
        "61",
        "62",
        "63",
        "64",
        "65",
        "11",
        "22",
        "33",
        "44",
        "55",
        "66",
        "21",
    ]


def test_a_roll_is_read_high_die_first() -> None:
    assert make_roll(4, 6) == (6, 4) == make_roll(6, 4)
    assert make_roll(1, 2) == (2, 1)


def test_doubles_beat_every_non_double_and_21_beats_all() -> None:
    doubles = [r for r in ORDER if r[0] == r[1]]
    plain = [r for r in ORDER if r[0] != r[1] and r != (2, 1)]
    assert min(RANK[d] for d in doubles) > max(RANK[p] for p in plain)
    assert RANK[(2, 1)] == max(RANK.values())
    assert RANK[(6, 6)] > RANK[(1, 1)]


def test_chances_double_one_in_36_others_two_in_36() -> None:
    assert sum(odds_in_36(r) for r in ORDER) == 36
    assert odds_in_36((5, 5)) == 1 and odds_in_36((2, 1)) == 2 and odds_in_36((6, 5)) == 2


def test_odds_are_out_of_34_where_a_31_is_rolled_again() -> None:
    # 54 or better: 54 itself and every roll above it.
    assert chance_to_beat((5, 4), reroll_three_one=False) == Fraction(2 * 6 + 6 + 2, 36)
    assert chance_to_beat((5, 4), reroll_three_one=True) == Fraction(20, 34)
    assert chance_to_beat((2, 1), reroll_three_one=True, ties_win=False) == 0


@pytest.mark.parametrize(
    ("preset", "top"),
    [
        ("mexican", "Mexican"),
        ("dollar", "Mexican"),
        ("mexen", "Mex"),
        ("mexicanen", "Mex"),
        ("mexico", "Mexico"),
    ],
)
def test_top_roll_has_the_rule_sets_own_name(preset: str, top: str) -> None:
    assert Game.create(preset, "ana").say((2, 1)) == top


def test_display_words_in_us_presets_and_numbers_in_dutch_presets() -> None:
    assert Game.create("mexican", "a").say((5, 5)) == "double five"
    assert Game.create("dollar", "a").say((6, 5)) == "sixty-five"
    assert Game.create("mexen", "a").say((5, 5)) == "500"
    assert Game.create("mexico", "a").say((6, 5)) == "65"


def test_a_31_is_shown_by_its_role() -> None:
    assert Game.create("mexican", "a").say((3, 1)) == "Social"
    assert Game.create("mexen", "a").say((3, 1)) == "3-1, hand out a sip"
    assert Game.create("mexico", "a").say((3, 1)) == "Elbow"
    assert name((3, 1), "numbers", "Mex", "low") == "31"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("65", (6, 5)),
        ("6-5", (6, 5)),
        ("6 5", (6, 5)),
        ("6:5", (6, 5)),
        ("6/5", (6, 5)),
        ("56", (6, 5)),
        ("55", (5, 5)),
        ("5-5", (5, 5)),
        ("500", (5, 5)),
        ("double 5", (5, 5)),
        ("double five", (5, 5)),
        ("21", (2, 1)),
        ("12", (2, 1)),
        ("1000", (2, 1)),
        ("mex", (2, 1)),
        ("Mexican", (2, 1)),
        ("MEXICO", (2, 1)),
        ("mia", (2, 1)),
        ("sixty-five", (6, 5)),
        ("  forty two ", (4, 2)),
        ("100", (1, 1)),
    ],
)
def test_claims_accept_every_reasonable_spelling(text: str, expected: tuple[int, int]) -> None:
    assert parse_roll(text) == expected


@pytest.mark.parametrize("text", ["77", "hello", "650", "double 7", "0-1", "7", "", "6-5-4"])
def test_unreadable_claims_are_refused_with_the_valid_spellings(text: str) -> None:
    with pytest.raises(InvalidClaim) as err:
        parse_roll(text)
    english = error_text(err.value, talk("en"))
    assert "for example" in english and "double five" in english


def test_31_is_a_claimable_result_only_in_dollar_and_mexicanen_rule_sets() -> None:
    from .engine_helpers import ScriptedDice

    for preset, claimable in (("dollar", True), ("mexican", False)):
        game = Game.create(preset, "ana")
        game.join("ben")
        game.start("ana", ScriptedDice())
        game.roll("ana", ScriptedDice([4, 1]))
        assert ((3, 1) in game.valid_claims()) is claimable
