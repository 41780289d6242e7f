"""Whether the database answers: one log line when it stops, one when it is back.

A database outage is not a bug in any one move: every move, timer and command of the
process meets it at once. Each backend turns its connection-level failures into
`DatabaseDownError` and reports them here, and reports every answered call too, so the
log says "down" once and "back" once per outage instead of a traceback per move
(README, Running at scale: While the database is down).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger("bot.storage")


class Health:
    """The up/down state of one storage's database, as its last call found it."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        #: How the log names the database (never with a password).
        self.what = what
        self._clock = clock
        self.down_since: float | None = None

    @property
    def up(self) -> bool:
        return self.down_since is None

    def failed(self, reason: BaseException | str) -> None:
        """A call could not reach the database; logged only if it was up until now."""
        if self.down_since is None:
            self.down_since = self._clock()
            log.warning(
                "database %s can't be reached (%s); moves and commands are "
                "refused until it is back",
                self.what,
                _reason(reason),
            )

    def answered(self) -> None:
        """A call reached the database; logged only if it was down until now."""
        if self.down_since is not None:
            gone = self._clock() - self.down_since
            self.down_since = None
            log.info("database %s is back after %.1f s", self.what, gone)


def _reason(reason: BaseException | str) -> str:
    if isinstance(reason, str):
        return reason
    text = str(reason).strip()
    return f"{type(reason).__name__}: {text}" if text else type(reason).__name__
