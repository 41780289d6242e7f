"""Every event the engine can produce renders as a sentence, and public text never
carries hidden dice."""

from __future__ import annotations

import random

import pytest

from bot.engine import PRESET_NAMES, Event, Game, code
from cogs.render import event_line

#: Events the turn message shows in its own way, or that are private by design.
UNRENDERED = {"turn", "dice"}


def random_events(preset: str, seed: int, moves: int = 400) -> tuple[Game, list[Event]]:
    rng = random.Random(seed)
    game = Game.create(preset, "1" * 18)
    for i in range(2, 5):
        game.join(str(i) * 18)
    game.start(game.host, rng)
    events: list[Event] = []
    for _ in range(moves):
        if game.phase != "playing" or game.to_move is None:
            break
        mover = game.to_move
        options = game.legal_moves(mover)
        move = rng.choice([*options, "timeout", "leave"] if rng.random() < 0.05 else options)
        other = next(p for p in game.seats if p != mover) if len(game.seats) > 1 else mover
        value = code(rng.choice(game.valid_claims())) if move in ("claim", "pass") else None
        die = game.keepable_die() if move == "keep" else None
        events += game.apply(mover, move, rng, value=value, to=other, die=die)
    events += game.end(game.host, force=True) if game.phase != "over" else []
    return game, events


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_event_kind_renders(preset: str) -> None:
    kinds: set[str] = set()
    for seed in range(8):
        game, events = random_events(preset, seed)
        for event in events:
            line = event_line(game, event)
            if event.to is not None or event.kind in UNRENDERED:
                assert line is None
            else:
                assert line, f"{event.kind} rendered nothing"
                assert "{" not in line, line
            kinds.add(event.kind)
    assert {"rolled", "penalty", "round_over", "round_started"} <= kinds


def test_a_public_bluff_roll_names_no_dice() -> None:
    game = Game.create("mexican", "a")
    game.join("b")
    game.start("a", random.Random(1))
    events = game.roll("a", random.Random(3))
    lines = [event_line(game, e) for e in events]
    truth = game.say(game.cup)  # type: ignore[arg-type]
    assert all(truth not in (line or "") for line in lines)
