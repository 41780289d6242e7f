"""Checks of command values that Discord's own client never sends but a forged request
can: discord.py passes ``Range``, ``Literal`` and choice options through as they arrive,
and a command marked server-only can still arrive from a DM. Each check returns the
private refusal to give, or None when the value is fine.

Every refusal comes from the catalog, in the language of the user who asked, though most
answer values no real client sends: whoever reads them reads their own language.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord

from bot.present.i18n import Talk, language_of, talk

#: The refusal in English, for code with no user to speak to.
SERVER_ONLY = talk()("server-only-command")


def server_only(interaction: discord.Interaction) -> str:
    """The server-only refusal in the language of the user who asked."""
    return talk(language_of(interaction.locale))("server-only-command")


def in_server(interaction: discord.Interaction) -> str | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return server_only(interaction)
    return None


def within(value: Any, low: int, high: int, what: str, t: Talk) -> str | None:
    """A whole number from ``low`` to ``high`` (a bool is no number here); ``what`` names
    the value by its ``check-what-<what>`` message."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return t("check-whole-number", what=t(f"check-what-{what}"), low=low, high=high)
    return None


def one_of(value: Any, allowed: Collection[str], what: str, t: Talk) -> str | None:
    if not isinstance(value, str) or value not in allowed:
        return t("check-one-of", what=t(f"check-what-{what}"), allowed=", ".join(allowed))
    return None


def text(value: Any, what: str, t: Talk, limit: int = 100) -> str | None:
    if not isinstance(value, str) or len(value) > limit:
        return t("check-text", what=t(f"check-what-{what}"), limit=limit)
    return None


def first(*problems: str | None) -> str | None:
    """The first refusal among several checks."""
    return next((p for p in problems if p), None)
