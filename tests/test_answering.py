"""Every interaction answered in Discord's window (bot/runtime/answering.py; README,
Running at scale: While the database is down), with stand-in interactions in process: a
late answer is deferred at the margin and follows up, a private answer after a public
"thinking" goes as a message of its own, and an answer already tried is not deferred."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.runtime.answering import Answering, respond, update


class Fake:
    """What bot/runtime/answering.py uses of a discord.py interaction; every call kept."""

    def __init__(self, kind: discord.InteractionType, command: str | None = None) -> None:
        self.id, self.token = 1, "tok"
        self.type = kind
        self.command = SimpleNamespace(name=command) if command else None
        self.answering = Answering(margin=0.05)
        self.client = SimpleNamespace(answering=self.answering)
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.done = False
        outer = self

        class Response:
            def is_done(self) -> bool:
                return outer.done

            async def defer(self, **kwargs: Any) -> None:
                outer._call("defer", kwargs)

            async def send_message(self, **kwargs: Any) -> Any:
                outer._call("send_message", kwargs)
                return SimpleNamespace(message_id=7)

            async def edit_message(self, **kwargs: Any) -> None:
                outer._call("edit_message", kwargs)

        class Followup:
            async def send(self, **kwargs: Any) -> Any:
                outer.calls.append(("followup", kwargs))
                return SimpleNamespace(id=8)

        self.response, self.followup = Response(), Followup()

    def _call(self, name: str, kwargs: dict[str, Any]) -> None:
        assert not self.done, "a second response"
        self.calls.append((name, kwargs))
        self.done = True

    async def delete_original_response(self) -> None:
        self.calls.append(("delete_original", {}))

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.append(("edit_original", kwargs))

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]


async def late(fake: Fake) -> None:
    fake.answering.watch(fake, time.monotonic())  # type: ignore[arg-type]
    await asyncio.sleep(0.15)  # the deadline passes: storage is slow


async def test_a_late_click_is_deferred_and_its_table_edited_after() -> None:
    fake = Fake(discord.InteractionType.component)
    await late(fake)
    await update(fake, content="table")  # type: ignore[arg-type]
    assert fake.names() == ["defer", "edit_original"]
    assert fake.calls[0][1] == {} and fake.answering.deferrals == 1


async def test_a_late_slash_command_thinks_in_public_and_a_refusal_stays_private() -> None:
    fake = Fake(discord.InteractionType.application_command, "roll")
    await late(fake)
    assert fake.calls == [("defer", {"ephemeral": False, "thinking": True})]
    assert await respond(fake, ephemeral=True, content="no") == 8  # type: ignore[arg-type]
    assert fake.names() == ["defer", "delete_original", "followup"]
    assert fake.calls[-1][1]["ephemeral"] is True


async def test_a_late_public_answer_fills_the_thinking_message() -> None:
    fake = Fake(discord.InteractionType.application_command, "newgame")
    await late(fake)
    assert await respond(fake, ephemeral=False, content="lobby") == 8  # type: ignore[arg-type]
    assert fake.names() == ["defer", "followup"]


@pytest.mark.parametrize("command", ["table", "peek"])
async def test_an_always_private_command_thinks_privately(command: str) -> None:
    fake = Fake(discord.InteractionType.application_command, command)
    await late(fake)
    assert fake.calls == [("defer", {"ephemeral": True, "thinking": True})]
    await respond(fake, ephemeral=True, content="table")  # type: ignore[arg-type]
    assert fake.names() == ["defer", "followup"]


async def test_an_answer_in_time_is_never_deferred() -> None:
    fake = Fake(discord.InteractionType.component)
    fake.answering.watch(fake, time.monotonic())  # type: ignore[arg-type]
    await respond(fake, ephemeral=True, content="dice")  # type: ignore[arg-type]
    await asyncio.sleep(0.15)
    assert fake.names() == ["send_message"] and fake.answering.deferrals == 0


async def test_one_sweep_defers_a_burst_and_spares_the_answered() -> None:
    """Many interactions, one timer: the late ones deferred in one sweep, each once, and
    an answer that comes while its deferral is on the way follows it."""
    answering = Answering(margin=0.05, tick=0.01)
    fakes = [Fake(discord.InteractionType.component) for _ in range(5)]
    for n, fake in enumerate(fakes):
        fake.id, fake.answering = n, answering
        fake.client = SimpleNamespace(answering=answering)
        answering.watch(fake, time.monotonic())  # type: ignore[arg-type]
    gate = asyncio.Event()
    plain = fakes[1].response.defer

    async def slow(**kwargs: Any) -> None:
        await gate.wait()
        await plain(**kwargs)

    fakes[1].response.defer = slow  # type: ignore[method-assign]
    await update(fakes[0], content="in time")  # type: ignore[arg-type]
    await asyncio.sleep(0.08)  # all due: one sweep; fakes[1]'s deferral held at the gate
    answer = asyncio.create_task(update(fakes[1], content="table"))  # type: ignore[arg-type]
    await asyncio.sleep(0.02)
    assert not answer.done() and fakes[1].names() == []  # it waits for its deferral
    gate.set()
    await answer
    assert [f.names() for f in fakes] == [
        ["edit_message"],
        ["defer", "edit_original"],
        ["defer"],
        ["defer"],
        ["defer"],
    ]
    assert answering.deferrals == 4 and answering._sweeper is None


async def test_an_answer_that_failed_is_not_followed_by_a_deferral() -> None:
    """Discord refused the answer (the interaction expired): a deferral would be refused
    too, and the table is posted instead."""
    fake = Fake(discord.InteractionType.component)
    fake.answering.watch(fake, time.monotonic())  # type: ignore[arg-type]

    async def refused(**_: Any) -> None:
        raise RuntimeError("404")

    fake.response.edit_message = refused  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await update(fake, content="table")  # type: ignore[arg-type]
    await asyncio.sleep(0.15)
    assert fake.names() == []


async def test_a_file_goes_only_in_the_first_answer() -> None:
    """The /stats card: once deferred, respond_first sends nothing and says so, and the
    caller sends the text card as a follow-up (README, Inviting the bot: no Attach Files)."""
    from bot.runtime.answering import respond_first

    fake = Fake(discord.InteractionType.application_command, "stats")
    assert await respond_first(fake, ephemeral=False, file="card")  # type: ignore[arg-type]
    late_one = Fake(discord.InteractionType.application_command, "stats")
    await late(late_one)
    assert not await respond_first(late_one, ephemeral=False, file="card")  # type: ignore[arg-type]
    assert fake.names() == ["send_message"] and late_one.names() == ["defer"]


async def test_an_answer_before_the_deadline_is_set_leaves_no_timer() -> None:
    """A handler that answers before the deadline is set leaves nothing pending, and the
    one sweep stops once nothing is (no timer for a test's event loop to wait on)."""
    fake = Fake(discord.InteractionType.component)
    await respond(fake, ephemeral=True, content="stale")  # type: ignore[arg-type]
    fake.answering.watch(fake, time.monotonic())  # type: ignore[arg-type]
    quick = Fake(discord.InteractionType.component)
    quick.answering.watch(quick, time.monotonic())  # type: ignore[arg-type]
    await update(quick, content="table")  # type: ignore[arg-type]
    assert not fake.answering._pending and not quick.answering._pending
    assert quick.answering._sweeper is None and quick.names() == ["edit_message"]
    assert not fake.answering._early  # the listener took its note


async def test_an_answer_is_read_for_its_message_id_without_its_message() -> None:
    """`LeanCallbacks` drops the message Discord returns with an answer; discord.py must
    still read the message's id from the answer's ``interaction`` part (its adapter and
    that reading are not in its documentation: this fails if either moves)."""
    from discord.interactions import InteractionCallbackResponse
    from discord.webhook.async_ import AsyncWebhookAdapter, async_context

    from bot.runtime.answering import CALLBACK_ROUTE, LeanCallbacks, lean_callbacks

    route = discord.http.Route("POST", CALLBACK_ROUTE, webhook_id=1, webhook_token="t")
    assert route.path == CALLBACK_ROUTE  # the route discord.py answers through
    answered = {
        "interaction": {"id": "1", "type": 3, "response_message_id": "55"},
        "resource": {"type": 4, "message": {"id": "55", "content": "x"}},
    }

    async def sent(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        return {**answered, "resource": dict(answered["resource"])}

    original = AsyncWebhookAdapter.request
    AsyncWebhookAdapter.request = sent  # type: ignore[method-assign]
    try:
        with lean_callbacks():
            adapter = async_context.get()
            assert isinstance(adapter, LeanCallbacks)
            data = await adapter.request(route)
        other = discord.http.Route(
            "POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1, webhook_token="t"
        )
        follow_up = await LeanCallbacks().request(other)  # type: ignore[no-untyped-call]
        assert "message" in follow_up["resource"]  # only answers lose it
    finally:
        AsyncWebhookAdapter.request = original  # type: ignore[method-assign]
    assert not isinstance(async_context.get(), LeanCallbacks)  # left as it was
    assert data["resource"] == {"type": 4}
    parent = SimpleNamespace(channel=None)
    read = InteractionCallbackResponse(
        data=data,
        parent=parent,  # type: ignore[arg-type]
        state=None,  # type: ignore[arg-type]
        type=discord.InteractionResponseType.channel_message,
    )
    assert read.message_id == 55 and read.resource is None
