"""Shared helpers for engine tests: dice fed in a given order, and a replay of scripted steps."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.engine import Act, Game, GameError, Move, code, parse_roll


class ScriptedDice(random.Random):
    """A random source that shows exactly the dice a test names, and fails loudly when the
    engine asks for a die the test did not expect."""

    def __init__(self, dice: list[int] | None = None, pick: int | None = None) -> None:
        super().__init__(0)
        self.dice = list(dice or [])
        self.pick = pick

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6), "the engine only throws six-sided dice"
        if not self.dice:
            raise AssertionError("the engine rolled more dice than the case gives")
        return self.dice.pop(0)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        if self.pick is None:
            raise AssertionError("the engine drew at random where the case gives no draw")
        return self.pick


def dice_for(step: dict[str, Any]) -> list[int]:
    """The dice a step feeds to the engine, in the order the engine asks for them."""
    do = step["do"]
    if do == "roll":
        return list(step["dice"])
    if do == "keep":
        pair = list(step["dice"])
        pair.remove(step["keep"]) if step["keep"] in pair else None
        return pair[:1]
    if do == "timeout":
        return [d for pair in step.get("dice", []) for d in pair]
    return []


def play_step(game: Game, step: dict[str, Any]) -> list[Any]:
    do = step["do"]
    by = step["by"]
    pick = None
    if do == "start" and "starter" in step:
        pick = game.seats.index(step["starter"])
    rng = ScriptedDice(dice_for(step), pick)
    act = Act.ROLL_BLIND if do == "roll" and step.get("blind") else Act(do)
    value = step.get("value")
    move = Move(
        act,
        roll=parse_roll(value) if value is not None else None,
        to=step.get("to"),
        die=step.get("keep"),
    )
    events = game.apply(by, move, rng)
    assert not rng.dice, f"the engine left dice unused: {rng.dice}"
    return events


class Replay:
    """Plays a case's steps and checks its expectations the way the case format defines."""

    def __init__(self, case: dict[str, Any]) -> None:
        players = case["players"]
        self.case = case
        self.game = Game.create(case["preset"], players[0], case.get("options") or {})
        for player in players[1:]:
            self.game.join(player)
        if not any(s.get("do") == "start" for s in case["steps"]):
            self.game.start(players[0], ScriptedDice())
        self.ledger_mark = 0
        self.rounds_mark = 0

    def run(self) -> None:
        for number, step in enumerate(self.case["steps"]):
            where = f"{self.case['id']} step {number}: {step}"
            if "expect" in step:
                self.check(step["expect"], where)
            elif step.get("illegal"):
                before = self.game.to_dict()
                try:
                    play_step(self.game, step)
                except GameError as err:
                    assert str(err), f"{where}: a refusal needs a message"
                else:
                    raise AssertionError(f"{where}: the engine accepted an illegal step")
                assert self.game.to_dict() == before, f"{where}: a refused step changed the game"
            else:
                try:
                    play_step(self.game, step)
                except GameError as err:
                    raise AssertionError(f"{where}: refused: {err}") from err

    def check(self, expect: dict[str, Any], where: str) -> None:
        g = self.game
        got: dict[str, Any] = {}
        new_rounds = g.rounds[self.rounds_mark :]
        new_ledger = g.ledger[self.ledger_mark :]
        if "round_loser" in expect:
            assert len(new_rounds) == 1, f"{where}: expected one finished round, got {new_rounds}"
            got["round_loser"] = new_rounds[0][1]
        if "penalties" in expect:
            want = Counter((p["player"], p["unit"], p["amount"]) for p in expect["penalties"])
            have = Counter((p.player, p.unit, p.amount) for p in new_ledger)
            assert have == want, f"{where}: penalties {dict(have)} != {dict(want)}"
        for key, value in expect.items():
            if key in ("round_loser", "penalties"):
                continue
            got[key] = self.read(key, value)
        for key, value in got.items():
            assert value == expect[key], f"{where}: {key} is {value!r}, expected {expect[key]!r}"
        self.ledger_mark = len(g.ledger)
        self.rounds_mark = len(g.rounds)

    def read(self, key: str, value: Any) -> Any:
        g = self.game
        if key == "lives":
            return {p: g.players[p].lives for p in value}
        if key == "standing":
            return code(g.standing) if g.standing else None
        if key == "seen_by":
            order = list(g.players)
            return sorted(g.seen_by, key=order.index)
        if key == "in_game":
            return list(g.seats)
        if key == "game_over":
            return g.phase == "over"
        return {
            "pot": g.pot,
            "knight": g.knight,
            "limit": g.limit,
            "to_move": g.to_move,
            "winner": g.winner,
            "loser": g.loser,
        }[key]
