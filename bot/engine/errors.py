"""Refusals: a stable key and its details as data, so each language can word them itself.

A refused action changes nothing, so callers can answer privately and move on. The engine
words no refusal in any language, English included: it raises ``GameError(key, **params)``
and the presenter looks up ``error-<key>`` in the reader's catalog, English like the others
(README, Languages). ``str(err)`` is the key and its params, for logs and tests.

``params`` is plain data, the same for every language:

- a player is their id (str);
- a roll is its code text (``"65"``, ``"55"``, the top roll ``"21"``; never a tuple, never
  a table's own word for it), a list of rolls a list of codes, lowest first;
- a number is an int; a rule set, option or option value is its name (str);
- ``typed`` is the player's own words quoted back (``rolls.echo``), cut short and markup-free;
- ``spellings`` maps each kind of spelling a typed claim may use to its examples
  (``rolls.SPELLINGS``).

A param ``<name>_said`` is the table's English wording (``Game.say``: "sixty-five", "500",
"Mex") of the roll code in ``<name>``: it reads the game's state, so the engine passes it
along for logs; a catalog words ``<name>`` itself in the table's style.
"""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """Base of every refusal the engine makes: ``key`` names it, ``params`` fill it in."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, Any] = params

    def __str__(self) -> str:
        # Never worded here: every reader's words come from their catalog.
        if not self.params:
            return self.key
        details = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.key} ({details})"


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
