"""Everything a computer player knows when it decides, built in one place (README,
Playing against the computer: "No cheating, by construction").

The bot (bot/game/computers.py) and the arena both call :func:`inputs`; no other way gives a
computer knowledge. A computer knows:

- its own seat's view of the game (``Game.view``): its own dice only if it saw them, the
  standing claim and how it was made, the moves it may make, this game's public ledger;
- what this server's stored statistics say of the others at the table (:class:`Record`).
  Those statistics are public facts only: a claim counts when it is made, a bluff only
  when a lifted cup shows it or when the game is over (README, Leaderboard and stats).
  The reveals of the game being played are in them too, which is how a computer adapts
  within a game as well as across games.

Nothing here reads the dice under a cup the seat has not seen, directly or through a
counter: the no-cheating tests swap those dice and check the decision never changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.ai.bank import banked
from bot.ai.opponents import Profile
from bot.ai.recent import RecentPlay
from bot.engine import Game

#: The counters of a player's stored statistics a computer reads (README, Leaderboard and
#: stats), by the name of the :class:`Record` field they fill.
TOTALS_READ: dict[str, str] = {
    "bluffs": "bluffs_made",
    "calls": "calls_made",
    "calls_right": "calls_right",
}


@dataclass(frozen=True, slots=True)
class Record:
    """What this server's public statistics say of one player, all time."""

    #: Claims made (each is public when made).
    claims: int = 0
    #: Claims above the dice under the cup, counted when the cup was lifted or the game
    #: ended, never while the cup is still down.
    bluffs: int = 0
    #: Claims called bullshit, and of those, calls that caught a bluff.
    calls: int = 0
    calls_right: int = 0
    #: How they claim and answer, as the expert models them (:mod:`bot.ai.opponents`).
    profile: Profile = field(default_factory=Profile)
    #: Whether their recent play has left this record (:mod:`bot.ai.recent`), as far as
    #: the reader remembers: then the record does not describe how they play now.
    doubted: bool = False
    #: What she may risk against them heads-up now: her running bank as the reader's
    #: memory keeps it (:mod:`bot.ai.bank`); None without a memory.
    bank: float | None = None

    @classmethod
    def from_totals(cls, totals: Mapping[str, int], claims: int) -> Record:
        """From a player's stored counters (column -> value) and their count of claims."""
        counts = {f: int(totals.get(c, 0)) for f, c in TOTALS_READ.items()}
        # Not doubted: that is for a reader with a memory to say (:func:`stored_records`).
        return cls(claims=claims, profile=Profile.from_totals(totals), doubted=False, **counts)


@dataclass(frozen=True, slots=True)
class Inputs:
    """One decision's knowledge: the seat's view and the records of the others."""

    view: Mapping[str, Any]
    records: Mapping[str, Record]

    @property
    def seat(self) -> str:
        return str(self.view.get("viewer") or "")


def inputs(game: Game, seat: str, records: Mapping[str, Record] | None = None) -> Inputs:
    """What ``seat`` may know now: its view, and the stored records of the other players
    at the table (a seat's own record, or that of someone not at the table, is left out:
    neither is about this decision)."""
    others = set(game.players) - {seat}
    known = {p: r for p, r in (records or {}).items() if p in others}
    return Inputs(game.view(seat), known)


class Records(Protocol):
    """The one storage query a computer's knowledge needs (the bot's storage has it)."""

    async def player_records(
        self, guild_id: int, user_ids: list[int]
    ) -> dict[int, tuple[dict[str, int], int]]: ...


async def stored_records(
    storage: Records, guild_id: int, game: Game, recent: RecentPlay | None = None
) -> dict[str, Record]:
    """The records of the people at ``game``'s table (Discord ids) from this server's
    stored statistics, keyed like the game's players; none at an open-roll table, where
    every roll is public and the computers need nobody's. Computers are left out: their
    play does not depend on who they are, so there is nothing to learn of them. With
    ``recent``, each record read is noted there, and says whether it is in doubt."""
    if not game.bluffing:
        return {}
    people = [int(p) for p in game.players if p.isdigit()]
    found = await storage.player_records(guild_id, people)
    table = "mexican" if game.options.ties else "dollar"
    records = {}
    for uid, (totals, claims) in found.items():
        record = Record.from_totals(totals, claims)
        if recent is not None:
            key = (guild_id, uid)
            doubted = recent.update(key, record.profile)
            spent = recent.spend(key, banked(record.profile, table))
            record = replace(record, doubted=doubted, bank=spent)
        records[str(uid)] = record
    return records
