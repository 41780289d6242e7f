"""Refusals as data (README, The engine): every refusal carries a key and its params, and its
English text comes from en.ftl like every other language's (README, Languages).

Two checks that meet in the middle: the engine's source is read for every raise site (its
key and the params it passes), and every key is also played until the engine refuses with
it, so the English the players read is pinned word for word and the params are seen as the
presenter gets them.
"""

from __future__ import annotations

import ast
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine import (
    ORDER,
    Act,
    BadOptions,
    Game,
    GameError,
    GameOver,
    IllegalMove,
    InvalidClaim,
    Move,
    NotInGame,
    NotYourTurn,
    StaleAction,
    TableFull,
    code,
    errors,
    make_options,
    parse_roll,
)
from bot.engine.maexchen import Loss, MiaRound
from bot.engine.rolls import SPELLINGS
from bot.engine.state import PlayerState
from bot.present.i18n import talk
from bot.present.screens import error_text
from tests.test_languages import _messages, _variables

from .engine_helpers import ScriptedDice

ENGINE = Path(__file__).resolve().parent.parent / "bot" / "engine"
REFUSALS = {
    name
    for name, obj in vars(errors).items()
    if isinstance(obj, type) and issubclass(obj, GameError)
}
KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CODES = {code(roll) for roll in ORDER}


# --- the raise sites, read from the source ---------------------------------------------------


def raise_sites() -> tuple[list[tuple[str, str, frozenset[str]]], list[str]]:
    """(where, key, param names) of every refusal the engine raises, and what is wrong with
    the raise sites that name no key or hide their params."""
    sites: list[tuple[str, str, frozenset[str]]] = []
    wrong: list[str] = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Raise):
                continue
            where, exc = f"{path.name}:{node.lineno}", node.exc
            if isinstance(exc, ast.Name) and exc.id in REFUSALS:
                wrong.append(f"{where}: a refusal with no key")
            if not (isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name)):
                continue
            if exc.func.id not in REFUSALS:
                continue
            key = exc.args[0] if len(exc.args) == 1 else None
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                wrong.append(f"{where}: the key must be the one positional argument, written out")
                continue
            names = [kw.arg for kw in exc.keywords]
            if None in names:
                wrong.append(f"{where}: params must be named one by one, not **spread")
            sites.append((where, key.value, frozenset(n for n in names if n is not None)))
    return sites, wrong


SITES, WRONG = raise_sites()


ENGLISH = {
    key.removeprefix("error-"): message
    for key, message in _messages("en").items()
    if key.startswith("error-")
}


def catalog_fields(params: frozenset[str]) -> set[str]:
    """The params a catalog reads: a roll's ``_said`` wording is the engine's, for logs."""
    return {p for p in params if not p.endswith("_said")}


def test_every_key_is_raised_and_every_raised_key_has_english() -> None:
    assert WRONG == []
    assert len(SITES) >= 80  # the walk found the raise sites (no silent miss of a file)
    assert {key for _, key, _ in SITES} == set(ENGLISH)


@pytest.mark.parametrize(("where", "key", "params"), SITES, ids=[s[0] for s in SITES])
def test_each_raise_site_fills_its_english_message_exactly(
    where: str, key: str, params: frozenset[str]
) -> None:
    assert KEY.match(key) and len(key) <= 24, f"{where}: {key!r} is no short hyphenated key"
    assert key in ENGLISH, f"{where}: {key!r} has no English message"
    for said in (p for p in params if p.endswith("_said")):
        assert said.removesuffix("_said") in params, f"{where}: {said} words no roll passed"
    fields = _variables(ENGLISH[key])
    wanted = catalog_fields(params)
    assert fields == wanted, (
        f"{where}: {key!r} passes {sorted(wanted)} but its English reads {sorted(fields)}"
    )


def test_all_sites_of_a_key_pass_the_same_params() -> None:
    by_key: dict[str, set[frozenset[str]]] = {}
    for _, key, params in SITES:
        by_key.setdefault(key, set()).add(params)
    assert {k: v for k, v in by_key.items() if len(v) > 1} == {}


def test_one_message_one_key() -> None:
    texts = [str(message.value) for message in ENGLISH.values()]
    assert len(texts) == len(set(texts)), "two keys for the same message"


# --- every refusal, played ---------------------------------------------------------------------


def dice(*values: int) -> ScriptedDice:
    return ScriptedDice(list(values))


def lobby(preset: str, *others: str, **options: Any) -> Game:
    game = Game.create(preset, "ana", options)
    for player in others:
        game.join(player)
    return game


def started(preset: str, *others: str, **options: Any) -> Game:
    game = lobby(preset, *(others or ("ben",)), **options)
    game.start("ana", ScriptedDice())
    return game


def rolled(preset: str, *rolls: tuple[int, int], **options: Any) -> Game:
    """``ana``, first to move, has rolled ``rolls`` (a 6-5 if none given)."""
    game = started(preset, **options)
    for roll in rolls or ((6, 5),):
        game.roll("ana", dice(*roll))
    return game


def claimed(preset: str, claim: str, *others: str) -> Game:
    """``ana`` rolled a 6-5 under the cup and claimed ``claim``; ``ben`` is to answer."""
    game = started(preset, *others)
    game.roll("ana", dice(6, 5))
    game.claim("ana", claim)
    return game


def play(game: Game, player: str, move: Move) -> object:
    return game.apply(player, move, ScriptedDice())


def over() -> Game:
    game = started("mexen")
    game.end("ana")
    return game


def out_player_joins() -> object:
    game = lobby("mexen")
    game.players["ben"] = PlayerState(status="out")  # as a saved table may hold it
    return game.join("ben")


def computers_alone_start() -> object:
    game = lobby("mexen")
    game.add_computer("ana", "cpu_expert_1")
    game.add_computer("ana", "cpu_bold_1")
    game.seats.remove("ana")  # only a hand-edited save seats computers alone
    return game.start("ana", ScriptedDice())


def computer_seated_twice() -> object:
    game = lobby("mexen")
    game.add_computer("ana", "cpu_expert_1")
    return game.add_computer("ana", "cpu_expert_1")


def old_button() -> object:
    game = started("mexen")
    return game.apply("ana", Move(Act.ROLL), dice(6, 5), expect_move=game.move_no - 1)


def low_claim() -> object:
    game = claimed("dollar", "65")
    game.accept("ben")
    game.roll("ben", dice(4, 3))
    return game.claim("ben", "54")


def pass_after_top() -> object:
    game = claimed("dollar", "21")
    game.accept("ben")
    return game.pass_cup("ben", "21")


def knight_to_name() -> Game:
    """``ana`` rolled 1-1 twice in ``mexico``: she must name the next Knight."""
    game = rolled("mexico", (1, 1), (1, 1))
    assert game.pending == "knight"
    return game


def rolloff() -> Game:
    """``ana`` and ``ben`` tied on 6-5 in ``mexen``: a roll-off is under way."""
    game = rolled("mexen")
    game.stand("ana")
    game.roll("ben", dice(6, 5))
    game.stand("ben")
    assert game.rolloff is not None and game.to_move is not None
    return game


def end_after_top() -> object:
    game = rolled("mexen", (6, 5), (2, 1))  # a 21 on her last roll: the limit is 2
    game.roll("ben", dice(6, 5))
    return game.end_round("ben")


Scenario = Callable[[], object]

#: Every refusal: its key, its kind, the exact English players read (as worded before
#: refusals had keys) and a way to meet it in play.
PLAYED: list[tuple[str, type[GameError], str, Scenario]] = [
    # the table
    ("game-over", GameOver, "This game is over.", lambda: over().join("zed")),
    ("already-over", GameOver, "This game is already over.", lambda: over().end("ana")),
    (
        "not-started",
        IllegalMove,
        "The game has not started yet.",
        lambda: play(lobby("mexen", "ben"), "ana", Move(Act.ROLL)),
    ),
    (
        "already-started",
        IllegalMove,
        "This game has already started.",
        lambda: started("mexen").start("ana", ScriptedDice()),
    ),
    (
        "not-in-game",
        NotInGame,
        "You're not in this game.",
        lambda: play(started("mexen"), "zed", Move(Act.ROLL)),
    ),
    (
        "not-your-turn",
        NotYourTurn,
        "It's not your turn: it's ana's move.",
        lambda: play(started("mexen"), "ben", Move(Act.ROLL)),
    ),
    (
        "already-in-game",
        IllegalMove,
        "You're already in this game.",
        lambda: lobby("mexen").join("ana"),
    ),
    ("out-of-game", IllegalMove, "You're out of this game.", out_player_joins),
    (
        "table-full",
        TableFull,
        "The table is full (2 players at most).",
        lambda: lobby("mexen", "ben", max_players=2).join("cas"),
    ),
    (
        "lives-game-closed",
        IllegalMove,
        "A running game played for lives takes no new players.",
        lambda: started("dollar").join("cas"),
    ),
    (
        "host-starts",
        NotYourTurn,
        "Only the host can start the game.",
        lambda: lobby("mexen", "ben").start("ben", ScriptedDice()),
    ),
    (
        "host-ends",
        NotYourTurn,
        "Only the host can end the game.",
        lambda: started("mexen").end("ben"),
    ),
    (
        "too-few-players",
        IllegalMove,
        "A game needs at least 2 players.",
        lambda: lobby("mexen").start("ana", ScriptedDice()),
    ),
    (
        "no-person-seated",
        IllegalMove,
        "A game needs at least one person at the table.",
        computers_alone_start,
    ),
    (
        "computers-in-lobby",
        IllegalMove,
        "Computer players sit down in the lobby, before the game starts.",
        lambda: play(started("mexen"), "ana", Move(Act.ADD_COMPUTER, to="cpu_expert_1")),
    ),
    (
        "host-seats-computers",
        NotYourTurn,
        "Only the host seats or removes computer players.",
        lambda: play(lobby("mexen", "ben"), "ben", Move(Act.ADD_COMPUTER, to="cpu_expert_1")),
    ),
    (
        "computer-already-seated",
        IllegalMove,
        "That computer player is already at the table.",
        computer_seated_twice,
    ),
    (
        "no-such-computer",
        IllegalMove,
        "There is no such computer player at the table.",
        lambda: play(lobby("mexen"), "ana", Move(Act.REMOVE_COMPUTER, to="cpu_expert_1")),
    ),
    # moves as values
    (
        "stale-button",
        StaleAction,
        "That button is from an earlier turn; use the latest message.",
        old_button,
    ),
    (
        "unknown-move",
        IllegalMove,
        "Unknown move 'juggle'.",
        lambda: play(started("mexen"), "ana", Move("juggle")),
    ),  # type: ignore[arg-type]
    (
        "button-not-ours",
        IllegalMove,
        "That button does not belong to this bot's game.",
        lambda: Move.decode("juggle.3"),
    ),
    ("claim-not-a-roll", IllegalMove, "That claim is not a roll.", lambda: Move.decode("claim.77")),
    (
        "choice-names-no-player",
        IllegalMove,
        "That choice names no player.",
        lambda: Move.decode("handout.<@1>"),
    ),
    (
        "keep-one-or-two",
        IllegalMove,
        "Only a lone 1 or 2 can be kept.",
        lambda: Move.decode("keep.3"),
    ),
    (
        "move-takes-no-value",
        IllegalMove,
        "That move takes no value.",
        lambda: Move.decode("roll.65"),
    ),
    (
        "needs-claim",
        IllegalMove,
        "This move needs a claim.",
        lambda: play(started("dollar"), "ana", Move(Act.CLAIM)),
    ),
    (
        "needs-die",
        IllegalMove,
        "This move needs the die to keep.",
        lambda: play(started("mexico"), "ana", Move(Act.KEEP)),
    ),
    (
        "needs-player",
        IllegalMove,
        "This move needs a player.",
        lambda: play(started("mexen"), "ana", Move(Act.HANDOUT)),
    ),
    (
        "needs-computer",
        IllegalMove,
        "This move needs a computer player.",
        lambda: play(lobby("mexen"), "ana", Move(Act.ADD_COMPUTER)),
    ),
    (
        "not-a-roll",
        InvalidClaim,
        "'sixty-seven' is not a roll. Type for example: 65 or 56; 6-5, 6 5, 6:5 or 6/5; 55, "
        "5-5, 500 or 'double five'; 21, 1000, mex, mexican, mexico or mia.",
        lambda: parse_roll("sixty-seven"),
    ),
    # bluffing
    (
        "no-cup",
        IllegalMove,
        "There is no cup to bluff with in Mexen.",
        lambda: play(started("mexen"), "ana", Move(Act.ACCEPT)),
    ),
    (
        "three-one-no-result",
        InvalidClaim,
        "A 3-1 is not a result in Mexican: it is never under the cup. Claim one of: thirty-two, "
        "forty-one, forty-two, forty-three, fifty-one, fifty-two, fifty-three, fifty-four, "
        "sixty-one, sixty-two, sixty-three, sixty-four, sixty-five, double one, double two, "
        "double three, double four, double five, double six or Mexican.",
        lambda: rolled("mexican").claim("ana", "31"),
    ),
    (
        "claim-too-low",
        InvalidClaim,
        "fifty-four does not beat the standing claim of sixty-five. Valid now: double one, "
        "double two, double three, double four, double five, double six or Mexican.",
        low_claim,
    ),
    (
        "no-claim-now",
        IllegalMove,
        "No claim to make now.",
        lambda: started("dollar")._check_claim_stage("ana"),
    ),  # only legal_actions asks
    (
        "blind-off",
        IllegalMove,
        "Blind rolls are off in this game.",
        lambda: play(started("mexican"), "ana", Move(Act.ROLL_BLIND)),
    ),
    (
        "claim-after-roll",
        IllegalMove,
        "You've rolled: now claim a value (or fold).",
        lambda: rolled("mexican").roll("ana", dice(6, 5)),
    ),
    (
        "social-reroll-open",
        IllegalMove,
        "Roll again after the Social, with your eyes open.",
        lambda: play(rolled("mexican", (3, 1), blind=True), "ana", Move(Act.ROLL_BLIND)),
    ),
    ("roll-first", IllegalMove, "Roll first.", lambda: started("dollar").claim("ana", "65")),
    (
        "answer-first",
        IllegalMove,
        "Accept or call bullshit first.",
        lambda: claimed("dollar", "65").claim("ben", "66"),
    ),
    (
        "no-claim-to-answer",
        IllegalMove,
        "There is no claim waiting for an answer.",
        lambda: started("dollar").accept("ana"),
    ),
    (
        "not-your-answer",
        NotYourTurn,
        "It's not your turn: the claim was passed to ben.",
        lambda: claimed("dollar", "65", "ben", "cas").accept("cas"),
    ),
    (
        "pass-unrolled-off",
        IllegalMove,
        "You must roll after accepting: passing the cup unrolled is off.",
        lambda: started("mexican").pass_cup("ana", "65"),
    ),
    (
        "accept-before-pass",
        IllegalMove,
        "Accept the claim first, then pass the cup on.",
        lambda: started("dollar").pass_cup("ana", "65"),
    ),
    (
        "roll-after-top",
        IllegalMove,
        "After a claim of Mexican you must roll again.",
        pass_after_top,
    ),
    ("fold-off", IllegalMove, "Folding is off in this game.", lambda: rolled("dollar").fold("ana")),
    (
        "fold-needs-claim",
        IllegalMove,
        "You can fold only after rolling against a standing claim.",
        lambda: rolled("mexican").fold("ana"),
    ),
    # open rolls
    (
        "open-roll-only",
        IllegalMove,
        "That move belongs to the open-roll games, not Mexican.",
        lambda: play(started("mexican"), "ana", Move(Act.STAND)),
    ),
    (
        "every-roll-open",
        IllegalMove,
        "Every roll is open in this game.",
        lambda: play(started("mexen"), "ana", Move(Act.ROLL_BLIND)),
    ),
    (
        "hand-out-first",
        IllegalMove,
        "Hand out your sip first (you rolled a 3-1).",
        lambda: rolled("mexen", (3, 1)).roll("ana", dice(6, 5)),
    ),
    (
        "name-knight-first",
        IllegalMove,
        "Name the next Knight first.",
        lambda: knight_to_name().roll("ana", dice(6, 5)),
    ),
    (
        "no-rolls-left",
        IllegalMove,
        "You have no rolls left: stand, or end the round.",
        lambda: rolled("mexen", max_rolls=1).roll("ana", dice(6, 5)),
    ),
    (
        "no-stand-in-rolloff",
        IllegalMove,
        "No standing in a roll-off: roll.",
        lambda: (game := rolloff()).stand(game.to_move or ""),
    ),
    (
        "nothing-to-stand-on",
        IllegalMove,
        "Roll first: there is no roll of yours to stand on.",
        lambda: started("mexen").stand("ana"),
    ),
    (
        "keep-off",
        IllegalMove,
        "Keeping a die is off in this game.",
        lambda: rolled("mexen", (4, 1)).keep("ana", 1, dice(6)),
    ),
    (
        "cannot-keep",
        IllegalMove,
        "You can keep only a lone 1 or 2 beside a 3-6, once per turn, with a roll left.",
        lambda: started("mexico").keep("ana", 1, dice(6)),
    ),
    (
        "keep-which",
        IllegalMove,
        "You can only keep the 1.",
        lambda: rolled("mexico", (4, 1)).keep("ana", 2, dice(6)),
    ),
    (
        "end-early-off",
        IllegalMove,
        "Ending a round early is off in this game.",
        lambda: rolled("mexico").end_round("ana"),
    ),
    (
        "rolloff-runs-on",
        IllegalMove,
        "A roll-off cannot be ended early.",
        lambda: (game := rolloff()).end_round(game.to_move or ""),
    ),
    ("top-rolled", IllegalMove, "A Mexican was rolled: this round can't end early.", end_after_top),
    (
        "own-roll-first",
        IllegalMove,
        "Make your own counting roll before you end the round.",
        lambda: started("mexen").end_round("ana"),
    ),
    (
        "nothing-to-tap",
        IllegalMove,
        "There is no 3-2 to lock right now.",
        lambda: started("mexico").tap("ben"),
    ),
    (
        "tap-own",
        NotYourTurn,
        "You can't TAP your own 3-2.",
        lambda: rolled("mexico", (3, 2)).tap("ana"),
    ),
    (
        "no-sip",
        IllegalMove,
        "You have no sip to hand out.",
        lambda: started("mexen").hand_out("ana", "ben"),
    ),
    (
        "sip-to-other",
        IllegalMove,
        "Hand the sip to another player in the game.",
        lambda: rolled("mexen", (3, 1)).hand_out("ana", "ana"),
    ),
    (
        "no-knight",
        IllegalMove,
        "You have no Knight to name.",
        lambda: started("mexico").choose_knight("ana", "ben"),
    ),
    (
        "knight-other",
        IllegalMove,
        "Name another player in the game as Knight.",
        lambda: knight_to_name().choose_knight("ana", "ana"),
    ),
    # rule sets and house rules
    (
        "unknown-preset",
        BadOptions,
        "Unknown rule set 'yahtzee'. Choose one of: mexican, dollar, mexen, mexicanen and mexico.",
        lambda: make_options("yahtzee"),
    ),
    (
        "unknown-options",
        BadOptions,
        "Unknown option(s): colour and size.",
        lambda: make_options("mexen", {"size": 1, "colour": "red"}),
    ),
    (
        "three-one-not-allowed",
        BadOptions,
        "A 3-1 cannot be 'elbow' in a bluff game.",
        lambda: make_options("mexican", {"three_one": "elbow"}),
    ),
    (
        "lives-range",
        BadOptions,
        "Lives must be between 1 and 99.",
        lambda: make_options("mexen", {"lives": 100}),
    ),
    (
        "lives-required",
        BadOptions,
        "This rule set plays for lives: lives cannot be switched off.",
        lambda: make_options("dollar", {"lives": False}),
    ),
    (
        "rolls-range",
        BadOptions,
        "Rolls per turn must be between 1 and 6.",
        lambda: make_options("mexen", {"max_rolls": 7}),
    ),
    (
        "base-cap-range",
        BadOptions,
        "The base and the cap must be at least 1.",
        lambda: make_options("mexen", {"base": 0}),
    ),
    (
        "player-limits",
        BadOptions,
        "Player limits must satisfy 2 <= min <= max <= 25.",
        lambda: make_options("mexen", {"min_players": 1}),
    ),
    (
        "turn-timer-range",
        BadOptions,
        "The turn timer is 0 (off) to 3,600 seconds, not 5,000.",
        lambda: make_options("mexen", {"turn_timer": 5000}),
    ),
    (
        "units-first",
        BadOptions,
        "Units are 'sips' or 'points'; first is 'host' or 'random'.",
        lambda: make_options("mexen", {"units": "litres"}),
    ),
    # the bot arena's round (bot/engine/maexchen.py)
    (
        "arena-seats",
        IllegalMove,
        "An arena round needs at least two bots, not 1.",
        lambda: MiaRound(["ana"]),
    ),
    (
        "arena-not-a-roll",
        IllegalMove,
        "7-1 is not a pair of dice.",
        lambda: _rolled(MiaRound(["ana", "ben"])).announce((7, 1)),
    ),
    (
        "arena-fault",
        IllegalMove,
        "A fault of DID_NOT_ANNOUNCE has no place at the turn stage.",
        lambda: MiaRound(["ana", "ben"]).fault(Loss.DID_NOT_ANNOUNCE),
    ),
    (
        "arena-stage",
        IllegalMove,
        "That move belongs to the announce stage, not turn.",
        lambda: MiaRound(["ana", "ben"]).announce((6, 5)),
    ),
]
PLAYS = {key: (error, english, scenario) for key, error, english, scenario in PLAYED}


def _rolled(round_: MiaRound) -> MiaRound:
    round_.roll(ScriptedDice([3, 2]))
    return round_


def test_every_key_is_played_once() -> None:
    assert len(PLAYS) == len(PLAYED)
    assert sorted(PLAYS) == sorted(ENGLISH)


def assert_plain_data(key: str, params: dict[str, Any]) -> None:
    """What a presenter in any language can word: ids, codes, numbers, names; no tuples."""
    for name, value in params.items():
        where = f"{key}: {name}={value!r}"
        if name.endswith("_said"):
            assert isinstance(value, str) and value, where
        elif name in ("claim", "standing", "roll"):
            assert value in CODES, where
        elif name == "valid":
            assert isinstance(value, list) and all(v in CODES for v in value), where
        elif name == "spellings":
            assert value == {kind: list(examples) for kind, examples in SPELLINGS.items()}, where
        elif isinstance(value, list):
            assert all(isinstance(v, str) for v in value), where
        else:
            assert type(value) in (str, int), where


@pytest.mark.parametrize("key", sorted(PLAYS))
def test_each_refusal_says_what_it_always_said(key: str) -> None:
    error, text, scenario = PLAYS[key]
    with pytest.raises(GameError) as caught:
        scenario()
    err = caught.value
    assert (type(err), err.key, error_text(err, talk("en"))) == (error, key, text)
    assert_plain_data(key, err.params)
    sites = {params for _, k, params in SITES if k == key}
    assert sites == {frozenset(err.params)}, "played params differ from the source's"


# --- the error itself --------------------------------------------------------------------------


def test_another_language_needs_only_the_codes() -> None:
    with pytest.raises(GameError) as caught:
        low_claim()
    params = caught.value.params
    dutch = "{claim} is niet hoger dan {standing}."  # a presenter's own template, own words
    assert dutch.format(**params) == "54 is niet hoger dan 65."
    assert params["claim_said"] == Game.create("dollar", "ana").say(parse_roll("54"))


def test_a_refusal_survives_a_pickle_whole() -> None:
    err = NotYourTurn("not-your-turn", player="ana")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.key, back.params, str(back)) == (
        NotYourTurn,
        "not-your-turn",
        {"player": "ana"},
        "not-your-turn (player='ana')",
    )


def test_a_refusal_reads_as_its_key_in_logs() -> None:
    # No English kept in the engine: the words are the catalogs' (README, Languages).
    err = GameError("stale-button")
    assert str(err) == "stale-button" and err.params == {}
