"""What comes from Discord's gateway is input: a payload that does not parse is dropped.

discord.py parses each gateway event in its websocket's reader; an exception there (an
interaction without the ``custom_id`` Discord always sends, say) leaves the reader and
ends the bot's connection loop, and with it the process. Each parser is wrapped so that a
malformed event costs one line in the log, and the next event is read as usual.

An interaction is checked before it is parsed too: discord.py reads a command's name and
options, or a click's custom id, later, in a task of its own, where a value of the wrong
shape would end that task with a traceback and leave the interaction unanswered. What it
reads without looking is listed here (`DATA`, `OPTION`), as Discord's API documents it.

A click's message is cut down to the component clicked before discord.py parses it: it
builds a button or menu object for every component of the clicked message, and a view
from them, where the bot reads only the message's id, flags, whether it has components
and the one clicked (a quarter of discord.py's share of a move: docs/benchmarks.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping
from typing import Any

from bot.present.ids import kind_of

log = logging.getLogger(__name__)

Parser = Callable[[Any], None]
Shape = type | tuple[type, ...]

#: What an interaction's ``data`` must hold, by interaction type (2 command, 3 click,
#: 4 autocomplete, 5 modal): key -> the types its value may have.
DATA: dict[int, dict[str, Shape]] = {
    2: {"name": str, "id": (str, int)},
    3: {"custom_id": str, "component_type": int},
    4: {"name": str, "id": (str, int)},
    5: {"custom_id": str, "components": list},
}
#: Keys of ``data`` that may be absent, and their types when present.
DATA_MAY: dict[str, Shape] = {"options": list, "resolved": dict, "type": int, "values": list}
#: What each command option must hold.
OPTION: dict[str, Shape] = {"name": str, "type": int}
#: The value of an option, or of a menu's choice.
VALUE: Shape = (str, int, float, bool)


def guard_parsers(parsers: MutableMapping[str, Parser]) -> None:
    """Wrap every parser of ``parsers`` (event name -> parser) in place, once."""
    for event, parse in list(parsers.items()):
        if not isinstance(parse, Guarded):
            parsers[event] = Guarded(event, parse)


class Guarded:
    """A parser whose failure drops the event, with one line in the log."""

    def __init__(self, event: str, parse: Parser) -> None:
        self.event, self.parse = event, parse

    def __call__(self, data: Any) -> None:
        problem = None
        if self.event == "INTERACTION_CREATE":
            problem = malformed_interaction(data)
            if problem is None:
                keep_clicked(data)
        if problem is None:
            try:
                self.parse(data)
                return
            except Exception as exc:
                # Only the kind of error: its text may quote the payload, a private reply's.
                problem = _kind(exc)
        found = data.get("id") if isinstance(data, dict) else None
        which = f" {found}" if isinstance(found, str) and found.isdigit() else ""
        log.warning(
            "dropped a malformed %s event%s from the gateway (%s)", self.event, which, problem
        )


def _kind(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"KeyError: no {exc.args[0]!r}" if exc.args else "KeyError"
    return type(exc).__name__


def malformed_interaction(payload: Any) -> str | None:
    """What is wrong with an interaction's payload, in a few words; None if nothing is."""
    if not isinstance(payload, dict):
        return "not an object"
    kind = payload.get("type")
    if not isinstance(kind, int):
        return "no type"
    member = payload.get("member")
    user = member.get("user") if isinstance(member, dict) else payload.get("user")
    if not isinstance(user, dict) or not isinstance(user.get("id"), str | int):
        return "no user"
    needs = DATA.get(kind)
    if needs is None:  # a ping, or a type this bot was never sent: nothing to answer
        return "an interaction type the bot does not take"
    data = payload.get("data")
    if not isinstance(data, dict):
        return "no data"
    return _wrong(data, needs, DATA_MAY, "data") or _wrong_options(data.get("options", []))


def keep_clicked(payload: dict[str, Any]) -> None:
    """A click's message keeps only the action row of the component clicked, with that
    component alone. A message where it is not found (one laid out otherwise), or that
    also carries ids of another kind, is left as it is: the click's check reads every
    component's kind there (docs/playing.md, Refusals)."""
    message = payload.get("message")
    if payload.get("type") != 3 or not isinstance(message, dict):
        return
    custom_id = payload["data"]["custom_id"]
    rows = message.get("components")
    if not isinstance(rows, list):
        return
    kind = kind_of(custom_id) if isinstance(custom_id, str) else None
    clicked: dict[str, Any] | None = None
    for row in rows:
        children = row.get("components") if isinstance(row, dict) else None
        if not isinstance(children, list):
            continue
        for child in children:
            if not isinstance(child, dict):
                continue
            other = child.get("custom_id")
            if isinstance(other, str) and kind_of(other) != kind:
                return  # ids of two kinds: the check needs them all
            if clicked is None and other == custom_id:
                clicked = {**row, "components": [child]}
    if clicked is not None:
        message["components"] = [clicked]


def _wrong(
    found: dict[str, Any], needs: dict[str, Shape], may: dict[str, Shape], where: str
) -> str | None:
    for key, shape in needs.items():
        if not isinstance(found.get(key), shape):
            return f"{where}.{key} missing or of the wrong type"
    for key, shape in may.items():
        if key in found and not isinstance(found[key], shape):
            return f"{where}.{key} of the wrong type"
    values = found.get("values", [])
    if not all(isinstance(value, VALUE) for value in values):
        return f"{where}.values of the wrong type"
    return None


def _wrong_options(options: list[Any]) -> str | None:
    for option in options:
        if not isinstance(option, dict):
            return "an option that is no object"
        problem = _wrong(option, OPTION, {"options": list}, "option")
        if problem is None and "value" in option and not isinstance(option["value"], VALUE):
            problem = "option.value of the wrong type"
        problem = problem or _wrong_options(option.get("options", []))
        if problem is not None:
            return problem
    return None
