"""The catalogs and the localized commands (README, Languages).

Every catalog must hold every message of the English one with the same variables, so a
Dutch or German table never falls back to English; every slash command, option and
choice must reach Discord with a Dutch and a German name that Discord accepts.
"""

from __future__ import annotations

import ast as python_ast
import re
from pathlib import Path
from typing import Any

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from bot.present.i18n import LOCALES, languages
from cogs.translate import valid_name
from tests.support.sim import SimTable

OTHERS = [code for code in languages() if code != "en"]


def _messages(language: str) -> dict[str, ast.Message]:
    resource = FluentParser().parse((LOCALES / f"{language}.ftl").read_text("utf-8"))
    junk = [entry for entry in resource.body if isinstance(entry, ast.Junk)]
    assert not junk, f"{language}.ftl does not parse: {junk[0].content[:200]!r}"
    return {e.id.name: e for e in resource.body if isinstance(e, ast.Message)}


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.found.add(node.id.name)
        self.generic_visit(node)


def _variables(message: ast.Message) -> set[str]:
    visitor = _Variables()
    visitor.visit(message)
    return visitor.found


def test_there_are_three_languages() -> None:
    assert languages() == ("en", "de", "nl")


@pytest.mark.parametrize("language", OTHERS)
def test_every_message_is_in_every_catalog_with_the_same_variables(language: str) -> None:
    english, other = _messages("en"), _messages(language)
    expected = {key: _variables(m) for key, m in english.items()}
    assert sorted(set(expected) - set(other)) == [], f"missing in {language}.ftl"
    assert sorted(set(other) - set(expected)) == [], f"extra in {language}.ftl"
    wrong = {
        key: (sorted(_variables(other[key])), sorted(names))
        for key, names in expected.items()
        if _variables(other[key]) != names
    }
    assert wrong == {}, f"variables differ in {language}.ftl (theirs, English)"


def test_english_has_an_engine_refusal_of_its_own_for_every_one_the_others_word() -> None:
    """English is one catalog like the others: the engine keeps no English table beside it."""
    errors = {key for key in _messages("en") if key.startswith("error-")}
    assert len(errors) >= 70
    for language in OTHERS:
        assert errors == {key for key in _messages(language) if key.startswith("error-")}


def _localized(item: dict[str, Any], field: str) -> dict[str, str]:
    return item.get(f"{field}_localizations") or {}


def _synced_commands(sim: SimTable) -> list[dict[str, Any]]:
    (sync,) = [r for r in sim.env.http_requests if r.method == "PUT" and "commands" in r.path]
    assert isinstance(sync.json, list)
    return sync.json


@pytest.mark.parametrize("language", OTHERS)
async def test_every_command_option_and_choice_is_localized(sim: SimTable, language: str) -> None:
    commands = _synced_commands(sim)
    assert len(commands) >= 20
    for command in commands:
        name = _localized(command, "name").get(language)
        assert name and valid_name(name), (command["name"], name)
        assert _localized(command, "description").get(language), command["name"]
        assert len(_localized(command, "description")[language]) <= 100
        names = set()
        for option in command.get("options", []):
            where = f"/{command['name']} {option['name']}"
            option_name = _localized(option, "name").get(language)
            assert option_name and valid_name(option_name), (where, option_name)
            names.add(option_name)
            text = _localized(option, "description").get(language)
            assert text and len(text) <= 100, where
            for choice in option.get("choices", []):
                if option["name"] in ("ruleset", "language", "computer"):
                    # rule sets and computer players keep their names everywhere; each
                    # language names itself
                    continue
                shown = _localized(choice, "name").get(language)
                assert shown and len(shown) <= 100, (where, choice["name"])
        assert len(names) == len(command.get("options", [])), f"/{command['name']}: clash"


async def test_the_english_catalog_says_what_the_code_says(sim: SimTable) -> None:
    """en.ftl holds the commands' English for translators; it must not drift from the code."""
    english = {key: m for key, m in _messages("en").items()}

    def said(key: str) -> str:
        pattern = english[key].value
        assert pattern is not None
        return "".join(e.value for e in pattern.elements if isinstance(e, ast.TextElement))

    for command in _synced_commands(sim):
        name = command["name"]
        assert said(f"command-{name}") == name
        assert said(f"command-{name}-desc") == command["description"]
        for option in command.get("options", []):
            assert said(f"option-{name}-{option['name']}") == option["name"]
            assert said(f"option-{name}-{option['name']}-desc") == option["description"]


def test_language_names_are_names_of_themselves() -> None:
    from bot.present.i18n import talk

    assert [talk(code)("language-name") for code in languages()] == [
        "English",
        "Deutsch",
        "Nederlands",
    ]


REFUSAL_CLASSES = {
    "GameError",
    "NoGameHere",
    "ChannelBusy",
    "StaleAction",
    "IllegalMove",
    "MovedElsewhere",
    "InvalidClaim",
    "NotYourTurn",
    "NotInGame",
    "BadOptions",
    "GameOver",
    "TableFull",
}


def test_every_refusal_raised_outside_the_engine_has_a_message_in_every_catalog() -> None:
    """The tables and the cogs refuse by key too, so no English sentence reaches a Dutch
    or German reader (README, Languages)."""
    root = Path(__file__).resolve().parent.parent
    keys: set[str] = set()
    sides = (root / "bot" / "game", root / "bot" / "adapter", root / "cogs")
    for path in sorted(p for side in sides for p in side.rglob("*.py")):
        for node in python_ast.walk(python_ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, python_ast.Call)
                and isinstance(node.func, python_ast.Name)
                and node.func.id in REFUSAL_CLASSES
                and node.args
                and isinstance(node.args[0], python_ast.Constant)
            ):
                keys.add(str(node.args[0].value))
    assert len(keys) >= 8
    for language in languages():
        messages = _messages(language)
        missing = [k for k in keys if k not in messages and f"error-{k}" not in messages]
        assert missing == [], f"{language}.ftl lacks {missing}"


class _Texts(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def visit_TextElement(self, node: ast.TextElement) -> None:
        self.found.append(node.value)


def _texts(node: ast.BaseNode) -> list[str]:
    """The words a message writes itself, placeables left out."""
    texts = _Texts()
    texts.visit(node)
    return texts.found


def _command_names() -> set[str]:
    """Every command's name in every language, read from the catalogs' command-* keys."""
    return {
        "".join(_texts(message)).strip()
        for language in languages()
        for key, message in _messages(language).items()
        if key.startswith("command-") and not key.endswith("-desc")
    }


#: A command typed in a sentence: a slash not inside a word, a path or a link.
TYPED_COMMAND = re.compile(r"(?<![\w/<:])/([\w-]+)")


@pytest.mark.parametrize("language", languages())
def test_no_catalog_writes_a_command_name_by_hand(language: str) -> None:
    """A command named in a sentence reads its name from `command-<name>`: a Dutch client
    knows /tafel, not /table (two such bugs until 7 December, docs/languages.md)."""
    commands = _command_names()
    assert {"table", "tafel", "tisch", "newgame"} <= commands
    written: dict[str, list[str]] = {}
    for key, message in _messages(language).items():
        if key.startswith("command-") and not key.endswith("-desc"):
            continue
        typed = {name for text in _texts(message) for name in TYPED_COMMAND.findall(text)}
        if typed & commands:
            written[key] = sorted(typed & commands)
    assert written == {}, f"{language}.ftl writes these commands by hand: {written}"
