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
from dataclasses import dataclass
from typing import Any

import discord

from bot.present import ids
from bot.present.i18n import Talk, language_of, talk
from bot.present.ids import kind_of

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


# --- clicks: which message an id counts on (README, Playing) ---------------------------------
# Decided here, on the Discord side, from what the click brings: on a move's path, a
# click's checks make no call into another floor (docs/code.md, the path of a click).


@dataclass(frozen=True, slots=True)
class Shown:
    """One component a message carries, as the click's payload shows it."""

    custom_id: str
    component_type: int
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Clicked:
    """A click and the message it came on: what it carries, and what the bot knows of that
    message (its author, whether it is private, whether it is the channel's live turn
    message): all at hand in the interaction and the table kept in memory."""

    custom_id: str
    component_type: int
    shown: tuple[Shown, ...]
    by_us: bool
    private: bool
    live: bool

    @property
    def carried(self) -> bool:
        """Whether the message carries the clicked id, as a component of the clicked type."""
        return any(
            s.custom_id == self.custom_id and s.component_type == self.component_type
            for s in self.shown
        )


def routed(custom_id: str) -> bool:
    """Whether a callback takes the id (one of its kind's routes matches it whole)."""
    kind = kind_of(custom_id)
    return kind is not None and any(r.fullmatch(custom_id) for r in ids.ROUTES[kind])


def placed(click: Clicked) -> str | None:
    """Why a click is not honoured on its message (a catalog key), or None if it is.

    A modified client can send any id on any message, so an id counts only where the bot
    put it: on a message of the bot's that carries it (enabled), whose components are all
    of the id's kind. A leaderboard page is public and never the game's live turn message
    (whose id the table keeps), so no page can replace a game's buttons. Discord's own
    copy of the message comes with the click: a forged payload that also rewrote the
    components of another of the game's messages is beyond what the bot can tell."""
    kind = kind_of(click.custom_id)
    enabled = any(
        s.custom_id == click.custom_id
        and s.component_type == click.component_type
        and not s.disabled
        for s in click.shown
    )
    same_kind = all(kind_of(s.custom_id) == kind for s in click.shown)
    elsewhere = kind == ids.PAGE and (click.private or click.live)
    if kind is None or not click.by_us or not enabled or not same_kind or elsewhere:
        return ids.NOT_HERE
    return None


def unrouted(click: Clicked, kinds: Collection[str]) -> str | None:
    """The refusal's key for a click with an id of one of ``kinds`` that no callback will
    take: discord.py drops an id its message does not carry, and one no route matches
    (too long), with no answer at all. None: a callback answers it (or another kind's
    listener does)."""
    if kind_of(click.custom_id) not in kinds:
        return None
    if not click.carried:
        return ids.NOT_HERE
    return None if routed(click.custom_id) else ids.OUTDATED


def _shown(message: discord.Message) -> tuple[Shown, ...]:
    """The components ``message`` carries, as the click's payload shows them; link
    buttons (no custom id) are left out."""
    found = []
    for top in message.components:
        for item in top.children if isinstance(top, discord.ActionRow) else [top]:
            custom_id = getattr(item, "custom_id", None)
            if isinstance(custom_id, str):
                kind = int(item.type.value)
                found.append(Shown(custom_id, kind, bool(getattr(item, "disabled", False))))
    return tuple(found)


def clicked(interaction: discord.Interaction, live: int | None = None) -> Clicked | None:
    """The click and its message (``live``: the id of the channel's live turn message, as
    its table keeps it), or None if the interaction is no click on a message."""
    data: Any = interaction.data or {}
    message = interaction.message
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if message is None or not isinstance(custom_id, str) or not isinstance(kind, int):
        return None
    me = interaction.client.user
    return Clicked(
        custom_id,
        kind,
        _shown(message),
        by_us=me is not None and message.author.id == me.id,
        private=message.flags.ephemeral,
        live=live is not None and message.id == live,
    )


def misplaced(interaction: discord.Interaction, live: int | None = None) -> str | None:
    """The refusal's key if the click's id is not honoured on the message it came on."""
    click = clicked(interaction, live)
    return ids.NOT_HERE if click is None else placed(click)


def not_taken(interaction: discord.Interaction, kinds: Collection[str]) -> str | None:
    """``unrouted`` for an interaction: None for anything but a click of ``kinds``."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or kind_of(custom_id) not in kinds:
        return None  # a command, or another kind's click: read no further
    click = clicked(interaction)
    return None if click is None else unrouted(click, kinds)
