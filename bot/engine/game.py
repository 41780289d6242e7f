"""The referee: one object per table, driven by actions, answering with events.

The bot never reads hidden state directly; it renders :meth:`Game.view` for a viewer, so
keeping the cup secret is decided here, once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

from bot.engine.bluff import BluffMixin
from bot.engine.errors import GameError, IllegalMove, StaleAction
from bot.engine.events import Event
from bot.engine.moves import BOT_ONLY, TABLE_ACTS, Act, Move
from bot.engine.open_roll import OpenMixin
from bot.engine.presets import make_options
from bot.engine.rolls import ORDER, TOP, Roll, parse_roll
from bot.engine.state import POINTS_PER, GameState, PlayerState


class Game(BluffMixin, OpenMixin):
    @classmethod
    def create(cls, preset: str, host: str, options: dict[str, Any] | None = None) -> Game:
        """A lobby for ``preset`` with its host seated; ``options`` are house rules."""
        game = cls(preset=preset, options=make_options(preset, options), host=host)
        game.seats.append(host)
        game.players[host] = PlayerState()
        return game

    # --- family dispatch --------------------------------------------------------------------
    @property
    def bluffing(self) -> bool:
        return self.options.family == "bluff"

    def roll(self, player: str, rng: Random, blind: bool = False) -> list[Event]:
        if self.bluffing:
            return self._bluff_roll(player, rng, blind)
        return self._open_roll(player, rng, blind)

    def _reset_round(self) -> None:
        if self.bluffing:
            self._reset_bluff_round()
        else:
            self._reset_open_round()

    def _family_leave(self, player: str, seats_before: list[str], events: list[Event]) -> None:
        if self.phase != "playing":
            return
        if self.bluffing:
            self._bluff_leave(player, seats_before, events)
        else:
            self._open_leave(player, seats_before, events)

    def _family_timeout(self, player: str, rng: Random, events: list[Event]) -> None:
        if self.bluffing:
            self._bluff_timeout(player, events)
        else:
            self._open_timeout(player, rng, events)

    # --- one entry point for replays and the bot -------------------------------------------
    def apply(
        self,
        player: str,
        move: Move,
        rng: Random | None = None,
        *,
        expect_move: int | None = None,
        force: bool = False,
    ) -> list[Event]:
        """Play ``move`` for ``player``. ``expect_move`` is the move number the caller saw
        (a button carries it): any other number means the click is stale and is refused."""
        if expect_move is not None and expect_move != self.move_no:
            raise StaleAction("stale-button")
        handler = _MOVES.get(move.act)
        if handler is None:
            raise IllegalMove("unknown-move", act=str(move.act))
        state = self.players.get(player)
        if move.act in TABLE_ACTS or move.act in BOT_ONLY or state is None:
            return handler(self, player, rng or Random(), move, force)
        # A player's own move: marked first, so the round it ends counts as played and
        # the game counts for them (README, Ratings); a refused move leaves the marks.
        marks = (self.person_moved, state.moved)
        self.person_moved = marks[0] or player not in self.computers
        state.moved = True
        try:
            return handler(self, player, rng or Random(), move, force)
        except GameError:
            self.person_moved, state.moved = marks
            raise

    # --- what a player may do -----------------------------------------------------------------
    def legal_actions(self, player: str) -> list[Move]:
        """Every move ``player`` could make now, each complete with its value or target
        (buttons and menus to draw, random play in tests and benchmarks).

        Built from the same checks the moves run, so it can never disagree with them; only
        the checks of this game's family are tried, and only TAP for a player not to move.
        Table moves (join, leave, start, end) and the timer are not listed.
        """
        if self.phase != "playing" or player not in self.seats:
            return []
        if player != self.to_move:
            return [_TAP] if self.stuck else []
        checks = _BLUFF_CHECKS if self.bluffing else _OPEN_CHECKS
        moves: list[Move] = []
        for act, check in checks:
            try:
                check(self, player)
            except GameError:
                continue
            moves += _EXPAND[act](self, player) if act in _EXPAND else [_PLAIN[act]]
        return moves

    def typed_claim(self, player: str, text: str) -> Move:
        """A claim typed as text, as the move it is now: right after accepting without a
        roll, a claim is a pass of the unseen cup (README, Rule sets)."""
        roll = parse_roll(text)
        act = Act.PASS if self.bluffing and self.stage == "accepted" else Act.CLAIM
        return Move(act, roll=roll)

    def owes_choice(self, player: str) -> Act | None:
        """The private choice ``player`` must make before anything else (a hand-out after
        a 3-1, or naming the next Knight), if any."""
        if self.phase != "playing" or player != self.to_move:
            return None
        return _CHOICES.get(self.pending or "")

    def sees_cup(self, player: str) -> bool:
        """Whether ``player`` may look at the dice under the cup now."""
        return self.bluffing and self.cup is not None and player in self.seen_by

    def _someone_else(self, player: str) -> str:
        return next((p for p in self.seats if p != player), player)

    def _others(self, player: str) -> list[str]:
        return [p for p in self.seats if p != player]

    def _check_claim_stage(self, player: str) -> None:
        # With a roll in hand some claim is always valid: at worst the top roll (which
        # ties a standing top claim), so the stage alone decides.
        self._check_bluff()
        self._require_mover(player)
        if self.stage != "rolled":
            raise IllegalMove("no-claim-now")

    def _check_pass_stage(self, player: str) -> None:
        self._check_pass(player, TOP)

    # --- secrecy ------------------------------------------------------------------------------
    def view(self, viewer: str | None) -> dict[str, Any]:
        """The state as ``viewer`` may see it: the cup's dice only for those who saw them."""
        data = self.to_dict()
        if self.bluffing and (viewer is None or viewer not in self.seen_by):
            data["cup"] = None
        data["viewer"] = viewer
        data["legal_moves"] = [m.encode() for m in self.legal_actions(viewer)] if viewer else []
        data["standing_name"] = self.say(self.standing) if self.standing else None
        return data

    def visible_events(self, events: list[Event], viewer: str | None) -> list[Event]:
        return [e for e in events if e.to is None or e.to == viewer]

    # --- persistence --------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        return cls(**GameState._fields_from_dict(data))

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_dict(json.loads(text))

    # --- convenience for players' eyes --------------------------------------------------------
    def summary(self) -> dict[str, dict[str, int]]:
        """Totals per player and unit, kept beside the ledger so they survive trimming."""
        return {p: dict(state.totals) for p, state in self.players.items() if state.totals}

    def left_early(self, player: str) -> bool:
        """Whether a player walked away (left, or was removed for sleeping through their
        turns) rather than playing to the end or being knocked out: a leaver ranks last
        (README, Ratings)."""
        state = self.players[player]
        return state.status == "gone" or (state.status == "out" and bool(state.lives))

    def final_places(self) -> list[tuple[str, int]]:
        """Every player who took part, best first, with their place; players tied on
        everything that decides the game share a place (1, 2, 2, 4). Where lives count:
        the winner, then lives left, then who lasted longer, then who drank less; where
        they don't: what they drank. Leavers come last, the latest leaver first. The final
        standing and the ratings read this one order."""
        lives = self.options.lives is not None

        def key(player: str) -> tuple[int, ...]:
            state = self.players[player]
            if self.left_early(player):
                return (1, -(state.out_at or 0), 0, 0, 0)
            won = 0 if player == self.winner else 1
            drunk = sum(n * POINTS_PER.get(u, 1) for u, n in state.totals.items() if u != "life")
            if not lives:
                return (0, won, drunk, 0, 0)
            lasted = -(state.out_at if state.out_at is not None else self.move_no)
            return (0, won, -(state.lives or 0), lasted, drunk)

        players = [
            p for p in self.players if self.players[p].status != "waiting" or p in self.seats
        ]
        keyed = sorted(((key(p), i, p) for i, p in enumerate(players)))
        places: list[tuple[str, int]] = []
        last: tuple[int, ...] | None = None
        place = 0
        for n, (rank, _, player) in enumerate(keyed, start=1):
            if rank != last:
                place, last = n, rank
            places.append((player, place))
        return places

    def forget_before(self, round_no: int) -> None:
        """Drop the ledger lines and round records of rounds before ``round_no``.

        An endless game would otherwise carry its whole history in every saved state
        (60 kB after 2,000 moves); the bot keeps that history in its event log, and each
        player's totals stay in ``players``.
        """
        if self.ledger and self.ledger[0].round < round_no:
            self.ledger = [line for line in self.ledger if line.round >= round_no]
        if self.rounds and self.rounds[0][0] < round_no:
            self.rounds = [r for r in self.rounds if r[0] >= round_no]


_Handler = Callable[["Game", str, Random, Move, bool], list[Event]]
#: Every move by act: (game, player, rng, move, force) -> events.
_MOVES: dict[Act, _Handler] = {
    Act.JOIN: lambda g, p, r, m, f: g.join(p),
    Act.LEAVE: lambda g, p, r, m, f: g.leave(p),
    Act.START: lambda g, p, r, m, f: g.start(p, r),
    Act.END: lambda g, p, r, m, f: g.end(p, f),
    Act.ROLL: lambda g, p, r, m, f: g.roll(p, r),
    Act.ROLL_BLIND: lambda g, p, r, m, f: g.roll(p, r, blind=True),
    Act.CLAIM: lambda g, p, r, m, f: g.claim(p, _claim_of(m)),
    Act.PASS: lambda g, p, r, m, f: g.pass_cup(p, _claim_of(m)),
    Act.ACCEPT: lambda g, p, r, m, f: g.accept(p),
    Act.BULLSHIT: lambda g, p, r, m, f: g.bullshit(p),
    Act.FOLD: lambda g, p, r, m, f: g.fold(p),
    Act.STAND: lambda g, p, r, m, f: g.stand(p),
    Act.KEEP: lambda g, p, r, m, f: g.keep(p, _die_of(m), r),
    Act.ENDROUND: lambda g, p, r, m, f: g.end_round(p),
    Act.TAP: lambda g, p, r, m, f: g.tap(p),
    Act.HANDOUT: lambda g, p, r, m, f: g.hand_out(p, _player_of(m)),
    Act.KNIGHT: lambda g, p, r, m, f: g.choose_knight(p, _player_of(m)),
    Act.TIMEOUT: lambda g, p, r, m, f: g.timeout(p, r),
    Act.ADD_COMPUTER: lambda g, p, r, m, f: g.add_computer(p, _computer_of(m)),
    Act.REMOVE_COMPUTER: lambda g, p, r, m, f: g.remove_computer(p, _computer_of(m)),
}

#: (act, check) per family, in button order; each check raises GameError when refused.
_BLUFF_CHECKS: tuple[tuple[Act, Callable[[Game, str], None]], ...] = (
    (Act.ROLL, lambda g, p: g._check_roll_bluff(p, False)),
    (Act.ROLL_BLIND, lambda g, p: g._check_roll_bluff(p, True)),
    (Act.CLAIM, Game._check_claim_stage),
    (Act.ACCEPT, Game._check_answer),
    (Act.BULLSHIT, Game._check_answer),
    (Act.FOLD, Game._check_fold),
    (Act.PASS, Game._check_pass_stage),
)
_OPEN_CHECKS: tuple[tuple[Act, Callable[[Game, str], None]], ...] = (
    (Act.ROLL, lambda g, p: g._check_roll_open(p, False)),
    (Act.STAND, Game._check_stand),
    (Act.KEEP, lambda g, p: g._check_keep(p, g.keepable_die() or 0)),
    (Act.ENDROUND, Game._check_endround),
    (Act.HANDOUT, lambda g, p: g._check_handout(p, g._someone_else(p))),
    (Act.KNIGHT, lambda g, p: g._check_knight(p, g._someone_else(p))),
)

#: Moves that take no argument, built once (the engine benchmark lists them per move).
_PLAIN: dict[Act, Move] = {act: Move(act) for act in Act}
_TAP = _PLAIN[Act.TAP]
#: Acts listed once per value or target: every valid claim, every other seated player.
#: Claim moves are values: built once per roll and handed out again.
_CLAIM_MOVES: dict[Act, dict[Roll, Move]] = {
    act: {roll: Move(act, roll=roll) for roll in ORDER} for act in (Act.CLAIM, Act.PASS)
}
_EXPAND: dict[Act, Callable[[Game, str], list[Move]]] = {
    Act.CLAIM: lambda g, p: list(map(_CLAIM_MOVES[Act.CLAIM].__getitem__, g.valid_claims())),
    Act.PASS: lambda g, p: list(map(_CLAIM_MOVES[Act.PASS].__getitem__, g.valid_claims())),
    Act.KEEP: lambda g, p: [Move(Act.KEEP, die=g.keepable_die())],
    Act.HANDOUT: lambda g, p: [Move(Act.HANDOUT, to=o) for o in g._others(p)],
    Act.KNIGHT: lambda g, p: [Move(Act.KNIGHT, to=o) for o in g._others(p)],
}
#: The engine's pending choice -> the move that makes it.
_CHOICES: dict[str, Act] = {"handout": Act.HANDOUT, "knight": Act.KNIGHT}


# A move built by hand (not by legal_actions or Move.decode) may lack its value: one refusal
# per missing value, so each language can say what is missing.
def _claim_of(move: Move) -> Roll:
    if move.roll is None:
        raise IllegalMove("needs-claim")
    return move.roll


def _die_of(move: Move) -> int:
    if move.die is None:
        raise IllegalMove("needs-die")
    return move.die


def _player_of(move: Move) -> str:
    if move.to is None:
        raise IllegalMove("needs-player")
    return move.to


def _computer_of(move: Move) -> str:
    if move.to is None:
        raise IllegalMove("needs-computer")
    return move.to


#: Every act a seated player can be offered (legal_actions returns moves of these).
MOVES: tuple[Act, ...] = (*dict.fromkeys(a for a, _ in _BLUFF_CHECKS + _OPEN_CHECKS), Act.TAP)
