"""Refusals: a stable key and its details as data, so each language can word them itself.

A refused action changes nothing, so callers can answer privately and move on. The engine
words no refusal for any one language: it raises ``GameError(key, **params)`` and
``str(err)`` is the English text, made from the one table ``ENGLISH`` (README, The engine:
a message that can be shown to the player as is). A presenter speaking another language
looks ``err.key`` up in its own table and fills in ``err.params``.

``params`` is plain data, the same for every language:

- a player is their id (str);
- a roll is its code text (``"65"``, ``"55"``, the top roll ``"21"``; never a tuple, never
  a table's own word for it), a list of rolls a list of codes, lowest first;
- a number is an int; a rule set, option or option value is its name (str);
- ``typed`` is the player's own words quoted back (``rolls.echo``), cut short and markup-free;
- ``spellings`` maps each kind of spelling a typed claim may use to its examples
  (``rolls.SPELLINGS``).

A param ``<name>_said`` is the table's English wording (``Game.say``: "sixty-five", "500",
"Mex") of the roll code in ``<name>``. Only the English templates use it, because
the English text words rolls as the table does (README, How the table talks); another
language words ``<name>`` itself in the table's style.

In the English text a list reads "a, b, c", or "a, b or c" with the format spec ``or``.
"""

from __future__ import annotations

import string
from typing import Any

#: How the English names the spellings of a typed claim (README, Rule sets); the examples
#: are data, ``rolls.SPELLINGS``, passed as the ``spellings`` param.
VALID_SPELLINGS = (
    "two digits in either order ({spellings[digits]}), digits with a separator "
    "({spellings[separated]}), doubles as {spellings[doubles]:or}, and the top roll as "
    "{spellings[top]:or}"
)

#: Every refusal's English text by key: ``str.format`` templates over the refusal's params.
ENGLISH: dict[str, str] = {
    # the table: lobby, seats, host
    "game-over": "This game is over.",
    "already-over": "This game is already over.",
    "not-started": "The game has not started yet.",
    "already-started": "This game has already started.",
    "not-in-game": "You're not in this game.",
    "not-your-turn": "It's not your turn: it's {player}'s move.",
    "already-in-game": "You're already in this game.",
    "out-of-game": "You're out of this game.",
    "table-full": "The table is full ({max_players} players at most).",
    "lives-game-closed": "A running game played for lives takes no new players.",
    "host-starts": "Only the host can start the game.",
    "host-ends": "Only the host can end the game.",
    "too-few-players": "A game needs at least {min_players} players.",
    "no-person-seated": "A game needs at least one person at the table.",
    "computers-in-lobby": "Computer players sit down in the lobby, before the game starts.",
    "host-seats-computers": "Only the host seats or removes computer players.",
    "computer-already-seated": "That computer player is already at the table.",
    "no-such-computer": "There is no such computer player at the table.",
    # moves as values: buttons, and what a move carries
    "stale-button": "That button is from an earlier turn; use the latest message.",
    "button-not-ours": "That button does not belong to this bot's game.",
    "unknown-move": "Unknown move '{act}'.",
    "claim-not-a-roll": "That claim is not a roll.",
    "choice-names-no-player": "That choice names no player.",
    "keep-one-or-two": "Only a lone 1 or 2 can be kept.",
    "move-takes-no-value": "That move takes no value.",
    "needs-claim": "This move needs a claim.",
    "needs-die": "This move needs the die to keep.",
    "needs-player": "This move needs a player.",
    "needs-computer": "This move needs a computer player.",
    # typed claims
    "not-a-roll": "{typed} is not a roll. Valid: " + VALID_SPELLINGS + ".",
    # bluffing under the cup
    "no-cup": "There is no cup to bluff with in {preset}.",
    "three-one-no-result": (
        "A 3-1 is not a result in {preset}: it is never under the cup. Claim one of: {valid}."
    ),
    "claim-too-low": (
        "{claim_said} does not beat the standing claim of {standing_said}. Valid now: {valid}."
    ),
    "no-claim-now": "No claim to make now.",
    "blind-off": "Blind rolls are off in this game.",
    "claim-after-roll": "You've rolled: now claim a value (or fold).",
    "social-reroll-open": "Roll again after the Social, with your eyes open.",
    "roll-first": "Roll first.",
    "answer-first": "Accept or call bullshit first.",
    "no-claim-to-answer": "There is no claim waiting for an answer.",
    "not-your-answer": "It's not your turn: the claim was passed to {player}.",
    "pass-unrolled-off": "You must roll after accepting: passing the cup unrolled is off.",
    "accept-before-pass": "Accept the claim first, then pass the cup on.",
    "roll-after-top": "After a claim of {claim_said} you must roll again.",
    "fold-off": "Folding is off in this game.",
    "fold-needs-claim": "You can fold only after rolling against a standing claim.",
    # open rolls
    "open-roll-only": "That move belongs to the open-roll games, not {preset}.",
    "every-roll-open": "Every roll is open in this game.",
    "hand-out-first": "Hand out your sip first (you rolled a 3-1).",
    "name-knight-first": "Name the next Knight first.",
    "no-rolls-left": "You have no rolls left: stand, or end the round.",
    "no-stand-in-rolloff": "No standing in a roll-off: roll.",
    "nothing-to-stand-on": "Roll first: there is no roll of yours to stand on.",
    "keep-off": "Keeping a die is off in this game.",
    "cannot-keep": (
        "You can keep only a lone 1 or 2 beside a 3-6, once per turn, with a roll left."
    ),
    "keep-which": "You can only keep the {die}.",
    "end-early-off": "Ending a round early is off in this game.",
    "rolloff-runs-on": "A roll-off cannot be ended early.",
    "top-rolled": "A {roll_said} was rolled: this round can't end early.",
    "own-roll-first": "Make your own counting roll before you end the round.",
    "nothing-to-tap": "There is no 3-2 to lock right now.",
    "tap-own": "You can't TAP your own 3-2.",
    "no-sip": "You have no sip to hand out.",
    "sip-to-other": "Hand the sip to another player in the game.",
    "no-knight": "You have no Knight to name.",
    "knight-other": "Name another player in the game as Knight.",
    # rule sets and house rules
    "unknown-preset": "Unknown rule set '{preset}'. Choose one of: {presets}.",
    "unknown-options": "Unknown option(s): {options}.",
    "three-one-not-allowed": "A 3-1 cannot be '{three_one}' in a {family} game.",
    "lives-range": "Lives must be between 1 and 99.",
    "lives-required": "This rule set plays for lives: lives cannot be switched off.",
    "rolls-range": "Rolls per turn must be between 1 and 6.",
    "base-cap-range": "The base and the cap must be at least 1.",
    "player-limits": "Player limits must satisfy 2 <= min <= max <= 25.",
    "turn-timer-range": "The turn timer is 0 (off) to {max_seconds} seconds, not {seconds}.",
    "units-first": "Units are 'sips' or 'points'; first is 'host' or 'random'.",
}


class _EnglishFormatter(string.Formatter):
    """``str.format`` that writes a list as English prose rather than as a Python list."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, list):
            items = [str(item) for item in value]
            if format_spec == "or" and len(items) > 1:
                return f"{', '.join(items[:-1])} or {items[-1]}"
            return ", ".join(items)
        return super().format_field(value, format_spec)


_FORMATTER = _EnglishFormatter()


def english(key: str, params: dict[str, Any]) -> str:
    """The English text of a refusal.

    A key with no template is taken as finished text: callers outside the engine that still
    raise a ``GameError`` with a sentence keep showing that sentence.
    """
    template = ENGLISH.get(key)
    if template is None:
        return key
    return _FORMATTER.format(template, **params)


class GameError(Exception):
    """Base of every refusal the engine makes: ``key`` names it, ``params`` fill it in."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, Any] = params

    def __str__(self) -> str:
        # Worded only when shown: the engine refuses often where nobody reads it (every
        # check legal_actions makes).
        return english(self.key, self.params)


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
