"""Crash test: the real ``python -m bot`` killed with SIGKILL at random moments mid-game.

The bot runs in its own process against the local Discord stand-in
(``tests.support.standin``) and is killed with SIGKILL again and again, at a random moment
after each start (during start-up, mid-move, while answering), then started again on the
same database. The driver records every move the bot ANSWERED (its interaction callback
reached the stand-in) and afterwards checks that each one is in the database, in order
(the ``move`` rows of ``game_events``), and that after the last restart every game carries
on: further moves are accepted and every game can be ended.

The kill count is ``CRASH_KILLS`` (default 100); the full run with more kills::

    CRASH_KILLS=300 .venv/bin/python -m pytest -p no:cacheprovider -s tests/test_crash_kill9.py

Turn timers are off, so every stored move comes from an interaction. README, section
Benchmarks, says what this run guarantees.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.driver import PRESETS, Driver, Table, accepted, engine_move, slash_for
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import Interaction, StandIn, parse_custom_id

KILLS = int(os.environ.get("CRASH_KILLS", "100"))
GAMES = 4
SEED = int(os.environ.get("CRASH_SEED", "9"))

#: Slash command -> the move it stores (``claim`` may store ``pass``: the cog decides).
SLASH_MOVES = {"newgame": "newgame", "join": "join", "start": "start", "endgame": "end"}


@dataclass
class Ledger:
    """Every answered and accepted move, per channel, in the order answered."""

    moves: dict[int, list[tuple[str, set[str], str | None]]] = field(default_factory=dict)
    answered: int = 0
    accepted: int = 0
    refused: int = 0
    lost: int = 0  # dispatched, never answered (the bot died first)

    def record(self, inter: Interaction) -> None:
        if inter.answered is None:
            self.lost += 1
            return
        self.answered += 1
        if not accepted(inter):
            self.refused += 1
            return
        self.accepted += 1
        self.moves.setdefault(inter.channel_id, []).append(stored_as(inter))


def stored_as(inter: Interaction) -> tuple[str, set[str], str | None]:
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


def stored_moves(db: Path) -> dict[int, list[dict[str, Any]]]:
    """Every stored ``move`` event per channel, game by game, in order."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT g.channel_id, e.payload FROM game_events e JOIN games g ON g.id = e.game_id"
            " WHERE e.kind = 'move' ORDER BY g.id, e.seq"
        ).fetchall()
    out: dict[int, list[dict[str, Any]]] = {}
    for channel_id, payload in rows:
        out.setdefault(int(channel_id), []).append(json.loads(payload))
    return out


def is_subsequence(answered: list[tuple[str, set[str], str | None]], stored: list[dict]) -> int:
    """How many answered moves match stored ones in order (all of them if it holds)."""
    i = 0
    for row in stored:
        if i == len(answered):
            break
        player, moves, value = answered[i]
        act, _, arg = str(row.get("move")).partition(".")
        if row.get("player") == player and act in moves and (value is None or arg == value):
            i += 1
    return i


class CrashRun:
    def __init__(self, tmp: Path, kills: int, seed: int) -> None:
        self.tmp = tmp
        self.kills = kills
        self.rng = random.Random(seed)
        self.standin = StandIn(channels=GAMES, members=8)
        self.db = tmp / "bot.db"
        self.driver = Driver(self.standin, self.rng, slash_share=0.3, timeout=5.0)
        self.ledger = Ledger()
        self.starts: list[float] = []  # spawn -> connected, seconds
        self.kill_phases = {"before connect": 0, "while playing": 0}
        for i, cid in enumerate(self.standin.channels):
            players = self.standin.members[2 * i : 2 * i + 2 + i % 3]
            self.driver.add_table(cid, players, PRESETS[i % len(PRESETS)], {"turn_timer": 0})

    def bot(self) -> BotProcess:
        env = bot_env(self.standin, self.db)
        return BotProcess("bot", env, self.tmp, self.tmp / "bot.log")

    # ------------------------------------------------------------ moves from the DB

    def state(self, channel_id: int) -> tuple[str, dict[str, Any]] | None:
        if not self.db.exists():
            return None
        with sqlite3.connect(self.db, timeout=5) as conn:
            row = conn.execute(
                "SELECT status, state_json FROM games WHERE channel_id = ? AND status != 'over'",
                (channel_id,),
            ).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def move_from_db(self, table: Table) -> Interaction | None:
        """After a restart (or a refusal) the driver has no fresh message to read; the
        database says where the game stands, and a slash command makes the next move."""
        from bot.engine import Game

        found = self.state(table.channel_id)
        cid, host = table.channel_id, table.players[0]
        if found is None:
            return self.standin.slash(cid, host, "newgame", {"ruleset": table.preset,
                                                             **table.options})  # fmt: skip
        status, data = found
        game = Game.from_dict(data["engine"])
        if status == "lobby":
            missing = [p for p in table.players if str(p) not in game.seats]
            if missing:
                return self.standin.slash(cid, missing[0], "join")
            return self.standin.slash(cid, int(game.host), "start")
        move = engine_move(game, self.rng)
        return None if move is None else slash_for(self.standin, cid, *move)

    async def play(self, table: Table, until: float) -> None:
        from_db = True
        while time.perf_counter() < until:
            inter = None if from_db else self.driver.next_move(table)
            if inter is None:
                inter = self.move_from_db(table)
            if inter is None:
                await asyncio.sleep(0.02)
                continue
            try:
                await self.driver.send(inter)
            except (TimeoutError, ConnectionError):
                self.ledger.record(inter)
                return
            self.ledger.record(inter)
            # A refusal, a lobby step or a finished game: read the database next time.
            from_db = not accepted(inter) or table.phase != "playing"

    # -------------------------------------------------------------------- the run

    async def cycle(self, kill_after: float) -> None:
        """Start the bot, play every game as fast as it answers, SIGKILL it after
        ``kill_after`` seconds from its start, wherever it is."""
        bot = self.bot()
        await bot.start()
        kill_at = bot.started + kill_after

        async def connect_and_play() -> None:
            await self.standin.connected.wait()
            self.starts.append(time.perf_counter() - bot.started)
            tables = self.driver.tables.values()
            await asyncio.gather(*(self.play(t, kill_at + 30) for t in tables))

        players = asyncio.create_task(connect_and_play())
        await asyncio.sleep(max(0.0, kill_at - time.perf_counter()))
        connected = self.standin.connected.is_set()
        await bot.kill()
        assert bot.proc is not None and bot.proc.returncode == -9
        self.kill_phases["while playing" if connected else "before connect"] += 1
        self.standin.abandon_pending()
        self.standin.reset_connection()
        if not connected:
            players.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(players, 10)

    async def run(self) -> None:
        await self.standin.start()
        try:
            for _ in range(self.kills):
                # Mostly within a second of the start (start-up takes ~0.4 s), sometimes
                # later (after on_ready, while the bot re-posts the turn messages).
                r = self.rng.random()
                delay = self.rng.uniform(0.05, 1.2) if r < 0.85 else self.rng.uniform(1.2, 3.0)
                await self.cycle(delay)
            await self.finish()
        finally:
            await self.standin.stop()

    async def finish(self) -> None:
        """Last start: every game must take moves again, and be ended by its host."""
        bot = self.bot()
        await bot.start()
        await asyncio.wait_for(self.standin.connected.wait(), 30)
        try:
            carried_on = {}
            for table in self.driver.tables.values():
                before = self.ledger.accepted
                await self.play(table, time.perf_counter() + 0.5)
                carried_on[table.channel_id] = self.ledger.accepted - before
            assert all(n > 0 for n in carried_on.values()), carried_on
            for table in self.driver.tables.values():
                found = self.state(table.channel_id)
                if found is None:
                    continue
                # The host: the first player, or who took over when a host was out.
                host = int(found[1]["engine"]["host"])
                end = self.standin.slash(table.channel_id, host, "endgame")
                await self.driver.send(end)
                self.ledger.record(end)
                assert accepted(end), (end.message or {}).get("content")
                assert self.state(table.channel_id) is None, "the game did not end"
        finally:
            code = await bot.stop()
        assert code == 0, (self.tmp / "bot.log").read_text()[-3000:]


async def test_kill9_never_loses_an_answered_move(tmp_path: Path) -> None:
    started = time.perf_counter()
    run = CrashRun(tmp_path, KILLS, SEED)
    await run.run()
    runtime = time.perf_counter() - started

    stored = stored_moves(run.db)
    verified = 0
    for channel_id, answered in run.ledger.moves.items():
        matched = is_subsequence(answered, stored.get(channel_id, []))
        assert matched == len(answered), (
            f"channel {channel_id}: answered move #{matched} {answered[matched]} is not "
            f"in the database"
        )
        verified += matched
    ledger = run.ledger
    starts = sorted(run.starts)
    print(
        f"\ncrash test: {run.kills} SIGKILLs ({run.kill_phases['before connect']} before the "
        f"bot connected, {run.kill_phases['while playing']} while playing) in {runtime:.1f} s;"
        f" {ledger.answered} interactions answered, {ledger.accepted} moves accepted and "
        f"{verified} of them verified in the database, {ledger.refused} refused, "
        f"{ledger.lost} lost with the process; start to gateway: median "
        f"{starts[len(starts) // 2]:.2f} s, max {starts[-1]:.2f} s"
    )
    assert verified == ledger.accepted
    assert ledger.accepted >= run.kills  # the games really moved between the kills
    # All games ended at the end.
    with sqlite3.connect(run.db) as conn:
        open_games = conn.execute("SELECT COUNT(*) FROM games WHERE status != 'over'").fetchone()
    assert open_games[0] == 0
