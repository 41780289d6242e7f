"""Bluffing under the cup (README, Rule sets): ``mexican`` and ``dollar``, and any mix of their
mechanisms.

Each action checks everything first and only then changes state, so a refusal leaves the
game exactly as it was.
"""

from __future__ import annotations

from random import Random

from bot.engine.common import TableMixin
from bot.engine.errors import IllegalMove, InvalidClaim, NotInGame, NotYourTurn
from bot.engine.events import (
    Accepted,
    Cause,
    Claimed,
    Dice,
    Event,
    Folded,
    Passed,
    Reason,
    Revealed,
    Rolled,
    Social,
    Unit,
)
from bot.engine.rolls import (
    ORDER,
    RANK,
    THREE_ONE,
    TOP,
    Roll,
    code,
    is_double,
    make_roll,
    parse_roll,
)

#: Drink for a lost call, by the claimed value's tier (README, Rule sets).
_TIER_DRINK: dict[str, Unit] = {"plain": "sip", "double": "shot", "top": "chug"}


def _tier(roll: Roll) -> str:
    if roll == TOP:
        return "top"
    return "double" if is_double(roll) else "plain"


class BluffMixin(TableMixin):
    # --- reading the table ----------------------------------------------------------------
    def _is_result(self, roll: Roll) -> bool:
        return roll != THREE_ONE or self.options.three_one == "low"

    def _claim_allowed(self, roll: Roll) -> bool:
        if not self._is_result(roll):
            return False
        if self.standing is None:
            return True
        rank, standing = RANK[roll], RANK[self.standing]
        if rank > standing:
            return True
        return rank == standing and (self.options.ties or self.standing == TOP)

    def valid_claims(self) -> list[Roll]:
        """The claims that would be accepted now, lowest first (for autocomplete).

        The rolls are in rank order, so the valid ones are a tail of that order: found by
        where it starts rather than by testing all 21 (this runs for every button drawn).
        """
        return list(ORDER[self.lowest_claim(self.standing) :])

    def lowest_claim(self, over: Roll | None) -> int:
        """The rank of the lowest claim valid over ``over`` (None: a round's first claim,
        where a 3-1 that is no result is never a claim)."""
        if over is None:
            return 0 if self.options.three_one == "low" else 1
        tie = self.options.ties or over == TOP
        return RANK[over] if tie else RANK[over] + 1

    def is_bluff(self, cup: Roll, claim: Roll) -> bool:
        """Whether claiming ``claim`` over ``cup`` claims more than is there: a claim wins
        a call when the cup is equal or higher (README, Rule sets)."""
        return RANK[cup] < RANK[claim]

    def can_pass_after_accept(self) -> bool:
        """Whether accepting a claim opens a choice rolling does not: passing the cup on
        unseen. Where it doesn't, accepting is only the first half of a roll."""
        return self.options.pass_unrolled and self.standing != TOP

    def _parse_claim(self, value: str | Roll) -> Roll:
        roll = parse_roll(value) if isinstance(value, str) else make_roll(*value)
        if not self._is_result(roll):
            raise InvalidClaim("three-one-no-result", preset=self.preset, valid=self._valid_codes())
        if not self._claim_allowed(roll):
            standing = self.standing
            assert standing is not None  # with no standing claim every result is allowed
            raise InvalidClaim(
                "claim-too-low",
                claim=code(roll),
                claim_said=self.say(roll),
                standing=code(standing),
                standing_said=self.say(standing),
                valid=self._valid_codes(),
            )
        return roll

    def _valid_codes(self) -> list[str]:
        return [code(r) for r in self.valid_claims()]

    # --- checks ---------------------------------------------------------------------------
    def _check_bluff(self) -> None:
        if self.options.family != "bluff":
            raise IllegalMove("no-cup", preset=self.preset)

    def _check_roll_bluff(self, player: str, blind: bool) -> None:
        self._require_mover(player)
        if blind and not self.options.blind:
            raise IllegalMove("blind-off")
        if self.stage in ("rolled",):
            raise IllegalMove("claim-after-roll")
        if blind and self.stage == "reroll":
            raise IllegalMove("social-reroll-open")

    def _check_claim(self, player: str, value: str | Roll) -> Roll:
        self._check_bluff()
        self._require_mover(player)
        if self.stage == "answer":
            raise IllegalMove("answer-first")
        if self.stage != "rolled":
            raise IllegalMove("roll-first")
        return self._parse_claim(value)

    def _check_answer(self, player: str) -> None:
        self._check_bluff()
        self._require_playing()
        if player not in self.seats:
            raise NotInGame("not-in-game")
        if self.stage != "answer":
            raise IllegalMove("no-claim-to-answer")
        if player != self.to_move:
            raise NotYourTurn("not-your-answer", player=self.to_move)

    def _check_pass(self, player: str, value: str | Roll) -> Roll:
        self._check_bluff()
        self._require_mover(player)
        if not self.options.pass_unrolled:
            raise IllegalMove("pass-unrolled-off")
        if self.stage != "accepted":
            raise IllegalMove("accept-before-pass")
        if self.standing == TOP:
            raise IllegalMove("roll-after-top", claim=code(TOP), claim_said=self.say(TOP))
        return self._parse_claim(value)

    def _check_fold(self, player: str) -> None:
        self._check_bluff()
        self._require_mover(player)
        if not self.options.fold:
            raise IllegalMove("fold-off")
        if self.stage != "rolled" or self.standing is None:
            raise IllegalMove("fold-needs-claim")

    # --- actions --------------------------------------------------------------------------
    def _bluff_roll(self, player: str, rng: Random, blind: bool) -> list[Event]:
        self._check_roll_bluff(player, blind)
        events: list[Event] = []
        if self.stage == "answer":
            assert self.standing is not None  # a claim waits for an answer
            events.append(Accepted(player, code(self.standing), by_roll=True))
        dice = make_roll(rng.randint(1, 6), rng.randint(1, 6))
        if dice == THREE_ONE and self.options.three_one == "social":
            # Social: the 3-1 is shown to all, everyone sips, and the roller must roll again.
            self.cup = dice
            self.seen_by = list(self.seats)
            events.append(Social(player, code(dice)))
            for seated in self.seats:
                self._book(seated, "sip", 1, Cause.SOCIAL, player, events)
            self.stage = "reroll"
            return self._done(player, events)
        self.cup = dice
        self.seen_by = [] if blind else [player]
        self.stage = "rolled"
        events.append(Rolled(player, blind))
        if not blind:
            events.append(Dice(player, code(dice), to=player))
        return self._done(player, events)

    def claim(self, player: str, value: str | Roll) -> list[Event]:
        roll = self._check_claim(player, value)
        return self._make_claim(player, roll, Claimed)

    def pass_cup(self, player: str, value: str | Roll) -> list[Event]:
        roll = self._check_pass(player, value)
        return self._make_claim(player, roll, Passed)

    def _make_claim(
        self, player: str, roll: Roll, kind: type[Claimed] | type[Passed]
    ) -> list[Event]:
        if kind is Passed:
            self.claim_how = "pass"
        else:
            self.claim_how = "seen" if player in self.seen_by else "blind"
        self.claim_over = self.standing
        self.standing = roll
        self.claimer = player
        self.stage = "answer"
        self.to_move = self._next_in(player)
        return self._done(player, [kind(player, code(roll), self.to_move)])

    def accept(self, player: str) -> list[Event]:
        self._check_answer(player)
        assert self.standing is not None  # there is a claim to answer
        self.stage = "accepted"
        return self._done(player, [Accepted(player, code(self.standing))])

    def bullshit(self, player: str) -> list[Event]:
        self._check_answer(player)
        claimer, claim, cup = self.claimer, self.standing, self.cup
        assert claimer is not None and claim is not None and cup is not None
        bluffed = self.is_bluff(cup, claim)
        loser = claimer if bluffed else player
        events: list[Event] = [Revealed(player, code(cup), code(claim), claimer, bluffed, loser)]
        self.seen_by = list(self.seats)
        cause = Cause.CAUGHT if bluffed else Cause.WRONG_CALL
        detail = {"claim": code(claim), "cup": code(cup)}
        by = player if bluffed else claimer
        if self.options.drink != "none":
            drink = _TIER_DRINK[_tier(claim)] if self.options.drink == "tiers" else "sip"
            self._book(loser, drink, 1, cause, by, events, detail)
        self._lose_life(loser, 1, cause, by, events, detail)
        # The caller starts the next round, or the next player still in after them.
        self._finish_round(loser, Reason.CALL, events, starter=player)
        return self._done(player, events)

    def fold(self, player: str) -> list[Event]:
        self._check_fold(player)
        assert self.standing is not None  # folding needs a claim
        detail = {"claim": code(self.standing)}
        events: list[Event] = [Folded(player, detail["claim"])]
        self._book(player, "sip", 1, Cause.FOLDED, None, events, detail)
        self._lose_life(player, 1, Cause.FOLDED, None, events, detail)
        seats_before = list(self.seats)
        starter = self._next_in(player, seats_before)
        self._finish_round(player, Reason.FOLD, events, starter=starter)
        return self._done(player, events)

    def _bluff_timeout(self, player: str, events: list[Event]) -> None:
        """Whoever let the timer run out loses the round at the lowest tier."""
        if self.options.drink != "none":
            self._book(player, "sip", 1, Cause.TIMER, None, events)
        self._lose_life(player, 1, Cause.TIMER, None, events)
        seats_before = list(self.seats)
        starter = self._next_in(player, seats_before)
        self._finish_round(player, Reason.TIMER, events, starter=starter)

    def _bluff_leave(self, player: str, seats_before: list[str], events: list[Event]) -> None:
        """The mover or the maker of an unanswered claim leaving voids the round."""
        voids = player == self.to_move or (self.stage == "answer" and player == self.claimer)
        if not voids:
            if self.claimer == player:
                self.claimer = None
            return
        self._finish_round(None, Reason.VOID, events, starter=self._next_in(player, seats_before))

    def _reset_bluff_round(self) -> None:
        self.stage = "open"
        self.cup = None
        self.seen_by = []
        self.standing = None
        self.claimer = None
        self.claim_how = None
        self.claim_over = None
