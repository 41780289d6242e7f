"""The rules of each preset, for `/rules`, `/help` and anything else that explains a game.

The words are catalog messages (``rules-*`` in bot/present/locales), so a reader sees the
rules in their own language and a translator edits them with the rest of the bot's text;
this module only says which messages make up which page. It builds a page with whatever
``Say`` it is handed (a ``bot.present.i18n.Talk``) and so imports no catalog itself,
except for the English constants kept for callers with no reader (tests, docs).
Written for players at the table: short lines, no edge cases.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from bot.engine.presets import PRESET_NAMES, PRESETS, Options


class Say(Protocol):
    """Formats one catalog message: ``say("rules-footer", style=..., preset=...)``."""

    def __call__(self, key: str, /, **args: Any) -> str: ...


@dataclass(frozen=True, slots=True)
class RulePage:
    """One preset's rules in one language."""

    title: str
    summary: str
    style: str
    rules: tuple[str, ...]
    #: A bluffing game (dice under a cup), whose page explains how to check the cup.
    bluffing: bool


def rule_page(preset: str, say: Say) -> RulePage:
    """A preset's page: ``rules-<preset>-title``, ``-summary`` and ``-lines``, one rule a
    line, so a translation may say the rules in more or fewer lines."""
    family = PRESETS[preset].family
    return RulePage(
        title=say(f"rules-{preset}-title"),
        summary=say(f"rules-{preset}-summary"),
        style=say("rules-style", family=family),
        rules=_lines(say(f"rules-{preset}-lines")),
        bluffing=family == "bluff",
    )


def rulebook(say: Say) -> Mapping[str, RulePage]:
    """Every preset's page, in the order the presets are listed."""
    return MappingProxyType({preset: rule_page(preset, say) for preset in PRESET_NAMES})


def roll_order(say: Say) -> str:
    return say("rules-roll-order")


def fair_cup(say: Say) -> str:
    """How anyone can check that the dice under the cup were never swapped."""
    return say("rules-fair-cup")


def table_rules(say: Say) -> tuple[str, ...]:
    """What holds at every table, whatever the rule set."""
    return _lines(say("rules-table-lines"))


#: The commands of a table, each with the rule that gives the table that move: `/help`
#: lists those of the table in play (house rules included) or of the rule set asked for.
MOVES: tuple[tuple[str, Callable[[Options], bool]], ...] = (
    ("roll", lambda o: True),
    ("claim", lambda o: o.family == "bluff"),
    ("accept", lambda o: o.family == "bluff"),
    ("bullshit", lambda o: o.family == "bluff"),
    ("fold", lambda o: o.fold),
    ("peek", lambda o: o.family == "bluff"),
    ("stand", lambda o: o.family == "open"),
    ("endround", lambda o: o.end_early),
    ("tap", lambda o: o.stuck),
    ("handout", lambda o: o.three_one == "handout"),
    ("knight", lambda o: o.knight),
    ("table", lambda o: True),
)
#: A channel with no game: how to open one.
LOBBY = ("newgame", "join", "addbot", "start", "leave", "endgame")


@dataclass(frozen=True, slots=True)
class HelpPage:
    """`/help`: what the game is in three lines, the commands at hand, where to read more."""

    title: str
    game: tuple[str, ...]
    commands_title: str
    commands: tuple[str, ...]
    more: str


def help_page(options: Options | None, preset: str | None, say: Say) -> HelpPage:
    """The help of the table in play (its `options`), of a rule set, or of a channel with
    no game (both None): its commands by their names in the reader's client, each with
    the description Discord shows beside it."""
    if options is None and preset is not None:
        options = PRESETS[preset]
    names = LOBBY if options is None else tuple(c for c, has in MOVES if has(options))
    commands = tuple(
        say("help-command", command=say(f"command-{name}"), what=say(f"command-{name}-desc"))
        for name in names
    )
    return HelpPage(
        title=say("help-title")
        if preset is None
        else say("help-title-preset", preset=say(f"preset-name-{preset}")),
        game=_lines(say("help-game")),
        commands_title=say("help-lobby-title" if options is None else "help-moves-title"),
        commands=commands,
        more=say("help-more"),
    )


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line for line in text.splitlines() if line.strip())


def __getattr__(name: str) -> Any:
    """``RULEBOOK``, ``ROLL_ORDER``, ``FAIR_CUP`` and ``TABLE_RULES`` in English, built on
    first use: the catalog belongs to the presenter, so it is imported only when asked."""
    builders = {
        "RULEBOOK": rulebook,
        "ROLL_ORDER": roll_order,
        "FAIR_CUP": fair_cup,
        "TABLE_RULES": table_rules,
    }
    if name not in builders:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from bot.present.i18n import talk

    return builders[name](talk())
