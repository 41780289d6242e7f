"""What players were told against what the database stored: every move sent, the bot's
event log read directly, and the comparison of the two.

The driver records every move the bot answered and accepted (it must be stored), every
move it never answered (it may be stored: the bot may have died after its commit) and
every move it refused (a refusal changes nothing). ``check_stored`` says whether the
stored ``move`` rows of ``game_events`` are exactly the accepted moves, in order, plus
some unanswered ones; ``tally`` counts what is wrong instead (lost, doubled, refused yet
stored). ``move_from_db`` makes the next move from the stored game when the driver has no
fresh message to read. The database is read directly (sqlite3, asyncpg), not through
``bot.storage``, whose own reading is part of what is under test.

Used by ``tests/test_crash_kill9.py`` and ``benchmarks.cluster_bench``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .driver import Table, accepted, engine_move, slash_for
from .standin import Interaction, StandIn, parse_custom_id

#: Slash command -> the move it stores (``claim`` may store ``pass``: the cog decides).
SLASH_MOVES = {"newgame": "newgame", "join": "join", "start": "start", "endgame": "end"}

#: (player, the acts it may be stored as, value or target): how a sent move is stored.
Sent = tuple[str, set[str], str | None]


@dataclass
class Ledger:
    """Every move sent per channel, in the order sent: answered and accepted (it must be
    stored) or never answered (it may be stored: the bot may have died after its commit).
    Refused moves are left out: a refusal changes nothing."""

    sent: dict[int, list[tuple[bool, Sent]]] = field(default_factory=dict)
    answered: int = 0
    accepted: int = 0
    refused: int = 0
    lost: int = 0  # dispatched, never answered (the bot died first)
    #: Refused moves per channel, each with how many moves had been sent there before it
    #: (``tally`` counts refused moves that were stored all the same).
    told_refused: dict[int, list[tuple[int, Sent]]] = field(default_factory=dict)

    def record(self, inter: Interaction) -> None:
        if inter.answered is None:
            self.lost += 1
            self.sent.setdefault(inter.channel_id, []).append((False, stored_as(inter)))
            return
        self.answered += 1
        if not accepted(inter):
            self.refused += 1
            before = len(self.sent.get(inter.channel_id, ()))
            self.told_refused.setdefault(inter.channel_id, []).append((before, stored_as(inter)))
            return
        self.accepted += 1
        self.sent.setdefault(inter.channel_id, []).append((True, stored_as(inter)))


def stored_as(inter: Interaction) -> Sent:
    """(player, the acts it may be stored as, value or target) of an interaction; the
    event log keeps each move in its one text form, ``Move.encode()`` (README, The engine)."""
    data = inter.payload["data"]
    player = str(inter.user_id)
    if inter.payload["type"] == 3:
        parsed = parse_custom_id(data["custom_id"])
        assert parsed is not None, data["custom_id"]
        values = data.get("values")
        if values:
            act, _, arg = values[0].partition(".")
            return player, {act}, arg or None
        act, _, arg = data["custom_id"].rsplit(":", 1)[1].partition(".")
        return player, {act}, arg or None
    name = data["name"]
    options = {o["name"]: o["value"] for o in data.get("options", [])}
    if name == "roll":
        if "keep" in options:
            return player, {"keep"}, str(options["keep"])
        return player, {"blind" if options.get("blind") else "roll"}, None
    if name == "claim":
        value = str(options["value"])
        return player, {"claim", "pass"}, "".join(sorted(value, reverse=True))
    if name in ("handout", "knight"):
        return player, {name}, str(options["player"])
    return player, {SLASH_MOVES.get(name, name)}, None


class StoredGames:
    """Reads the bot's database directly, the same queries on either backend: sqlite3 on
    the file, or asyncpg on ``DATABASE_URL`` (``?`` placeholders become ``$n`` there).
    Before the bot's first start has made the schema there is nothing to read."""

    def __init__(self, path: Path, url: str | None, pool_size: int = 4) -> None:
        self.path, self.url, self.pool_size = path, url, pool_size
        self._pg: Any = None  # asyncpg.Pool (the tables read at once), opened on first use
        self._opening: asyncio.Lock | None = None

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        if self.url is None:
            if not self.path.exists():
                return []
            with contextlib.closing(sqlite3.connect(self.path, timeout=5)) as conn:
                return conn.execute(sql, args).fetchall()
        import asyncpg

        if self._pg is None:
            # Readers at many tables may ask at once: one pool, not one each (left open).
            self._opening = self._opening or asyncio.Lock()
            async with self._opening:
                if self._pg is None:
                    self._pg = await asyncpg.create_pool(
                        self.url, min_size=1, max_size=self.pool_size
                    )
        numbers = iter(range(1, len(args) + 1))
        sql = re.sub(r"\?", lambda _: f"${next(numbers)}", sql)
        try:
            return [tuple(r) for r in await self._pg.fetch(sql, *args)]
        except asyncpg.UndefinedTableError:
            return []

    def reset(self) -> None:
        """Drop the pool without a word to the server (it went away); the next read opens
        a new one."""
        if self._pg is not None:
            self._pg.terminate()
            self._pg = None

    async def close(self) -> None:
        if self._pg is not None:
            await self._pg.close()
            self._pg = None

    async def open_game(self, channel_id: int) -> tuple[str, dict[str, Any]] | None:
        rows = await self.fetch(
            "SELECT status, state_json FROM games WHERE channel_id = ? AND status != 'over'",
            channel_id,
        )
        return None if not rows else (rows[0][0], _json(rows[0][1]))

    async def moves(self) -> dict[int, list[dict[str, Any]]]:
        """Every stored ``move`` event per channel, game by game, in order."""
        rows = await self.fetch(
            "SELECT g.channel_id, e.payload FROM game_events e JOIN games g ON g.id = e.game_id"
            " WHERE e.kind = 'move' ORDER BY g.id, e.seq"
        )
        out: dict[int, list[dict[str, Any]]] = {}
        for channel_id, payload in rows:
            out.setdefault(int(channel_id), []).append(_json(payload))
        return out

    async def open_games(self) -> int:
        rows = await self.fetch("SELECT COUNT(*) FROM games WHERE status != 'over'")
        return int(rows[0][0])


def _json(value: Any) -> Any:
    """A JSON column: text on SQLite, text or already decoded on PostgreSQL."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def is_stored_as(move: Sent, row: dict[str, Any]) -> bool:
    player, acts, value = move
    act, _, arg = str(row.get("move")).partition(".")
    return row.get("player") == player and act in acts and (value is None or arg == value)


def check_stored(sent: list[tuple[bool, Sent]], stored: list[dict[str, Any]]) -> str | None:
    """None if ``stored`` is exactly the moves ``sent``, in order, less some of the
    unanswered ones; otherwise what is wrong. So every answered move is stored, and no
    move is stored twice or without having been sent.

    Which unanswered moves were stored is not known (the bot may die before or after its
    commit, and a player may send the same move again after the restart), so this follows
    every way of matching at once: ``states`` holds each position in ``sent`` that the
    stored rows so far can have reached."""
    states = {0}
    for n, row in enumerate(stored):
        reached = set()
        for j in states:
            for k in range(j, len(sent)):
                must, move = sent[k]
                if is_stored_as(move, row):
                    reached.add(k + 1)
                if must:
                    break  # an answered move cannot be skipped
        if not reached:
            return f"stored move #{n} {row} was never sent (or is stored twice)"
        states = reached
    for j in sorted(states):
        if all(not must for must, _ in sent[j:]):
            return None
    j = min(states)
    k = next(k for k in range(j, len(sent)) if sent[k][0])
    return f"answered move {sent[k][1]} (#{k} sent) is not in the database"


#: Acts only the bot makes (the turn timer's ``timeout``): stored without being sent.
BOT_MOVES = frozenset({"timeout"})
#: How many accepted moves ``tally`` may take as lost in a row to match one stored row.
MAX_SKIP = 8
#: Alignments ``tally`` follows at once.
BEAM = 64


@dataclass(frozen=True, slots=True)
class Tally:
    """What is wrong between the moves players were told about and the stored log."""

    acknowledged: int  # accepted moves (each must be stored once)
    stored: int  # stored move rows the players made (bot-only timeouts left out)
    lost: int  # accepted, yet not stored
    doubled: int  # stored rows with no sent move left to match: stored twice (or never sent)
    stored_refused: int  # stored, although the player was told the move was refused
    timeouts: int  # stored timeouts (the turn timer's moves, not the players')


def tally(
    sent: list[tuple[bool, Sent]], refused: list[tuple[int, Sent]], stored: list[dict[str, Any]]
) -> Tally:
    """Count what ``check_stored`` only finds: the cheapest way to explain ``stored`` by
    the moves sent, where an accepted move left unmatched costs one (lost), a stored row
    matching nothing costs one (doubled), a stored row matching a refused move costs a
    little less (so a refused move that was stored anyway is counted as that), and
    unanswered moves are free either way. Refused moves sit where they were sent.

    It follows the ``BEAM`` cheapest alignments at once, each stored row matched at most
    ``MAX_SKIP`` accepted moves ahead: a cheap stand-in for a full alignment, exact while
    mistakes are rare (which is what a soak run looks for)."""
    entries: list[tuple[str, Sent]] = []
    ahead = sorted(refused, key=lambda r: r[0])
    i = 0
    for n, (must, move) in enumerate(sent):
        while i < len(ahead) and ahead[i][0] <= n:
            entries.append(("refused", ahead[i][1]))
            i += 1
        entries.append(("acked" if must else "unanswered", move))
    entries += [("refused", move) for _, move in ahead[i:]]
    rows = [r for r in stored if str(r.get("move")).partition(".")[0] not in BOT_MOVES]
    # position -> (cost, lost, doubled, stored_refused)
    states: dict[int, tuple[float, int, int, int]] = {0: (0.0, 0, 0, 0)}

    def relax(
        into: dict[int, tuple[float, int, int, int]], at: int, value: tuple[float, int, int, int]
    ) -> None:
        if at not in into or value[0] < into[at][0]:
            into[at] = value

    for row in rows:
        reached: dict[int, tuple[float, int, int, int]] = {}
        for at, (cost, lost, doubled, bad) in states.items():
            relax(reached, at, (cost + 1, lost, doubled + 1, bad))
            skipped = 0
            for k in range(at, len(entries)):
                status, move = entries[k]
                if is_stored_as(move, row):
                    refused_one = status == "refused"
                    relax(
                        reached,
                        k + 1,
                        (
                            cost + skipped + 0.9 * refused_one,
                            lost + skipped,
                            doubled,
                            bad + refused_one,
                        ),
                    )
                if status == "acked":
                    skipped += 1
                    if skipped > MAX_SKIP:
                        break
        best = sorted(reached.items(), key=lambda kv: kv[1][0])[:BEAM]
        states = dict(best)
    finals = []
    for at, (cost, lost, doubled, bad) in states.items():
        left = sum(status == "acked" for status, _ in entries[at:])
        finals.append((cost + left, lost + left, doubled, bad))
    _, lost, doubled, bad = min(finals)
    return Tally(
        acknowledged=sum(must for must, _ in sent),
        stored=len(rows),
        lost=lost,
        doubled=doubled,
        stored_refused=bad,
        timeouts=len(stored) - len(rows),
    )


async def move_from_db(
    stored: StoredGames, standin: StandIn, table: Table, rng: random.Random
) -> Interaction | None:
    """After a restart (or a refusal) the driver has no fresh message to read; the
    database says where the game stands, and a slash command makes the next move: the
    lobby's next step, a random legal move, or /newgame when no game is open."""
    from bot.engine import Game

    found = await stored.open_game(table.channel_id)
    cid, host = table.channel_id, table.players[0]
    if found is None:
        return standin.slash(cid, host, "newgame", {"ruleset": table.preset, **table.options})
    status, data = found
    game = Game.from_dict(data["engine"])
    if status == "lobby":
        missing = [p for p in table.players if str(p) not in game.seats]
        if missing:
            return standin.slash(cid, missing[0], "join")
        return standin.slash(cid, int(game.host), "start")
    move = engine_move(game, rng)
    return None if move is None else slash_for(standin, cid, *move)
