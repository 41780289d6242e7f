"""Achievements: what a finished game's event log says a person did that is worth a badge
(README, Ratings, seasons and achievements).

Pure: computed once per finished game, from the stored log and the final state, when
every cup has been lifted or taken away for good, so nothing here can depend on dice
still hidden. Storage keeps who holds what and each person's running counts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Game


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as storage holds it: what ratings and achievements are read from,
    the same at a game's end and in the backfill of older games."""

    game_id: int
    guild_id: int
    channel_id: int
    ruleset: str
    ended_at: float
    #: The final state (``Game.from_dict`` of the stored state's ``engine`` part).
    game: Game
    #: The stored event log in order: ``(kind, payload)`` as `TableService` wrote it
    #: ("move" entries, engine events as ``Event.to_dict()``, "cup_opened", ...).
    log: Sequence[tuple[str, Mapping[str, Any]]]


@dataclass(frozen=True, slots=True)
class Achievement:
    """One badge; its name and explanation are the catalogs' ``achievement-<key>`` and
    ``achievement-<key>-how``."""

    key: str
    emoji: str = "🏅"


#: Every achievement, in the order `/achievements` lists them.
ACHIEVEMENTS: dict[str, Achievement] = {}

Progress = Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Awards:
    """What one finished game adds: per person, counts to add to their running progress
    (e.g. games played, wins per rule set), and the achievements they earn now."""

    progress: dict[int, dict[str, int]] = field(default_factory=dict)
    #: (user id, achievement key), each at most once per person, never one already held.
    earned: list[tuple[int, str]] = field(default_factory=list)


def award(
    finished: Finished, progress: Mapping[int, Progress], held: Mapping[int, frozenset[str]]
) -> Awards:
    """The achievements a finished game earns its people (computers earn none), given
    each person's progress and achievements before it."""
    return Awards()
