"""The presenter on its own: every event kind has a handler, random games of every rule set
render without a gap, hidden dice never reach public text, and the words (odds, causes,
history, final standing) read right in each table's vocabulary."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    EVENT_CLASSES,
    PRESET_NAMES,
    Act,
    Cause,
    Event,
    Game,
    GameEnded,
    Kind,
    Move,
    Penalized,
    RoundStarted,
)
from bot.engine.events import Unit
from bot.game.fairness import Commitment, verify
from bot.game.tables import Outcome, Table
from bot.league.service import PAIR_GAMES, GameResult
from bot.present import screens as present
from bot.present.history import LINE_BUDGET, history_line
from bot.present.i18n import talk
from bot.present.message import CONTENT_LIMIT
from bot.present.story import HANDLERS, Paid, merge_penalties, story
from bot.present.words import Words
from bot.storage import RoundRecord

from .engine_helpers import ScriptedDice

IDS = [str(n) * 18 for n in range(1, 5)]


def random_events(preset: str, seed: int, moves: int = 400) -> tuple[Game, list[Event]]:
    rng = random.Random(seed)
    game = Game.create(preset, IDS[0])
    for player in IDS[1:]:
        game.join(player)
    game.start(game.host, rng)
    events: list[Event] = []
    for _ in range(moves):
        if game.phase != "playing" or game.to_move is None:
            break
        mover = game.to_move
        if rng.random() < 0.05:
            move = rng.choice([Move(Act.TIMEOUT), Move(Act.LEAVE)])
        else:
            move = rng.choice(game.legal_actions(mover))
        events += game.apply(mover, move, rng)
    events += game.end(game.host, force=True) if game.phase != "over" else []
    return game, events


def test_every_event_kind_has_a_handler() -> None:
    assert {cls.kind for cls in HANDLERS} == set(Kind)
    assert set(HANDLERS) == set(EVENT_CLASSES.values())


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_event_of_random_games_renders(preset: str) -> None:
    kinds: set[Kind] = set()
    for seed in range(8):
        game, events = random_events(preset, seed)
        lines = story(game, events, talk())
        assert all(line and "{" not in line and "None" not in line for line in lines), lines
        kinds |= {e.kind for e in events}
    assert {Kind.ROLLED, Kind.PENALTY, Kind.ROUND_OVER, Kind.ROUND_STARTED} <= kinds


def test_a_public_bluff_roll_names_no_dice() -> None:
    game = Game.create("mexican", "a")
    game.join("b")
    game.start("a", random.Random(1))
    events = game.roll("a", ScriptedDice([6, 2]))
    assert story(game, events, talk()) == ["a rolls under the cup."]
    assert "sixty-two" not in "".join(story(game, events, talk()))
    table = Table(1, 1, 1, game)
    private = present.private_after(Outcome(table, "a", Move(Act.ROLL), events), talk())
    assert private is not None and private.private and "sixty-two" in private.content


def test_a_lost_call_is_one_line_per_player_without_repeating_the_cause() -> None:
    game = Game.create("mexican", "a", {"lives": 3})
    game.join("b")
    game.start("a", ScriptedDice())
    game.roll("a", ScriptedDice([6, 2]))
    game.claim("a", "65")
    events = game.bullshit("b")
    lines = story(game, events, talk())
    assert lines[0].startswith("b calls **bullshit** on a's **sixty-five**: **⚅⚁ sixty-two**")
    assert lines[1] == "→ a takes **1 sip** and loses **1 life**."
    assert len([line for line in lines if "a takes" in line]) == 1


def test_penalties_merge_only_for_the_same_player_and_cause() -> None:
    def pen(player: str, unit: Unit, cause: str) -> Event:
        return Penalized(player, unit, 1, cause, None, {})

    merged = merge_penalties(
        [pen("a", "sip", Cause.TIMER), pen("a", "life", Cause.TIMER), pen("b", "sip", Cause.TIMER)]
    )
    assert [(e.player, e.paid) for e in merged if isinstance(e, Paid)] == [
        ("a", [("sip", 1), ("life", 1)]),
        ("b", [("sip", 1)]),
    ]


@pytest.mark.parametrize(
    ("preset", "claim", "says"),
    [
        ("mexican", "32", "every fresh roll makes thirty-two"),  # a 3-1 is rolled again
        # Out of 36, the dice everyone knows, for one roll: a Social rolled again is
        # another roll, so it goes unsaid (it read as a puzzle at the bar).
        ("mexican", "21", "a fresh roll makes that only 2 times in 36"),
        ("mexican", "54", "a fresh roll makes that 20 times in 36"),
        ("dollar", "31", "every fresh roll makes thirty-one"),
        ("dollar", "65", "a fresh roll makes that only 10 times in 36"),
        ("dollar", "54", "a fresh roll makes that 20 times in 36"),
        ("dollar", "42", "a fresh roll makes that 30 times in 36"),
        ("dollar", "32", "a fresh roll makes that 34 times in 36, nearly always"),
    ],
)
def test_odds_read_right_for_likely_and_unlikely_claims(preset: str, claim: str, says: str) -> None:
    assert Words.of_preset(preset).odds(claim) == says


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_odds_are_always_out_of_36(preset: str) -> None:
    """A count out of 34 (a 3-1 rolled again left out) puzzled players next to 36."""
    words = Words.of_preset(preset)
    for claim in ("32", "43", "54", "65", "11", "66", "21"):
        said = words.odds(claim)
        assert " in 34" not in said and ("in 36" in said or said.startswith("every")), said


def test_every_roll_line_names_the_roller() -> None:
    """A later roll of a turn may be the first line someone reads (a slash command's
    answer): "Roll 2: **62**." said nobody's name."""
    game = Game.create("mexico", "a")
    game.join("b")
    game.start("a", ScriptedDice())
    first = story(game, game.roll("a", ScriptedDice([5, 2])), talk())
    kept = story(game, game.apply("a", Move(Act.KEEP, die=2), ScriptedDice([6])), talk())
    assert first == ["a rolls **52**."]
    assert kept[0] == "a keeps the 2 and rolls **62** (roll 2)."
    game = Game.create("mexen", "a")
    game.join("b")
    game.start("a", ScriptedDice())
    game.roll("a", ScriptedDice([4, 2]))
    again = story(game, game.roll("a", ScriptedDice([5, 3])), talk())
    assert again[0] == "a rolls **53** (roll 2)."


def test_scores_keep_lives_and_drinks_apart() -> None:
    """ "❤️ 2 1 sip" ran a life count and a drink together; each has its own mark."""
    game = Game.create("mexican", "a", {"lives": 3})
    game.join("b")
    game.start("a", ScriptedDice())
    game.roll("a", ScriptedDice([6, 2]))
    game.claim("a", "65")
    game.bullshit("b")  # a bluffed: 1 sip and 1 life
    assert present.scores(game, talk()) == "a ❤️ 2 🍺 1 sip · b ❤️ 3"


def test_a_lobby_ended_before_it_started_has_no_final_standing() -> None:
    """Nobody played: a standing with everyone "out" and a Rematch would be noise."""
    game = Game.create("dollar", "a")
    game.join("b")
    events = game.end("a")
    reply = present.after_move(
        Outcome(Table(1, 1, 1, game), "a", Move(Act.END), events), [], ping=False
    )
    assert reply.content == "🏁 a ended the game."
    assert reply.embed is None and reply.components == ()


def test_no_round_header_once_the_game_is_over() -> None:
    """Players leaving by timeouts can end the game in the move that starts a round: the
    round is never played, so it is not announced."""
    game = Game.create("mexican", "a")
    game.join("b")
    game.start("a", ScriptedDice())
    game.end("a")
    events = [
        RoundStarted("a", 4),
        GameEnded(None, None, None, None),
    ]
    assert story(game, events, talk()) == [
        "🏁 Game over: too few players left.\n🚫 No round was played: this game counts for nothing."
    ]


def bluff_table(dice: list[int]) -> tuple[Table, list[Event]]:
    """A mexican table where a has just rolled ``dice`` under a sealed cup."""
    game = Game.create("mexican", "a")
    game.join("b")
    game.join("c")
    game.start("a", ScriptedDice())
    events = game.roll("a", ScriptedDice(dice))
    table = Table(1, 1, 1, game)
    assert game.cup is not None
    table.meta.commit = Commitment.seal(game.cup)
    return table, events


def test_one_cup_button_and_no_seal_in_the_channel() -> None:
    """The seal and the cup tools are behind one Cup button; the turn message says no
    hash (README, How the table talks)."""
    table, events = bluff_table([6, 2])
    reply = present.after_move(Outcome(table, "a", Move(Act.ROLL), events), [], ping=False)
    labels = [c.label for c in reply.components if isinstance(c, present.Button)]
    assert labels.count("Cup") == 1 and "Show my dice" not in labels
    assert table.meta.commit is not None
    assert "🔒" not in reply.content and table.meta.commit.digest[:10] not in reply.content
    # The cup lifted on this message is answered for by the same button.
    lifted = Commitment.seal((5, 3))
    both = present.after_move(Outcome(table, "b", None, []), [], ping=False, shown_lift=lifted)
    cups = [c for c in both.components if isinstance(c, present.Button) and ":cup." in c.custom_id]
    assert len(cups) == 1 and lifted.digest[:10] in cups[0].custom_id


def test_the_cup_answers_each_viewer_with_what_they_may_see() -> None:
    table, _ = bluff_table([6, 2])
    commit = table.meta.commit
    assert commit is not None
    seals = [commit.digest[:10]]
    mine = present.cup_answer(table, "a", seals, talk())
    assert mine is not None and mine.private
    assert "sixty-two" in mine.content and commit.digest in mine.content
    assert any(isinstance(c, present.Menu) for c in mine.components)  # the Claim menu
    theirs = present.cup_answer(table, "b", seals, talk())
    assert theirs is not None and commit.digest in theirs.content
    assert "sixty-two" not in theirs.content and theirs.components == ()
    table.meta.lifted, table.meta.commit = commit, None
    opened = present.cup_answer(table, "b", seals, talk())
    assert opened is not None and "The cup held **⚅⚁ sixty-two**" in opened.content
    assert verify((6, 2), commit.salt, commit.digest)
    assert present.cup_answer(table, "b", ["0000000000"], talk()) is None


#: What the Cup says to someone looking at another player's cup, and to a blind roller.
SEALED_OF = {
    "en": "🔒 {p}'s cup is sealed: `{digest}`",
    "nl": "🔒 De beker van {p} is verzegeld: `{digest}`",
    "de": "🔒 Der Becher von {p} ist versiegelt: `{digest}`",
}
BLIND = {
    "en": "You rolled blind",
    "nl": "Je gooide blind",
    "de": "Blind gewürfelt",
}


@pytest.mark.parametrize("language", ["en", "nl", "de"])
@pytest.mark.parametrize(
    ("preset", "blind"), [("mexican", False), ("dollar", False), ("dollar", True)]
)
def test_the_cup_tells_the_answerer_whose_cup_it_is(
    preset: str, language: str, blind: bool
) -> None:
    """The answerer of a claim is to move but never rolled: the Cup shows them the seal
    and whose cup it is, never the blind roller's "you rolled blind"; nor the dice."""
    roller, answerer = IDS[0], IDS[1]
    game = Game.create(preset, roller)
    for player in IDS[1:3]:
        game.join(player)
    game.start(roller, ScriptedDice())
    game.roll(roller, ScriptedDice([6, 2]), blind=blind)
    table = Table(1, 1, 1, game)
    assert game.cup is not None
    commit = table.meta.commit = Commitment.seal(game.cup)
    seals, t = [commit.digest[:10]], talk(language)
    mine = present.cup_answer(table, roller, seals, t)
    assert mine is not None
    assert (BLIND[language] in mine.content) is blind  # the roller's own blind roll
    game.claim(roller, "65")
    assert game.to_move == answerer
    sealed_of = SEALED_OF[language].format(p=f"<@{roller}>", digest=commit.digest)
    for stage in ("answer", "accepted"):
        assert game.stage == stage
        theirs = present.cup_answer(table, answerer, seals, t)
        assert theirs is not None and theirs.private
        assert theirs.content.startswith(sealed_of), theirs.content
        assert BLIND[language] not in theirs.content
        assert Words.of(game, t).roll("62") not in theirs.content
        assert theirs.components == ()
        # The claimer reads their own cup as "the cup", and a third player as the answerer.
        own = present.cup_answer(table, roller, seals, t)
        assert own is not None and f"<@{roller}>" not in own.content
        assert BLIND[language] not in own.content
        other = present.cup_answer(table, IDS[2], seals, t)
        assert other is not None and other.content == theirs.content
        if stage == "answer":
            game.accept(answerer)
    # /peek says the answerer has not seen the dice, as it says to anyone else.
    peek = present.your_cup(table, answerer, t)
    assert peek.content == t("not-seen-cup")


def test_the_claim_menu_starts_at_the_lowest_valid_claim() -> None:
    table, _ = bluff_table([6, 2])
    (menu,) = [
        c for c in present.your_cup(table, "a", talk()).components if isinstance(c, present.Menu)
    ]
    assert menu.options[0][1] == "claim.32" and menu.options[-1][1] == "claim.21"


def test_each_table_speaks_its_own_words() -> None:
    mexican, mexen = Words.of_preset("mexican"), Words.of_preset("mexen")
    detail = {"claim": "65", "cup": "52"}
    assert mexican.cause(Cause.CAUGHT, detail, None) == "caught bluffing sixty-five on ⚄⚁ fifty-two"
    assert mexen.cause(Cause.LOWEST, {"roll": "43", "mexes": 1}, None) == (
        "lowest roll (43), 1× Mex"
    )
    assert mexen.roll("55") == "500" and mexican.roll("55") == "double five"


def test_history_shows_every_penalty_or_says_how_many_more() -> None:
    paid = [[IDS[0], "sip", 1, Cause.SOCIAL, {}, IDS[1]] for _ in range(3)]
    paid.append([IDS[1], "sip", 2, Cause.LOWEST, {"roll": "43", "mexes": 1}, None])
    line = history_line(RoundRecord(5, "mexen", int(IDS[1]), "lowest", {"paid": paid}))
    assert line.count("Social") == 1 and "3 sips: Social" in line
    assert "2 sips: lowest roll (43), 1× Mex" in line
    assert "((" not in line and "))" not in line
    many = [[str(10**17 + n), "sip", 1, Cause.HANDED_OUT, {}, IDS[1]] for n in range(40)]
    long = history_line(RoundRecord(6, "mexen", int(IDS[0]), "lowest", {"paid": many}))
    assert len(long) <= LINE_BUDGET + 40 and long.endswith("more")
    shown = long.count("handed out by")
    assert f"and {40 - shown} more" in long


def test_history_says_each_cause_once() -> None:
    """A lost call costs a shot and a life: one line, the cause said once."""
    detail = {"claim": "11"}
    paid = [
        [IDS[0], "shot", 1, Cause.WRONG_CALL, detail, None],
        [IDS[0], "life", 1, Cause.WRONG_CALL, detail, None],
    ]
    line = history_line(RoundRecord(2, "mexican", int(IDS[0]), "call", {"paid": paid}))
    assert line.endswith(f"<@{IDS[0]}> 1 shot and 1 life: called a true double one"), line
    assert line.count("called a true") == 1


def test_history_reads_rounds_stored_before_causes_were_codes() -> None:
    old = [[IDS[0], "sip", 1, "caught bluffing 65 (the cup showed 52)"]]
    line = history_line(RoundRecord(1, "mexican", int(IDS[0]), "call", {"paid": old}))
    assert "caught bluffing 65 (the cup showed 52)" in line


def test_the_final_standing_lists_everyone_with_lives_left_in_one_column() -> None:
    game = Game.create("dollar", "a", {"lives": 1})
    for player in "bc":
        game.join(player)
    game.start("a", ScriptedDice())
    game.roll("a", ScriptedDice([6, 2]))
    game.claim("a", "65")
    game.bullshit("b")  # a bluffed: a is out
    game.roll("b", ScriptedDice([6, 6]))
    game.claim("b", "66")
    game.bullshit("c")  # true: c is out, b wins
    lines = present.standing(game)
    assert lines == ["1. b · ❤️ 1", "2. c · out", "3. a · out"]


def test_tied_players_share_a_place_in_the_final_standing() -> None:
    """Two players who drank the same are not 1st and 2nd (the leaderboard shares too)."""
    game = Game.create("mexican", "a")
    for player in "bc":
        game.join(player)
    game.start("a", ScriptedDice())
    game.roll("a", ScriptedDice([6, 2]))
    game.claim("a", "65")
    game.bullshit("b")  # a bluffed: a sips
    game.end("a")
    assert present.standing(game) == ["1. b · 0 sips", "1. c · 0 sips", "3. a · 1 sip"]


def test_a_refusal_fits_discord_and_names_players() -> None:
    reply = present.refusal("x" * 5000)
    assert reply.private and len(reply.content) == CONTENT_LIMIT
    assert present.refusal(f"It's not your turn: it's {IDS[1]}'s move.").content.endswith(
        f"<@{IDS[1]}>'s move."
    )


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "→ b loses **their last life (2 due)**: lowest roll (32), 1× Mex."),
        ("nl", "→ b verliest **het laatste leven (2 verschuldigd)**: laagste worp (32), 1× Mex."),
        ("de", "→ b verliert **das letzte Leben (2 fällig)**: niedrigster Wurf (32), 1× Mäxchen."),
    ],
)
def test_a_capped_life_loss_says_how_many_were_due(language: str, line: str) -> None:
    """Two lives due (a Mex doubles) with one left: the line says it was the last one,
    not a sum that looks miscounted (README, How the table talks)."""
    game = Game.create("mexicanen", "a", {"lives": 1})
    game.join("b")
    game.start("a", ScriptedDice())
    game.apply("a", Move(Act.ROLL), ScriptedDice([2, 1]))
    events = game.apply("b", Move(Act.ROLL), ScriptedDice([3, 2]))
    paid = [e for e in events if isinstance(e, Penalized)]
    assert [(p.amount, p.detail.get("due")) for p in paid] == [(1, 2)]
    assert game.players["b"].lives == 0
    assert line in story(game, events, talk(language))


def test_history_and_the_table_say_a_capped_loss_alike() -> None:
    """A shot and the last life of a lost call: one line, the cause once, the lives due
    said as the table says them."""
    detail = {"claim": "11"}
    paid = [
        [IDS[0], "shot", 1, Cause.WRONG_CALL, detail, None],
        [IDS[0], "life", 1, Cause.WRONG_CALL, {**detail, "due": 2}, None],
    ]
    line = history_line(RoundRecord(2, "mexican", int(IDS[0]), "call", {"paid": paid}))
    assert line.endswith(
        f"<@{IDS[0]}> 1 shot and their last life (2 due): called a true double one"
    ), line
    shot = Penalized(IDS[0], "shot", 1, Cause.WRONG_CALL, None, detail)
    life = Penalized(IDS[0], "life", 1, Cause.WRONG_CALL, None, {**detail, "due": 2})
    merged = merge_penalties([shot, life])
    assert [(e.paid, e.due) for e in merged if isinstance(e, Paid)] == [
        ([("shot", 1), ("life", 1)], 2)
    ]


def test_a_computer_that_takes_the_last_persons_last_life_wins_like_a_person() -> None:
    """Heads-up against Expert Ada with knock-outs: her win is announced as a person's
    would be, not as a table left with too few players."""
    game = Game.create("mexicanen", "a", {"lives": 1, "last_standing": True})
    game.apply("a", Move(Act.ADD_COMPUTER, to="cpu_expert_1"), ScriptedDice())
    game.start("a", ScriptedDice())
    game.apply("a", Move(Act.ROLL), ScriptedDice([3, 2]))
    game.apply("a", Move(Act.STAND), ScriptedDice())
    events = game.apply("cpu_expert_1", Move(Act.ROLL), ScriptedDice([2, 1]))
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert [e.winner for e in ended] == ["cpu_expert_1"] and game.phase == "over"
    assert present.standing(game)[0] == "🏆 1. 🤖 Expert Ada · ❤️ 1"
    assert "players left" not in "\n".join(story(game, events, talk()))


def test_a_resting_table_says_why_its_ratings_did_not_move() -> None:
    """The same table's eleventh rated game in a day: achievements are announced, the
    ratings rest and the footer says so instead of the legend (README, Ratings)."""
    game = Game.create("dollar", "a", {"lives": 1})
    game.apply("b", Move(Act.JOIN), ScriptedDice())
    game.apply("a", Move(Act.START), ScriptedDice())
    game.apply("a", Move(Act.ROLL), ScriptedDice([6, 2]))
    game.apply("a", Move(Act.CLAIM, roll=(6, 5)), ScriptedDice())
    game.apply("b", Move(Act.BULLSHIT), ScriptedDice())
    rests = GameResult(1, "bluff", {}, [("b", "first_win")], rests=True)
    reply = present.final(Table(1, 1, 1, game), [], None, rests)
    assert reply.embed is not None
    assert reply.embed.footer == (
        f"⏸️ Ratings rest between players who met in {PAIR_GAMES} rated games in 24 hours."
    )
    assert reply.embed.description.splitlines() == [
        "🏆 1. b · ❤️ 1",
        "2. a · out",
        "🏅 b: First blood",
    ]
