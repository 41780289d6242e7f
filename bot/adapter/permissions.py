"""The channel permissions the bot needs, what each is for, and plain sentences about the
missing ones: a private answer for a player, a log line after a 403, the invite link.

Pure: no Discord calls and no I/O; it reads `discord.Permissions` values (such as
`interaction.app_permissions`, or `channel.permissions_for(guild.me)`) and returns text.

`NEEDS` is the one table. Every permission in it is one the bot uses outside answers to
commands, and nothing the bot uses is missing from it:

- View Channel: without it the bot can't see the channel, so it can't post, edit or read
  there.
- Send Messages: turn messages after a timer expiry, after an edit that failed and after
  a restart, the half-time reminders and a season's end (README, Seasons) are sent with
  `channel.send`, not as answers to a command. It has no effect in threads.
- Send Messages in Threads: the same in threads, where games can be played too.
- Embed Links: the lobby and the final standing are embeds, and a timer expiry or a
  restart posts them with `channel.send`; Discord doesn't show a bot's embeds in its own
  messages without it.
- Read Message History: after a restart the bot reads the channel's last 25 messages to
  take the buttons off its old turn messages. Without it Discord returns no messages (no
  error): those buttons stay and answer "stale", so it is wanted, not vital.

Not needed:

- Attach Files: the /stats card is sent as the answer to the command (an interaction
  response). Discord lets those carry files and embeds whatever the bot's own channel
  permissions (its 2022-06-29 change to interaction permissions covers only Mention
  Everyone, Send TTS Messages and Use External Emojis). It would be needed if the card
  were ever sent with `channel.send`, or as a follow-up (those follow the bot's
  permissions since 2023-11-01).
- Manage Messages (the bot edits only its own messages), Mention Everyone (it pings
  single players only), Add Reactions, Use External Emojis (standard emoji only),
  Create Threads, and Use Application Commands (a permission for the users).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import discord

from bot.present.i18n import Talk, language_of, talk
from bot.present.words import listing

Where = Literal["both", "channels", "threads"]

PLAY = "play"
"""Posting and updating games: turn messages, reminders, expiries, re-posts."""
RESTART = "restart"
"""Tidying up after a restart: taking the buttons off old turn messages."""
ANNOUNCE = "announce"
"""Posting a season's champions: plain text, so seeing the channel and posting in it."""

INVITE_URL = (
    "https://discord.com/oauth2/authorize?client_id={application_id}"
    "&scope=bot+applications.commands&permissions={permissions}"
)

THREAD_TYPES = frozenset(
    {
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    }
)


@dataclass(frozen=True, slots=True)
class Need:
    """One permission the bot needs in a channel, and why."""

    flag: str
    """The `discord.Permissions` attribute."""
    name: str
    """As Discord's channel and role settings show it."""
    purpose: str
    """What the bot uses it for."""
    without: str
    """What goes wrong without it, as the start of a sentence to the player."""
    features: frozenset[str]
    """Which of PLAY, RESTART and ANNOUNCE need it."""
    where: Where = "both"
    """Send Messages counts only outside threads, Send Messages in Threads only in them."""


NEEDS: tuple[Need, ...] = (
    Need(
        "view_channel",
        "View Channel",
        "See the channel at all: needed to post, edit and read there.",
        "I can't post here",
        frozenset({PLAY, RESTART, ANNOUNCE}),
    ),
    Need(
        "send_messages",
        "Send Messages",
        "Post turn messages, turn-timer reminders and expiries, re-post running games "
        "after a restart, and announce a season's champions.",
        "I can't post here",
        frozenset({PLAY, ANNOUNCE}),
        "channels",
    ),
    Need(
        "send_messages_in_threads",
        "Send Messages in Threads",
        "The same in threads, where Send Messages does not apply.",
        "I can't post in this thread",
        frozenset({PLAY, ANNOUNCE}),
        "threads",
    ),
    Need(
        "embed_links",
        "Embed Links",
        "Show the lobby and the final standing (embeds) on messages it posts itself, after "
        "a timer expiry or a restart; Discord hides a bot's embeds without it.",
        "I can't show the table here",
        frozenset({PLAY}),
    ),
    Need(
        "read_message_history",
        "Read Message History",
        "After a restart, find its last turn messages and take their buttons off.",
        "I can't tidy up old buttons here after a restart",
        frozenset({RESTART}),
    ),
)


@cache
def needed(*, in_thread: bool = False, feature: str | None = None) -> tuple[Need, ...]:
    """The permissions that count in a channel (or thread), for one feature or all (the
    same few answers for every move: kept)."""
    skip = "channels" if in_thread else "threads"
    return tuple(
        need
        for need in NEEDS
        if need.where != skip and (feature is None or feature in need.features)
    )


def missing(
    permissions: discord.Permissions, *, in_thread: bool = False, feature: str | None = None
) -> list[Need]:
    """The needed permissions that `permissions` lacks, in table order."""
    if permissions.administrator:
        return []
    return [
        need
        for need in needed(in_thread=in_thread, feature=feature)
        if not getattr(permissions, need.flag)
    ]


def missing_sentence(
    permissions: discord.Permissions,
    *,
    in_thread: bool = False,
    feature: str | None = None,
    t: Talk | None = None,
) -> str | None:
    """A private answer naming what to grant, or None when nothing is missing, e.g.
    "I can't post here: give me View Channel and Send Messages in this channel.".

    Said in the reader's language, with the permissions named as Discord's settings show
    them in that language (catalog keys ``perm-<flag>``, README Languages)."""
    lacking = missing(permissions, in_thread=in_thread, feature=feature)
    if not lacking:
        return None
    t = t or talk()
    names = listing([t(f"perm-{need.flag}") for need in lacking], t)
    key = "perm-missing-thread" if in_thread else "perm-missing"
    return t(key, without=t(f"perm-without-{lacking[0].flag}"), names=names)


def missing_sentence_for(
    interaction: discord.Interaction[Any], *, feature: str | None = None
) -> str | None:
    """`missing_sentence` for the bot's permissions where `interaction` happened, in the
    language of whoever asked."""
    granted, in_thread = interaction.app_permissions, is_thread(interaction.channel)
    if not missing(granted, in_thread=in_thread, feature=feature):
        return None  # as almost always: nothing to say, in no language
    return missing_sentence(
        granted, in_thread=in_thread, feature=feature, t=talk(language_of(interaction.locale))
    )


def describe_forbidden(permissions: discord.Permissions | None, *, in_thread: bool = False) -> str:
    """For the log line after Discord answered 403 (discord.Forbidden) to a reminder, an
    expiry or a re-post: which permission to fix, or where else to look."""
    if permissions is None:
        names = join_names(needed(in_thread=in_thread))
        return (
            f"Discord refused (403) and the bot's permissions there are unknown: "
            f"check that it has {names} in that channel"
        )
    lacking = missing(permissions, in_thread=in_thread)
    if lacking:
        place = "the channel this thread belongs to" if in_thread else "that channel"
        return (
            f"Discord refused (403): the bot lacks {join_names(lacking)} in {place}; "
            "give its role those permissions there"
        )
    if in_thread:
        return (
            "Discord refused (403) though the bot has the permissions it needs: the thread "
            "may be locked or archived, or private without the bot in it"
        )
    return (
        "Discord refused (403) though the bot has the permissions it needs: a permission "
        "overwrite may have changed since it was cached"
    )


def describe_forbidden_in(channel: object) -> str:
    """`describe_forbidden` for the bot's cached permissions in `channel`."""
    return describe_forbidden(permissions_in(channel), in_thread=is_thread(channel))


def permissions_in(channel: object) -> discord.Permissions | None:
    """The bot's permissions in `channel` from the cache, or None if it can't tell."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    permissions_for = getattr(channel, "permissions_for", None)
    if me is None or permissions_for is None:
        return None
    try:
        permissions = permissions_for(me)
    except discord.ClientException:  # a thread whose parent channel is not cached
        return None
    return permissions if isinstance(permissions, discord.Permissions) else None


def is_thread(channel: object) -> bool:
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in THREAD_TYPES


def invite_permissions() -> discord.Permissions:
    """Everything in `NEEDS`: what the invite link asks for."""
    return discord.Permissions(**{need.flag: True for need in NEEDS})


INVITE_PERMISSIONS: int = invite_permissions().value
"""The `permissions=` number of the invite link."""


def invite_url(application_id: int | str) -> str:
    return INVITE_URL.format(application_id=application_id, permissions=INVITE_PERMISSIONS)


def markdown_table() -> str:
    """The table of the permissions in the docs (README, Inviting the bot), made from
    `NEEDS`."""
    rows = ["| Permission | What the bot uses it for |", "| --- | --- |"]
    rows += [f"| {need.name} | {need.purpose} |" for need in NEEDS]
    return "\n".join(rows)


def join_names(needs: Iterable[Need]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    names = [need.name for need in needs]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
