"""Slash commands in the client's language: the names and descriptions Discord shows come
from the same catalogs as the table talk (README, Languages).

discord.py asks a ``Translator`` for every command, option and choice string when the
commands are synced, and Discord then shows each user the localization for their client
language. The catalog key of each string is derived from where it sits, so the commands'
code keeps plain English and a catalog holds the rest:

- ``command-<name>`` and ``command-<name>-desc``;
- ``option-<command>-<option>`` and ``option-<command>-<option>-desc``;
- ``choice-<value>`` for a choice, or the ``key=`` a choice's ``locale_str`` names.

A string with no message in the catalog is left as it is. The rule set menus name each
rule set from `choice-<code>`, its value staying the code (README, Languages).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import TranslationContextTypes, locale_str
from discord.ext import commands

from bot.present.i18n import DEFAULT, languages, talk

#: Discord's rule for command and option names (lower case; letters, digits, - and _).
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
#: Where a name goes: these must pass NAME_RULE and be lower case.
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})


def catalog_key(string: locale_str, context: TranslationContextTypes) -> str | None:
    """The catalog message for one command string, from where it sits."""
    if "key" in string.extras:
        return str(string.extras["key"])
    # An if per location, not a match: a check of context.location narrows the context's
    # type, and so what its data is (a command, a parameter, a choice), for the checker.
    if context.location in (Where.command_name, Where.group_name):
        return f"command-{_dashed(context.data.qualified_name)}"
    if context.location in (Where.command_description, Where.group_description):
        return f"command-{_dashed(context.data.qualified_name)}-desc"
    if context.location is Where.parameter_name:
        return f"option-{_dashed(context.data.command.qualified_name)}-{context.data.name}"
    if context.location is Where.parameter_description:
        return f"option-{_dashed(context.data.command.qualified_name)}-{context.data.name}-desc"
    if context.location is Where.choice_name:
        return f"choice-{context.data.value}"
    return None


def _dashed(qualified_name: str) -> str:
    return qualified_name.replace(" ", "-")


def valid_name(name: str) -> bool:
    return bool(NAME_RULE.match(name)) and name == name.lower()


class CatalogTranslator(app_commands.Translator):
    """Looks each command string up in the catalog of the asked language."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        language = locale.value.split("-")[0]
        if language == DEFAULT or language not in languages():
            return None
        key = catalog_key(string, context)
        t = talk(language)
        if key is None or not t.has(key):
            return None
        text = t(key)
        if context.location in NAMES and not valid_name(text):
            # Discord refuses the whole sync for one bad name; the catalog test catches it
            # first (README, Languages), this keeps a hand-edited catalog from doing harm.
            return None
        return text


async def setup(bot: commands.Bot) -> None:
    """Commands show in each user's client language (README, Languages): loaded first of
    the extensions, before the commands are synced."""
    await bot.tree.set_translator(CatalogTranslator())


async def teardown(bot: commands.Bot) -> None:
    await bot.tree.set_translator(None)
