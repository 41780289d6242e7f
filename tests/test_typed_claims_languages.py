"""README, Languages and Rule sets: a typed claim is read in English, Dutch and German.

The words a player may type are data in ``bot.engine.rolls``; these tables are written out
by hand, apart from that data, so a change to it that drops a spelling players use fails
here. The catalogs' own roll words must read back as their roll too: the bot would
otherwise name a roll in words it refuses when a player types them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import GameError, InvalidClaim, parse_roll
from bot.engine.rolls import SPELLINGS, SPELLINGS_BY_LANGUAGE, Roll, spellings_for
from bot.present.i18n import talk
from bot.present.screens import error_text

LOCALES = Path(__file__).parents[1] / "bot" / "present" / "locales"

DUTCH: dict[str, Roll] = {
    # the 14 rolls said as a number, with and without the diaeresis, spaced or hyphenated
    "eenendertig": (3, 1),
    "tweeëndertig": (3, 2),
    "tweeendertig": (3, 2),
    "eenenveertig": (4, 1),
    "tweeënveertig": (4, 2),
    "drieënveertig": (4, 3),
    "eenenvijftig": (5, 1),
    "tweeënvijftig": (5, 2),
    "drieënvijftig": (5, 3),
    "vierenvijftig": (5, 4),
    "eenenzestig": (6, 1),
    "tweeënzestig": (6, 2),
    "drieënzestig": (6, 3),
    "vierenzestig": (6, 4),
    "vijfenzestig": (6, 5),
    "vijf en zestig": (6, 5),
    "vijf-en-zestig": (6, 5),
    "Drieenzestig": (6, 3),
    # the dice named one by one, in either order like digits
    "zes vijf": (6, 5),
    "zes-vijf": (6, 5),
    "vijf zes": (6, 5),
    "vier een": (4, 1),
    "vier één": (4, 1),
    # doubles
    "dubbel vijf": (5, 5),
    "dubbele vijf": (5, 5),
    "dubbel 5": (5, 5),
    "dubbele 2": (2, 2),
    "dubbele één": (1, 1),
    "dubbel een": (1, 1),
    "dubbel zes": (6, 6),
    "vijfhonderd": (5, 5),
    "vijf honderd": (5, 5),
    "twee honderd": (2, 2),
    "zeshonderd": (6, 6),
    "honderd": (1, 1),
    "eenhonderd": (1, 1),
    # the top roll
    "mex": (2, 1),
    "Mexico": (2, 1),
    "duizend": (2, 1),
    "Mexicaan": (2, 1),
    "twee een": (2, 1),
}

GERMAN: dict[str, Roll] = {
    # the 14 rolls said as a number, with ß or ss
    "einunddreißig": (3, 1),
    "einunddreissig": (3, 1),
    "zweiunddreißig": (3, 2),
    "einundvierzig": (4, 1),
    "zweiundvierzig": (4, 2),
    "dreiundvierzig": (4, 3),
    "einundfünfzig": (5, 1),
    "zweiundfünfzig": (5, 2),
    "dreiundfünfzig": (5, 3),
    "vierundfünfzig": (5, 4),
    "einundsechzig": (6, 1),
    "zweiundsechzig": (6, 2),
    "dreiundsechzig": (6, 3),
    "vierundsechzig": (6, 4),
    "fünfundsechzig": (6, 5),
    "fuenfundsechzig": (6, 5),
    "funfundsechzig": (6, 5),
    "fünf und sechzig": (6, 5),
    # the dice named one by one
    "sechs fünf": (6, 5),
    "sechs fuenf": (6, 5),
    "fünf-sechs": (6, 5),
    "vier eins": (4, 1),
    # doubles
    "Fünferpasch": (5, 5),
    "Fünfer-Pasch": (5, 5),
    "Fünfer Pasch": (5, 5),
    "fuenferpasch": (5, 5),
    "Pasch fünf": (5, 5),
    "Pasch 5": (5, 5),
    "5er Pasch": (5, 5),
    "5er-Pasch": (5, 5),
    "Einserpasch": (1, 1),
    "Einerpasch": (1, 1),
    "Zweierpasch": (2, 2),
    "Dreierpasch": (3, 3),
    "Viererpasch": (4, 4),
    "Sechserpasch": (6, 6),
    "Pasch eins": (1, 1),
    "Doppel-Sechs": (6, 6),
    "doppelte Fünf": (5, 5),
    # the top roll
    "Mäxchen": (2, 1),
    "Maexchen": (2, 1),
    "Maxchen": (2, 1),
    "Mäxle": (2, 1),
    "Maexle": (2, 1),
    "Meier": (2, 1),
    "Mäx": (2, 1),
    "Mexikaner": (2, 1),
    "Mexiko": (2, 1),
    "zwei eins": (2, 1),
}

ENGLISH: dict[str, Roll] = {
    "thirty-one": (3, 1),
    "forty three": (4, 3),
    "fiftyfour": (5, 4),
    "sixty-five": (6, 5),
    "six five": (6, 5),
    "double five": (5, 5),
    "double 5": (5, 5),
    "dubbel five": (5, 5),
    "mex": (2, 1),
    "Mexican": (2, 1),
    "mexico": (2, 1),
    "mia": (2, 1),
    "mexx": (2, 1),
}

ALL_WORDS = {**ENGLISH, **DUTCH, **GERMAN}


@pytest.mark.parametrize(("text", "roll"), DUTCH.items(), ids=list(DUTCH))
def test_dutch_spellings_are_read(text: str, roll: Roll) -> None:
    assert parse_roll(text) == roll


@pytest.mark.parametrize(("text", "roll"), GERMAN.items(), ids=list(GERMAN))
def test_german_spellings_are_read(text: str, roll: Roll) -> None:
    assert parse_roll(text) == roll


@pytest.mark.parametrize(("text", "roll"), ENGLISH.items(), ids=list(ENGLISH))
def test_english_spellings_are_still_read(text: str, roll: Roll) -> None:
    assert parse_roll(text) == roll


def test_the_tables_name_every_non_double_roll_as_a_number_in_each_language() -> None:
    """Each language's number words cover the 14 rolls between 31 and 65 that are no
    double, so no roll can only be typed in digits."""
    plain = {(h, lo) for h in range(3, 7) for lo in range(1, h)}
    for table in (DUTCH, GERMAN):
        numbers = {roll for text, roll in table.items() if re.fullmatch(r"[a-zäöüëéß]+", text)}
        assert plain <= numbers


def _variant(text: str, flips: list[bool], pad: int, joiner: str) -> str:
    """The same word typed differently: letters in another case, spaces doubled or made
    hyphens, and whitespace around it."""
    cased = "".join(c.upper() if i < len(flips) and flips[i] else c for i, c in enumerate(text))
    return " " * pad + joiner.join(cased.split(" ")) + "\t" * pad


@given(
    st.sampled_from(sorted(ALL_WORDS)),
    st.lists(st.booleans(), max_size=40),
    st.integers(0, 3),
    st.sampled_from([" ", "  ", "-", " - ", "   "]),
)
def test_case_and_spacing_do_not_change_what_a_word_means(
    text: str, flips: list[bool], pad: int, joiner: str
) -> None:
    assert parse_roll(_variant(text, flips, pad, joiner)) == ALL_WORDS[text]


@given(st.sampled_from(sorted(ALL_WORDS)))
def test_a_word_in_capitals_means_the_same(text: str) -> None:
    assert parse_roll(text.upper()) == parse_roll(text.lower()) == ALL_WORDS[text]


REFUSED = [
    # a double with no die is no roll: guessing would put words in the player's mouth
    "pasch",
    "Pasch",
    "dubbel",
    "dubbele",
    "double",
    "doppel",
    "er pasch",
    "pasch pasch",
    # numbers that are no roll, and words that are no number
    "zeven",
    "sieben",
    "siebenundsechzig",
    "zevenenzestig",
    "sechsundsiebzig",
    "dubbel zeven",
    "Siebenerpasch",
    "pasch 7",
    "zevenhonderd",
    "tausend",
    # a roll said twice, or with something after it
    "66 66",
    "meier meier",
    "mex mex",
    "fünferpasch 5",
    "vijfenzestig!",
    # half a word
    "fünfund",
    "sechzig",
    "vijftig",
    "hundert",
]


@pytest.mark.parametrize("text", REFUSED)
def test_anything_else_is_refused_with_the_valid_spellings(text: str) -> None:
    with pytest.raises(InvalidClaim) as err:
        parse_roll(text)
    assert err.value.key == "not-a-roll"
    assert err.value.params["spellings"] == {k: list(v) for k, v in SPELLINGS.items()}


def _catalog_rolls() -> list[tuple[str, str, str]]:
    """(catalog, message id, text) of every roll word a catalog has: ``roll-XX`` and the
    top roll's names ``top-*``. Read from the files as they are now, so a catalog added
    later is checked too."""
    found = []
    for path in sorted(LOCALES.glob("*.ftl")):
        resource = FluentParser().parse(path.read_text("utf-8"))
        for entry in resource.body:
            if not isinstance(entry, ast.Message) or entry.value is None:
                continue
            name = entry.id.name
            if re.fullmatch(r"roll-[1-6][1-6]|top-.+", name):
                text = "".join(
                    e.value for e in entry.value.elements if isinstance(e, ast.TextElement)
                )
                found.append((path.stem, name, text.strip()))
    return found


CATALOG_ROLLS = _catalog_rolls()


def test_every_catalog_names_its_rolls() -> None:
    """The round trip below is no test if it finds nothing to read."""
    for language in sorted(p.stem for p in LOCALES.glob("*.ftl")):
        names = {name for lang, name, _ in CATALOG_ROLLS if lang == language}
        assert len([n for n in names if n.startswith("roll-")]) == 20, language
        assert any(n.startswith("top-") for n in names), language


@pytest.mark.parametrize(
    ("language", "key", "text"), CATALOG_ROLLS, ids=[f"{c[0]}:{c[1]}" for c in CATALOG_ROLLS]
)
def test_every_roll_word_of_every_catalog_reads_back_as_its_roll(
    language: str, key: str, text: str
) -> None:
    expected = (2, 1) if key.startswith("top-") else (int(key[5]), int(key[6]))
    assert parse_roll(text) == expected, f"{language}.ftl {key} = {text!r}"


@pytest.mark.parametrize("language", ["en", "nl", "de"])
def test_each_language_lists_the_same_kinds_of_spelling(language: str) -> None:
    examples = spellings_for(language)
    assert list(examples) == list(SPELLINGS)
    assert all(examples.values())
    if language != "en":
        assert all(len(v) <= 4 for v in examples.values()), "a refusal is read on a phone"


@pytest.mark.parametrize("language", sorted(SPELLINGS_BY_LANGUAGE))
def test_every_example_a_refusal_lists_is_read(language: str) -> None:
    for examples in spellings_for(language).values():
        for example in examples:
            parse_roll(example.strip("'"))


def test_a_language_without_its_own_examples_lists_the_english() -> None:
    assert spellings_for("fr") == SPELLINGS
    assert spellings_for("de-DE") == SPELLINGS_BY_LANGUAGE["de"]


def _refusal(text: str) -> GameError:
    with pytest.raises(GameError) as err:
        parse_roll(text)
    return err.value


def test_a_refusal_lists_the_readers_own_words() -> None:
    err = _refusal("zeven")
    assert "'zeven' is not a roll" in error_text(err, talk("en"))
    dutch, german = error_text(err, talk("nl")), error_text(err, talk("de"))
    assert "vijfenzestig" in dutch and "double five" not in dutch
    assert "Fünferpasch" in german and "double five" not in german
