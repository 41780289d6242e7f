"""Gateway payloads are input (bot/runtime/gateway.py): any JSON as an interaction is read
or dropped with one line, never raised out of the gateway's reader. Against the running
process: tests/test_gateway_wire.py."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.runtime.gateway import Guarded, guard_parsers, malformed_interaction

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
USER = {"id": "5", "username": "p", "discriminator": "0", "avatar": None}


def click(**data: Any) -> dict[str, Any]:
    return {"id": "9", "type": 3, "token": "t", "user": USER, "data": data}


@settings(max_examples=300, deadline=None)
@given(payload=JSON | st.dictionaries(st.sampled_from(["type", "data", "user", "member"]), JSON))
def test_any_json_is_read_or_named_as_malformed(payload: Any) -> None:
    found = malformed_interaction(payload)
    assert found is None or isinstance(found, str)


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        (click(component_type=2), "data.custom_id missing or of the wrong type"),
        (click(custom_id=["x"], component_type=2), "data.custom_id missing or of the wrong type"),
        (click(custom_id="x", component_type=3, values=[{}]), "data.values of the wrong type"),
        ({**click(custom_id="x", component_type=2), "user": None}, "no user"),
        ({**click(custom_id="x", component_type=2), "type": 1}, "does not take"),
        ({"type": 2, "user": USER, "data": {"name": "roll", "id": "1", "options": [3]}}, "option"),
        ([], "not an object"),
    ],
)
def test_what_discord_py_would_choke_on_is_named(payload: Any, problem: str) -> None:
    found = malformed_interaction(payload)
    assert found is not None and problem in found


def test_a_well_formed_click_and_command_pass() -> None:
    assert malformed_interaction(click(custom_id="mx:1:2:roll", component_type=2)) is None
    command = {"name": "claim", "id": "1", "options": [{"name": "value", "type": 3, "value": "65"}]}
    assert malformed_interaction({"type": 2, "member": {"user": USER}, "data": command}) is None


def test_a_click_without_custom_id_is_dropped_with_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The payload that once ended the process: discord.py's own parser raises on it."""
    client = discord.Client(intents=discord.Intents(guilds=True))
    parsers = client._connection.parsers
    bare = parsers["INTERACTION_CREATE"]
    with pytest.raises(KeyError):
        bare(click(component_type=2))
    guard_parsers(parsers)
    guard_parsers(parsers)  # once only
    assert isinstance(parsers["INTERACTION_CREATE"], Guarded)
    assert not isinstance(parsers["INTERACTION_CREATE"].parse, Guarded)
    caplog.set_level(logging.WARNING, logger="bot.runtime.gateway")
    parsers["INTERACTION_CREATE"](click(component_type=2))
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.runtime.gateway"]
    assert lines == [
        "dropped a malformed INTERACTION_CREATE event 9 from the gateway "
        "(data.custom_id missing or of the wrong type)"
    ]


def test_a_parser_that_raises_drops_its_event(caplog: pytest.LogCaptureFixture) -> None:
    def broken(data: Any) -> None:
        raise KeyError("guild_id")

    caplog.set_level(logging.WARNING, logger="bot.runtime.gateway")
    Guarded("GUILD_CREATE", broken)({"id": "3"})
    assert [r.getMessage() for r in caplog.records] == [
        "dropped a malformed GUILD_CREATE event 3 from the gateway (KeyError: no 'guild_id')"
    ]
    assert not any(r.exc_info for r in caplog.records)


def row(*ids: str) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": i} for i in ids]}


def test_a_click_keeps_only_the_component_clicked() -> None:
    """What discord.py builds objects for: the clicked message's other components are
    cut before it parses them; its id and flags stay (bot/runtime/gateway.py)."""
    seen: list[Any] = []
    parse = Guarded("INTERACTION_CREATE", seen.append)
    message = {"id": "44", "flags": 64, "components": [row("a", "b"), row("c", "d")]}
    parse({**click(custom_id="d", component_type=2), "message": message})
    assert seen[0]["message"] == {"id": "44", "flags": 64, "components": [row("d")]}
    elsewhere = {"id": "45", "components": [row("a")]}
    parse({**click(custom_id="zz", component_type=2), "message": elsewhere})
    assert seen[1]["message"] == {"id": "45", "components": [row("a")]}  # not found: as sent


def test_a_message_with_ids_of_two_kinds_is_not_cut() -> None:
    """The forged-click check reads the kind of every id on the clicked message (a page id
    on a message that also shows game buttons is refused): such a message keeps them all,
    and one whose ids are all of the clicked kind is cut as usual."""
    seen: list[Any] = []
    parse = Guarded("INTERACTION_CREATE", seen.append)
    mixed = {"id": "46", "components": [row("mx:1:2:roll", "lb:wins:server:all:0")]}
    parse({**click(custom_id="lb:wins:server:all:0", component_type=2), "message": mixed})
    assert seen[0]["message"] == {
        "id": "46",
        "components": [row("mx:1:2:roll", "lb:wins:server:all:0")],
    }
    pages = {"id": "47", "components": [row("lb:wins:server:all:0", "lb:wins:server:all:2")]}
    parse({**click(custom_id="lb:wins:server:all:2", component_type=2), "message": pages})
    assert seen[1]["message"] == {"id": "47", "components": [row("lb:wins:server:all:2")]}
