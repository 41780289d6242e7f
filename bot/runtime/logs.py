"""Logging set-up with a last line of defence against leaking the token or the database
password, and none of discord.py's message payloads (which carry players' private dice)
in the log."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from bot.runtime.settings import Settings, log_level_number

REDACTED = "[REDACTED]"
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """Scrubs secrets from the finished line, tracebacks included.

    Nothing in the bot logs the token on purpose; this catches the accidental case, such
    as a library echoing a request or an exception message quoting its input.
    """

    def __init__(self, secrets: tuple[str, ...], fmt: str = LOG_FORMAT) -> None:
        super().__init__(fmt)
        self._secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text


PAYLOAD_HIDDEN = "<payload not logged>"


class PayloadFilter(logging.Filter):
    """Hides the bodies discord.py logs at DEBUG: every gateway event (a click on a
    private "Your dice" message arrives with that message) and every REST request and
    answer (a private reply is sent as one). The line stays, with its method, route and
    status, so DEBUG still shows what happened, never what a player alone may see."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno <= logging.DEBUG and record.name.startswith("discord"):
            args = record.args
            if isinstance(args, tuple):
                record.args = tuple(_hide(arg) for arg in args)
            elif isinstance(args, dict):
                record.args = {key: _hide(value) for key, value in args.items()}
        return True


def _hide(arg: object) -> object:
    if isinstance(arg, dict | list | bytes) or (isinstance(arg, str) and "{" in arg):
        return PAYLOAD_HIDDEN
    return arg


class ReconnectFilter(logging.Filter):
    """discord.py logs each failed attempt to reach the gateway again with its full
    traceback; while Discord is unreachable that is a traceback every few seconds. The
    line stays, with what failed in one line, and no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "discord.client" and record.exc_info and record.exc_info[1]:
            failed = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(failed).__name__}: {failed})"
            record.args, record.exc_info, record.exc_text = None, None, None
        return True


def setup_logging(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """Log to stderr at LOG_LEVEL; returns the handler so callers (and tests) can remove it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    # The token and any password in DATABASE_URL.
    handler.setFormatter(RedactingFormatter(settings.secrets()))
    handler.addFilter(PayloadFilter())
    handler.addFilter(ReconnectFilter())
    root = logging.getLogger()
    root.setLevel(log_level_number(settings))
    root.addHandler(handler)
    # aiosqlite logs every statement at DEBUG, drowning what LOG_LEVEL=DEBUG is for.
    logging.getLogger("aiosqlite").setLevel(max(root.level, logging.INFO))
    return handler
