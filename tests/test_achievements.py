"""Achievements (README, Achievements): for every one, a real game that earns it and one
that just misses it, played on the engine with chosen dice and recorded the way the table
service stores its log; and the rules around them: people only, never twice, the catalogs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import pytest

from bot.engine import Act
from bot.league.achievements import ACHIEVEMENTS, Awards, Finished, Progress, award
from bot.present.i18n import languages, talk
from tests.league_helpers import Recorder, play_random

A, B, C = "101", "102", "103"
ADA, BRUNO = "cpu_expert_1", "cpu_bold_1"
Scenario = Callable[[], tuple[Recorder, dict[int, dict[str, int]]]]


def awards_of(
    recorder: Recorder,
    progress: Mapping[int, Progress] | None = None,
    held: Mapping[int, frozenset[str]] | None = None,
) -> Awards:
    return award(recorder.finished(), progress or {}, held or {})


def earned(awards: Awards) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for who, key in awards.earned:
        out.setdefault(who, set()).add(key)
    return out


# --- bluffing rounds (dollar: 4 lives, strictly higher claims, the caller starts next) ---
def caught(rec: Recorder, liar: str, caller: str) -> None:
    """``liar`` (to move) claims 54 over a 32 and ``caller`` catches it."""
    rec.roll(liar, 3, 2)
    rec.claim(liar, "54")
    rec.act(caller, Act.BULLSHIT)


def wrong_call(rec: Recorder, claimer: str, caller: str) -> None:
    """``claimer`` (to move) claims the 65 they rolled and ``caller`` calls it wrongly."""
    rec.roll(claimer, 6, 5)
    rec.claim(claimer, "65")
    rec.act(caller, Act.BULLSHIT)


def catch_keeping_start(rec: Recorder, a: str, b: str) -> None:
    """``a`` (to move) claims the truth, ``b`` rolls 32 and claims 66, ``a`` catches it
    and starts the next round again."""
    rec.roll(a, 6, 5)
    rec.claim(a, "65")
    rec.roll(b, 3, 2)  # accepting by rolling
    rec.claim(b, "66")
    rec.act(a, Act.BULLSHIT)


def wrong_keeping_start(rec: Recorder, a: str, b: str) -> None:
    """As above, but ``b`` really has the 66: ``a`` loses a life and starts again."""
    rec.roll(a, 6, 5)
    rec.claim(a, "65")
    rec.roll(b, 6, 6)
    rec.claim(b, "66")
    rec.act(a, Act.BULLSHIT)


def duel(wrong: int = 0, catches: int = 4, *, other: str = B) -> Recorder:
    """A heads-up dollar game: A calls wrongly ``wrong`` times, then catches ``other``
    (a person, or a computer A seats) ``catches`` times (four knock them out)."""
    computer = other.startswith("cpu_")
    rec = Recorder("dollar", [A] if computer else [A, other], computers=[other] if computer else [])
    for _ in range(wrong):
        wrong_keeping_start(rec, A, other)
    for _ in range(catches):
        catch_keeping_start(rec, A, other)
    if rec.game.phase != "over":
        rec.end_counted()
    return rec


# --- open rolls ----------------------------------------------------------------------------
def turn(rec: Recorder, player: str, *pairs: tuple[int, int], give_to: str | None = None) -> None:
    """One open-roll turn: the rolls given (a 3-1's hand-out goes to ``give_to``), then
    standing if the turn did not end by itself."""
    for high, low in pairs:
        rec.roll(player, high, low)
        if rec.game.owes_choice(player) is Act.HANDOUT:
            rec.act(player, Act.HANDOUT, to=give_to)
    game = rec.game
    mine = game.to_move == player and game.last is not None and game.pending is None
    if game.phase == "playing" and mine:
        rec.act(player, Act.STAND)


def b_loses_rounds(rounds: int) -> Recorder:
    """mexen, A and B: B loses every round and A never drinks."""
    rec = Recorder("mexen", [A, B])
    turn(rec, A, (6, 5))
    turn(rec, B, (3, 2))
    for _ in range(rounds - 1):
        turn(rec, B, (3, 2))
        turn(rec, A, (6, 5))
    rec.end_counted()
    return rec


def mexes(a_rolls: list[tuple[int, int]]) -> Recorder:
    """mexen, A and B: A rolls these, one a round, and B always loses with a 43."""
    rec = Recorder("mexen", [A, B])
    turn(rec, A, a_rolls[0])
    turn(rec, B, (4, 3))
    for pair in a_rolls[1:]:
        turn(rec, B, (4, 3))
        turn(rec, A, pair)
    rec.end_counted()
    return rec


def handouts(n: int) -> Recorder:
    """mexen: A rolls a 3-1 and hands B a sip in ``n`` rounds of three."""
    rec = Recorder("mexen", [A, B])
    for round_no in range(3):
        a_pairs = [(3, 1), (6, 5)] if round_no < n else [(6, 5)]
        if round_no == 0:
            turn(rec, A, *a_pairs, give_to=B)
            turn(rec, B, (4, 3))
        else:
            turn(rec, B, (4, 3))
            turn(rec, A, *a_pairs, give_to=B)
    rec.end_counted()
    return rec


def knights(twice: bool) -> Recorder:
    """mexico: A rolls 1-1 (Knight), B rolls 1-1 (Knight), then A rolls 1-1 again or a 4-4."""
    rec = Recorder("mexico", [A, B])
    turn(rec, A, (1, 1))
    turn(rec, B, (6, 5))  # B loses and starts
    turn(rec, B, (1, 1))
    turn(rec, A, (3, 3))  # B loses again
    turn(rec, B, (6, 5))
    turn(rec, A, (1, 1) if twice else (4, 4))
    rec.end_counted()
    return rec


def stuck(tapped: bool) -> Recorder:
    """mexico: A rolls a 3-2 with rolls left; B taps it, or A rolls on."""
    rec = Recorder("mexico", [A, B])
    rec.roll(A, 3, 2)
    if tapped:
        rec.act(B, Act.TAP)
    else:
        turn(rec, A, (6, 5))
    turn(rec, B, (6, 4))
    rec.end_counted()
    return rec


def random_mexen(players: list[str], rounds: int, seed: int) -> Recorder:
    rec = Recorder("mexen", players)
    play_random(rec, random.Random(seed), rounds=rounds)
    return rec


# --- the scenarios: (game that earns it, game that just misses it, who) ----------------
def ghost(dice: tuple[int, int], answer: Act, blind: bool = False) -> Recorder:
    rec = Recorder("dollar", [A, B])
    rec.roll(A, *dice, blind=blind)
    rec.claim(A, "21")
    rec.act(B, answer)
    if answer is Act.ACCEPT:  # B must roll and claim a 21 too; A catches that one
        rec.roll(B, 6, 5)
        rec.claim(B, "21")
        rec.act(A, Act.BULLSHIT)
    rec.end_counted()
    return rec


def blind_claim(dice: tuple[int, int], blind: bool) -> Recorder:
    rec = Recorder("dollar", [A, B])
    rec.roll(A, *dice, blind=blind)
    rec.claim(A, "44")
    rec.act(B, Act.BULLSHIT)
    rec.end_counted()
    return rec


def bluff_mexes(last_lifted: bool) -> Recorder:
    """dollar, 6 lives: A rolls two seen 21s, then a blind one that is lifted or not."""
    rec = Recorder("dollar", [A, B], {"lives": 6})
    for _ in range(2):
        rec.roll(A, 2, 1)
        rec.claim(A, "21")
        rec.act(B, Act.BULLSHIT)  # wrong: B starts
        caught(rec, B, A)  # A starts again
    rec.roll(A, 2, 1, blind=True)
    rec.claim(A, "65")
    if last_lifted:
        rec.act(B, Act.BULLSHIT)
    else:
        rec.roll(B, 3, 2)  # believed and rolled over: the blind 21 is never seen
        rec.claim(B, "66")
        rec.act(A, Act.BULLSHIT)
    rec.end_counted()
    return rec


def social(preset: str) -> Recorder:
    rec = Recorder(preset, [A, B], {"lives": True})
    rec.roll(A, 3, 1)
    if preset == "mexican":  # Social: everyone sips and A rolls again
        rec.roll(A, 6, 5)
        rec.claim(A, "65")
    else:  # dollar: the 3-1 is just the lowest roll
        rec.claim(A, "31")
    rec.act(B, Act.BULLSHIT)
    rec.end_counted()
    return rec


def leaves_early() -> Recorder:
    """B leaves with a life left after five rounds: A wins with every life, but nobody
    was knocked out."""
    rec = Recorder("dollar", [A, B], {"lives": 6})
    for _ in range(5):
        catch_keeping_start(rec, A, B)
    rec.act(B, Act.LEAVE)
    return rec


def ada_with_a_third() -> Recorder:
    rec = Recorder("dollar", [A, C], computers=[ADA])
    rec.roll(A, 6, 5)
    rec.claim(A, "65")
    rec.roll(C, 3, 2)
    rec.claim(C, "66")
    rec.act(ADA, Act.BULLSHIT)  # C is caught, and Ada starts the next round
    rec.act(C, Act.LEAVE)  # C sat down and played: a table of three
    rec.roll(ADA, 3, 2)
    rec.claim(ADA, "65")
    rec.act(A, Act.BULLSHIT)  # Ada's bluff is caught: A starts
    for _ in range(3):
        catch_keeping_start(rec, A, ADA)
    return rec


def career(**progress: int) -> dict[int, dict[str, int]]:
    return {int(A): dict(progress)}


def no_progress() -> dict[int, dict[str, int]]:
    return {}


def played(*rulesets: str, prefix: str = "played") -> dict[int, dict[str, int]]:
    return {int(A): {f"{prefix}:{r}": 1 for r in rulesets}}


NO_DOLLAR = ("mexican", "mexen", "mexicanen", "mexico")
WITH_DOLLAR = ("dollar", "mexen", "mexicanen", "mexico")

CASES: dict[str, tuple[Scenario, Scenario, str]] = {
    "first_win": (lambda: (duel(), {}), lambda: (duel(), {}), A),
    "ten_wins": (lambda: (duel(), career(wins=9)), lambda: (duel(), career(wins=8)), A),
    "flawless": (lambda: (duel(), {}), lambda: (duel(wrong=1), {}), A),
    "last_life": (lambda: (duel(wrong=3), {}), lambda: (duel(wrong=2), {}), A),
    "comeback": (lambda: (duel(wrong=3), {}), lambda: (duel(wrong=2), {}), A),
    "ada_slayer": (lambda: (duel(other=ADA), {}), lambda: (ada_with_a_third(), {}), A),
    "bluff_hunter": (lambda: (duel(catches=3), {}), lambda: (duel(catches=2), {}), A),
    "lie_detector": (lambda: (duel(catches=4), {}), lambda: (duel(wrong=1, catches=4), {}), A),
    "mex_exposed": (
        lambda: (ghost((3, 2), Act.BULLSHIT), {}),
        lambda: (ghost((2, 1), Act.BULLSHIT), {}),
        B,
    ),
    "ghost_mex": (
        lambda: (ghost((3, 2), Act.ACCEPT), {}),
        lambda: (ghost((3, 2), Act.BULLSHIT), {}),
        A,
    ),
    "blind_faith": (
        lambda: (blind_claim((5, 5), blind=True), {}),
        lambda: (blind_claim((5, 5), blind=False), {}),
        A,
    ),
    "triple_mex": (
        lambda: (mexes([(2, 1), (2, 1), (2, 1)]), {}),
        lambda: (mexes([(2, 1), (6, 5), (2, 1)]), {}),
        A,
    ),
    "social": (lambda: (social("mexican"), {}), lambda: (social("dollar"), {}), A),
    "bartender": (lambda: (handouts(3), {}), lambda: (handouts(2), {}), A),
    "double_knight": (lambda: (knights(twice=True), {}), lambda: (knights(twice=False), {}), A),
    "tapper": (lambda: (stuck(tapped=True), {}), lambda: (stuck(tapped=False), {}), B),
    "marathon": (
        lambda: (random_mexen([A, B, C], 30, seed=3), {}),
        lambda: (random_mexen([A, B, C], 29, seed=3), {}),
        A,
    ),
    "full_table": (
        lambda: (random_mexen([A, B, C, "104", "105", "106"], 5, seed=4), {}),
        lambda: (random_mexen([A, B, C, "104", "105"], 5, seed=4), {}),
        A,
    ),
    "dry_run": (lambda: (b_loses_rounds(10), {}), lambda: (b_loses_rounds(9), {}), A),
    "tourist": (lambda: (duel(), played(*NO_DOLLAR)), lambda: (duel(), played(*WITH_DOLLAR)), A),
    "all_rounder": (
        lambda: (duel(), played(*NO_DOLLAR, prefix="won")),
        lambda: (duel(), played(*WITH_DOLLAR, prefix="won")),
        A,
    ),
    "centurion": (lambda: (duel(), career(games=99)), lambda: (duel(), career(games=98)), A),
}


def test_every_achievement_has_a_case() -> None:
    assert list(CASES) == list(ACHIEVEMENTS)


@pytest.mark.parametrize("key", list(CASES))
def test_earned_and_just_missed(key: str) -> None:
    earn, miss, player = CASES[key]
    who = int(player)
    rec, progress = earn()
    assert key in earned(awards_of(rec, progress)).get(who, set())
    if key == "first_win":  # the miss is the loser of the same game
        rec, progress = miss()
        assert key not in earned(awards_of(rec, progress)).get(int(B), set())
        return
    rec, progress = miss()
    assert key not in earned(awards_of(rec, progress)).get(who, set())


# --- the rules around them -------------------------------------------------------------
def test_progress_counts_every_person_and_the_win() -> None:
    awards = awards_of(duel())
    assert awards.progress == {
        int(A): {"games": 1, "played:dollar": 1, "wins": 1, "won:dollar": 1},
        int(B): {"games": 1, "played:dollar": 1},
    }


def test_nothing_held_is_earned_again_and_nothing_twice() -> None:
    rec = duel(catches=4)
    first = earned(awards_of(rec))[int(A)]
    assert {"first_win", "flawless", "bluff_hunter", "lie_detector"} <= first
    awards = awards_of(rec, held={int(A): frozenset({"flawless", "first_win"})})
    again = [key for who, key in awards.earned if who == int(A)]
    assert set(again) == first - {"flawless", "first_win"}
    assert len(again) == len(set(again))


def test_a_game_earns_in_the_listed_order_and_needs_a_count_of_one() -> None:
    """`award` looks up only the facts a person has, so no achievement may be earned by
    a count of 0; what one game earns comes in the order `/achievements` lists them."""
    assert all(a.at_least >= 1 for a in ACHIEVEMENTS.values())
    order = list(ACHIEVEMENTS)
    mine = [key for who, key in awards_of(duel(catches=4)).earned if who == int(A)]
    assert len(mine) >= 4 and mine == sorted(mine, key=order.index)


def test_computers_earn_nothing_and_count_nothing() -> None:
    rec = Recorder("dollar", [A], computers=[ADA])
    for _ in range(4):
        wrong_keeping_start(rec, A, ADA)  # A calls Ada wrongly until A is out
    assert rec.game.final_places()[0] == (ADA, 1)  # computers don't play on alone
    awards = awards_of(rec)
    assert all(who > 0 for who, _ in awards.earned)
    assert set(awards.progress) == {int(A)}


def test_beating_another_computer_is_not_beating_ada() -> None:
    rec = duel(other=BRUNO)
    got = earned(awards_of(rec))[int(A)]
    assert "first_win" in got and "ada_slayer" not in got


def test_a_win_needs_a_knocked_out_opponent_to_be_flawless() -> None:
    got = earned(awards_of(leaves_early())).get(int(A), set())
    assert "first_win" in got and "flawless" not in got


def test_a_game_without_a_winner_is_won_by_who_drank_least_and_a_tie_shares_it() -> None:
    """Won by who drank least when the host who ends it is behind; a host who ends it in
    the lead, alone or tied, wins nothing and nobody else does (docs/league.md)."""
    behind = Recorder("mexen", [A, B])
    for _ in range(5):
        turn(behind, A, (3, 2))
        turn(behind, B, (6, 5))
    behind.end()
    progress = awards_of(behind).progress
    assert progress[int(B)].get("wins") == 1 and "wins" not in progress[int(A)]
    banked = awards_of(b_loses_rounds(5)).progress
    assert banked[int(A)] == banked[int(B)] == {"games": 1, "played:mexen": 1}
    rec = Recorder("mexen", [A, B])
    rec.end()
    assert awards_of(rec).progress == {}  # never played a round: no game at all
    tied = Recorder("mexen", [A, B])
    turn(tied, A, (3, 1), (6, 5), give_to=B)  # B sips, then A loses the round
    turn(tied, B, (6, 6))
    for first, second in ((A, B), (B, A), (A, B), (B, A)):  # each loses two more
        turn(tied, first, (6, 4))
        turn(tied, second, (5, 4))
    tied.end()
    assert tied.game.summary()[A] == tied.game.summary()[B]
    progress = awards_of(tied).progress
    assert "wins" not in progress[int(A)] and "wins" not in progress[int(B)]


def test_the_dice_of_a_blind_cup_count_only_once_it_is_lifted() -> None:
    assert "triple_mex" in earned(awards_of(bluff_mexes(last_lifted=True)))[int(A)]
    assert "triple_mex" not in earned(awards_of(bluff_mexes(last_lifted=False)))[int(A)]


def test_a_blind_top_claim_over_dice_nobody_saw_is_no_ghost() -> None:
    got = earned(awards_of(ghost((3, 2), Act.ACCEPT, blind=True))).get(int(A), set())
    assert "ghost_mex" not in got
    assert "ghost_mex" not in earned(awards_of(ghost((2, 1), Act.ACCEPT))).get(int(A), set())


def test_a_pass_on_unseen_dice_that_holds_is_blind_faith() -> None:
    rec = Recorder("dollar", [A, B])
    rec.roll(A, 6, 6)
    rec.claim(A, "65")
    rec.act(B, Act.ACCEPT)
    rec.pass_cup(B, "66")
    rec.act(A, Act.BULLSHIT)
    rec.end_counted()
    assert "blind_faith" in earned(awards_of(rec))[int(B)]


def test_leaving_a_long_game_is_no_marathon() -> None:
    stayer = Recorder("mexen", [A, B, C])
    rng = random.Random(5)
    play_random(stayer, rng, rounds=2, end=False)
    stayer.act(C, Act.LEAVE)
    play_random(stayer, rng, rounds=30)
    got = earned(awards_of(stayer))
    assert "marathon" in got[int(A)]
    assert "marathon" not in got.get(int(C), set())


def test_a_running_game_awards_nothing() -> None:
    rec = Recorder("dollar", [A, B])
    for _ in range(3):
        catch_keeping_start(rec, A, B)
    running = Finished(1, 7, 70, "dollar", 0.0, rec.game, rec.log)
    assert award(running, {}, {}) == Awards()
    catch_keeping_start(rec, A, B)
    assert "bluff_hunter" in earned(awards_of(rec))[int(A)]


def test_names_only_people_by_engine_id() -> None:
    rec = Recorder("dollar", ["alice", "bob"])
    for _ in range(4):
        catch_keeping_start(rec, "alice", "bob")
    assert awards_of(rec) == Awards()


# --- the catalogs ----------------------------------------------------------------------
@pytest.mark.parametrize("language", languages())
def test_every_achievement_has_a_name_and_a_how_in_every_language(language: str) -> None:
    say = talk(language)
    names = set()
    for key in ACHIEVEMENTS:
        for message in (f"achievement-{key}", f"achievement-{key}-how"):
            assert say.has(message), f"{message} is missing in {language}"
            text = say(message)
            assert text.strip() and "{" not in text, (message, text)
        names.add(say(f"achievement-{key}"))
        assert len(say(f"achievement-{key}")) <= 32, "a name fits a phone's line"
    assert len(names) == len(ACHIEVEMENTS), "two achievements share a name"
