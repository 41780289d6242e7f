"""The web companion's reads and its one write (README, Web companion): which server a
link's token opens, the finished games a server's pages list and replay, and a player's
rating history.

Storage decides nothing here: the token is made by the caller, and what of a game may be
shown is the web floor's rule (bot/web/replay.py). A game is handed out only when it is
over and belongs to the server the token opened, so a running game's log never leaves.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.driver import Driver
from bot.storage.games import game_record
from bot.storage.models import GameRecord
from bot.storage.plan import statements
from bot.storage.schema_rows import GAME_COLUMNS


@dataclass(frozen=True, slots=True)
class GameLine:
    """A finished game as a server's page lists it."""

    game_id: int
    channel_id: int
    ruleset: str
    ended_at: float
    #: Its final state: the caller reads who played and who won, nothing else.
    state_json: str = ""


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """One entry of a game's log, as stored: its kind and its JSON text, unparsed."""

    seq: int
    kind: str
    payload: str


class WebQueries:
    """The web companion's queries over one `Driver`; SQL in SQLite's style."""

    def __init__(self, db: Driver) -> None:
        self._db = db

    async def web_link(self, guild_id: int) -> str | None:
        """The server's token, or None when its pages are off."""
        row = await self._db.fetchone("SELECT token FROM web_links WHERE guild_id = ?", (guild_id,))
        return str(row[0]) if row else None

    async def web_guild(self, token: str) -> int | None:
        """The server a token opens; None for a token nobody holds (or one turned off)."""
        row = await self._db.fetchone("SELECT guild_id FROM web_links WHERE token = ?", (token,))
        return int(row[0]) if row else None

    async def open_web_link(self, guild_id: int, token: str, now: float) -> str:
        """Turn the server's pages on with ``token``, unless they are on already; the
        token in force either way (turning on twice keeps the link people have)."""
        await self._db.run(
            statements(
                [
                    (
                        "INSERT INTO web_links (guild_id, token, created_at) VALUES (?, ?, ?)"
                        " ON CONFLICT (guild_id) DO NOTHING",
                        (guild_id, token, float(now)),
                    )
                ]
            )
        )
        stored = await self.web_link(guild_id)
        assert stored is not None, "the row was just written"
        return stored

    async def close_web_link(self, guild_id: int) -> bool:
        """Turn the server's pages off: its token opens nothing from now on. Whether
        they were on."""
        counts = await self._db.run(
            statements([("DELETE FROM web_links WHERE guild_id = ?", (guild_id,))])
        )
        return counts[0] > 0

    async def web_games(self, guild_id: int, limit: int) -> list[GameLine]:
        """The server's last finished games, newest first (the partial index of games
        over by server and end)."""
        rows = await self._db.fetchall(
            "SELECT id, channel_id, ruleset, updated_at, state_json FROM games"
            " WHERE guild_id = ? AND status = 'over' ORDER BY updated_at DESC LIMIT ?",
            (guild_id, limit),
        )
        return [GameLine(int(r[0]), int(r[1]), str(r[2]), float(r[3]), str(r[4])) for r in rows]

    async def web_game(
        self, guild_id: int, game_id: int
    ) -> tuple[GameRecord, list[StoredEntry]] | None:
        """A finished game of this server and its log but the rollers' private dice; None
        for a game that is running, of another server, or not there."""
        row = await self._db.fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ? AND guild_id = ? AND status = 'over'",
            (game_id, guild_id),
        )
        if row is None:
            return None
        record = game_record(row)
        entries = await self._db.fetchall(
            # The rollers' own dice never leave the database (a replay shows none).
            "SELECT seq, kind, payload FROM game_events WHERE game_id = ? AND kind <> 'dice'"
            " ORDER BY seq",
            (game_id,),
        )
        return record, [StoredEntry(int(e[0]), str(e[1]), str(e[2])) for e in entries]

    async def recent_states(self, guild_id: int, limit: int) -> list[str]:
        """The stored states of the server's last finished games, newest first: where
        the display names players were last seen with are kept (the bot has no member
        list). The caller reads names only; these texts hold the last cups too."""
        rows = await self._db.fetchall(
            "SELECT state_json FROM games WHERE guild_id = ? AND status = 'over'"
            " ORDER BY updated_at DESC LIMIT ?",
            (guild_id, limit),
        )
        return [str(r[0]) for r in rows]

    async def rating_history(
        self, guild_id: int, family: str, user_id: int, limit: int
    ) -> list[tuple[float, int]]:
        """(ended at, shown rating after it) of the player's last ``limit`` rated games of
        one family, oldest first: one index range of `rating_history`."""
        rows = await self._db.fetchall(
            "SELECT ended_at, shown FROM rating_history WHERE guild_id = ? AND family = ?"
            " AND user_id = ? ORDER BY ended_at DESC, game_id DESC LIMIT ?",
            (guild_id, family, int(user_id), limit),
        )
        return [(float(r[0]), int(r[1])) for r in reversed(rows)]
