"""When the computer players move: who acts next, after what pause, and whether a move
waited for is still due, as plain values (README, Playing against the computer).
bot/game/computers.py only starts and cancels the waits; what a computer plays is
brain.py's."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from bot.engine import Act, Game, Move

#: A computer player's pause before it moves, in seconds: long enough to read as a
#: person thinking, short enough not to hold the table up.
THINK_SECONDS = (1.0, 3.0)
#: After storage trouble, the computer tries again this much later, from the table as it
#: is then (it may have been read again from storage meanwhile).
RETRY_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Pending:
    """A computer's move to come: ``actor`` moves after ``delay`` seconds if the table is
    still at move ``move_no`` then (else a person moved first, or the game ended)."""

    actor: str
    move_no: int
    delay: float


def next_move(
    game: Game, rng: Random, pause: tuple[float, float] = THINK_SECONDS
) -> Pending | None:
    """The computer with something to do now (its turn, or a TAP it may make), or None.
    The pause is drawn from ``rng`` only when a computer acts, so a seeded game draws the
    same dice whoever sits at it."""
    if game.phase != "playing":
        return None
    actors = [p for p in game.computers if p in game.seats]
    if game.to_move in actors:
        actor: str | None = game.to_move
    else:
        actor = next((p for p in actors if Move(Act.TAP) in game.legal_actions(p)), None)
    if actor is None:
        return None
    low, high = pause
    return Pending(actor, game.move_no, low + rng.random() * (high - low))


def still_due(game: Game | None, pending: Pending) -> bool:
    """Whether a move waited for may still be made: the table is where it was."""
    return game is not None and game.move_no == pending.move_no
