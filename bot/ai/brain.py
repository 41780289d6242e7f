"""Which strategy a computer seat plays: the persona's settings of the bluffing policy or
of the open-roll calculation (README, Playing against the computer)."""

from __future__ import annotations

from random import Random

from bot.ai import bluff, open_roll
from bot.ai.knowledge import Inputs
from bot.ai.personas import DEFAULT, PERSONAS, persona_of
from bot.engine import Move


def decide(inputs: Inputs, rng: Random) -> Move | None:
    """The move of the seat whose inputs these are, or None (nothing it wants to do now).

    ``inputs`` come from :func:`bot.ai.knowledge.inputs`, the one place that says what a
    computer may know."""
    view = inputs.view
    persona = persona_of(inputs.seat) or PERSONAS[DEFAULT]
    if view["options"]["family"] == "bluff":
        return bluff.decide(inputs, rng, persona)
    return open_roll.decide(view, rng, risk=persona.risk)
