"""The expert computer reading its opponents at a bluffing table (README, Playing against
the computer): decisions in hand-built situations, against recorded profiles."""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks import ai_arena
from bot.ai import bluff, brain
from bot.ai.opponents import Counters, Model, N, Profile, Reading, Rules
from bot.ai.personas import PERSONAS
from bot.engine import RANK, Act, Game, Move, Roll

ME = "cpu_expert_1"
THEM = "p1"
EXPERT = PERSONAS["expert"]


#: Where a fresh roll makes the claim less than half the time: 6-2 and up.
UNLIKELY = RANK[(6, 2)]


def honest(call_from: int = UNLIKELY) -> Profile:
    """Someone who claims the truth, or the smallest lie when the truth cannot beat the
    claim, and calls every claim of rank ``call_from`` or more, nothing below."""
    return Profile(
        free_claims=600, forced_claims=300, faced=(40,) * N,
        called=tuple(40 if r >= call_from else 0 for r in range(N)),
    )  # fmt: skip


def liar() -> Profile:
    """Someone who bluffs half the time, three ranks high, and calls like ``honest``."""
    return dataclasses.replace(honest(), free_bluffs=300, forced_raises=280, raise_steps=3 * 580)


def table(preset: str) -> Game:
    game = Game.create(preset, THEM, {"lives": 4} if preset == "mexican" else {})
    game.add_computer(THEM, ME)
    game.start(THEM, random.Random(0))
    return game


def facing(preset: str, claim: Roll, over: Roll | None, cup: Roll = (6, 6)) -> Game:
    """The expert to answer ``claim`` made over ``over`` by someone who saw ``cup``."""
    game = table(preset)
    game.stage, game.to_move, game.claimer = "answer", ME, THEM
    game.standing, game.claim_over, game.claim_how = claim, over, "seen"
    game.cup, game.seen_by = cup, [THEM]
    return game


def holding(preset: str, dice: Roll, standing: Roll | None = None) -> Game:
    """The expert having rolled ``dice`` and seen them, to claim over ``standing``."""
    game = table(preset)
    game.stage, game.to_move = "rolled", ME
    game.standing, game.claimer = standing, THEM if standing else None
    game.claim_how = "seen" if standing else None
    game.cup, game.seen_by = dice, [ME]
    return game


def decide(game: Game, profile: Profile | None, seed: int = 0) -> Move | None:
    known = {THEM: profile} if profile is not None else None
    return brain.decide(game.view(ME), random.Random(seed), known)  # type: ignore[arg-type]


CALL, ROLL = Move(Act.BULLSHIT), Move(Act.ROLL)


# --- answering ------------------------------------------------------------------------------


def test_an_honest_players_claim_above_the_smallest_raise_is_not_called() -> None:
    game = facing("dollar", (6, 1), over=(5, 2))
    assert decide(game, honest()) == ROLL
    assert decide(game, liar()) == CALL  # the same claim from a liar is called


def test_an_honest_players_smallest_raise_is_called() -> None:
    """Over 6-2 an honest player says 6-3 with a 6-3 (2 in 36) or with anything below
    6-3 (22 in 36): mostly a lie it was forced into."""
    assert decide(facing("dollar", (6, 3), over=(6, 2)), honest()) == CALL
    assert decide(facing("dollar", (6, 3), over=(5, 4)), honest()) == ROLL  # not forced


@pytest.mark.parametrize("tie", [(6, 4), (1, 1), (6, 6)])
def test_a_forced_tie_is_called(tie: Roll) -> None:
    assert decide(facing("mexican", tie, over=tie), honest()) == CALL


def test_a_low_tie_an_honest_player_rarely_needs_is_accepted() -> None:
    """Over 3-2 (the lowest claim in mexican) only a 3-2 falls short of nothing."""
    assert decide(facing("mexican", (3, 2), over=(3, 2)), honest()) == ROLL


def test_without_a_profile_a_tie_is_answered_not_always_called() -> None:
    """The policy's abstract round always calls a tie; the expert answers one as against
    a typical player: a low tie is accepted, a high one called."""
    assert decide(facing("mexican", (3, 2), over=(3, 2)), None) == ROLL
    assert decide(facing("mexican", (5, 5), over=(5, 5)), None) == CALL


def test_a_blind_claim_is_judged_by_the_odds_of_a_fresh_roll() -> None:
    game = facing("dollar", (6, 6), over=(5, 4))
    game.claim_how, game.seen_by = "blind", []
    assert decide(game, honest()) == CALL  # 3 in 36 to be true, from anyone
    game.standing = (4, 1)
    game.claim_over = (3, 2)
    assert decide(game, honest()) == ROLL


def test_a_cup_it_saw_passed_back_is_answered_from_what_it_saw() -> None:
    game = facing("dollar", (5, 5), over=(4, 4), cup=(6, 6))
    game.claim_how, game.seen_by = "pass", [ME]
    assert decide(game, liar()) == ROLL  # 6-6 holds 5-5, whatever a liar usually does
    game.cup = (4, 4)
    assert decide(game, honest()) == CALL


# --- claiming -------------------------------------------------------------------------------


def test_against_someone_who_calls_only_doubles_it_claims_the_highest_plain_roll() -> None:
    move = decide(holding("dollar", (4, 2)), honest(call_from=RANK[(1, 1)]))
    assert move == Move(Act.CLAIM, roll=(6, 5))


def test_against_someone_who_calls_doubles_a_double_is_claimed_as_one() -> None:
    """Holding 3-3 against a caller of doubles: claim a double it holds, and be called."""
    move = decide(holding("dollar", (3, 3)), honest(call_from=RANK[(1, 1)]))
    assert move is not None and move.roll is not None
    assert RANK[(1, 1)] <= RANK[move.roll] <= RANK[(3, 3)]


def test_against_someone_who_calls_from_6_2_it_claims_6_1() -> None:
    move = decide(holding("dollar", (4, 2)), honest(call_from=RANK[(6, 2)]))
    assert move == Move(Act.CLAIM, roll=(6, 1))


def test_it_never_folds_or_claims_what_is_not_legal() -> None:
    for dice in ((3, 2), (5, 4), (6, 6), (2, 1)):
        game = holding("mexican", dice, standing=(5, 5))
        move = decide(game, liar())
        assert move is not None and move.act is Act.CLAIM, dice
        assert move in game.legal_actions(ME)


# --- what it may know -----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["mexican", "dollar"])
def test_changing_the_cup_under_another_seats_claim_never_changes_the_decision(
    preset: str,
) -> None:
    rules = Rules.of(table(preset).options.to_dict())
    profiles = (honest(), liar(), honest(call_from=RANK[(1, 1)]), Profile(), None)
    checked = 0
    for claim in ((3, 2), (5, 4), (6, 3), (2, 2), (5, 5), (2, 1)):
        for over in (None, (3, 2), (6, 1), claim):
            if RANK[claim] not in rules.valid(None if over is None else RANK[over]):
                continue
            game = facing(preset, claim, over)
            for profile in profiles:
                for seed in range(5):
                    first = decide(game, profile, seed)
                    for cup in ((3, 2), (6, 6), (2, 1), claim):
                        game.cup = cup
                        assert decide(game, profile, seed) == first, (claim, over, cup)
                    checked += 1
    assert checked > 200


def test_dice_rolled_blind_are_not_read_either() -> None:
    for profile in (honest(), liar(), None):
        for seed in range(10):
            game = holding("dollar", (3, 2), standing=(5, 4))
            game.seen_by = []  # rolled blind: under the cup, unseen even by the roller
            first = decide(game, profile, seed)
            for cup in ((6, 6), (2, 1), (4, 1)):
                game.cup = cup
                assert decide(game, profile, seed) == first


def test_an_empty_profile_plays_the_policy_exactly() -> None:
    """Knowing nothing of someone, the expert plays as if it read nobody."""
    plain = dataclasses.replace(EXPERT, read=0.0)
    for seed in range(40):
        game = facing("dollar", (6, 2), over=(5, 4))
        view = game.view(ME)
        read = bluff.decide(view, random.Random(seed), EXPERT, {THEM: Profile()})
        policy = bluff.decide(view, random.Random(seed), plain, {})
        assert read == policy


def test_only_the_expert_reads_opponents() -> None:
    assert EXPERT.read == 1.0
    assert all(p.read == 0.0 for key, p in PERSONAS.items() if key != "expert")


# --- counting and fitting -------------------------------------------------------------------


def test_counting_a_claim_from_the_engines_truth() -> None:
    counters = Counters()
    game = holding("dollar", (4, 2), standing=(5, 1))  # 4-2 cannot beat 5-1: forced
    counters.observe(game, ME, Move(Act.CLAIM, roll=(6, 1)))
    game = holding("dollar", (6, 4), standing=(5, 1))  # free: claims its own roll
    counters.observe(game, ME, Move(Act.CLAIM, roll=(6, 4)))
    game = facing("dollar", (6, 3), over=(6, 2))
    counters.observe(game, ME, Move(Act.BULLSHIT))
    counters.observe(game, ME, Move(Act.ROLL))
    assert counters.profile() == Profile()  # nothing counted while the round is on
    counters.close_round()
    p = counters.profile()
    assert (p.forced_claims, p.forced_raises, p.free_claims, p.free_bluffs) == (1, 1, 1, 0)
    assert p.raise_steps == RANK[(6, 1)] - RANK[(5, 2)]  # above the smallest valid claim
    assert p.faced[RANK[(6, 3)]] == 2 and p.called[RANK[(6, 3)]] == 1
    assert p.seen_claims == 2 and p.answers == 2


def test_a_blind_claim_or_a_pass_is_not_counted_as_a_seen_claim() -> None:
    counters = Counters()
    game = holding("dollar", (4, 2), standing=(5, 1))
    game.seen_by = []
    counters.observe(game, ME, Move(Act.CLAIM, roll=(6, 1)))
    counters.close_round()
    assert counters.profile().seen_claims == 0


def test_the_fitted_model_learns_an_honest_player_and_a_threshold() -> None:
    rules = Rules(ties=False, lowest=0, fold=False)
    model = Model.fit(honest(call_from=RANK[(6, 2)]), rules)
    assert model.free_bluff < 0.02 and model.forced_raise < 0.02
    assert model.call[RANK[(6, 1)]] < 0.05 < 0.95 < model.call[RANK[(6, 2)]]
    assert list(model.call) == sorted(model.call)


def test_with_few_counters_the_model_stays_near_a_typical_player() -> None:
    rules = Rules(ties=True, lowest=1, fold=True)
    one = Model.fit(Profile(free_claims=1, free_bluffs=1), rules)
    assert 0.1 < one.free_bluff < 0.3


def test_the_reading_of_an_honest_starter_is_a_favourite() -> None:
    """Against an honest player who calls from 6-2, starting is worth well over half."""
    rules = Rules(ties=False, lowest=0, fold=False)
    reading = Reading(Model.fit(honest(call_from=RANK[(6, 2)]), rules), rules)
    assert reading.acc[N] > 0.7
    assert reading.bluff_chance(RANK[(5, 5)], RANK[(5, 2)]) == pytest.approx(0.0, abs=0.02)


def test_the_arena_counts_each_round_once_it_is_over() -> None:
    counters = {ME: Counters(), "base1": Counters()}
    noted: list[int] = []

    def honest_baseline(view: ai_arena.View, rng: random.Random) -> Move | None:
        kept = counters["base1"]
        noted.append(len(kept.pending))
        return ai_arena.BASELINES["truthful"][0](view, rng)

    seats = [(ME, ai_arena.persona_strategy(counters)), ("base1", honest_baseline)]
    game = ai_arena.play_game("dollar", seats, random.Random(3), counters=counters)
    assert game.phase == "over"
    profile = counters["base1"].profile()
    assert profile.seen_claims > 0 and profile.free_bluffs == 0 and profile.forced_raises == 0
    assert not counters["base1"].pending and max(noted) > 0
