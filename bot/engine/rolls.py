"""The 21 rolls of two dice, their order, their names, and typed-claim parsing.

A roll is a tuple ``(high, low)``: read high die first, so 6 and 4 is always ``(6, 4)``.
Keeping rolls as tuples (not objects) keeps the engine's hot path cheap and makes the
state serialise to JSON as plain lists.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from fractions import Fraction
from typing import Literal

from bot.engine.errors import InvalidClaim

Roll = tuple[int, int]
Style = Literal["words", "numbers"]

#: Every roll from lowest to highest; a roll's index here is its rank.
ORDER: tuple[Roll, ...] = (
    (3, 1),
    (3, 2),
    (4, 1),
    (4, 2),
    (4, 3),
    (5, 1),
    (5, 2),
    (5, 3),
    (5, 4),
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (6, 5),
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (5, 5),
    (6, 6),
    (2, 1),
)
RANK: dict[Roll, int] = {roll: i for i, roll in enumerate(ORDER)}
TOP: Roll = (2, 1)
THREE_ONE: Roll = (3, 1)
STUCK: Roll = (3, 2)

_TENS_WORDS = {3: "thirty", 4: "forty", 5: "fifty", 6: "sixty"}
_UNIT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


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


# --- typed claims ------------------------------------------------------------------------
#
# Players type claims in their own language (README, Languages), so every word below is
# data per language, read once into one lookup table at import: ``parse_roll`` runs on
# every typed claim and every autocomplete keystroke, so a call costs one normalisation and
# one dict lookup, never a walk over word lists. The table is shared by all languages: a
# claim needs no table language to be read, and a Dutch player at an English table is
# understood too. Only words players really use for a roll are listed, so a typo is refused
# with the valid spellings rather than guessed at (a bare "Pasch" names no die).

#: The words for one die, per language. Pairs of them read like two digits ("zes vijf").
DIE_WORDS: dict[str, dict[int, tuple[str, ...]]] = {
    "en": {1: ("one",), 2: ("two",), 3: ("three",), 4: ("four",), 5: ("five",), 6: ("six",)},
    "nl": {1: ("een", "één"), 2: ("twee",), 3: ("drie",), 4: ("vier",), 5: ("vijf",), 6: ("zes",)},
    "de": {1: ("eins",), 2: ("zwei",), 3: ("drei",), 4: ("vier",), 5: ("fünf",), 6: ("sechs",)},
}

#: The 14 rolls that are neither a double nor the top roll, said as a number, high die
#: first as the roll is read ("sixty-five", "vijfenzestig", "fünfundsechzig").
NUMBER_WORDS: dict[str, dict[Roll, tuple[str, ...]]] = {
    "en": {
        roll: (f"{_TENS_WORDS[roll[0]]}-{_UNIT_WORDS[roll[1]]}",)
        for roll in ORDER
        if roll[0] != roll[1] and roll != TOP
    },
    "nl": {
        (3, 1): ("eenendertig",),
        (3, 2): ("tweeëndertig",),
        (4, 1): ("eenenveertig",),
        (4, 2): ("tweeënveertig",),
        (4, 3): ("drieënveertig",),
        (5, 1): ("eenenvijftig",),
        (5, 2): ("tweeënvijftig",),
        (5, 3): ("drieënvijftig",),
        (5, 4): ("vierenvijftig",),
        (6, 1): ("eenenzestig",),
        (6, 2): ("tweeënzestig",),
        (6, 3): ("drieënzestig",),
        (6, 4): ("vierenzestig",),
        (6, 5): ("vijfenzestig",),
    },
    "de": {
        (3, 1): ("einunddreißig",),
        (3, 2): ("zweiunddreißig",),
        (4, 1): ("einundvierzig",),
        (4, 2): ("zweiundvierzig",),
        (4, 3): ("dreiundvierzig",),
        (5, 1): ("einundfünfzig",),
        (5, 2): ("zweiundfünfzig",),
        (5, 3): ("dreiundfünfzig",),
        (5, 4): ("vierundfünfzig",),
        (6, 1): ("einundsechzig",),
        (6, 2): ("zweiundsechzig",),
        (6, 3): ("dreiundsechzig",),
        (6, 4): ("vierundsechzig",),
        (6, 5): ("fünfundsechzig",),
    },
}

#: German names a double by its die as "Fünfer" ("Fünferpasch", "Fünfer-Pasch").
_DE_ORDINALS: dict[int, tuple[str, ...]] = {
    1: ("einser", "einer"),
    2: ("zweier",),
    3: ("dreier",),
    4: ("vierer",),
    5: ("fünfer",),
    6: ("sechser",),
}

#: How each language says a double, as templates over its die: ``{die}`` is a die word,
#: ``{digit}`` the die's digit, ``{ordinal}`` the German "Fünfer". Every template names the
#: die, which is why a bare "double", "dubbel" or "Pasch" is refused.
DOUBLE_FORMS: dict[str, tuple[str, ...]] = {
    "en": ("double {die}", "double {digit}", "dubbel {die}", "dubbel {digit}"),
    "nl": ("dubbel {die}", "dubbel {digit}", "dubbele {die}", "dubbele {digit}", "{die}honderd"),
    "de": (
        "{ordinal}pasch",
        "{digit}er pasch",
        "pasch {die}",
        "pasch {digit}",
        "doppel {die}",
        "doppelte {die}",
        "doppel {digit}",
    ),
}

#: Words for a roll that follow no pattern: the top roll's names, and the Dutch "honderd"
#: (the double one, read as 100) and "duizend" (the top roll, read as 1000).
OTHER_WORDS: dict[str, dict[Roll, tuple[str, ...]]] = {
    "en": {TOP: ("mex", "mexican", "mexico", "mia", "mexx")},
    "nl": {TOP: ("mex", "mexico", "mexicaan", "mexx", "duizend"), (1, 1): ("honderd",)},
    "de": {TOP: ("mäxchen", "mäxle", "mäx", "meier", "mexikaner", "mexiko", "mia")},
}

#: Examples of each kind of spelling parse_roll reads, which a refused typed claim lists
#: (README, Rule sets): data, so each language words the kinds and joins the examples
#: itself. A spelling with a space is quoted as one.
SPELLINGS: dict[str, tuple[str, ...]] = {
    "digits": ("65", "56"),
    "separated": ("6-5", "6 5", "6:5", "6/5"),
    "doubles": ("55", "5-5", "500", "'double five'"),
    "top": ("21", "1000", "mex", "mexican", "mexico", "mia"),
}

#: The same kinds of example in each language's own words, kept short: a refusal is read
#: on a phone, and it shows what to type, not every word ``parse_roll`` knows.
SPELLINGS_BY_LANGUAGE: dict[str, dict[str, tuple[str, ...]]] = {
    "en": SPELLINGS,
    "nl": {
        "digits": ("65", "56", "vijfenzestig"),
        "separated": ("6-5", "6 5", "'zes vijf'"),
        "doubles": ("55", "500", "vijfhonderd", "'dubbele vijf'"),
        "top": ("21", "1000", "mex", "duizend"),
    },
    "de": {
        "digits": ("65", "56", "fünfundsechzig"),
        "separated": ("6-5", "6 5", "'sechs fünf'"),
        "doubles": ("55", "5-5", "Fünferpasch", "'Pasch fünf'"),
        "top": ("21", "Mäxchen", "Mäxle", "Meier"),
    },
}


def spellings_for(language: str) -> dict[str, tuple[str, ...]]:
    """The examples a refused typed claim lists in ``language`` ("nl", "de-DE"...); English
    for a language without its own, so a new catalog never shows an empty list."""
    code = language.split("-")[0].lower()
    return SPELLINGS_BY_LANGUAGE.get(code, SPELLINGS)


#: Hyphens and underscores join words as a space does: "Fünfer-Pasch", "zes-vijf".
_JOINERS = str.maketrans({"-": "", "‐": "", "‑": "", "–": "", "—": "", "_": ""})
#: German umlauts as typed on a keyboard without them ("Maexchen", "fuenf").
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
_NO_UMLAUTS = str.maketrans({"ä": "a", "ö": "o", "ü": "u"})


def _key(text: str) -> str:
    """The form a word is looked up by: case-folded (ß is ss), umlauts spelled out, other
    accents dropped ("één", "tweeëndertig"), and no spaces or hyphens, so "Fünfer-Pasch",
    "fuenfer pasch" and "FÜNFERPASCH" are one key.

    Canonical decomposition only (NFD, not NFKD): a superscript "¹" must stay no digit.
    """
    folded = text.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFC", folded).translate(_UMLAUTS)
        decomposed = unicodedata.normalize("NFD", folded)
        folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(folded.translate(_JOINERS).split())


def _spellings(language: str) -> Iterator[tuple[str, Roll]]:
    """Every word ``language`` has for a roll, as written (with accents and spaces)."""
    dice = DIE_WORDS[language]
    for high, words_high in dice.items():
        for low, words_low in dice.items():
            for a in words_high:
                for b in words_low:
                    yield f"{a} {b}", make_roll(high, low)
    for roll, words in NUMBER_WORDS[language].items():
        for word in words:
            yield word, roll
    for form in DOUBLE_FORMS[language]:
        for die, words in dice.items():
            for word in words:
                for ordinal in _DE_ORDINALS[die] if "{ordinal}" in form else ("",):
                    yield form.format(die=word, digit=die, ordinal=ordinal), (die, die)
    for roll, words in OTHER_WORDS[language].items():
        for word in words:
            yield word, roll


def _word_table() -> dict[str, Roll]:
    """Every language's words by key; each also without its umlauts' dots ("Maxchen")."""
    table: dict[str, Roll] = {}
    for language in DIE_WORDS:
        for word, roll in _spellings(language):
            for key in {_key(word), _key(word.translate(_NO_UMLAUTS))}:
                if table.setdefault(key, roll) != roll:
                    raise ValueError(f"{word!r} ({language}) is two rolls: {roll}, {table[key]}")
    return table


_WORDS: dict[str, Roll] = _word_table()
_SEPARATED = re.compile(r"^([1-6])\s*[-:/ ,xX]\s*([1-6])$")


def parse_roll(text: str) -> Roll:
    """Read a typed claim in any reasonable spelling; refuse anything else with the valid forms.

    The spellings are those players really type in chat: digits, Dutch hundreds, and each
    language's words (the tables above), in any case, with or without accents or umlauts.
    """
    word = _WORDS.get(_key(text))
    if word is not None:
        return word
    cleaned = " ".join(text.lower().split())
    if cleaned == "1000":
        return TOP
    if len(cleaned) == 3 and cleaned.endswith("00") and cleaned[0] in "123456":
        value = int(cleaned[0])
        return (value, value)
    if len(cleaned) == 2 and cleaned[0] in "123456" and cleaned[1] in "123456":
        return make_roll(int(cleaned[0]), int(cleaned[1]))
    match = _SEPARATED.match(cleaned)
    if match:
        return make_roll(int(match.group(1)), int(match.group(2)))
    spellings = {kind: list(examples) for kind, examples in SPELLINGS.items()}
    raise InvalidClaim("not-a-roll", typed=echo(text), spellings=spellings)


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
