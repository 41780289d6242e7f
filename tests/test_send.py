"""The replies' JSON is built by bot/adapter/send.py itself, not by discord.py's item objects
(README, Benchmarks): it must be exactly what discord.py would send for the same reply, and
discord.py must send it. Both would break silently if discord.py changed how it turns a
view into JSON; these tests make that loud. The garbage collector's set-up is here too."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from hypothesis import given
from hypothesis import strategies as st

from bot.adapter import send
from bot.present.message import Button, Embed, Menu, Reply
from bot.runtime import collector

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=20)
ids = st.from_regex(r"mx:[0-9]{1,4}:[0-9]{1,3}:[a-z]{2,8}", fullmatch=True)
button_rows = st.lists(
    st.builds(Button, texts, ids, st.sampled_from(sorted(send.STYLES)), st.just(0)),
    max_size=5,
)
menus = st.lists(
    st.builds(
        Menu, ids, texts, st.lists(st.tuples(texts, ids), min_size=1, max_size=25).map(tuple)
    ),
    max_size=3,
)


@st.composite
def component_sets(draw: st.DrawFn) -> tuple[Button | Menu, ...]:
    first = draw(button_rows)
    second = [Button(b.label, b.custom_id, b.style, 1) for b in draw(button_rows)]
    items: list[Button | Menu] = [*first, *second, *draw(menus)]
    return tuple(draw(st.permutations(items)))


def discord_ui_view(components: tuple[Button | Menu, ...]) -> discord.ui.View:
    """The same components as discord.py's own items (how send.py built them before)."""
    view = discord.ui.View(timeout=None)
    styles = {name: discord.ButtonStyle(value) for name, value in send.STYLES.items()}
    menu_row = send.MENU_ROW
    for item in components:
        if isinstance(item, Button):
            view.add_item(
                discord.ui.Button(
                    label=item.label,
                    custom_id=item.custom_id,
                    style=styles[item.style],
                    row=item.row,
                )
            )
        else:
            options = [
                discord.SelectOption(label=label, value=value) for label, value in item.options
            ]
            select = discord.ui.Select(
                custom_id=item.custom_id, options=options, placeholder=item.placeholder
            )
            select.row = menu_row
            view.add_item(select)
            menu_row += 1
    return view


def sent_payload(**kwargs: Any) -> dict[str, Any]:
    payload = handle_message_parameters(**kwargs).payload
    assert payload is not None
    return payload


@pytest.mark.slow
async def test_rows_are_what_discord_py_builds_and_sends() -> None:
    @given(component_sets())
    def check(components: tuple[Button | Menu, ...]) -> None:
        ours = send.component_rows(components)
        assert ours == discord_ui_view(components).to_components()
        # discord.py sends what the view hands it, for a message and for an edit.
        assert sent_payload(view=send.view_of(components))["components"] == ours

    check()


async def test_edit_payload_equals_discord_py_edit() -> None:
    reply = Reply(
        content="**Ann** claims 54. <@123>, accept or call?",
        embed=Embed(title="Round 2", description="Lives", fields=(("Ann", "3"),), footer="f"),
        components=(
            Button("Accept", "mx:1:5:accept", "primary"),
            Menu("mx:1:5:c", "Claim", (("54", "c54"),)),
        ),
        ping=("123",),
    )
    expected = sent_payload(**send.edit_kwargs(reply))
    assert send.edit_payload(reply) == expected
    assert expected["allowed_mentions"] == {"parse": [], "users": [123]}
    empty = Reply(content="Game over.")
    assert send.edit_payload(empty) == sent_payload(**send.edit_kwargs(empty))
    assert send.edit_payload(empty)["components"] == []
    keep = (Button("Check the cup", "mx:1:9:check"),)
    # An edit of the components alone: tts means nothing there, so it is not sent.
    expected = sent_payload(view=discord_ui_view(keep))
    assert expected.pop("tts") is False
    assert send.components_payload(keep) == expected
    assert send.components_payload(()) == {"components": []}


def test_collector_tuned_and_start_up_heap_frozen_once() -> None:
    before = gc.get_threshold()
    try:
        # A bot run inside a test's process (without tune) never freezes its heap.
        assert collector.freeze_startup_heap() is False
        assert gc.get_freeze_count() == 0
        collector.tune()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert collector.THRESHOLDS[0] > before[0]
        assert collector.freeze_startup_heap() is True
        frozen = gc.get_freeze_count()
        assert frozen > 0
        # A second READY (a reconnect) must not freeze the running games with it.
        assert collector.freeze_startup_heap() is False
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
        collector._tuned = False


def test_benchmarks_run_the_bots_parts_on_its_loop_and_collector_settings() -> None:
    """A benchmark that times the bot's parts in its own process (README, Benchmarks)
    runs them as `python -m bot` does: the same event loop class, the same collector."""
    from benchmarks import running
    from bot.__main__ import loop_factory

    async def seen() -> tuple[type, tuple[int, ...]]:
        return type(asyncio.get_running_loop()), gc.get_threshold()

    before = gc.get_threshold()
    factory = loop_factory()
    try:
        loop_class, thresholds = running.run(seen())
    finally:
        gc.set_threshold(*before)
        collector._tuned = False
    expected = asyncio.new_event_loop() if factory is None else factory()
    try:
        assert loop_class is type(expected)
    finally:
        expected.close()
    assert thresholds == collector.THRESHOLDS != before
