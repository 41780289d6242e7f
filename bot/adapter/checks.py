"""Checks of command values and clicks that Discord's own client never sends but a forged
request can: discord.py passes ``Range``, ``Literal`` and choice options through as they
arrive, a command marked server-only can still arrive from a DM, and a click can carry
any custom id on any message. Each check returns the private refusal to give (a click's:
its catalog key), or None when the value is fine.

Every refusal comes from the catalog, in the language of the user who asked, though most
answer values no real client sends: whoever reads them reads their own language.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord

from bot.present import ids
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


# --- clicks ---------------------------------------------------------------------------------
def _shown(message: discord.Message) -> tuple[ids.Shown, ...]:
    """The components ``message`` carries, as the click's payload shows them; link
    buttons (no custom id) are left out."""
    found = []
    for top in message.components:
        for item in top.children if isinstance(top, discord.ActionRow) else [top]:
            custom_id = getattr(item, "custom_id", None)
            if isinstance(custom_id, str):
                kind = int(item.type.value)
                found.append(ids.Shown(custom_id, kind, bool(getattr(item, "disabled", False))))
    return tuple(found)


def _clicked(interaction: discord.Interaction, live: int | None) -> ids.Clicked | None:
    """The click and its message, or None if the interaction is no click on a message."""
    data: Any = interaction.data or {}
    message = interaction.message
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if message is None or not isinstance(custom_id, str) or not isinstance(kind, int):
        return None
    me = interaction.client.user
    return ids.Clicked(
        custom_id,
        kind,
        _shown(message),
        by_us=me is not None and message.author.id == me.id,
        private=message.flags.ephemeral,
        live=live is not None and message.id == live,
    )


def misplaced(interaction: discord.Interaction, live: int | None) -> str | None:
    """The refusal's key if the click's id is not honoured on the message it came on
    (``live``: the id of the channel's live turn message, as its table keeps it)."""
    click = _clicked(interaction, live)
    return ids.NOT_HERE if click is None else ids.misplaced(click)


def unrouted(interaction: discord.Interaction, kinds: Collection[str]) -> str | None:
    """The refusal's key for a click with an id of one of ``kinds`` that no callback will
    take: discord.py drops an id its message does not carry, and one no route matches
    (too long), with no answer at all. None: a callback answers it."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or ids.kind_of(custom_id) not in kinds:
        return None  # a command, or another kind's click: read no further
    click = _clicked(interaction, None)
    if click is None:
        return None
    carried = any(
        s.custom_id == click.custom_id and s.component_type == click.component_type
        for s in click.shown
    )
    if not carried:
        return ids.NOT_HERE
    return None if ids.routed(click.custom_id) else ids.OUTDATED
