"""Checks of command values that Discord's own client never sends but a forged request
can: discord.py passes ``Range``, ``Literal`` and choice options through as they arrive,
and a command marked server-only can still arrive from a DM. Each check returns the
private refusal to give, or None when the value is fine.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord

SERVER_ONLY = "This command works in server channels only."


def in_server(interaction: discord.Interaction) -> str | None:
    if interaction.guild_id is None or interaction.channel_id is None:
        return SERVER_ONLY
    return None


def within(value: Any, low: int, high: int, what: str) -> str | None:
    """A whole number from ``low`` to ``high`` (a bool is no number here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return f"{what} must be a whole number from {low} to {high}."
    return None


def one_of(value: Any, allowed: Collection[str], what: str) -> str | None:
    if not isinstance(value, str) or value not in allowed:
        return f"{what} must be one of: {', '.join(allowed)}."
    return None


def text(value: Any, what: str, limit: int = 100) -> str | None:
    if not isinstance(value, str) or len(value) > limit:
        return f"{what} must be text of at most {limit} characters."
    return None


def first(*problems: str | None) -> str | None:
    """The first refusal among several checks."""
    return next((p for p in problems if p), None)
