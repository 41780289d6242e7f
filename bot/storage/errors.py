"""Storage's errors, which the bot explains to a user or an operator, and its clock."""

from __future__ import annotations

from collections.abc import Callable, Mapping

Clock = Callable[[], float]


class StorageError(Exception):
    """Base class for storage failures the bot can explain to a user or operator."""


class SchemaTooNewError(StorageError):
    """The database was written by a newer bot; running old code on it could corrupt it."""


class ChannelBusyError(StorageError):
    """The channel already has an unfinished game (one game per channel)."""


class GameNotFoundError(StorageError):
    """No unfinished game has that id; finished games are read-only."""


class StaleGameError(StorageError):
    """The game moved on since this process read it: another process (a shard in a
    rolling restart, or an old copy still running) saved a move first. Nothing was
    written; the caller reloads the game and refuses the move."""


class CopyCountError(StorageError):
    """A copy's row counts differ from the source's; the copy was rolled back."""

    def __init__(self, counted: Mapping[str, int], expected: Mapping[str, int]) -> None:
        self.counted, self.expected = dict(counted), dict(expected)
        super().__init__(f"row counts differ: {self.counted} copied, {self.expected} expected")


class DatabaseUnavailableError(StorageError):
    """The database server can't be reached or refuses us; the message says what to fix
    and never contains the password."""


class DatabaseDownError(DatabaseUnavailableError):
    """The database stopped answering while the bot runs (connection refused or cut, a
    server shutting down, a lock held past its timeout): nothing of the call was written,
    and the same call may work again shortly (README, Running at scale)."""


class CommitUnknownError(DatabaseDownError):
    """The connection died while a transaction was being committed: the database may
    have kept the move or not. Only reading it back, once the database answers, can
    tell; the tables layer does that (bot/game/tables.py)."""
