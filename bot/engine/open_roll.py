"""Open rolls (README, Rule sets): ``mexen``, ``mexicanen`` and ``mexico``, and any mix of their
mechanisms (hand-out, Elbow, keep, pot, Knight, STUCK, end early, roll-offs, doubling).

Every roll is public. Checks come first and state changes after, so a refused action
changes nothing.
"""

from __future__ import annotations

from random import Random

from bot.engine.common import TableMixin
from bot.engine.errors import IllegalMove, NotInGame, NotYourTurn
from bot.engine.events import (
    THREE_ONE_EVENTS,
    Cause,
    EndedRound,
    Event,
    KnightChoice,
    Knighted,
    LimitSet,
    PotGrew,
    Reason,
    Rolled,
    RollOff,
    Stood,
    Stuck,
    Tapped,
)
from bot.engine.rolls import RANK, STUCK, THREE_ONE, TOP, Roll, code, is_double, make_roll


class OpenMixin(TableMixin):
    # --- reading the table ----------------------------------------------------------------
    def allowed_rolls(self) -> int:
        """Counting rolls the player to move may make this turn."""
        if self.rolloff is not None:
            return 1
        return self.limit if self.limit is not None else self.options.max_rolls

    def _special_three_one(self, roll: Roll) -> bool:
        return roll == THREE_ONE and self.options.three_one != "low"

    def can_end_early(self) -> bool:
        return (
            self.options.end_early
            and self.rolloff is None
            and self.mex_count == 0
            and self.last is not None
            and self.pending is None
        )

    def keepable_die(self) -> int | None:
        """The lone 1 or 2 of the current roll that may be kept now, if any."""
        last = self.last
        if (
            not self.options.keep
            or last is None
            or self.kept
            or self.rolloff is not None
            or self.pending is not None
            or self.rolls >= self.allowed_rolls()
        ):
            return None
        small = [d for d in last if d in (1, 2)]
        return small[0] if len(small) == 1 else None

    # --- checks ---------------------------------------------------------------------------
    def _check_open(self, player: str) -> None:
        if self.options.family != "open":
            raise IllegalMove("open-roll-only", preset=self.preset)
        self._require_mover(player)

    def _check_roll_open(self, player: str, blind: bool) -> None:
        self._check_open(player)
        if blind:
            raise IllegalMove("every-roll-open")
        if self.pending == "handout":
            raise IllegalMove("hand-out-first")
        if self.pending == "knight":
            raise IllegalMove("name-knight-first")
        if self.pending is None and self.rolls >= self.allowed_rolls():
            raise IllegalMove("no-rolls-left")

    def _check_stand(self, player: str) -> None:
        self._check_open(player)
        if self.rolloff is not None:
            raise IllegalMove("no-stand-in-rolloff")
        if self.pending == "knight":
            raise IllegalMove("name-knight-first")
        if self.pending is not None or self.last is None:
            raise IllegalMove("nothing-to-stand-on")

    def _check_keep(self, player: str, die: int) -> None:
        self._check_open(player)
        if not self.options.keep:
            raise IllegalMove("keep-off")
        keepable = self.keepable_die()
        if keepable is None:
            raise IllegalMove("cannot-keep")
        if die != keepable:
            raise IllegalMove("keep-which", die=keepable)

    def _check_endround(self, player: str) -> None:
        self._check_open(player)
        if not self.options.end_early:
            raise IllegalMove("end-early-off")
        if self.rolloff is not None:
            raise IllegalMove("rolloff-runs-on")
        if self.mex_count:
            raise IllegalMove("top-rolled", roll=code(TOP), roll_said=self.say(TOP))
        if not self.can_end_early():
            raise IllegalMove("own-roll-first")

    def _check_tap(self, player: str) -> None:
        self._require_playing()
        if player not in self.seats:
            raise NotInGame("not-in-game")
        if not self.stuck:
            raise IllegalMove("nothing-to-tap")
        if player == self.to_move:
            raise NotYourTurn("tap-own")

    def _check_handout(self, player: str, to: str) -> None:
        self._check_open(player)
        if self.pending != "handout":
            raise IllegalMove("no-sip")
        if to == player or to not in self.seats:
            raise IllegalMove("sip-to-other")

    def _check_knight(self, player: str, to: str) -> None:
        self._check_open(player)
        if self.pending != "knight":
            raise IllegalMove("no-knight")
        if to == player or to not in self.seats:
            raise IllegalMove("knight-other")

    # --- actions --------------------------------------------------------------------------
    def _open_roll(self, player: str, rng: Random, blind: bool) -> list[Event]:
        self._check_roll_open(player, blind)
        events: list[Event] = []
        self.stuck = False
        dice = make_roll(rng.randint(1, 6), rng.randint(1, 6))
        self._take_roll(player, dice, None, events)
        self._after_roll(player, events)
        return self._done(player, events)

    def keep(self, player: str, die: int, rng: Random) -> list[Event]:
        self._check_keep(player, die)
        events: list[Event] = []
        self.stuck = False
        self.kept = True
        dice = make_roll(die, rng.randint(1, 6))
        self._take_roll(player, dice, die, events)
        self._after_roll(player, events)
        return self._done(player, events)

    def stand(self, player: str) -> list[Event]:
        self._check_stand(player)
        assert self.last is not None  # checked: there is a roll to stand on
        events: list[Event] = [Stood(player, code(self.last))]
        self._end_turn(player, events)
        return self._done(player, events)

    def end_round(self, player: str) -> list[Event]:
        self._check_endround(player)
        last = self.last
        assert last is not None  # checked: ending early needs one's own roll
        events: list[Event] = [EndedRound(player, code(last))]
        self.results[player] = last
        self._lose_open_round(player, Reason.END_EARLY, events)
        return self._done(player, events)

    def tap(self, player: str) -> list[Event]:
        self._check_tap(player)
        roller = self.to_move
        assert roller is not None
        events: list[Event] = [Tapped(player, roller, code(STUCK))]
        self._end_turn(roller, events)
        return self._done(player, events)

    def hand_out(self, player: str, to: str) -> list[Event]:
        self._check_handout(player, to)
        events: list[Event] = []
        self._give_handout(player, to, events)
        return self._done(player, events)

    def choose_knight(self, player: str, to: str) -> list[Event]:
        self._check_knight(player, to)
        self.knight = to
        self.pending = None
        events: list[Event] = [Knighted(to, to, named_by=player)]
        self._after_roll(player, events)
        return self._done(player, events)

    # --- mechanics --------------------------------------------------------------------------
    def _give_handout(self, player: str, to: str, events: list[Event]) -> None:
        self._book(to, "sip", 1, Cause.HANDED_OUT, player, events)
        self.pending = "reroll"

    def _take_roll(self, player: str, dice: Roll, kept: int | None, events: list[Event]) -> None:
        """Apply one roll's effects; whether the turn ends is decided by the caller."""
        deciding = self.rolloff is not None
        special = self._special_three_one(dice)
        # Which counting roll of the turn this is; a roll-off's or a special 3-1 counts none.
        n = None if special or deciding else self.rolls + 1
        events.append(Rolled(player, dice=code(dice), kept=kept, rolloff=deciding, n=n))
        if special:
            self.last = None
            effect = self.options.three_one
            if effect == "handout":
                self.pending = "handout"
            elif effect == "social":
                for seated in self.seats:
                    self._book(seated, "sip", 1, Cause.SOCIAL, player, events)
                self.pending = "reroll"
            elif deciding:
                self.pending = "reroll"
            else:  # Elbow: the turn starts over with every roll and a fresh keep
                self.rolls = 0
                self.kept = False
                self.pending = None
            events.append(THREE_ONE_EVENTS[effect](player, code(dice)))
            return
        self.pending = None
        self.last = dice
        if dice == TOP:
            self.mex_count += 1
        if deciding:
            self.results[player] = dice
            return
        self.rolls += 1
        if self.options.loss == "pot":
            self._grow_pot(dice, events)
        if self.options.knight and is_double(dice):
            self._knight_effects(player, dice, events)
        if self.options.stuck and dice == STUCK and self.rolls < self.allowed_rolls():
            self.stuck = True
            events.append(Stuck(player))

    def _grow_pot(self, dice: Roll, events: list[Event]) -> None:
        before = self.pot
        if dice == TOP:
            self.pot = 8 if self.pot == 1 else self.pot * 2
        elif is_double(dice):
            self.pot += dice[0]
        if self.options.cap is not None:
            self.pot = min(self.pot, self.options.cap)
        if self.pot != before:
            events.append(PotGrew(None, self.pot, before))

    def _knight_effects(self, player: str, dice: Roll, events: list[Event]) -> None:
        knight = self.knight
        if dice == (1, 1):
            if knight is not None:
                self._book(knight, "sip", 1, Cause.KNIGHT_ONE_ONE, player, events)
            if knight != player:
                self.knight = player
                events.append(Knighted(player, player, was=knight))
            elif len(self.seats) > 1:
                self.pending = "knight"
                events.append(KnightChoice(player))
        elif knight is not None:
            detail = {"die": dice[0]}
            self._book(knight, "sip", dice[0], Cause.KNIGHT_DOUBLE, player, events, detail)

    def _after_roll(self, player: str, events: list[Event]) -> None:
        """End the turn where the rules end it by themselves (README, Rule sets)."""
        if self.pending is not None or self.last is None:
            return
        if self.rolloff is not None:
            self._next_in_rolloff(events)
        elif self.last == TOP or (self.rolls >= self.allowed_rolls() and not self.can_end_early()):
            self._end_turn(player, events)

    def _end_turn(self, player: str, events: list[Event]) -> None:
        if self.rolloff is not None:
            self._next_in_rolloff(events)
            return
        if self.last is not None:
            self.results[player] = self.last
        if self.limit is None:
            self.limit = self.rolls
            events.append(LimitSet(player, self.limit))
        self._clear_turn()
        idx = self.order.index(player)
        if idx + 1 < len(self.order):
            self.to_move = self.order[idx + 1]
        else:
            self._resolve(events)

    def _clear_turn(self) -> None:
        self.rolls = 0
        self.last = None
        self.kept = False
        self.pending = None
        self.stuck = False

    def _resolve(self, events: list[Event]) -> None:
        """Everyone has a roll: the lowest loses, ties roll off (README, Rule sets)."""
        contenders = [p for p in self.order if p in self.results]
        pool = self.rolloff if self.rolloff is not None else contenders
        pool = [p for p in pool if p in self.results]
        if not pool:
            pool = contenders
        low = min(RANK[self.results[p]] for p in pool)
        tied = [p for p in pool if RANK[self.results[p]] == low]
        if len(tied) == 1:
            self._lose_open_round(tied[0], Reason.LOWEST, events)
        elif self.options.rolloff:
            self._start_rolloff(tied, events)
        else:
            self._lose_open_round(tied[-1], Reason.LOWEST, events)

    def _start_rolloff(self, tied: list[str], events: list[Event]) -> None:
        self.rolloff = list(tied)
        for player in tied:
            self.results.pop(player, None)
        self._clear_turn()
        self.to_move = tied[0]
        events.append(RollOff(None, tuple(tied)))

    def _next_in_rolloff(self, events: list[Event]) -> None:
        assert self.rolloff is not None
        self._clear_turn()
        remaining = [p for p in self.rolloff if p not in self.results]
        if remaining:
            self.to_move = remaining[0]
        else:
            self._resolve(events)

    def _lose_open_round(self, loser: str, how: Reason, events: list[Event]) -> None:
        o = self.options
        mexes = self.mex_count
        roll = self.results.get(loser)
        detail: dict[str, object] = {"roll": code(roll) if roll else None, "mexes": mexes}
        if how is Reason.END_EARLY:
            if o.lives is not None:
                self._book(loser, "life", 1, Cause.ENDED_EARLY, None, events)
            else:
                # The single penalty, which the cap bounds like any loser's sips
                # (README, Rule sets: mexen).
                sips = o.base if o.cap is None else min(o.base, o.cap)
                self._book(loser, "sip", sips, Cause.ENDED_EARLY, None, events)
        elif o.loss == "pot":
            detail["pot"] = self.pot
            self._book(loser, "sip", self.pot, Cause.POT, None, events, detail)
            self._lose_life(loser, 1, Cause.LOWEST, None, events, detail)
        elif o.lives is not None:
            lives = o.lives_per_mex * mexes if mexes else 1
            self._book(loser, "life", lives, Cause.LOWEST, None, events, detail)
        else:
            sips = o.base * o.mex_multiplier**mexes
            if o.cap is not None:
                sips = min(sips, o.cap)
            self._book(loser, "sip", sips, Cause.LOWEST, None, events, detail)
        self._finish_round(loser, how, events)

    def _open_timeout(self, player: str, rng: Random, events: list[Event]) -> None:
        """The bot finishes the turn the least eventful way (README, Rule sets)."""
        if self.pending == "knight":
            self.pending = None  # the Knight stays as is
        while True:
            if self.pending == "handout":
                target = self._next_in(player)
                assert target is not None
                self._give_handout(player, target, events)
            elif self.pending == "reroll" or self.last is None:
                self.stuck = False
                dice = make_roll(rng.randint(1, 6), rng.randint(1, 6))
                self._take_roll(player, dice, None, events)
                if self.pending == "knight":
                    self.pending = None
            else:
                break
        self._end_turn(player, events)

    def _open_leave(self, player: str, seats_before: list[str], events: list[Event]) -> None:
        """The leaver's rolls stop counting; 21s they rolled and the pot stay (README,
        Rule sets)."""
        was_mover = self.to_move == player
        self.results.pop(player, None)
        if self.rolloff is not None and player in self.rolloff:
            self.rolloff.remove(player)
            if player in self.order:
                self.order.remove(player)
            if len(self.rolloff) == 1:
                self._lose_open_round(self.rolloff[0], Reason.LOWEST, events)
            elif not self.rolloff:
                self.rolloff = None
                self._resolve(events)
            elif was_mover:
                self._next_in_rolloff(events)
            return
        if player not in self.order:
            return
        idx = self.order.index(player)
        if was_mover and self.rolloff is None and self.limit is None and self.rolls > 0:
            self.limit = self.rolls
            events.append(LimitSet(player, self.limit))
        self.order.remove(player)
        if not was_mover:
            return
        if self.rolloff is not None:
            self._next_in_rolloff(events)
            return
        self._clear_turn()
        if idx < len(self.order):
            self.to_move = self.order[idx]
        else:
            self._resolve(events)

    def _reset_open_round(self) -> None:
        starter = self.round_starter
        assert starter is not None
        i = self.seats.index(starter)
        self.order = self.seats[i:] + self.seats[:i]
        self.limit = None
        self.results = {}
        self.mex_count = 0
        self.rolloff = None
        self.pot = 1
        self._clear_turn()
