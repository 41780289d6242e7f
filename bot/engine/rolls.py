"""The 21 rolls of two dice, their order, their names, and typed-claim parsing.

A roll is a tuple ``(high, low)``: read high die first, so 6 and 4 is always ``(6, 4)``.
Keeping rolls as tuples (not objects) keeps the engine's hot path cheap and makes the
state serialise to JSON as plain lists.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Literal

from .errors import InvalidClaim

Roll = tuple[int, int]
Style = Literal["words", "numbers"]

#: Every roll from lowest to highest; a roll's index here is its rank.
ORDER: tuple[Roll, ...] = (
    (3, 1), (3, 2), (4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3), (5, 4),
    (6, 1), (6, 2), (6, 3), (6, 4), (6, 5),
    (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6),
    (2, 1),
)  # fmt: skip
RANK: dict[Roll, int] = {roll: i for i, roll in enumerate(ORDER)}
TOP: Roll = (2, 1)
THREE_ONE: Roll = (3, 1)
STUCK: Roll = (3, 2)

_DIGIT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_TENS_WORDS = {3: "thirty", 4: "forty", 5: "fifty", 6: "sixty"}
_UNIT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_TOP_WORDS = ("mex", "mexican", "mexico", "mia", "mexx")


def make_roll(d1: int, d2: int) -> Roll:
    """Read two dice high die first."""
    return (d1, d2) if d1 >= d2 else (d2, d1)


def is_double(roll: Roll) -> bool:
    return roll[0] == roll[1]


def odds_in_36(roll: Roll) -> int:
    """How many of the 36 equally likely throws show this roll."""
    return 1 if is_double(roll) else 2


def chance_to_beat(roll: Roll, reroll_three_one: bool, ties_win: bool = True) -> Fraction:
    """Chance that one fresh roll is at least (``ties_win``) or above ``roll``.

    Where a 3-1 is rolled again it is no outcome, so the chances are out of 34, not 36
    (README, Rule sets). Used to tell players how likely a reveal was.
    """
    outcomes = [r for r in ORDER if not (reroll_three_one and r == THREE_ONE)]
    total = sum(odds_in_36(r) for r in outcomes)
    good = sum(
        odds_in_36(r)
        for r in outcomes
        if RANK[r] > RANK[roll] or (ties_win and RANK[r] == RANK[roll])
    )
    return Fraction(good, total)


def code(roll: Roll) -> str:
    """The compact form used in state, logs and tests: ``"65"``, ``"55"``, ``"21"``."""
    return f"{roll[0]}{roll[1]}"


def from_code(text: str) -> Roll:
    return make_roll(int(text[0]), int(text[1]))


#: How a 3-1 is announced where it is not a result but a special effect.
THREE_ONE_ROLE = {"social": "Social", "handout": "3-1, hand out a sip", "elbow": "Elbow"}


def name(roll: Roll, style: Style, top_name: str, three_one: str = "low") -> str:
    """The roll as a rule set speaks of it: words for the US presets, numbers for the Dutch."""
    if roll == TOP:
        return top_name
    if roll == THREE_ONE and three_one in THREE_ONE_ROLE:
        return THREE_ONE_ROLE[three_one]
    high, low = roll
    if style == "numbers":
        return f"{high}00" if high == low else f"{high}{low}"
    if high == low:
        return f"double {_UNIT_WORDS[high]}"
    return f"{_TENS_WORDS[high]}-{_UNIT_WORDS[low]}"


def _word_pairs() -> dict[str, Roll]:
    pairs: dict[str, Roll] = {}
    for roll in ORDER:
        high, low = roll
        if high != low and roll != TOP:
            word = f"{_TENS_WORDS[high]}-{_UNIT_WORDS[low]}"
            pairs[word] = roll
            pairs[word.replace("-", " ")] = roll
            pairs[word.replace("-", "")] = roll
    return pairs


_WORD_ROLLS = _word_pairs()
_SEPARATED = re.compile(r"^([1-6])\s*[-:/ ,xX]\s*([1-6])$")
_DOUBLE = re.compile(r"^(?:double|dubbel)\s+(\S+)$")

VALID_SPELLINGS = (
    "two digits in either order (65, 56), digits with a separator (6-5, 6 5, 6:5, 6/5), "
    "doubles as 55, 5-5, 500 or 'double five', and the top roll as 21, 1000, mex, "
    "mexican, mexico or mia"
)


def parse_roll(text: str) -> Roll:
    """Read a typed claim in any reasonable spelling; refuse anything else with the valid forms.

    The spellings are those players really type in chat: digits, Dutch hundreds, words.
    """
    raw = text.strip().lower()
    cleaned = re.sub(r"\s+", " ", raw)
    if cleaned in _TOP_WORDS or cleaned == "1000":
        return TOP
    if cleaned in _WORD_ROLLS:
        return _WORD_ROLLS[cleaned]
    match = _DOUBLE.match(cleaned)
    if match:
        word = match.group(1)
        value = _DIGIT_WORDS.get(word) or (
            int(word) if word in ("1", "2", "3", "4", "5", "6") else 0
        )
        if value:
            return (value, value)
        raise InvalidClaim(f"{echo(text)} is not a roll. Valid: {VALID_SPELLINGS}.")
    if len(cleaned) == 3 and cleaned.endswith("00") and cleaned[0] in "123456":
        value = int(cleaned[0])
        return (value, value)
    if len(cleaned) == 2 and cleaned[0] in "123456" and cleaned[1] in "123456":
        return make_roll(int(cleaned[0]), int(cleaned[1]))
    match = _SEPARATED.match(cleaned)
    if match:
        return make_roll(int(match.group(1)), int(match.group(2)))
    raise InvalidClaim(f"{echo(text)} is not a roll. Valid: {VALID_SPELLINGS}.")


#: Characters a typed claim may show in a refusal; the rest could format or ping.
_PLAIN = re.compile(r"[^\w \-:/.,']")
ECHO_LIMIT = 24


def echo(text: str) -> str:
    """A player's own words quoted back, cut short and stripped of anything Discord would
    format (markdown, mentions), so a refusal always fits and shows what was typed."""
    plain = _PLAIN.sub("", " ".join(text.split()))
    if len(plain) > ECHO_LIMIT:
        plain = plain[: ECHO_LIMIT - 1] + "…"
    return f"'{plain}'"
