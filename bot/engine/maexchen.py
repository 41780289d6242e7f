"""The Mäxchen bot-competition rules, the arena's rule set (README, Arena rules).

One round at a time, as the protocol plays it: each turn is roll-and-announce or see, a
claim must be strictly higher than the one before, a claim of 21 is shown at once, and
the round ends at its first loss. Pure like the rest of the engine: the caller passes the
``random.Random`` that rolls and keeps the clock (a timeout is a fault it reports), and
the round answers with plain values the server words as protocol messages.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from bot.engine.errors import IllegalMove
from bot.engine.rolls import RANK, TOP, Roll, make_roll


class Loss(StrEnum):
    """Why a round was lost, by the names the protocol sends (README, Arena rules)."""

    SEE_BEFORE_FIRST_ROLL = "SEE_BEFORE_FIRST_ROLL"
    LIED_ABOUT_MIA = "LIED_ABOUT_MIA"
    ANNOUNCED_LOSING_DICE = "ANNOUNCED_LOSING_DICE"
    DID_NOT_ANNOUNCE = "DID_NOT_ANNOUNCE"
    DID_NOT_TAKE_TURN = "DID_NOT_TAKE_TURN"
    INVALID_TURN = "INVALID_TURN"
    SEE_FAILED = "SEE_FAILED"
    CAUGHT_BLUFFING = "CAUGHT_BLUFFING"
    MIA = "MIA"


#: The faults the caller reports for the player to move, and the stage each belongs to.
FAULTS: dict[Loss, tuple[str, ...]] = {
    Loss.DID_NOT_TAKE_TURN: ("turn",),
    Loss.DID_NOT_ANNOUNCE: ("announce",),
    Loss.INVALID_TURN: ("turn", "announce"),
}

Stage = Literal["turn", "announce", "over"]


@dataclass(frozen=True, slots=True)
class Lost:
    """The round's end: who lost it and why; everyone else at the table scores."""

    players: tuple[str, ...]
    reason: Loss


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a move showed and decided: the dice lifted (a see, a claim of 21), the loss."""

    shown: Roll | None = None
    lost: Lost | None = None


def roll_dice(rng: random.Random) -> Roll:
    """Two fair dice, read high die first."""
    return make_roll(rng.randint(1, 6), rng.randint(1, 6))


class MiaRound:
    """One round among ``seats`` in their (already shuffled) order."""

    def __init__(self, seats: tuple[str, ...] | list[str]) -> None:
        if len(seats) < 2 or len(set(seats)) != len(seats):
            raise IllegalMove("arena-seats", players=len(seats))
        self.seats: tuple[str, ...] = tuple(seats)
        self.turn = 0  # index of the player to move, counting every turn of the round
        self.stage: Stage = "turn"
        self.cup: Roll | None = None  # the dice of the player to move, once rolled
        self.claim: Roll | None = None  # the standing claim
        self.claim_cup: Roll | None = None  # the dice under the standing claim
        self.lost: Lost | None = None

    @property
    def to_move(self) -> str:
        return self.seats[self.turn % len(self.seats)]

    @property
    def previous(self) -> str:
        return self.seats[(self.turn - 1) % len(self.seats)]

    @property
    def over(self) -> bool:
        return self.stage == "over"

    def winners(self) -> tuple[str, ...]:
        """Every player who did not lose (each scores a point); nobody before the end."""
        if self.lost is None:
            return ()
        return tuple(p for p in self.seats if p not in self.lost.players)

    # --- the moves --------------------------------------------------------------------
    def roll(self, rng: random.Random) -> Roll:
        """The player to move rolls; only they learn the dice."""
        self._expect("turn")
        self.cup = roll_dice(rng)
        self.stage = "announce"
        return self.cup

    def announce(self, claim: Roll) -> Outcome:
        """The roller names a roll: 21 is lifted at once, anything not above the standing
        claim loses, else the turn passes on."""
        self._expect("announce")
        assert self.cup is not None
        claim = make_roll(*claim)
        if claim not in RANK:
            raise IllegalMove("arena-not-a-roll", dice=f"{claim[0]}-{claim[1]}")
        player = self.to_move
        if claim == TOP:
            if self.cup == TOP:
                others = tuple(p for p in self.seats if p != player)
                return self._end(Lost(others, Loss.MIA), shown=self.cup)
            return self._end(Lost((player,), Loss.LIED_ABOUT_MIA), shown=self.cup)
        if self.claim is not None and RANK[claim] <= RANK[self.claim]:
            return self._end(Lost((player,), Loss.ANNOUNCED_LOSING_DICE))
        self.claim, self.claim_cup, self.cup = claim, self.cup, None
        self.turn += 1
        self.stage = "turn"
        return Outcome()

    def see(self) -> Outcome:
        """The player to move lifts the standing claim: below it, the claimer loses;
        at or above it, the seer does."""
        self._expect("turn")
        player = self.to_move
        if self.claim is None or self.claim_cup is None:
            return self._end(Lost((player,), Loss.SEE_BEFORE_FIRST_ROLL))
        if RANK[self.claim_cup] < RANK[self.claim]:
            return self._end(Lost((self.previous,), Loss.CAUGHT_BLUFFING), shown=self.claim_cup)
        return self._end(Lost((player,), Loss.SEE_FAILED), shown=self.claim_cup)

    def fault(self, reason: Loss) -> Outcome:
        """The player to move answered too late or with a move the stage has no room for."""
        stages = FAULTS.get(reason)
        if stages is None or self.stage not in stages:
            raise IllegalMove("arena-fault", reason=str(reason), stage=self.stage)
        return self._end(Lost((self.to_move,), reason))

    # --- inside -----------------------------------------------------------------------
    def _expect(self, stage: Stage) -> None:
        if self.stage != stage:
            raise IllegalMove("arena-stage", stage=self.stage, wanted=stage)

    def _end(self, lost: Lost, shown: Roll | None = None) -> Outcome:
        self.lost = lost
        self.stage = "over"
        return Outcome(shown=shown, lost=lost)
