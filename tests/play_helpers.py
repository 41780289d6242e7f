"""Helpers for the end-to-end play tests: open a table, find the live turn message, read
what everyone (or one player) can see, and check that a refusal changed nothing."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord
import simcord

from bot.game.fairness import verify
from bot.game.tables import Table
from tests.support.sim import SimTable

#: A Cup button's id names its cups by the start of their seals (published with the
#: message, before anyone answers); the full seal is its private answer.
CUP_ID = re.compile(r"^mxt:\d+:\d+:cup\.(\w+)$")
SEALED_FULL = re.compile(r"sealed: `([0-9a-f]{64})`")
OPENED = re.compile(r"sealed as `([0-9a-f]{64})`[\s\S]*printf '([1-6])-([1-6]):([0-9a-f]+)'")
RELATIVE_TIME = re.compile(r"<t:(\d+):R>")


def pid(user: simcord.MemberActor) -> str:
    """A player as the engine knows them: the user id as text."""
    return str(user.id)


def table_of(sim: SimTable, channel: simcord.ChannelHandle | None = None) -> Table:
    table = sim.bot.tables.get((channel or sim.channel).id)
    assert table is not None, "no table in this channel"
    return table


def state(sim: SimTable, channel: simcord.ChannelHandle | None = None) -> dict[str, Any] | None:
    """Everything the table service holds for a channel, for before/after comparisons."""
    table = sim.bot.tables.get((channel or sim.channel).id)
    if table is None:
        return None
    return {"engine": table.game.to_dict(), "meta": table.meta.to_dict()}


async def open_game(
    sim: SimTable, preset: str, players: int = 3, *, buttons: bool = False, **options: Any
) -> Table:
    """/newgame by the first user, the others join (slash and the Join button taking turns,
    or only the button), and the host starts (with /start, or the Start button). A /join
    is answered privately and edits the one lobby message."""
    host, *others = sim.users[:players]
    options.setdefault("turn_timer", 0)
    result = await host.slash(sim.channel, "newgame", ruleset=preset, **options)
    assert not result.ephemeral, result.response and result.response.content
    for n, user in enumerate(others):
        if buttons or n % 2:
            result = await user.click(turn_message(sim), label="Join")
            assert not result.ephemeral, result.response and result.response.content
        else:
            result = await user.slash(sim.channel, "join")
            assert result.ephemeral and result.response is not None
            assert result.response.content == "You're in.", result.response.content
    if buttons:
        result = await host.click(turn_message(sim), label="Start")
    else:
        result = await host.slash(sim.channel, "start")
    assert not result.ephemeral, result.response and result.response.content
    table = table_of(sim)
    assert table.game.phase == "playing"
    return table


def turn_message(sim: SimTable, channel: simcord.ChannelHandle | None = None) -> discord.Message:
    """The public message that carries the live buttons for the move that is due."""
    channel = channel or sim.channel
    table = sim.bot.tables.get(channel.id)
    history = channel.history()
    if table is not None and table.meta.message_id is not None:
        for message in history:
            if message.id == table.meta.message_id:
                return message
    live = [m for m in history if m.components]
    assert live, "no message with buttons in the channel"
    return live[-1]


def custom_ids(message: discord.Message | simcord.ResponseMessage) -> list[str]:
    ids = []
    for row in message.components:
        children = row.children if isinstance(row, discord.ActionRow) else row["components"]
        for item in children:
            ids.append(item.custom_id if not isinstance(item, dict) else item["custom_id"])
    return ids


def seals_of(*messages: discord.Message | simcord.ResponseMessage) -> list[str]:
    """The seals (short) the Cup buttons of ``messages`` name, in order."""
    found = []
    for message in messages:
        for custom_id in custom_ids(message):
            m = CUP_ID.match(custom_id)
            if m:
                found += [s for s in m.group(1).split("_") if s]
    return found


def message_text(message: discord.Message) -> str:
    """Everything a person reads in a message: content and every part of its embeds."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name}: {field.value}" for field in embed.fields]
    return "\n".join(parts)


def public_text(sim: SimTable, channel: simcord.ChannelHandle | None = None) -> str:
    """All the channel shows to someone who is not in the game (ephemerals excluded)."""
    messages = (channel or sim.channel).history()
    assert not any(m.flags.ephemeral for m in messages)
    return "\n".join(message_text(m) for m in messages)


def assert_private_to(
    sim: SimTable, result: simcord.InteractionResult, owner: simcord.MemberActor
) -> str:
    """The response is ephemeral, and only ``owner`` has it in their view of the channel."""
    assert result.ephemeral
    assert result.response is not None
    message_id = result.response.id
    for user in sim.users:
        seen = any(m.id == message_id for m in sim.channel.history(viewer=user))
        assert seen == (user is owner), f"{user.name} sees={seen}"
    assert all(m.id != message_id for m in sim.channel.history())
    return result.response.content


def assert_public(result: simcord.InteractionResult) -> str:
    assert not result.ephemeral
    assert result.response is not None
    return message_text(result.response.message)


async def refused(
    sim: SimTable,
    action: Any,
    *,
    says: str | Iterable[str],
    channel: simcord.ChannelHandle | None = None,
) -> str:
    """Run ``action`` (a coroutine making one interaction) and check it is a private,
    specific refusal that changes neither the table, nor what is stored, nor the channel."""
    channel = channel or sim.channel
    before = state(sim, channel)
    before_stored = await stored(sim, channel)
    before_public = [(m.id, message_text(m), len(m.components)) for m in channel.history()]
    result = await action
    assert result.ephemeral, result
    assert result.response is not None
    text = result.response.content
    for piece in [says] if isinstance(says, str) else says:
        assert piece in text, f"{piece!r} not in {text!r}"
    assert state(sim, channel) == before
    assert await stored(sim, channel) == before_stored, "a refusal changed what is stored"
    after_public = [(m.id, message_text(m), len(m.components)) for m in channel.history()]
    assert after_public == before_public
    return text


async def stored(sim: SimTable, channel: simcord.ChannelHandle | None = None) -> Any:
    """What the database holds for the channel's open game: its row (state, move number,
    status) and its whole event log; the database is the truth, the table in memory a copy."""
    record = await sim.bot.storage.get_game_for_channel((channel or sim.channel).id)
    if record is None:
        return None
    events = await sim.bot.storage.events(record.id)
    return record, events


async def check_reveal(
    sim: SimTable, message: Any, dice: tuple[int, int], user: simcord.MemberActor
) -> None:
    """The message that showed a reveal has a Cup button; it privately shows the dice and
    salt whose hash is the digest sealed (in short in a Cup button's id, published in the
    channel) when the dice went under the cup."""
    result = await user.click(message, label="Cup")
    text = assert_private_to(sim, result, user)
    opened = OPENED.search(text)
    assert opened is not None, text
    digest, high, low, salt = opened.groups()
    assert (int(high), int(low)) == dice
    sealed = seals_of(*sim.channel.history())
    assert any(digest.startswith(s) for s in sealed), (digest, sealed)
    assert verify(dice, salt, digest)
