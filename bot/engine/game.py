"""The referee: one object per table, driven by actions, answering with events.

The bot never reads hidden state directly; it renders :meth:`Game.view` for a viewer, so
keeping the cup secret is decided here, once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

from .bluff import BluffMixin
from .errors import GameError, IllegalMove, StaleAction
from .open_roll import OpenMixin
from .presets import make_options
from .rolls import TOP
from .state import Event, GameState, PlayerState


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
        self, player: str, move: str, rng: Random | None = None, *,
        value: str | None = None, to: str | None = None, die: int | None = None,
        expect_move: int | None = None, force: bool = False,
    ) -> list[Event]:  # fmt: skip
        """Play ``move`` for ``player``. ``expect_move`` is the move number the caller saw
        (a button carries it): any other number means the click is stale and is refused."""
        if expect_move is not None and expect_move != self.move_no:
            raise StaleAction("That button is from an earlier turn; use the latest message.")
        handler = _MOVES.get(move)
        if handler is None:
            raise IllegalMove(f"Unknown move '{move}'.")
        return handler(self, player, rng or Random(), value, to, die, force)

    # --- what a player may do -----------------------------------------------------------------
    def legal_moves(self, player: str) -> list[str]:
        """The moves ``player`` could make now (buttons to enable, random play in tests).

        Built from the same checks the moves run, so it can never disagree with them; only
        the checks of this game's family are tried, and only TAP for a player not to move.
        """
        if self.phase != "playing" or player not in self.seats:
            return []
        if player != self.to_move:
            return ["tap"] if self.stuck else []
        checks = _BLUFF_CHECKS if self.bluffing else _OPEN_CHECKS
        moves = []
        for move, check in checks:
            try:
                check(self, player)
            except GameError:
                continue
            moves.append(move)
        return moves

    def _someone_else(self, player: str) -> str:
        return next((p for p in self.seats if p != player), player)

    def _check_claim_stage(self, player: str) -> None:
        # With a roll in hand some claim is always valid: at worst the top roll (which
        # ties a standing top claim), so the stage alone decides.
        self._check_bluff()
        self._require_mover(player)
        if self.stage != "rolled":
            raise IllegalMove("No claim to make now.")

    def _check_pass_stage(self, player: str) -> None:
        self._check_pass(player, TOP)

    # --- secrecy ------------------------------------------------------------------------------
    def view(self, viewer: str | None) -> dict[str, Any]:
        """The state as ``viewer`` may see it: the cup's dice only for those who saw them."""
        data = self.to_dict()
        if self.bluffing and (viewer is None or viewer not in self.seen_by):
            data["cup"] = None
        data["viewer"] = viewer
        data["legal_moves"] = self.legal_moves(viewer) if viewer else []
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


_Handler = Callable[["Game", str, Random, str | None, str | None, int | None, bool], list[Event]]
#: Every move by name: (game, player, rng, value, to, die, force) -> events.
_MOVES: dict[str, _Handler] = {
    "join": lambda g, p, r, v, t, d, f: g.join(p),
    "leave": lambda g, p, r, v, t, d, f: g.leave(p),
    "start": lambda g, p, r, v, t, d, f: g.start(p, r),
    "end": lambda g, p, r, v, t, d, f: g.end(p, f),
    "roll": lambda g, p, r, v, t, d, f: g.roll(p, r),
    "roll_blind": lambda g, p, r, v, t, d, f: g.roll(p, r, blind=True),
    "claim": lambda g, p, r, v, t, d, f: g.claim(p, _need(v, "a claim")),
    "pass": lambda g, p, r, v, t, d, f: g.pass_cup(p, _need(v, "a claim")),
    "accept": lambda g, p, r, v, t, d, f: g.accept(p),
    "bullshit": lambda g, p, r, v, t, d, f: g.bullshit(p),
    "fold": lambda g, p, r, v, t, d, f: g.fold(p),
    "stand": lambda g, p, r, v, t, d, f: g.stand(p),
    "keep": lambda g, p, r, v, t, d, f: g.keep(p, _need(d, "the die to keep"), r),
    "endround": lambda g, p, r, v, t, d, f: g.end_round(p),
    "tap": lambda g, p, r, v, t, d, f: g.tap(p),
    "handout": lambda g, p, r, v, t, d, f: g.hand_out(p, _need(t, "a player")),
    "knight": lambda g, p, r, v, t, d, f: g.choose_knight(p, _need(t, "a player")),
    "timeout": lambda g, p, r, v, t, d, f: g.timeout(p, r),
}

#: (move, check) per family, in button order; each check raises GameError when refused.
_BLUFF_CHECKS: tuple[tuple[str, Callable[[Game, str], None]], ...] = (
    ("roll", lambda g, p: g._check_roll_bluff(p, False)),
    ("roll_blind", lambda g, p: g._check_roll_bluff(p, True)),
    ("claim", Game._check_claim_stage),
    ("accept", Game._check_answer),
    ("bullshit", Game._check_answer),
    ("fold", Game._check_fold),
    ("pass", Game._check_pass_stage),
)
_OPEN_CHECKS: tuple[tuple[str, Callable[[Game, str], None]], ...] = (
    ("roll", lambda g, p: g._check_roll_open(p, False)),
    ("stand", Game._check_stand),
    ("keep", lambda g, p: g._check_keep(p, g.keepable_die() or 0)),
    ("endround", Game._check_endround),
    ("handout", lambda g, p: g._check_handout(p, g._someone_else(p))),
    ("knight", lambda g, p: g._check_knight(p, g._someone_else(p))),
)


def _need(value: Any, what: str) -> Any:
    if value is None:
        raise IllegalMove(f"This move needs {what}.")
    return value


#: Every move a seated player can be offered (legal_moves returns a subset of these).
MOVES: tuple[str, ...] = (*dict.fromkeys(m for m, _ in _BLUFF_CHECKS + _OPEN_CHECKS), "tap")
