"""Table rules shared by every rule set (README, Rule sets): seats, turns, joining, leaving,
the penalty ledger, lives and the end of the game.

The family mixins (bluffing, open rolls) build on these helpers; they never touch seats or
the ledger directly, so "who is in the game" has one definition.
"""

from __future__ import annotations

from random import Random
from typing import Any

from bot.engine.errors import GameOver, IllegalMove, NotInGame, NotYourTurn, TableFull
from bot.engine.events import (
    Cause,
    Event,
    GameEnded,
    Joined,
    Knighted,
    Left,
    NewHost,
    Out,
    Penalized,
    Penalty,
    Reason,
    RoundOver,
    RoundStarted,
    Seated,
    Started,
    TimedOut,
    Turn,
    Unit,
    Waiting,
)
from bot.engine.rolls import Roll, name
from bot.engine.state import POINTS_PER, GameState, PlayerState

#: How a round ends when a player's move decided it: a call, a fold, the lowest roll, or
#: ending one's own round early. The timer's penalty and a void round are not play
#: (README, Ratings: when a game counts).
_PLAYED_REASONS = frozenset({Reason.CALL, Reason.FOLD, Reason.LOWEST, Reason.END_EARLY})


class TableMixin(GameState):
    # --- hooks the family mixins provide ----------------------------------------------------
    def _reset_round(self) -> None:
        raise NotImplementedError

    def _family_leave(self, player: str, seats_before: list[str], events: list[Event]) -> None:
        raise NotImplementedError

    def _family_timeout(self, player: str, rng: Random, events: list[Event]) -> None:
        raise NotImplementedError

    def say(self, roll: Roll) -> str:
        """A roll in this table's own words ("double five", "500", "Mex", "Elbow")."""
        return name(roll, self.options.style, self.options.top_name, self.options.three_one)

    # --- checks ---------------------------------------------------------------------------
    def _require_playing(self) -> None:
        if self.phase == "over":
            raise GameOver("game-over")
        if self.phase != "playing":
            raise IllegalMove("not-started")

    def _require_mover(self, player: str) -> None:
        self._require_playing()
        if player not in self.seats:
            raise NotInGame("not-in-game")
        if player != self.to_move:
            raise NotYourTurn("not-your-turn", player=self.to_move)

    # --- seats ----------------------------------------------------------------------------
    def _next_in(self, player: str, seats_before: list[str] | None = None) -> str | None:
        """The next player still in after ``player``, walking the seat order as it was
        before ``player`` (or anyone) left."""
        ring = seats_before if seats_before is not None else self.seats
        if player not in ring:
            return self.seats[0] if self.seats else None
        start = ring.index(player)
        for step in range(1, len(ring) + 1):
            candidate = ring[(start + step) % len(ring)]
            if candidate in self.seats and candidate != player:
                return candidate
        return None

    def _seat_waiting(self, events: list[Event]) -> None:
        for player in self.waiting:
            self.seats.append(player)
            self.players[player].status = "seated"
            events.append(Seated(player))
        self.waiting.clear()

    def _remove(self, player: str, events: list[Event], reason: Reason) -> None:
        """Take a player out of the seats; in a lives game they are out for good."""
        self.seats.remove(player)
        state = self.players[player]
        state.status = "out" if self.options.lives is not None else "gone"
        state.out_at = self.move_no
        if self.knight == player:
            self.knight = None
            events.append(Knighted(None, None, reason=Reason.KNIGHT_LEFT))
        if self.host == player and self._people():
            self.host = self._people()[0]
            events.append(NewHost(self.host))
        events.append(Out(player, reason) if state.status == "out" else Left(player, reason))

    # --- penalties ------------------------------------------------------------------------
    def _book(
        self,
        player: str,
        unit: Unit,
        amount: int,
        cause: Cause,
        by: str | None,
        events: list[Event],
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Write one ledger line; drinks become points where the table counts points."""
        state = self.players[player]
        if unit == "life":
            due = amount
            amount = min(amount, state.lives or 0)
            if amount <= 0:
                return
            if amount < due:  # the last lives: the table says how many were due
                detail = {**(detail or {}), "due": due}
            state.lives = (state.lives or 0) - amount
        elif self.options.units == "points":
            amount *= POINTS_PER[unit]
            unit = "point"
        detail = detail or {}
        self.ledger.append(Penalty(player, unit, amount, cause, by, self.round_no, detail))
        state.totals[unit] = state.totals.get(unit, 0) + amount
        events.append(Penalized(player, unit, amount, cause, by, detail))

    def _lose_life(
        self,
        player: str,
        amount: int,
        cause: Cause,
        by: str | None,
        events: list[Event],
        detail: dict[str, Any] | None = None,
    ) -> None:
        if self.options.lives is not None:
            self._book(player, "life", amount, cause, by, events, detail)

    # --- rounds and the end of the game ---------------------------------------------------
    def _finish_round(
        self, loser: str | None, reason: Reason, events: list[Event], starter: str | None = None
    ) -> None:
        """Close a round: knock out players without lives, then decide the game or start
        the next round. ``starter`` is who starts it (bluffing names the caller, or the
        player after a folder); by default the loser. Someone no longer in hands the start
        to the next player still in."""
        self.rounds.append((self.round_no, loser, reason))
        events.append(RoundOver(loser, self.round_no, reason))
        decided = reason in _PLAYED_REASONS and self.person_moved
        if decided and self.played_rounds is not None:
            self.played_rounds += 1
        seats_before = list(self.seats)
        busted = [p for p in self.seats if self.players[p].lives == 0]
        if busted and not self.options.last_standing:
            self._end_game(None, busted[0], events)
        else:
            for player in busted:
                self._remove(player, events, Reason.NO_LIVES)
            self._maybe_end_for_players(events)
        if self.phase == "over":
            # A round the timer or a leaver decided ends the game by walkover.
            self.ended = "play" if decided else "walkover"
            return
        wanted = starter if starter is not None else loser
        self._start_round(self._first_still_in(wanted, seats_before), events)

    def _first_still_in(self, wanted: str | None, seats_before: list[str]) -> str:
        if wanted is not None:
            if wanted in self.seats:
                return wanted
            nxt = self._next_in(wanted, seats_before)
            if nxt is not None:
                return nxt
        return self.seats[0]

    def _people(self) -> list[str]:
        """The seated players who are people, not computers, in seat order."""
        return [p for p in self.seats if p not in self.computers]

    def _maybe_end_for_players(self, events: list[Event]) -> bool:
        """A lives game left with one player is theirs, a computer's as much as a
        person's; any game needs two at the table, and a person at it: computers do not
        play on alone."""
        if self.options.lives is not None and len(self.seats) == 1 and not self.waiting:
            self._end_game(self.seats[0], None, events)
            return True
        if self.computers and not self._people() and not self.waiting:
            self._end_game(None, None, events)
            return True
        if len(self.seats) >= 2:
            return False
        if self.waiting and len(self.seats) + len(self.waiting) >= 2:
            return False
        self._end_game(None, None, events)
        return True

    def _start_round(self, starter: str, events: list[Event]) -> None:
        self._seat_waiting(events)
        self.round_no += 1
        self.round_starter = starter
        self.person_moved = False
        self._reset_round()
        self.to_move = starter
        events.append(RoundStarted(starter, self.round_no))

    def _end_game(
        self,
        winner: str | None,
        loser: str | None,
        events: list[Event],
        ended_by: str | None = None,
    ) -> None:
        self.phase = "over"
        self.to_move = None
        self.winner = winner
        self.loser = loser
        self.stuck = False
        self.ended = "walkover" if ended_by is None else "host"
        self.ended_by = ended_by
        events.append(GameEnded(winner, winner, loser, ended_by))

    def _done(self, player: str | None, events: list[Event]) -> list[Event]:
        """Every accepted action ends here: it is a new state, and the actor is awake."""
        self.move_no += 1
        if player is not None and player in self.players:
            self.players[player].timeouts = 0
        if self.phase == "playing" and self.to_move is not None:
            events.append(Turn(self.to_move, self.move_no))
        return events

    # --- table actions --------------------------------------------------------------------
    def join(self, player: str) -> list[Event]:
        if self.phase == "over":
            raise GameOver("game-over")
        if player in self.seats or player in self.waiting:
            raise IllegalMove("already-in-game")
        if len(self.seats) + len(self.waiting) >= self.options.max_players:
            raise TableFull("table-full", max_players=self.options.max_players)
        known = self.players.get(player)
        if self.phase == "playing":
            if self.options.lives is not None:
                raise IllegalMove("lives-game-closed")
            self.waiting.append(player)
            self.players[player] = PlayerState(
                status="waiting", totals=known.totals if known else {}
            )
            return self._done(player, [Waiting(player)])
        if known is not None and known.status == "out":
            raise IllegalMove("out-of-game")
        self.seats.append(player)
        self.players[player] = PlayerState(status="seated", totals=known.totals if known else {})
        return self._done(player, [Joined(player)])

    def start(self, player: str, rng: Random) -> list[Event]:
        if self.phase != "lobby":
            raise IllegalMove("already-started")
        if player != self.host:
            raise NotYourTurn("host-starts")
        if len(self.seats) < self.options.min_players:
            raise IllegalMove("too-few-players", min_players=self.options.min_players)
        if not self._people():
            raise IllegalMove("no-person-seated")
        for seated in self.seats:
            self.players[seated].lives = self.options.lives
        self.phase = "playing"
        events: list[Event] = [Started(player, tuple(self.seats))]
        if self.options.first == "random":
            starter = self.seats[rng.randrange(len(self.seats))]
        else:
            starter = self.host
        self._start_round(starter, events)
        return self._done(player, events)

    def leave(self, player: str) -> list[Event]:
        if self.phase == "over":
            raise GameOver("game-over")
        if player in self.waiting:
            self.waiting.remove(player)
            self.players[player].status = "gone"
            return self._done(None, [Left(player, Reason.LEFT_QUEUE)])
        if player not in self.seats:
            raise NotInGame("not-in-game")
        events: list[Event] = []
        if self.phase == "lobby":
            self.seats.remove(player)
            del self.players[player]
            events.append(Left(player, Reason.LEFT_LOBBY))
            if self.host == player:
                if not self._people():
                    self._end_game(None, None, events)
                    return self._done(None, events)
                self.host = self._people()[0]
                events.append(NewHost(self.host))
            return self._done(None, events)
        seats_before = list(self.seats)
        self._remove(player, events, Reason.LEFT_GAME)
        self._after_removal(player, seats_before, events)
        return self._done(None, events)

    def _after_removal(self, player: str, seats_before: list[str], events: list[Event]) -> None:
        """A player left mid-round: end the game, restart with the queue, or play on."""
        if self._maybe_end_for_players(events):
            return
        if len(self.seats) < 2:
            # One player left at the table and others waiting: the round can't go on
            # alone, so it is void and the waiting players sit down for a fresh one.
            self._finish_round(None, Reason.VOID, events, starter=self.seats[0])
            return
        self._family_leave(player, seats_before, events)

    def add_computer(self, player: str, computer: str) -> list[Event]:
        """The host seats a computer player in the lobby (README, Playing against the
        computer); ``computer`` is its id, made by the caller."""
        self._check_computer_seat(player)
        if computer in self.players:
            raise IllegalMove("computer-already-seated")
        if len(self.seats) + len(self.waiting) >= self.options.max_players:
            raise TableFull("table-full", max_players=self.options.max_players)
        self.seats.append(computer)
        self.computers.append(computer)
        self.players[computer] = PlayerState(status="seated")
        return self._done(player, [Joined(computer)])

    def remove_computer(self, player: str, computer: str) -> list[Event]:
        self._check_computer_seat(player)
        if computer not in self.computers or computer not in self.seats:
            raise IllegalMove("no-such-computer")
        self.seats.remove(computer)
        self.computers.remove(computer)
        del self.players[computer]
        return self._done(player, [Left(computer, Reason.LEFT_LOBBY)])

    def _check_computer_seat(self, player: str) -> None:
        if self.phase != "lobby":
            raise IllegalMove("computers-in-lobby")
        if player != self.host:
            raise NotYourTurn("host-seats-computers")

    def timeout(self, player: str, rng: Random) -> list[Event]:
        """The turn timer of ``player`` (who must be to move) ran out: act for them."""
        self._require_mover(player)
        self.players[player].timed = True
        events: list[Event] = [TimedOut(player)]
        self._family_timeout(player, rng, events)
        state = self.players[player]
        state.timeouts += 1
        if state.timeouts >= 2 and player in self.seats and self.phase == "playing":
            state.timeouts = 0
            seats_before = list(self.seats)
            self._remove(player, events, Reason.TIMEOUTS)
            self._after_removal(player, seats_before, events)
        return self._done(None, events)

    def end(self, player: str, force: bool = False) -> list[Event]:
        """The host (or a moderator, ``force``) ends the game; nobody wins a game cut short."""
        if self.phase == "over":
            raise GameOver("already-over")
        if player != self.host and not force:
            raise NotYourTurn("host-ends")
        events: list[Event] = []
        self._end_game(None, None, events, ended_by=player)
        return self._done(None, events)
