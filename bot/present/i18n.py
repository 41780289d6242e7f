"""The bot's languages: one Project Fluent catalog per language (README, Languages).

Fluent, not a home-made lookup, because table talk needs what it gives: plural forms per
language ("1 slok / 2 slokken", "1 Schluck / 2 Schlucke"), variables inside sentences, and
catalogs a translator edits as plain text with no compile step. Adding a language is
adding ``bot/present/locales/<code>.ftl``; a test checks that every catalog has every message with
the same variables as the English one.
"""

from __future__ import annotations

import logging
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource

log = logging.getLogger(__name__)

#: The catalogs, beside the presenter that speaks them (README, Languages).
LOCALES = Path(__file__).resolve().parent / "locales"
DEFAULT = "en"


@cache
def languages() -> tuple[str, ...]:
    """Every language with a catalog, English first (read once: globbing the folder on
    every move was a measurable share of a move's CPU)."""
    found = sorted(p.stem for p in LOCALES.glob("*.ftl"))
    return (DEFAULT, *[code for code in found if code != DEFAULT])


def language_of(locale: object) -> str:
    """Our language for a Discord locale ("nl", "de", "en-US"...); English otherwise."""
    return _language(str(getattr(locale, "value", locale) or ""))


@lru_cache(maxsize=64)
def _language(locale: str) -> str:
    """Read once per locale string (every answer asks; Discord has some thirty); a
    bounded cache, since a forged payload may send any string."""
    code = locale.split("-")[0].lower()
    return code if code in languages() else DEFAULT


#: Formatted messages kept per language: a move formats the same few lines over and over
#: (its player names, round numbers, rolls), and Fluent with Babel's number formatting
#: costs 3-15 us a line. Plain dict, cleared when full: no per-hit bookkeeping.
MEMO_SIZE = 4096


class Talk:
    """Messages of one language; ``talk("key", name=value)`` formats one."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._bundle = _bundle(language)
        self._english = _bundle(DEFAULT) if language != DEFAULT else None
        self._memo: dict[Any, str] = {}

    def __call__(self, key: str, /, **args: Any) -> str:
        try:
            # The types too: 1, 1.0 and True are equal keys but may not read the same.
            memo_key: Any = (key, *args.items(), *map(type, args.values())) if args else key
            return self._memo[memo_key]
        except KeyError:
            pass
        except TypeError:  # an unhashable argument: format it every time
            return self._format(key, args)
        text = self._format(key, args)
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[memo_key] = text
        return text

    def _format(self, key: str, args: dict[str, Any]) -> str:
        bundle = self._bundle
        if not bundle.has_message(key):
            if self._english is None or not self._english.has_message(key):
                raise KeyError(f"no message {key!r} in any catalog")
            log.warning("message %r is missing in %s; saying it in English", key, self.language)
            bundle = self._english
        message = bundle.get_message(key)
        # A Fluent message may have attributes only; every one the bot formats has a value.
        assert message.value is not None, f"message {key!r} has no value"
        text, errors = bundle.format_pattern(message.value, args)
        if errors:
            log.warning("message %r in %s: %s", key, self.language, errors)
        return str(text)

    def has(self, key: str) -> bool:
        return self._bundle.has_message(key)


@cache
def _bundle(language: str) -> FluentBundle:
    bundle = FluentBundle([language], use_isolating=False)
    bundle.add_resource(FluentResource((LOCALES / f"{language}.ftl").read_text("utf-8")))
    return bundle


@cache
def talk(language: str | None = None) -> Talk:
    return Talk(language_of(language) if language else DEFAULT)
