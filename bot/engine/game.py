"""The referee: one object per table, driven by actions, answering with events.

The bot never reads hidden state directly; it renders :meth:`Game.view` for a viewer, so
keeping the cup secret is decided here, once.
"""

from __future__ import annotations

import json
from random import Random
from typing import Any

from .bluff import BluffMixin
from .errors import GameError, IllegalMove
from .open_roll import OpenMixin
from .presets import make_options
from .rolls import code
from .state import Event, GameState, PlayerState

#: Moves a player may be offered, in the order buttons show them.
MOVES = (
    "roll", "roll_blind", "claim", "accept", "bullshit", "fold", "pass",
    "stand", "keep", "endround", "tap", "handout", "knight",
)  # fmt: skip


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
            from .errors import StaleAction

            raise StaleAction("That button is from an earlier turn; use the latest message.")
        rng = rng or Random()
        handlers = {
            "join": lambda: self.join(player),
            "leave": lambda: self.leave(player),
            "start": lambda: self.start(player, rng),
            "end": lambda: self.end(player, force),
            "roll": lambda: self.roll(player, rng),
            "roll_blind": lambda: self.roll(player, rng, blind=True),
            "claim": lambda: self.claim(player, _need(value, "a claim")),
            "pass": lambda: self.pass_cup(player, _need(value, "a claim")),
            "accept": lambda: self.accept(player),
            "bullshit": lambda: self.bullshit(player),
            "fold": lambda: self.fold(player),
            "stand": lambda: self.stand(player),
            "keep": lambda: self.keep(player, _need(die, "the die to keep"), rng),
            "endround": lambda: self.end_round(player),
            "tap": lambda: self.tap(player),
            "handout": lambda: self.hand_out(player, _need(to, "a player")),
            "knight": lambda: self.choose_knight(player, _need(to, "a player")),
            "timeout": lambda: self.timeout(player, rng),
        }
        if move not in handlers:
            raise IllegalMove(f"Unknown move '{move}'.")
        return handlers[move]()

    # --- what a player may do -----------------------------------------------------------------
    def legal_moves(self, player: str) -> list[str]:
        """The moves ``player`` could make now (buttons to enable, random play in tests).

        Built from the same checks the moves run, so it can never disagree with them.
        """
        if self.phase != "playing" or player not in self.seats:
            return []
        checks = {
            "roll": lambda: self._check_any_roll(player, False),
            "roll_blind": lambda: self._check_any_roll(player, True),
            "claim": lambda: self._check_claim_stage(player),
            "accept": lambda: self._check_answer(player),
            "bullshit": lambda: self._check_answer(player),
            "fold": lambda: self._check_fold(player),
            "pass": lambda: self._check_pass_stage(player),
            "stand": lambda: self._check_stand(player),
            "keep": lambda: self._check_keep(player, self.keepable_die() or 0),
            "endround": lambda: self._check_endround(player),
            "tap": lambda: self._check_tap(player),
            "handout": lambda: self._check_handout(player, self._someone_else(player)),
            "knight": lambda: self._check_knight(player, self._someone_else(player)),
        }
        moves = []
        for move, check in checks.items():
            try:
                check()
            except GameError:
                continue
            moves.append(move)
        return moves

    def _someone_else(self, player: str) -> str:
        return next((p for p in self.seats if p != player), player)

    def _check_any_roll(self, player: str, blind: bool) -> None:
        if self.bluffing:
            self._check_roll_bluff(player, blind)
        else:
            self._check_roll_open(player, blind)

    def _check_claim_stage(self, player: str) -> None:
        self._check_bluff()
        self._require_mover(player)
        if self.stage != "rolled" or not self.valid_claims():
            raise IllegalMove("No claim to make now.")

    def _check_pass_stage(self, player: str) -> None:
        self._check_bluff()
        self._require_mover(player)
        if not self.options.pass_unrolled or self.stage != "accepted" or not self.valid_claims():
            raise IllegalMove("No pass now.")
        if self.standing is not None and self.standing == (2, 1):
            raise IllegalMove("No pass after the top claim.")

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
    def summary(self) -> dict[str, Any]:
        """Totals per player from the ledger (what stats and round summaries are built on)."""
        totals: dict[str, dict[str, int]] = {}
        for line in self.ledger:
            per = totals.setdefault(line.player, {})
            per[line.unit] = per.get(line.unit, 0) + line.amount
        return totals

    def standing_code(self) -> str | None:
        return code(self.standing) if self.standing else None


def _need(value: Any, what: str) -> Any:
    if value is None:
        raise IllegalMove(f"This move needs {what}.")
    return value
