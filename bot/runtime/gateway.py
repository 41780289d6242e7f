"""What comes from Discord's gateway is input: a payload that does not parse is dropped.

discord.py parses each gateway event in its websocket's reader; an exception there (an
interaction without the ``custom_id`` Discord always sends, say) leaves the reader and
ends the bot's connection loop, and with it the process. Each parser is wrapped so that a
malformed event costs one line in the log, and the next event is read as usual.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping
from typing import Any

log = logging.getLogger(__name__)

Parser = Callable[[Any], None]


def guard_parsers(parsers: MutableMapping[str, Parser]) -> None:
    """Wrap every parser of ``parsers`` (event name -> parser) in place, once."""
    for event, parse in list(parsers.items()):
        if not getattr(parse, "guarded", False):
            parsers[event] = _guarded(event, parse)


def _guarded(event: str, parse: Parser) -> Parser:
    def guarded(data: Any) -> None:
        try:
            parse(data)
        except Exception as exc:
            # Only the kind of error: its text may quote the payload, a private reply's too.
            log.warning("dropped a malformed %s event from the gateway (%s)", event, _kind(exc))

    guarded.guarded = True  # type: ignore[attr-defined]
    return guarded


def _kind(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"KeyError: no {exc.args[0]!r}" if exc.args else "KeyError"
    return type(exc).__name__
