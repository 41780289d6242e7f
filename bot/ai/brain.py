"""Which strategy a computer seat plays: the persona's settings of the bluffing policy or
of the open-roll calculation (README, Playing against the computer)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from bot.engine import Move

from . import View, bluff, open_roll
from .personas import DEFAULT, PERSONAS, persona_of


def decide(view: View, rng: Random, bluff_rates: Mapping[str, float] | None = None) -> Move | None:
    """The move of the seat whose view this is, or None (nothing it wants to do now)."""
    persona = persona_of(str(view.get("viewer") or "")) or PERSONAS[DEFAULT]
    if view["options"]["family"] == "bluff":
        return bluff.decide(view, rng, persona, bluff_rates)
    return open_roll.decide(view, rng, risk=persona.risk)
