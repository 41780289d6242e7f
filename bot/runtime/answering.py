"""Every interaction answered inside Discord's window (README, Running at scale: While the
database is down).

Discord takes an interaction's first answer for 3 s after it sent the interaction, and
drops it after that. An answer that waits for storage (a lock another program holds, a
PostgreSQL that stopped answering) may not be ready by then, so each interaction gets a
deadline when it arrives: if it has no answer ``MARGIN`` seconds later, it is deferred
(a click: "deferred update", which shows nothing; a slash command: "thinking", public
unless its answer is always private), and the real answer follows when storage answers,
through the interaction's webhook, which takes follow-ups for 15 minutes.

One sweep keeps every deadline: the interactions waiting for an answer sit in arrival
order, an answer takes its own out (two dict operations), and a single timer wakes at
the oldest one's deadline, defers what is due and sleeps until the next (at least
``TICK`` later, so a burst is swept at once); it is let go when nothing waits. A timer,
a lock and a task per interaction cost a move about 0.07 ms (docs/benchmarks.md); only
an interaction actually deferred gets a task, and an answer that comes while its
deferral is on the way waits for it.

Every answer of the bot goes through `respond` or `update`, which send the response when
there is none yet and a follow-up once the interaction was deferred; the deferral and an
answer never go out together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

log = logging.getLogger(__name__)

#: Discord's answer window.
WINDOW = 3.0
#: How late the sweep may wake after a deadline (it batches deadlines this close).
TICK = 0.1
#: Seconds after an interaction arrives at which it is deferred if still unanswered, at
#: the latest ``TICK`` after that: 2 s in all, as when each had a timer of its own.
#: Discord's window is 3 s from when it sent the interaction; the rest covers the
#: gateway's delivery, a late event loop and the deferral's own round trip (README, While the
#: database is down: measured).
MARGIN = 2.0 - TICK
#: How long an interaction's token takes follow-ups: how long a deferral is remembered.
TOKEN_SECONDS = 15 * 60
#: Slash commands whose answer is always private: their deferral is private too, so no
#: public "thinking" shows while they wait.
PRIVATE_COMMANDS = frozenset({"table", "peek"})
#: What a deferral that did not reach Discord raises (a closed session at shutdown too).
FAILED = (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError, TimeoutError)
#: The interaction types that take a deferral (autocomplete and ping do not).
DEFERRABLE = frozenset(
    {discord.InteractionType.application_command, discord.InteractionType.component}
)


#: An interaction as Discord tells it apart: its id and token (a forged payload may
#: repeat an id; its answers go by token anyway).
Key = tuple[int, str]


def _key(interaction: discord.Interaction) -> Key:
    return interaction.id, interaction.token


class Answering:
    """One bot's deadlines: a deferral for each interaction that is late, and how each
    was deferred, for its answer to follow."""

    def __init__(self, margin: float = MARGIN, tick: float = TICK) -> None:
        self.margin = margin
        self.tick = tick
        #: Interactions waiting for an answer, in arrival order: key -> (arrived, it).
        self._pending: OrderedDict[Key, tuple[float, discord.Interaction]] = OrderedDict()
        #: The one timer, set while anything is pending.
        self._sweeper: asyncio.TimerHandle | None = None
        #: Deferrals on their way to Discord; an answer waits for its interaction's.
        self._deferring: dict[Key, asyncio.Future[None]] = {}
        #: Interactions answered before their deadline was set, with when: they get none.
        self._early: OrderedDict[Key, float] = OrderedDict()
        #: interaction -> (monotonic time deferred, deferred privately)
        self._deferred: OrderedDict[Key, tuple[float, bool]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Interactions deferred, and of those, deferred after Discord's window.
        self.deferrals = 0
        self.late = 0

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """An ``on_interaction`` listener for a bot that does not call `watch` itself."""
        self.watch(interaction, time.monotonic())

    def watch(self, interaction: discord.Interaction, arrived: float) -> None:
        """Set the interaction's deadline (the bot calls this as discord.py dispatches
        the interaction, before its handler runs: bot/runtime/client.py)."""
        key = _key(interaction)
        if self._early and self._early.pop(key, None) is not None:
            return
        if interaction.type not in DEFERRABLE or interaction.response.is_done():
            return
        self._pending[key] = (arrived, interaction)
        if self._sweeper is None:
            self._arm(arrived + self.margin - time.monotonic())

    def _arm(self, delay: float) -> None:
        loop = asyncio.get_running_loop()
        self._sweeper = loop.call_later(max(0.0, delay), self._sweep)

    def _sweep(self) -> None:
        self._sweeper = None
        now = time.monotonic()
        pending = self._pending
        while pending:
            key, (arrived, interaction) = next(iter(pending.items()))
            due = arrived + self.margin
            if due > now:
                self._arm(max(due - now, self.tick))
                return
            del pending[key]
            if interaction.response.is_done():
                continue
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._deferring[key] = done
            task = asyncio.get_running_loop().create_task(self._defer(interaction, arrived))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _defer(self, interaction: discord.Interaction, arrived: float) -> None:
        key = _key(interaction)
        try:
            if interaction.response.is_done():
                return  # an answer was tried (and failed: not again)
            private = _private(interaction)
            try:
                if interaction.type is discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=private, thinking=True)
            except FAILED as err:  # expired, or Discord unreachable, or closing
                log.warning("could not defer interaction %s: %r", interaction.id, err)
                return
            late = time.monotonic() - arrived
            self.deferrals += 1
            if late > WINDOW:
                self.late += 1
            self._remember(key, private)
            log.debug("deferred interaction %s after %.2f s", interaction.id, late)
        finally:
            done = self._deferring.pop(key, None)
            if done is not None and not done.done():
                done.set_result(None)

    def _remember(self, key: Key, private: bool) -> None:
        now = time.monotonic()
        self._deferred[key] = (now, private)
        while self._deferred:
            oldest = next(iter(self._deferred.values()))[0]
            if now - oldest < TOKEN_SECONDS:
                break
            self._deferred.popitem(last=False)

    @contextlib.asynccontextmanager
    async def answer(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """Around an answer going out, so the deferral can't cross it; once an answer
        was tried, the interaction is deferred no more (a failed one is not retried by a
        deferral: the table is posted instead)."""
        key = _key(interaction)
        if self._pending.pop(key, None) is None:
            deferring = self._deferring.get(key)
            if deferring is not None:
                await asyncio.shield(deferring)  # the answer follows the deferral
            else:
                self._answered_early(key)
        elif not self._pending and self._sweeper is not None:
            # Nothing left to wait for: no timer left for an event loop to wait on.
            self._sweeper.cancel()
            self._sweeper = None
        yield

    def _answered_early(self, key: Key) -> None:
        if key in self._deferred:
            return  # deferred earlier: its listener ran
        now = time.monotonic()
        self._early[key] = now
        while self._early and now - next(iter(self._early.values())) > WINDOW:
            self._early.popitem(last=False)  # its listener ran long ago, or never will

    def deferred_publicly(self, interaction: discord.Interaction) -> bool:
        """Whether the interaction was deferred as a public "thinking" slash command, whose
        first follow-up Discord shows in that public message."""
        found = self._deferred.get(_key(interaction))
        return (
            found is not None
            and not found[1]
            and interaction.type is discord.InteractionType.application_command
        )

    def followed(self, interaction: discord.Interaction) -> None:
        """The deferral's message is gone: the next follow-up is a message of its own."""
        self._deferred.pop(_key(interaction), None)


def _private(interaction: discord.Interaction) -> bool:
    command = interaction.command
    return command is not None and command.name in PRIVATE_COMMANDS


def answering_of(interaction: discord.Interaction) -> Answering | None:
    found = getattr(interaction.client, "answering", None)
    return found if isinstance(found, Answering) else None


async def respond(
    interaction: discord.Interaction, *, ephemeral: bool, **kwargs: Any
) -> int | None:
    """Answer with a new message (``send_message``'s arguments): the response, or a
    follow-up if the interaction was deferred or answered already. The message's id, when
    Discord tells it (a private response's is not asked for)."""
    answering = answering_of(interaction)
    async with answering.answer(interaction) if answering else contextlib.nullcontext():
        if not interaction.response.is_done():
            sent = await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
            return sent.message_id
        if ephemeral and answering is not None and answering.deferred_publicly(interaction):
            # A public "thinking" would show a private answer to everyone: it goes, and
            # the answer comes as a private message of its own.
            answering.followed(interaction)
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        message = await interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
        return message.id


async def respond_first(
    interaction: discord.Interaction, *, ephemeral: bool, **kwargs: Any
) -> bool:
    """Answer only as the interaction's response, where Discord asks no channel permission
    (a file: README, Inviting the bot); False, sending nothing, if the interaction was
    deferred or answered already, for the caller to say it another way."""
    answering = answering_of(interaction)
    async with answering.answer(interaction) if answering else contextlib.nullcontext():
        if interaction.response.is_done():
            return False
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        return True


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message clicked (``edit_message``'s arguments): the response, or an edit
    of it if the click was deferred."""
    answering = answering_of(interaction)
    async with answering.answer(interaction) if answering else contextlib.nullcontext():
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
            return
        await interaction.edit_original_response(**kwargs)


#: The route of an interaction's first answer (discord.py's webhook adapter's).
CALLBACK_ROUTE = "/interactions/{webhook_id}/{webhook_token}/callback"


class LeanCallbacks(AsyncWebhookAdapter):
    """discord.py asks Discord to return the message an answer made and parses it into a
    message object (its embeds, components and author) that the bot never reads: it
    needs only the message's id, which the answer's ``interaction`` part carries. This
    adapter drops the message from the answer before discord.py sees it (about a tenth
    of a move's CPU in discord.py: docs/benchmarks.md). discord.py looks its adapter up
    in a context variable that its documentation does not name;
    tests/test_answering.py fails if the id stops being read from where it is kept."""

    async def request(self, route: Any, *args: Any, **kwargs: Any) -> Any:
        data = await super().request(route, *args, **kwargs)
        if route.path == CALLBACK_ROUTE and isinstance(data, dict):
            resource = data.get("resource")
            if isinstance(resource, dict):
                resource.pop("message", None)
        return data


@contextlib.contextmanager
def lean_callbacks() -> Iterator[None]:
    """Entered in the task that starts the bot, so every task it creates answers through
    `LeanCallbacks` (a metrics adapter set afterwards wraps it: bot/runtime/monitor.py)."""
    # discord.py's webhook adapter is untyped.
    token = async_context.set(LeanCallbacks())  # type: ignore[no-untyped-call]  # untyped
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):  # a context left by cancellation
            async_context.reset(token)
