"""Finished games for league tests: play a real engine game and record its event log
exactly the way `TableService` stores it, then hand it over as `Finished`.

The log goes through JSON as storage sends it, so event kinds arrive as plain text and
rolls as their codes; the final state is trimmed after every move as the table service
trims it (finished rounds live on only in the log).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from bot.engine import Act, Event, Game, Move, Revealed, Rolled, RoundOver, parse_roll
from bot.engine.result import CUT_SHORT_ROUNDS
from bot.game.fairness import Commitment
from bot.league.achievements import Finished
from tests.engine_helpers import ScriptedDice

LogEntry = tuple[str, dict[str, Any]]


class Recorder:
    """One table: moves go to the engine, and each move's log entries are kept as the
    table service writes them ("move", the engine's events, then a lifted or sealed cup)."""

    def __init__(
        self,
        preset: str,
        players: Iterable[str],
        options: dict[str, Any] | None = None,
        *,
        computers: Iterable[str] = (),
        start: bool = True,
    ) -> None:
        host, *others = players
        self.preset = preset
        self.game = Game.create(preset, host, options)
        opened = {
            "player": host,
            "move": "newgame",
            "preset": preset,
            "options": options or {},
            "rematch_of": None,
        }
        self.log: list[LogEntry] = [("move", opened)]
        self.sealed: Commitment | None = None
        for player in others:
            self.move(player, Move(Act.JOIN))
        for computer in computers:
            self.move(host, Move(Act.ADD_COMPUTER, to=computer))
        if start:
            self.move(host, Move(Act.START))

    def move(self, player: str, move: Move, rng: random.Random | None = None) -> list[Event]:
        game = self.game
        events = game.apply(player, move, rng or ScriptedDice())
        entries: list[LogEntry] = [("move", {"player": player, "move": move.encode()})]
        entries += [(e.kind, e.to_dict()) for e in events]
        kinds = {type(e) for e in events}
        if Revealed in kinds and self.sealed is not None:
            entries.append(("cup_opened", self.sealed.to_dict()))
        if Revealed in kinds or RoundOver in kinds or game.phase == "over":
            self.sealed = None
        sealing = Rolled in kinds and RoundOver not in kinds
        if game.bluffing and game.cup is not None and sealing:
            self.sealed = Commitment.seal(game.cup, "salt")
            entries.append(("cup_sealed", {"digest": self.sealed.digest}))
        self.log += json.loads(json.dumps(entries))
        game.forget_before(game.round_no)
        return events

    # --- moves by name, with the dice they show ---------------------------------------------
    def roll(self, player: str, high: int, low: int, *, blind: bool = False) -> list[Event]:
        act = Act.ROLL_BLIND if blind else Act.ROLL
        return self.move(player, Move(act), ScriptedDice([high, low]))

    def claim(self, player: str, claim: str) -> list[Event]:
        return self.move(player, Move(Act.CLAIM, roll=parse_roll(claim)))

    def pass_cup(self, player: str, claim: str) -> list[Event]:
        return self.move(player, Move(Act.PASS, roll=parse_roll(claim)))

    def act(self, player: str, act: Act, to: str | None = None) -> list[Event]:
        return self.move(player, Move(act, to=to))

    def end(self) -> list[Event]:
        return self.move(self.game.host, Move(Act.END))

    def end_counted(self) -> list[Event]:
        """End the game as the host does, after plain rounds bring it to the rounds a
        game cut short needs to count (README, Ratings): at a bluffing table the mover's
        true 65 is called wrongly, at an open-roll table the mover stands on 64 and
        everyone after on 54. A game that ends by itself on the way is left as it is."""
        game = self.game
        while game.phase == "playing" and (game.played_rounds or 0) < CUT_SHORT_ROUNDS:
            mover = game.to_move
            assert mover is not None
            if game.bluffing:
                self.move(mover, Move(Act.ROLL), ScriptedDice([6, 5]))
                self.move(mover, Move(Act.CLAIM, roll=parse_roll("65")))
                answerer = game.to_move
                assert answerer is not None
                self.move(answerer, Move(Act.BULLSHIT))
                continue
            pair = [6, 4]
            round_no = game.round_no
            while game.phase == "playing" and game.round_no == round_no:
                player = game.to_move
                assert player is not None
                if game.last is None:
                    self.move(player, Move(Act.ROLL), ScriptedDice(pair))
                    pair = [5, 4]
                else:
                    self.move(player, Move(Act.STAND))
        return self.end() if game.phase == "playing" else []

    def finished(
        self,
        *,
        game_id: int = 1,
        guild_id: int = 7,
        channel_id: int = 70,
        ended_at: float = 1_767_225_600.0,
    ) -> Finished:
        """The game as storage hands it to the league: the final state read back."""
        assert self.game.phase == "over", "a game is rated when it is over"
        final = Game.from_dict(json.loads(self.game.to_json()))
        return Finished(game_id, guild_id, channel_id, self.preset, ended_at, final, self.log)


def play_random(
    recorder: Recorder,
    rng: random.Random,
    *,
    rounds: int | None = None,
    moves: int = 10_000,
    end: bool = True,
) -> None:
    """Play legal moves chosen by ``rng`` until the game is over, or ``rounds`` rounds are
    finished, or ``moves`` moves are made; then the host ends it (unless not ``end``)."""
    game = recorder.game
    finished = 0
    for _ in range(moves):
        if game.phase == "over":
            return
        if rounds is not None and finished >= rounds:
            break
        mover = game.to_move
        assert mover is not None
        options = game.legal_actions(mover)
        events = recorder.move(mover, rng.choice(options), rng)
        finished += sum(1 for e in events if isinstance(e, RoundOver))
    if end and game.phase != "over":
        recorder.end()
