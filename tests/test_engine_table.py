"""Scenarios (README, Rule sets) the worked examples leave out: options mixed across rule sets,
table rules (lobby, host, stale clicks, timers, units), secrecy and saved games."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import (
    PRESETS,
    Act,
    BadOptions,
    Cause,
    Dice,
    Game,
    GameError,
    GameOver,
    IllegalMove,
    Move,
    NotInGame,
    NotYourTurn,
    Options,
    Revealed,
    StaleAction,
    TableFull,
    make_options,
    parse_roll,
)
from bot.present.i18n import talk
from bot.present.screens import error_text
from bot.present.words import Words

from .engine_helpers import ScriptedDice


def started(preset: str, players: list[str], **options: object) -> Game:
    game = Game.create(preset, players[0], dict(options))
    for player in players[1:]:
        game.join(player)
    game.start(players[0], ScriptedDice())
    return game


def dice(*values: int) -> ScriptedDice:
    return ScriptedDice(list(values))


def refused(
    game: Game,
    error: type[GameError],
    act: str,
    player: str,
    *,
    value: str | None = None,
    to: str | None = None,
    expect_move: int | None = None,
) -> str:
    before = game.to_dict()
    move = Move(Act(act), roll=parse_roll(value) if value else None, to=to)
    with pytest.raises(error) as err:
        game.apply(player, move, ScriptedDice(), expect_move=expect_move)
    assert game.to_dict() == before
    return error_text(err.value, talk("en"), Words.of(game))


# --- options and presets -------------------------------------------------------------------


def test_presets_differ_in_data_not_code() -> None:
    mexican, dollar = make_options("mexican"), make_options("dollar")
    assert (mexican.ties, dollar.ties) == (True, False)
    assert (mexican.pass_unrolled, dollar.pass_unrolled) == (False, True)
    assert make_options("mexico").max_players == 8
    assert make_options("mexicanen").last_standing is False


def test_lives_option_true_means_the_presets_own_count() -> None:
    assert make_options("mexican", {"lives": True}).lives == 4
    assert make_options("mexen", {"lives": True}).lives == 6
    assert make_options("mexen", {"lives": 3}).lives == 3
    assert make_options("mexican", {"lives": False}).lives is None


def test_impossible_option_mixes_are_refused_with_a_reason() -> None:
    with pytest.raises(BadOptions, match="lives-required"):
        make_options("dollar", {"lives": False})
    with pytest.raises(BadOptions, match="three-one-not-allowed"):
        make_options("mexican", {"three_one": "elbow"})
    with pytest.raises(BadOptions, match="unknown-options"):
        make_options("mexen", {"colour": "red"})
    with pytest.raises(BadOptions, match="unknown-preset"):
        make_options("yahtzee")


# --- lobby, host, seats ------------------------------------------------------------------------


def test_lobby_join_leave_and_host_handover() -> None:
    game = Game.create("mexen", "ana")
    game.join("ben")
    refused(game, IllegalMove, "join", "ben")
    refused(game, NotYourTurn, "start", "ben")
    game.leave("ana")
    assert game.host == "ben" and game.seats == ["ben"]
    refused(game, IllegalMove, "start", "ben")
    game.join("cas")
    game.start("ben", ScriptedDice())
    assert game.to_move == "ben" and game.phase == "playing"


def test_table_size_is_capped_and_mexico_counts_the_waiting() -> None:
    game = Game.create("mexico", "p0")
    for i in range(1, 8):
        game.join(f"p{i}")
    assert refused(game, TableFull, "join", "p8").startswith("The table is full")


def test_first_starter_random_in_a_bluffing_game() -> None:
    game = Game.create("dollar", "ana", {"first": "random"})
    game.join("ben")
    game.join("cas")
    game.start("ana", ScriptedDice(pick=2))
    assert game.to_move == "cas"


def test_only_the_host_ends_a_game_unless_forced() -> None:
    game = started("mexico", ["ana", "ben"])
    refused(game, NotYourTurn, "end", "ben")
    game.apply("ben", Move(Act.END), force=True)
    assert game.phase == "over" and game.winner is None
    refused(game, GameOver, "roll", "ana")


def test_a_stale_button_is_refused_and_changes_nothing() -> None:
    game = started("mexican", ["ana", "ben"])
    seen = game.move_no
    game.roll("ana", dice(6, 5))
    message = refused(game, StaleAction, "claim", "ana", value="65", expect_move=seen)
    assert "earlier" in message
    game.apply("ana", Move(Act.CLAIM, roll=(6, 5)), expect_move=game.move_no)
    assert game.standing == (6, 5)


def test_strangers_and_waiting_players_cannot_move() -> None:
    game = started("mexen", ["ana", "ben"])
    game.join("dan")
    refused(game, NotInGame, "roll", "zed")
    refused(game, NotInGame, "roll", "dan")
    refused(game, NotYourTurn, "roll", "ben")


def test_a_waiting_joiner_can_leave_the_queue() -> None:
    game = started("mexico", ["ana", "ben"])
    game.join("dan")
    game.leave("dan")
    assert game.waiting == [] and game.players["dan"].status == "gone"


def test_a_no_lives_game_left_with_one_player_ends_without_winner() -> None:
    game = started("mexen", ["ana", "ben"])
    game.leave("ben")
    assert game.phase == "over" and game.winner is None


def test_a_lives_game_left_with_one_player_is_won_by_that_player() -> None:
    game = started("mexicanen", ["ana", "ben"])
    game.leave("ana")
    assert game.phase == "over" and game.winner == "ben"


# --- bluffing extras ------------------------------------------------------------------------


def test_mexican_tiers_in_points_are_1_2_and_4() -> None:
    game = started("mexican", ["ana", "ben"], units="points")
    game.roll("ana", dice(6, 2))
    game.claim("ana", "55")
    game.bullshit("ben")  # ana caught on a double: a shot = 2 points
    game.roll("ben", dice(6, 2))
    game.claim("ben", "mex")
    game.bullshit("ana")  # ben caught on 21: a chug = 4 points
    assert [(p.player, p.unit, p.amount) for p in game.ledger] == [
        ("ana", "point", 2),
        ("ben", "point", 4),
    ]


def test_bluff_penalties_carry_their_cause_and_who_caused_them() -> None:
    game = started("mexican", ["ana", "ben"])
    game.roll("ana", dice(6, 2))
    game.claim("ana", "55")
    game.bullshit("ben")
    line = game.ledger[-1]
    assert line.cause == Cause.CAUGHT and line.detail == {"claim": "55", "cup": "62"}
    assert line.by == "ben"
    assert line.unit == "shot" and line.round == 1


def test_a_claim_refusal_says_what_would_be_valid() -> None:
    game = started("dollar", ["ana", "ben"])
    game.roll("ana", dice(6, 4))
    game.claim("ana", "64")
    game.roll("ben", dice(5, 2))
    message = refused(game, GameError, "claim", "ben", value="63")
    assert "does not beat" in message and "sixty-five" in message


def test_secrecy_only_the_roller_sees_the_cup() -> None:
    game = started("mexican", ["ana", "ben", "cas"])
    events = game.roll("ana", dice(6, 2))
    assert game.view("ana")["cup"] == [6, 2]
    assert game.view("ben")["cup"] is None and game.view(None)["cup"] is None
    assert [e.kind for e in game.visible_events(events, "ben")] == ["rolled", "turn"]
    assert [e for e in events if e.kind == "dice"] == [Dice("ana", "62", to="ana")]
    assert all(e.to == "ana" for e in events if e.kind == "dice")
    game.claim("ana", "62")
    game.accept("ben")
    assert game.view("ben")["cup"] is None  # accepting is not seeing


def test_secrecy_a_blind_roll_is_hidden_from_the_roller_too() -> None:
    game = started("dollar", ["ana", "ben"])
    events = game.roll("ana", dice(5, 5), blind=True)
    assert game.view("ana")["cup"] is None
    assert not [e for e in events if e.kind == "dice"]
    assert Move(Act.ROLL_BLIND) not in game.legal_actions("ana")


def test_after_the_call_the_cup_is_shown_to_everyone() -> None:
    game = started("dollar", ["ana", "ben"])
    game.roll("ana", dice(4, 2))
    game.claim("ana", "62")
    events = game.bullshit("ben")
    reveal = next(e for e in events if isinstance(e, Revealed))
    assert reveal.to is None and reveal.dice == "42" and reveal.bluff


def test_timeout_twice_removes_from_an_open_game() -> None:
    game = started("mexen", ["ana", "ben", "cas"])
    game.timeout("ana", dice(6, 5))
    game.roll("ben", dice(5, 2))
    game.stand("ben")
    game.roll("cas", dice(4, 3))
    game.stand("cas")
    # ben's 52 and ana's 65 beat cas's 43: cas starts round two, then ana moves.
    game.roll("cas", dice(6, 6))
    game.stand("cas")
    assert game.to_move == "ana" and game.players["ana"].timeouts == 1
    game.timeout("ana", dice(4, 1))
    assert "ana" not in game.seats and game.players["ana"].status == "gone"


def test_any_move_resets_the_timeout_count() -> None:
    game = started("mexican", ["ana", "ben"])
    game.timeout("ana", ScriptedDice())
    assert game.players["ana"].timeouts == 1
    game.roll("ben", dice(6, 5))
    game.claim("ben", "65")
    game.accept("ana")
    assert game.players["ana"].timeouts == 0


# --- open rolls extras -----------------------------------------------------------------------


def test_rolloff_off_makes_the_later_tied_roll_lose() -> None:
    game = started("mexen", ["ana", "ben", "cas"], rolloff=False)
    for player, pair in (("ana", (4, 1)), ("ben", (6, 5)), ("cas", (4, 1))):
        game.roll(player, dice(*pair))
        if game.to_move == player:
            game.stand(player)
    assert game.rounds[-1][1] == "cas"


def test_social_as_a_house_rule_in_an_open_game() -> None:
    game = started("mexen", ["ana", "ben"], three_one="social")
    game.roll("ana", dice(3, 1))
    assert sorted((p.player, p.amount) for p in game.ledger) == [("ana", 1), ("ben", 1)]
    acts = {m.act for m in game.legal_actions("ana")}
    assert Act.STAND not in acts and Act.ROLL in acts


def test_knight_choice_is_refused_for_self_and_strangers() -> None:
    game = started("mexico", ["ana", "ben"])
    game.roll("ana", dice(1, 1))
    game.roll("ana", dice(1, 1))
    assert game.legal_actions("ana") == [Move(Act.KNIGHT, to="ben")]
    refused(game, IllegalMove, "knight", "ana", to="zed")
    game.choose_knight("ana", "ben")
    assert game.knight == "ben"


def test_mexicanen_loser_at_zero_ends_the_game_with_a_loser() -> None:
    game = started("mexicanen", ["ana", "ben"], lives=1)
    game.roll("ana", dice(4, 1))
    game.stand("ana")
    game.roll("ben", dice(6, 5))
    game.stand("ben")
    assert (game.phase, game.loser, game.winner) == ("over", "ana", None)


# --- persistence -----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["mexican", "dollar", "mexen", "mexicanen", "mexico"])
def test_saved_game_loads_identical_with_hidden_dice(preset: str) -> None:
    game = started(preset, ["ana", "ben", "cas"])
    game.roll("ana", random.Random(7))
    text = game.to_json()
    loaded = Game.from_json(text)
    assert loaded.to_dict() == game.to_dict()
    assert json.loads(text)["version"] == 2
    if preset in ("mexican", "dollar"):
        assert loaded.cup == game.cup is not None


def test_a_version_1_state_still_loads_and_plays_on() -> None:
    """Games saved before causes became codes resume after an upgrade; their old cause
    text stays as it was written."""
    game = started("mexen", ["ana", "ben"])
    game.roll("ana", dice(5, 4))
    game.end_round("ana")
    data = game.to_dict()
    data["version"] = 1
    for line in data["ledger"]:
        del line["detail"]
        line["cause"] = "ended the round early"
    data["rounds"] = [[1, "ana", "end early"]]
    loaded = Game.from_dict(data)
    assert loaded.ledger[0].cause == "ended the round early" and loaded.ledger[0].detail == {}
    assert loaded.rounds == [(1, "ana", "end_early")]
    loaded.roll("ana", dice(6, 6))
    assert loaded.to_dict()["version"] == 2


def test_an_unknown_state_version_is_refused() -> None:
    data = Game.create("mexen", "ana").to_dict()
    data["version"] = 99
    with pytest.raises(ValueError, match="version"):
        Game.from_dict(data)


# --- purity -----------------------------------------------------------------------------------


def test_engine_imports_no_discord() -> None:
    engine = Path(__file__).resolve().parents[1] / "bot" / "engine"
    for source in engine.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert "import discord" not in text and "from discord" not in text, source.name
    probe = "import sys, bot.engine; print(any(m.split('.')[0] == 'discord' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_engine_reads_no_clock_and_no_global_random() -> None:
    engine = Path(__file__).resolve().parents[1] / "bot" / "engine"
    for source in engine.glob("*.py"):
        text = source.read_text(encoding="utf-8")
        for banned in (
            r"\bimport time\b",
            r"\bdatetime\b",
            r"\brandom\.(randint|choice|random)\(",
            r"(?<![\w.])open\(",
        ):
            assert not re.search(banned, text), f"{source.name} matches {banned}"


def test_forgetting_old_rounds_keeps_totals_and_the_current_round() -> None:
    game = started("mexican", ["ana", "ben"])
    for _ in range(3):
        mover = game.to_move
        assert mover is not None
        game.roll(mover, dice(6, 2))
        game.claim(mover, "55")
        game.bullshit(game.to_move)  # type: ignore[arg-type]
    totals = game.summary()
    assert len(game.ledger) == 3 and game.round_no == 4
    game.forget_before(game.round_no)
    assert game.ledger == [] and game.rounds == []
    assert game.summary() == totals and sum(totals[p]["shot"] for p in totals) == 3
    assert Game.from_json(game.to_json()).to_dict() == game.to_dict()


def test_mexen_ending_early_costs_no_more_than_losing_under_the_cap() -> None:
    """The cap bounds the loser's sips, and whoever ends a round early is its loser
    (README, Rule sets: mexen): with base 5 and cap 4 both cost 4."""
    game = started("mexen", ["ana", "ben"], base=5, cap=4)
    game.roll("ana", dice(6, 5))
    game.end_round("ana")
    assert [(p.player, p.unit, p.amount, p.cause) for p in game.ledger] == [
        ("ana", "sip", 4, Cause.ENDED_EARLY)
    ]
    game.roll("ana", dice(4, 3))
    game.stand("ana")
    game.roll("ben", dice(6, 6))
    game.stand("ben")
    assert game.ledger[-1].amount == 4 and game.ledger[-1].cause == Cause.LOWEST
    assert game.players["ana"].totals == {"sip": 8}


def test_ending_early_below_the_cap_costs_the_base() -> None:
    game = started("mexen", ["ana", "ben"], base=2, cap=4)
    game.roll("ana", dice(5, 4))
    game.end_round("ana")
    assert game.ledger[-1].amount == 2


# --- computer players ----------------------------------------------------------------------


def test_the_host_seats_and_removes_computers_in_the_lobby_only() -> None:
    game = Game.create("mexen", "ana")
    game.join("ben")
    refused(game, NotYourTurn, "addbot", "ben", to="cpu_expert_1")
    game.apply("ana", Move(Act.ADD_COMPUTER, to="cpu_expert_1"))
    refused(game, IllegalMove, "addbot", "ana", to="cpu_expert_1")  # already seated
    assert game.seats == ["ana", "ben", "cpu_expert_1"] and game.computers == ["cpu_expert_1"]
    game.apply("ana", Move(Act.REMOVE_COMPUTER, to="cpu_expert_1"))
    assert game.computers == [] and "cpu_expert_1" not in game.players
    game.apply("ana", Move(Act.ADD_COMPUTER, to="cpu_bold_1"))
    game.start("ana", ScriptedDice())
    refused(game, IllegalMove, "addbot", "ana", to="cpu_expert_2")
    refused(game, IllegalMove, "removebot", "ana", to="cpu_bold_1")


def test_computers_alone_never_play() -> None:
    """A game needs a person at the table; when the last person leaves, it ends."""
    game = Game.create("dollar", "ana")
    game.add_computer("ana", "cpu_expert_1")
    game.add_computer("ana", "cpu_bold_1")
    game.leave("ana")  # the only person leaves the lobby
    assert game.phase == "over"
    game = Game.create("dollar", "ana")
    game.add_computer("ana", "cpu_expert_1")
    game.add_computer("ana", "cpu_bold_1")
    game.start("ana", ScriptedDice())
    game.leave("ana")
    assert game.phase == "over" and game.winner is None


def test_the_host_role_never_passes_to_a_computer() -> None:
    game = Game.create("mexen", "ana")
    game.add_computer("ana", "cpu_expert_1")
    game.join("ben")
    game.leave("ana")
    assert game.host == "ben"


def test_options_read_back_are_shared_and_exact() -> None:
    """Restoring games shares one Options per set of stored options (README, Benchmarks),
    and never hands a table options that differ from what was stored."""
    stored = PRESETS["mexen"].to_dict()
    first = Options.from_dict(dict(stored))
    assert first == PRESETS["mexen"]
    assert Options.from_dict(dict(stored)) is first
    # 1 and True are equal dict keys; the options they make are not the same.
    ones = {**stored, "keep": 1}
    assert Options.from_dict(ones).keep == 1
    assert Options.from_dict(ones).keep is not True
    assert Options.from_dict({**stored, "keep": True}).keep is True
    other = Options.from_dict({**stored, "turn_timer": 30})
    assert other.turn_timer == 30 and first.turn_timer == stored["turn_timer"]
