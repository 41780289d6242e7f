"""Carrying out a plan's operations against Discord (bot/present/planner.py decides them).

The executor makes the calls in order and returns what Discord produced (`Produced`: a
posted message's id, whether the live message took its new look, a call that failed);
it records nothing itself: bot/present/showing.py keeps what the channel shows, in one
place, and hands the calls here (`Calls`). A
refused post or edit is logged with the permission to fix; a refused retire or delete is
ignored (the message keeps its buttons, which answer "stale" by themselves). It also
takes old buttons off a channel's recent messages after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import MultipartParameters

from bot.adapter import permissions, send
from bot.game.tables import Table
from bot.present import ids
from bot.present import screens as present
from bot.present.planner import Answer, Delete, Edit, Operation, Post, Produced, Retire
from bot.present.showing import Asked

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger(__name__)

#: What a failed call to Discord raises: its HTTP errors, a dropped connection, a timeout.
FAILED: tuple[type[BaseException], ...] = (
    discord.HTTPException,
    aiohttp.ClientError,
    OSError,
    asyncio.TimeoutError,
)


class Executor:
    """Makes one bot's planned Discord calls."""

    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot

    async def carry_out(
        self, channel_id: int, operations: Sequence[Operation], asked: Asked | None
    ) -> Produced:
        """Make the calls in order, in the channel of the interaction ``asked`` carries
        (else the channel by its id); one that fails stops the rest, and says so."""
        interaction = asked.interaction if asked is not None else None
        assert interaction is None or isinstance(interaction, discord.Interaction)
        channel: object = interaction.channel if interaction is not None else None
        if channel is None:
            channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable) and not any(
            isinstance(op, Answer) for op in operations
        ):
            return Produced(reached=False)
        produced = Produced()
        try:
            for operation in operations:
                await self._do(operation, channel_id, channel, interaction, produced)
        except FAILED as err:
            produced.failed = err
        return produced

    async def _do(
        self,
        operation: Operation,
        channel_id: int,
        channel: object,
        interaction: discord.Interaction | None,
        produced: Produced,
    ) -> None:
        match operation:
            case Answer(reply=reply, edit=True, live=live):
                assert interaction is not None
                await send.show(interaction, reply)
                produced.shown = produced.shown or live
            case Answer(reply=reply, live=True):
                assert interaction is not None
                message_id = await send.answer(interaction, reply)
                if message_id is not None:
                    produced.message_id, produced.shown = message_id, True
            case Answer(reply=reply):
                assert interaction is not None
                await send.answer(interaction, reply)
            case Post():
                await self._post(operation, channel_id, channel, produced)
            case Edit(message_id=message_id, reply=reply, live=live, if_gone=if_gone):
                if not isinstance(channel, discord.abc.Messageable):
                    return
                try:
                    await self._edit(channel_id, message_id, send.edit_payload(reply))
                except discord.NotFound:
                    if if_gone is not None:
                        await self._post(if_gone, channel_id, channel, produced)
                except discord.HTTPException as err:
                    self._log_forbidden(channel, err, "update the turn message")
                else:
                    produced.shown = produced.shown or live
            case Retire(message_id=message_id, keep=keep):
                if isinstance(channel, discord.abc.Messageable):
                    with contextlib.suppress(discord.HTTPException):
                        await self._edit(channel_id, message_id, send.components_payload(keep))
            case Delete(message_id=message_id):
                where = self.bot.get_channel(channel_id)
                if isinstance(where, discord.abc.Messageable):
                    with contextlib.suppress(discord.HTTPException):
                        await where.get_partial_message(message_id).delete()

    async def _post(self, post: Post, channel_id: int, channel: object, produced: Produced) -> None:
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            message = await channel.send(**send.send_kwargs(post.reply))
        except discord.HTTPException as err:
            what = "remind a player" if post.reminder else "post the table"
            self._log_forbidden(channel, err, what)
            return
        if post.reminder:
            produced.reminder = message.id
        if post.live:
            produced.message_id, produced.shown = message.id, True
        if post.replaces is not None and post.replaces.message_id != message.id:
            await self._do(post.replaces, channel_id, channel, None, produced)

    async def _edit(self, channel_id: int, message_id: int, payload: dict[str, Any]) -> None:
        """Edit a message other than the one clicked, sending the JSON as it is: nothing
        reads Discord's answer, so no discord.py message is built from it (README,
        Benchmarks). Raises what discord.py raises for any call (NotFound, Forbidden...)."""
        params = MultipartParameters(payload=payload, multipart=None, files=None)
        await self.bot.http.edit_message(channel_id, message_id, params=params)

    def _log_forbidden(self, channel: object, err: discord.HTTPException, what: str) -> None:
        """A post or edit Discord refused: the log names the permission to fix."""
        where = getattr(channel, "id", "?")
        if isinstance(err, discord.Forbidden):
            log.warning(
                "could not %s in channel %s: %s",
                what,
                where,
                permissions.describe_forbidden_in(channel),
            )
        else:
            log.warning("could not %s in channel %s: %s", what, where, err)

    async def shows_end(self, channel: discord.abc.Messageable, game_id: int) -> bool:
        """Whether the channel's recent messages hold the final standing of ``game_id``
        (its Rematch button): a process that died after posting it, before noting it,
        must not post it twice. False if the history cannot be read."""
        me = self.bot.user
        try:
            async for message in channel.history(limit=25):
                mine = me is not None and message.author.id == me.id
                if mine and any(ids.is_rematch_of(i, game_id) for i in send.button_ids(message)):
                    return True
        except discord.HTTPException as err:
            log.info("could not read channel %s for a finished game: %s", channel, err)
        return False

    async def retire_leftovers(self, channel: discord.abc.Messageable, table: Table | None) -> bool:
        """The id of the last turn message reaches the database only with the next move,
        so after a restart the stored id may be an older message. Take the moves off the
        channel's recent messages instead (a lifted cup stays checkable; after a finished
        game, Rematch and every cup check stay), and delete reminders the turn has
        outgrown; if the history cannot be read, the stored id is retired as usual and a
        leftover's buttons answer "stale". True if the history was read (the stored id
        then names no message to retire)."""
        me = self.bot.user
        channel_id = getattr(channel, "id", 0)
        try:
            async for message in channel.history(limit=25):
                if me is None or message.author.id != me.id:
                    continue
                if present.is_reminder(message.content) and not message.components:
                    with contextlib.suppress(discord.HTTPException):
                        await message.delete()
                    continue
                found = send.button_ids(message)
                if not any(ids.acts_on_a_turn(i) for i in found):
                    continue
                shown = send.components_of(message)
                if table is None:
                    keep = tuple(c for c in shown if ids.is_tool(c.custom_id))
                else:
                    keep = present.retired(shown, table.meta.lifted)
                with contextlib.suppress(discord.HTTPException):
                    await message.edit(view=send.view_of(keep) if keep else None)
        except discord.HTTPException as err:
            log.info("could not read channel %s to retire old buttons: %s", channel_id, err)
            return False
        return True
