"""The arena's rule set (README, Arena rules): every way a round ends, one test each."""

from __future__ import annotations

import random

import pytest

from bot.engine.errors import IllegalMove
from bot.engine.maexchen import Loss, Lost, MiaRound, roll_dice
from bot.engine.rolls import ORDER, RANK


class Dice(random.Random):
    """A die that shows the faces it is given, in order."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_the_21_ranks_run_from_31_to_21() -> None:
    assert len(ORDER) == 21
    assert ORDER[0] == (3, 1) and ORDER[13] == (6, 5) and ORDER[14] == (1, 1)
    assert ORDER[19] == (6, 6) and ORDER[-1] == (2, 1)


def test_a_truthful_claim_passes_the_turn_on() -> None:
    r = MiaRound(["a", "b", "c"])
    assert r.roll(Dice(3, 5)) == (5, 3)
    out = r.announce((5, 3))
    assert out.lost is None and out.shown is None
    assert r.to_move == "b" and r.claim == (5, 3) and r.claim_cup == (5, 3)


def test_dice_read_in_either_order() -> None:
    r = MiaRound(["a", "b"])
    r.roll(Dice(1, 4))
    r.announce((1, 4))
    assert r.claim == (4, 1)


def test_seeing_first_loses() -> None:
    r = MiaRound(["a", "b"])
    assert r.see().lost == Lost(("a",), Loss.SEE_BEFORE_FIRST_ROLL)
    assert r.over and r.winners() == ("b",)


def test_a_claim_equal_to_the_standing_one_loses() -> None:
    r = MiaRound(["a", "b"])
    r.roll(Dice(6, 4))
    r.announce((6, 4))
    r.roll(Dice(6, 5))
    assert r.announce((6, 4)).lost == Lost(("b",), Loss.ANNOUNCED_LOSING_DICE)


def test_a_lower_claim_loses_even_when_true() -> None:
    r = MiaRound(["a", "b"])
    r.roll(Dice(1, 1))
    r.announce((1, 1))
    r.roll(Dice(6, 5))
    assert r.announce((6, 5)).lost == Lost(("b",), Loss.ANNOUNCED_LOSING_DICE)


def test_a_true_21_is_shown_and_everyone_else_loses() -> None:
    r = MiaRound(["a", "b", "c"])
    r.roll(Dice(3, 3))
    r.announce((3, 3))
    r.roll(Dice(1, 2))
    out = r.announce((2, 1))
    assert out.shown == (2, 1)
    assert out.lost == Lost(("a", "c"), Loss.MIA)
    assert r.winners() == ("b",)


def test_a_false_21_is_shown_and_the_claimer_loses() -> None:
    r = MiaRound(["a", "b", "c"])
    r.roll(Dice(6, 6))
    out = r.announce((2, 1))
    assert out.shown == (6, 6)
    assert out.lost == Lost(("a",), Loss.LIED_ABOUT_MIA)
    assert r.winners() == ("b", "c")


def test_seeing_a_bluff_catches_the_claimer() -> None:
    r = MiaRound(["a", "b", "c"])
    r.roll(Dice(3, 2))
    r.announce((5, 5))
    out = r.see()
    assert out.shown == (3, 2)
    assert out.lost == Lost(("a",), Loss.CAUGHT_BLUFFING)
    assert r.winners() == ("b", "c")


def test_seeing_dice_at_or_above_the_claim_loses_the_seer() -> None:
    for cup, claim in (((5, 4), (5, 4)), ((6, 6), (4, 2))):
        r = MiaRound(["a", "b"])
        r.roll(Dice(*cup))
        r.announce(claim)
        out = r.see()
        assert out.shown == cup
        assert out.lost == Lost(("b",), Loss.SEE_FAILED)


def test_the_seats_wrap_around_and_see_judges_the_last_claim() -> None:
    r = MiaRound(["a", "b"])
    for dice in ((3, 1), (3, 2), (4, 1)):
        r.roll(Dice(*dice))
        r.announce(dice)
    assert r.to_move == "b" and r.previous == "a"
    assert r.see().lost == Lost(("b",), Loss.SEE_FAILED)


@pytest.mark.parametrize(
    ("stage", "reason"),
    [
        ("turn", Loss.DID_NOT_TAKE_TURN),
        ("turn", Loss.INVALID_TURN),
        ("announce", Loss.DID_NOT_ANNOUNCE),
        ("announce", Loss.INVALID_TURN),
    ],
)
def test_faults_lose_the_player_to_move(stage: str, reason: Loss) -> None:
    r = MiaRound(["a", "b"])
    r.roll(Dice(4, 2))
    r.announce((4, 2))
    if stage == "announce":
        r.roll(Dice(1, 1))
    assert r.fault(reason).lost == Lost(("b",), reason)


def test_a_fault_of_the_wrong_stage_is_refused_and_changes_nothing() -> None:
    r = MiaRound(["a", "b"])
    with pytest.raises(IllegalMove):
        r.fault(Loss.DID_NOT_ANNOUNCE)
    with pytest.raises(IllegalMove):
        r.fault(Loss.CAUGHT_BLUFFING)
    assert r.stage == "turn" and r.lost is None


def test_moves_out_of_their_stage_are_refused() -> None:
    r = MiaRound(["a", "b"])
    with pytest.raises(IllegalMove):
        r.announce((5, 4))
    r.roll(Dice(5, 4))
    with pytest.raises(IllegalMove):
        r.see()
    with pytest.raises(IllegalMove):
        r.announce((7, 1))
    assert r.stage == "announce"
    r.announce((5, 4))
    r.see()
    with pytest.raises(IllegalMove):
        r.roll(Dice(1, 1))


def test_a_round_needs_two_different_players() -> None:
    for seats in (["a"], ["a", "a"]):
        with pytest.raises(IllegalMove):
            MiaRound(seats)


def test_the_round_ends_at_its_first_loss_and_nobody_scores_before() -> None:
    rng = random.Random(46)
    for _ in range(300):
        r = MiaRound(["a", "b", "c"])
        while not r.over:
            assert r.winners() == ()
            if r.claim is not None and rng.random() < 0.3:
                r.see()
                continue
            dice = r.roll(rng)
            r.announce(dice if rng.random() < 0.7 else rng.choice(ORDER))
        assert r.lost is not None
        assert set(r.winners()) | set(r.lost.players) == {"a", "b", "c"}
        assert not set(r.winners()) & set(r.lost.players)


def test_the_dice_are_fair() -> None:
    rng = random.Random(7)
    seen = [roll_dice(rng) for _ in range(36_000)]
    doubles = sum(1 for d in seen if d[0] == d[1])
    assert 5_600 < doubles < 6_400  # 1 in 6
    assert all(d in RANK for d in seen)
