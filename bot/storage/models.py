"""Plain records handed out by `Storage`; no Discord types, no engine types."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.storage.migrations import TOTALS_COLUMNS

GameStatus = Literal["lobby", "running", "over"]
GAME_STATUSES: tuple[GameStatus, ...] = ("lobby", "running", "over")
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "running")


class StateJson(str):
    """A game state its maker serialised with orjson (the table service's): JSON by
    construction, so storage does not parse it again to check it (one parse of a state
    per move saved; docs/benchmarks.md)."""

    __slots__ = ()


Event = tuple[str, Mapping[str, Any]]
"""One engine event to log: `(kind, JSON-serialisable payload)`."""

PlayerKey = tuple[int, int]
"""`(guild_id, user_id)`: totals are per guild, so a player's bar tab stays in its bar."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    ruleset: str
    status: GameStatus
    state_json: str
    created_at: float
    updated_at: float
    #: How many moves have been saved; a move is written only on the number it read.
    move_no: int = 0


@dataclass(frozen=True, slots=True)
class EventRecord:
    game_id: int
    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    guild_id: int
    user_id: int
    sips: int = 0
    shots: int = 0
    chugs: int = 0
    points: int = 0
    lives_lost: int = 0
    rounds_lost: int = 0
    games_played: int = 0
    games_won: int = 0
    bluffs_made: int = 0
    bluffs_caught: int = 0
    calls_made: int = 0
    calls_right: int = 0
    mex_rolled: int = 0
    rolls_made: int = 0
    sips_caused: int = 0
    shots_caused: int = 0
    chugs_caused: int = 0
    points_caused: int = 0
    lives_caused: int = 0

    def as_dict(self) -> dict[str, int]:
        """The counters alone, keyed by column name (handy for rendering and tests)."""
        return {column: getattr(self, column) for column in TOTALS_COLUMNS}


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One finished round, for /history: who lost, why, and what everyone paid."""

    round_no: int
    ruleset: str
    loser_id: int | None
    reason: str
    summary: Mapping[str, Any]
    ended_at: float = 0.0
    game_id: int = 0
    channel_id: int = 0


@dataclass(frozen=True, slots=True)
class MoveStats:
    """What one move adds to the statistics besides the counters."""

    claims: tuple[tuple[int, str], ...] = ()  # (user_id, claim code)
    catches: tuple[tuple[int, int], ...] = ()  # (catcher_id, caught_id)
    rounds: tuple[RoundRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    user_id: int
    value: float
    games_played: int
