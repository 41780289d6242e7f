"""Refusals. Every message is written to be shown to the player as it is.

A refused action changes nothing, so callers can answer privately and move on.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every refusal the engine makes."""


class NotYourTurn(GameError):
    pass


class NotInGame(GameError):
    pass


class InvalidClaim(GameError):
    pass


class IllegalMove(GameError):
    pass


class StaleAction(GameError):
    """The action was aimed at an earlier state (an old button, a double click)."""


class GameOver(GameError):
    pass


class TableFull(GameError):
    pass


class BadOptions(GameError):
    pass
