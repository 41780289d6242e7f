"""A cluster soak: two shard processes on one PostgreSQL, disturbed the ways operators see.

Usage::

    PYTHONPATH=. .venv/bin/python -m benchmarks.cluster_bench --mode kill|outage|overlap|all
        [--kills 25] [--tables 12] [--seconds 10] [--outage-seconds 20] [--seed 1]
        [--stuck-seconds 15] [--think 0.1] [--json FILE] [--keep-logs DIR]

Built the way the bot runs (README, Running at scale): two real ``python -m bot``
processes (``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``, ``DATABASE_URL`` only, their
default settings otherwise) on one real PostgreSQL server (a throwaway one from the
machine's binaries, ``tests.support.postgres``; ``fsync`` off, as in the tests), against
the local Discord stand-in with two shards (``tests.support.standin``), the tables played
by ``tests.support.driver`` (``tests.support.shardrig`` puts them together). Each table
gets its next move ``--think`` seconds after the bot answered the last one (0: at once)
and is opened again when its game ends; a move comes off the bot's last messages, or from
the stored game when there is none to read (after a restart, a refusal, a lobby step).

- ``kill``: ``--kills`` times, shard 1's process is SIGKILLed and started again at once,
  while both shards play.
- ``outage``: the database server is stopped (fast shutdown) for ``--outage-seconds`` and
  started again, while both shards play tables with a short turn timer, and idle tables
  (opened, then left alone) wait on theirs.
- ``overlap``: a rolling restart of shard 1: a second process with the same ``SHARD_IDS``
  is started, and ``OVERLAP_SECONDS`` later the first one gets SIGTERM.

Every mode then stops both processes (SIGTERM) and compares what the players were told
with the stored event log (``tests.support.ledger``). Answers are sorted by their text,
matched against the English catalog (``bot/present/locales/en.ftl``, and the engine's
refusals), read at run time: a key the catalog does not have yet counts as absent.

It measures, it does not judge: the README (Benchmarks) says what each figure means. Where it
takes a shortcut production does not: the PostgreSQL server runs without ``fsync``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.driver import Table, accepted
from tests.support.ledger import Ledger, StoredGames, is_stored_as, move_from_db, stored_as, tally
from tests.support.postgres import PostgresServer
from tests.support.procs import REPO_ROOT, BotProcess
from tests.support.shardrig import BACK, SHARDS, Game, ShardRig
from tests.support.standin import EPHEMERAL, Interaction, parse_custom_id

#: Lives make games end within a few rounds, so tables are opened again and again.
GAMES: tuple[Game, ...] = (("dollar", {"lives": 2}), ("mexicanen", {"lives": 6}))
#: Seconds the driver waits for an answer before it counts the move unanswered and makes
#: another: Discord's own deadline for an interaction's first answer.
ANSWER_TIMEOUT = 3.0
#: Seconds a restarted process may take to answer before that restart counts as silent.
RESTART_TIMEOUT = 60.0
#: Seconds between a kill and the last one's restart answering again (drawn uniformly).
KILL_GAP = (1.0, 3.0)
#: The turn timer of the outage's tables; idle ones are opened so the first deadline
#: falls inside the outage.
OUTAGE_TURN_TIMER = 10
#: Seconds from starting the new process of a rolling restart to the old one's SIGTERM.
OVERLAP_SECONDS = 5.0
CATALOG = REPO_ROOT / "bot" / "present" / "locales" / "en.ftl"
#: How answers are sorted: (kind, en.ftl key); the first whose text matches wins.
CATALOG_KINDS = (
    ("database-down", "database-down"),
    ("move-not-saved", "move-not-saved"),
    ("table-not-saved", "table-not-saved"),
    ("bot-closing", "bot-closing"),
    ("moved-elsewhere", "moved-elsewhere"),
)
#: Engine refusals (their ``error-<key>`` messages in the catalog) sorted by kind.
ENGINE_KINDS = (
    ("not-your-turn", "not-your-turn"),
    ("not-your-turn", "not-your-answer"),
    ("stale-button", "stale-button"),
)
#: The catch-all answer of a command that failed (bot/runtime/client.py: ``command-failed``).
WENT_WRONG = "command-failed"
#: Answers that say the bot could not do the move (not a refusal by the rules).
FAILURES = ("database-down", "went-wrong", "move-not-saved", "table-not-saved", "bot-closing")


# ------------------------------------------------------------------------ texts


def catalog_texts(path: Path = CATALOG) -> dict[str, str]:
    """Each key's first line of text (Fluent ``key = text``); continuation lines left out."""
    found: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([a-z][a-z0-9_-]*) = (.*)$", line)
        if m:
            found[m[1]] = m[2]
    return found


def fixed_part(text: str) -> str:
    """The text before its first placeholder: what every answer from it starts with."""
    return re.split(r"\{", text, maxsplit=1)[0].strip()


class Texts:
    """Sorts an answer by its text into a kind (``accepted``, ``unanswered``, a kind of
    ``CATALOG_KINDS``/``ENGINE_KINDS``, ``went-wrong``, or ``other``)."""

    def __init__(self) -> None:
        texts = catalog_texts()
        self.patterns: list[tuple[str, str]] = []
        self.present: dict[str, bool] = {}
        for kind, key in CATALOG_KINDS:
            self.present[kind] = key in texts
            if key in texts and len(fixed_part(texts[key])) >= 8:
                self.patterns.append((kind, fixed_part(texts[key])))
        self.patterns.append(("went-wrong", fixed_part(texts[WENT_WRONG])))
        for kind, key in ENGINE_KINDS:
            if f"error-{key}" in texts:
                self.patterns.append((kind, fixed_part(texts[f"error-{key}"])))

    def kind_of(self, text: str) -> str | None:
        return next((kind for kind, fixed in self.patterns if fixed in text), None)

    def classify(self, inter: Interaction, later: list[str]) -> str:
        """``later``: texts the bot sent for this interaction after its callback."""
        if inter.answered is None:
            return "unanswered"
        for text in [(inter.message or {}).get("content") or "", *later]:
            kind = self.kind_of(text)
            if kind is not None:
                return kind
        return "accepted" if accepted(inter) else "other"


# ---------------------------------------------------------------------- measuring


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def tracebacks(logs: list[Path]) -> dict[str, int]:
    return {
        log.name: log.read_text(errors="replace").count("Traceback (most recent call last)")
        for log in logs
        if log.exists()
    }


@dataclass
class Answer:
    """One move sent to the bot and how it went."""

    inter: Interaction
    shard: int
    connection: int  # id() of the stand-in's socket it went out on


@dataclass
class Soak:
    """One mode's run: the rig, its players and what they saw."""

    rig: ShardRig
    stored: StoredGames
    rng: random.Random
    stuck_seconds: float
    #: Seconds a player waits after an answer before the next move at that table.
    think: float = 0.0
    texts: Texts = field(default_factory=Texts)
    ledger: Ledger = field(default_factory=Ledger)
    answers: list[Answer] = field(default_factory=list)
    #: Texts the bot sent for an interaction after its callback (follow-ups), by id.
    later: dict[int, list[str]] = field(default_factory=dict)
    #: (channel, arrival) of every "The bot restarted" re-post.
    reposts: list[tuple[int, float]] = field(default_factory=list)
    #: Channel -> the time each accepted move was answered.
    progress: dict[int, list[float]] = field(default_factory=dict)
    #: Channel -> since when its shard has been connected without an accepted move.
    waiting: dict[int, float | None] = field(default_factory=dict)
    #: (channel, when) of each table found stuck (once per stretch).
    stuck: list[tuple[int, float]] = field(default_factory=list)
    stale: int = 0  # refusals of a move the stored game allows (``check_stale``)
    stale_unchecked: int = 0  # ... the database could not be read to check
    stale_kinds: Counter[str] = field(default_factory=Counter)  # their kinds of text
    paused: bool = False  # the database is down: no table is expected to move
    #: Channels with players (idle tables are not watched for being stuck).
    active: set[int] = field(default_factory=set)
    #: Processes beyond one per shard (a rolling restart's), killed at the end.
    extra: list[BotProcess] = field(default_factory=list)
    stopping: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        told = self.rig.standin.on_message

        def hook(channel: int, message: dict[str, Any], how: str, inter: Any) -> None:
            if told is not None:
                told(channel, message, how, inter)
            content = message.get("content") or ""
            if BACK in content and not message.get("flags", 0) & EPHEMERAL:
                self.reposts.append((channel, time.perf_counter()))
            if inter is not None and how == "create":
                self.later.setdefault(inter.id, []).append(content)

        self.rig.standin.on_message = hook

    # --------------------------------------------------------------- players

    def connected(self, table: Table) -> bool:
        link = self.rig.standin.links[self.rig.standin.shard_of_channel(table.channel_id)]
        return link.ws is not None and not link.ws.closed

    async def next_move(self, table: Table, from_db: bool) -> Interaction | None:
        inter = None if from_db else self.rig.driver.next_move(table)
        if inter is None:
            with contextlib.suppress(Exception):  # the database may be down
                inter = await move_from_db(self.stored, self.rig.standin, table, self.rng)
            if inter is None and from_db:
                inter = self.rig.driver.next_move(table)
        return inter

    async def play(self, table: Table, idle: bool = False) -> None:
        """Play ``table`` until the run stops (``idle``: only until its game started)."""
        from_db = True
        shard = self.rig.standin.shard_of_channel(table.channel_id)
        while not self.stopping:
            if idle and table.phase == "playing":
                return
            if not self.connected(table):
                from_db = True
                await asyncio.sleep(0.05)
                continue
            inter = await self.next_move(table, from_db)
            if inter is None:
                from_db = not from_db
                await asyncio.sleep(0.05)
                continue
            link = self.rig.standin.links[shard]
            connection = id(link.ws)
            try:
                await self.rig.driver.send(inter)
            except (TimeoutError, ConnectionError):
                if inter.dispatched:  # sent, never answered (not: nobody to send it to)
                    self.ledger.record(inter)
                    self.answers.append(Answer(inter, shard, connection))
                from_db = True
                await asyncio.sleep(0.05)
                continue
            self.ledger.record(inter)
            self.answers.append(Answer(inter, shard, connection))
            if accepted(inter):
                assert inter.answered is not None
                self.progress.setdefault(table.channel_id, []).append(inter.answered)
                self.waiting[table.channel_id] = time.perf_counter()
            elif self.texts.classify(inter, []) not in FAILURES:
                await self.check_stale(table, inter)
            from_db = not accepted(inter) or table.phase != "playing"
            if self.think:
                await asyncio.sleep(self.think)

    async def check_stale(self, table: Table, inter: Interaction) -> None:
        """A refusal of a move that the stored game allows (a button of the stored turn,
        a legal move of the player) was decided on a stale copy of the table."""
        from bot.engine import Game as Engine

        try:
            found = await self.stored.open_game(table.channel_id)
        except Exception:
            self.stale_unchecked += 1
            return
        if found is None or found[0] != "running":
            return
        game = Engine.from_dict(found[1]["engine"])
        if inter.payload["type"] == 3:  # a click: on the stored turn's message?
            parsed = parse_custom_id(inter.payload["data"]["custom_id"])
            if parsed is None or parsed.move_no != game.move_no:
                return
        player = str(inter.user_id)
        sent = stored_as(inter)
        legal = game.legal_actions(player)
        if any(is_stored_as(sent, {"player": player, "move": m.encode()}) for m in legal):
            self.stale += 1
            self.stale_kinds[self.texts.classify(inter, [])] += 1

    async def open_play(self, tables: list[Table], seconds: float) -> None:
        """Every mode's opening: both shard processes up, ``tables`` played for
        ``seconds`` before the first disturbance."""
        await asyncio.gather(*(self.rig.start(shard) for shard in range(SHARDS)))
        self.start_players(tables)
        await asyncio.sleep(seconds)

    def start_players(self, tables: list[Table]) -> None:
        self.active |= {t.channel_id for t in tables}
        self.tasks += [asyncio.create_task(self.play(t)) for t in tables]
        if not any(t.get_name() == "watch" for t in self.tasks):
            self.tasks.append(asyncio.create_task(self.watch(), name="watch"))

    async def watch(self) -> None:
        """Flags tables that go ``stuck_seconds`` with their shard connected (and the
        database up) without an accepted move."""
        while not self.stopping:
            now = time.perf_counter()
            for table in self.rig.driver.tables.values():
                cid = table.channel_id
                if cid not in self.active:
                    continue
                if table.phase == "new" or self.paused or not self.connected(table):
                    self.waiting[cid] = None
                    continue
                since = self.waiting.get(cid)
                if since is None:
                    self.waiting[cid] = now
                elif now - since > self.stuck_seconds:
                    self.stuck.append((cid, now))
                    self.waiting[cid] = now  # once per stretch
            await asyncio.sleep(0.25)

    async def first_answer(self, shard: int, after: float, connection: int | None = None) -> float:
        """When a table of ``shard`` first got an accepted move sent after ``after``
        answered (on a connection other than ``connection``, if given)."""
        deadline = time.perf_counter() + RESTART_TIMEOUT
        while time.perf_counter() < deadline:
            found = [
                a.inter.answered
                for a in reversed(self.answers[-400:])
                if a.shard == shard
                and a.inter.dispatched >= after
                and a.inter.answered is not None
                and accepted(a.inter)
                and (connection is None or a.connection != connection)
            ]
            if found:
                return min(found)
            await asyncio.sleep(0.02)
        raise TimeoutError

    async def stop(self) -> dict[str, int | None]:
        """Stop the players (a move under way is waited for, so that the ledger knows how
        it went), then every process with SIGTERM; their exit codes."""
        self.stopping = True
        await asyncio.gather(*self.tasks, return_exceptions=True)
        codes = {}
        for shard, bot in self.rig.bots.items():
            codes[f"shard{shard}"] = await bot.stop()
        return codes

    # ----------------------------------------------------------------- figures

    async def moves(self) -> dict[str, int]:
        stored = await self.stored.moves()
        total = Counter[str]()
        for cid, sent in self.ledger.sent.items():
            found = tally(sent, self.ledger.told_refused.get(cid, []), stored.get(cid, []))
            for name in ("acknowledged", "stored", "lost", "doubled", "stored_refused", "timeouts"):
                total[name] += getattr(found, name)
        total["unanswered"] = self.ledger.lost
        total["refused"] = self.ledger.refused
        total["never_played_channels"] = len(set(stored) - set(self.ledger.sent))
        return dict(total)

    def others(self, start: float, end: float, most: int = 3) -> list[str]:
        """A few distinct texts of answers sorted as ``other`` (what they were)."""
        found: list[str] = []
        for a in self.answers:
            later = self.later.get(a.inter.id, [])
            if start <= a.inter.dispatched < end and self.texts.classify(a.inter, later) == "other":
                text = ((a.inter.message or {}).get("content") or " | ".join(later))[:80]
                if text not in found:
                    found.append(text)
        return found[:most]

    def kinds(self, start: float, end: float) -> dict[str, int]:
        found = Counter(
            self.texts.classify(a.inter, self.later.get(a.inter.id, []))
            for a in self.answers
            if start <= a.inter.dispatched < end
        )
        return dict(sorted(found.items()))


# -------------------------------------------------------------------------- modes


def games_for(tables: int) -> list[Game]:
    return [GAMES[(i // SHARDS) % len(GAMES)] for i in range(tables)]


@contextlib.asynccontextmanager
async def soak_run(
    args: argparse.Namespace, server: PostgresServer, mode: str, games: list[Game]
) -> Any:
    work = Path(tempfile.mkdtemp(prefix=f"cluster-{mode}-"))
    url = server.create_database(mode)
    rig = ShardRig(work, url, games, seed=args.seed, timeout=ANSWER_TIMEOUT)
    stored = StoredGames(work / "unused.db", url, pool_size=4)
    soak = Soak(rig, stored, random.Random(args.seed), args.stuck_seconds, args.think)
    await rig.standin.start()
    try:
        yield soak
    finally:
        soak.stopping = True
        await asyncio.gather(*soak.tasks, return_exceptions=True)
        for bot in soak.extra:
            await bot.kill()
        await rig.close()
        await stored.close()
        if args.keep_logs:
            keep = Path(args.keep_logs) / mode
            keep.mkdir(parents=True, exist_ok=True)
            for log in work.glob("*.log"):
                shutil.copy(log, keep / log.name)
        shutil.rmtree(work, ignore_errors=True)


async def kill_mode(args: argparse.Namespace, server: PostgresServer) -> dict[str, Any]:
    async with soak_run(args, server, "kill", games_for(args.tables)) as soak:
        rig = soak.rig
        await soak.open_play([t for s in range(SHARDS) for t in rig.tables[s]], args.seconds)
        began = time.perf_counter()
        to_answer: list[float] = []
        silent = 0
        windows: list[tuple[float, float]] = []  # (restart, next kill) of each restart
        for _ in range(args.kills):
            killed = time.perf_counter()
            if windows:
                windows[-1] = (windows[-1][0], killed)
            await rig.kill(1)
            restarted = time.perf_counter()
            rig.bots[1] = rig.process(1)
            await rig.bots[1].start()
            windows.append((restarted, float("inf")))
            try:
                to_answer.append(await soak.first_answer(1, killed) - killed)
            except TimeoutError:
                silent += 1
            await asyncio.sleep(soak.rng.uniform(*KILL_GAP))
        ended = time.perf_counter()
        await asyncio.sleep(max(args.seconds, args.stuck_seconds + 1))
        codes = await soak.stop()
        shard0 = [a for a in soak.answers if a.shard == 0 and began <= a.inter.dispatched < ended]
        latencies = [a.inter.latency for a in shard0 if a.inter.latency is not None]
        late = 0
        for start, end in windows:
            for table in rig.tables[1]:
                cid = table.channel_id
                back = [t for c, t in soak.reposts if c == cid and start <= t < end]
                moved = [t for t in soak.progress.get(cid, []) if start <= t < end]
                if back and moved and min(moved) < min(back):
                    late += 1
        return {
            "kills": args.kills,
            "tables": args.tables,
            **await soak.moves(),
            "stuck_tables": len(soak.stuck),
            "shard0_sent": len(shard0),
            "shard0_answered": len(latencies),
            "shard0_p99_ms": _ms(pct(latencies, 0.99)),
            "restart_answer_median_s": _s(statistics.median(to_answer) if to_answer else None),
            "restart_answer_max_s": _s(max(to_answer) if to_answer else None),
            "restarts_never_answering": silent,
            "reposts": len(soak.reposts),
            "reposts_after_newer_move": late,
            "tracebacks": tracebacks(sorted(rig.work.glob("*.log"))),
            "exit_codes": codes,
        }


async def outage_mode(args: argparse.Namespace, server: PostgresServer) -> dict[str, Any]:
    timed = [(p, {**o, "turn_timer": OUTAGE_TURN_TIMER}) for p, o in games_for(args.tables)]
    idle_count = max(SHARDS, args.tables // 2)
    idle = [(p, {**o, "turn_timer": OUTAGE_TURN_TIMER}) for p, o in games_for(idle_count)]
    async with soak_run(args, server, "outage", timed + idle) as soak:
        rig = soak.rig
        idle_ids = set(rig.standin.channels[len(timed) :])
        playing = [t for t in rig.driver.tables.values() if t.channel_id not in idle_ids]
        idlers = [t for t in rig.driver.tables.values() if t.channel_id in idle_ids]
        await soak.open_play(playing, args.seconds)
        # Idle tables: opened now, so their first deadline falls inside the outage.
        opened = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(soak.play(t, idle=True) for t in idlers)), 60)
        await asyncio.sleep(max(0.0, OUTAGE_TURN_TIMER / 4 - (time.perf_counter() - opened)))
        before = await timeouts_at(soak, idle_ids)
        soak.paused = True
        soak.stored.reset()  # its connections would die with the server
        down = time.perf_counter()
        await asyncio.to_thread(server.pause)
        await asyncio.sleep(args.outage_seconds)
        await asyncio.to_thread(server.resume)
        up = time.perf_counter()
        soak.stored.reset()  # its connections died with the server
        soak.paused = False
        # Idle tables time out again within a turn timer (plus the grace a missed
        # deadline may get) if their timers outlived the outage.
        again: set[int] = set()
        deadline = up + 2 * OUTAGE_TURN_TIMER + 10
        while time.perf_counter() < max(deadline, up + args.seconds):
            with contextlib.suppress(Exception):
                now_counts = await timeouts_at(soak, idle_ids)
                again |= {c for c in idle_ids if now_counts.get(c, 0) > before.get(c, 0)}
            await asyncio.sleep(1.0)
        codes = await soak.stop()
        return {
            "tables": args.tables,
            "idle_tables": len(idlers),
            "outage_seconds": args.outage_seconds,
            "answers_during_outage": soak.kinds(down, up),
            "answers_after_outage": soak.kinds(up, float("inf")),
            "other_texts": soak.others(down, float("inf")),
            "database_down_key_in_catalog": soak.texts.present["database-down"],
            "idle_timed_out_after": len(again),
            **await soak.moves(),
            "stale_refusals": soak.stale,
            "stale_refusals_by_kind": dict(soak.stale_kinds),
            "stale_refusals_unchecked": soak.stale_unchecked,
            "stuck_tables": len(soak.stuck),
            "tracebacks": tracebacks(sorted(rig.work.glob("*.log"))),
            "exit_codes": codes,
        }


async def timeouts_at(soak: Soak, channels: set[int]) -> dict[int, int]:
    """Stored timeouts per channel."""
    stored = await soak.stored.moves()
    return {
        cid: sum(str(r.get("move")) == "timeout" for r in stored.get(cid, [])) for cid in channels
    }


async def overlap_mode(args: argparse.Namespace, server: PostgresServer) -> dict[str, Any]:
    async with soak_run(args, server, "overlap", games_for(args.tables)) as soak:
        rig = soak.rig
        await soak.open_play([t for s in range(SHARDS) for t in rig.tables[s]], args.seconds)
        old, old_link = rig.bots[1], id(rig.standin.links[1].ws)
        new = rig.process(1, rig.log("1-new"))
        soak.extra.append(new)
        await new.start()
        spawned = time.perf_counter()
        switched: list[float] = []

        async def watch_link() -> None:
            while not switched:
                ws = rig.standin.links[1].ws
                if ws is not None and id(ws) != old_link:
                    switched.append(time.perf_counter())
                await asyncio.sleep(0.02)

        watcher = asyncio.create_task(watch_link())
        await asyncio.sleep(OVERLAP_SECONDS)
        termed = time.perf_counter()
        gone: list[float] = []

        async def stop_old() -> int | None:
            code = await old.stop(timeout=60)
            gone.append(time.perf_counter())
            return code

        stopping = asyncio.create_task(stop_old())
        try:
            takeover: float | None = await soak.first_answer(1, termed, old_link) - termed
        except TimeoutError:
            takeover = None
        old_code = await stopping
        rig.bots[1] = new
        stuck_before = len(soak.stuck)
        await asyncio.sleep(max(args.seconds, args.stuck_seconds + 1))
        watcher.cancel()
        codes = await soak.stop()
        return {
            "tables": args.tables,
            **await soak.moves(),
            "new_connected_after_sigterm_s": _s(switched[0] - termed if switched else None),
            "new_connected_after_start_s": _s(switched[0] - spawned if switched else None),
            "takeover_s": _s(takeover),
            "old_stopped_after_sigterm_s": _s(gone[0] - termed),
            "stuck_tables_after_old_stopped": len(soak.stuck) - stuck_before,
            "stuck_tables": len(soak.stuck),
            "stale_refusals": soak.stale,
            "stale_refusals_by_kind": dict(soak.stale_kinds),
            "tracebacks": tracebacks(sorted(rig.work.glob("*.log"))),
            "exit_codes": {"shard1-old": old_code, **codes},
        }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _s(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 2)


MODES = {"kill": kill_mode, "outage": outage_mode, "overlap": overlap_mode}


# ------------------------------------------------------------------------ report


def print_report(report: dict[str, dict[str, Any]]) -> None:
    for mode, figures in report.items():
        print(f"\n{mode} ({figures.get('runtime_s')} s)")
        for name, value in figures.items():
            if name == "runtime_s":
                continue
            if isinstance(value, dict):
                value = ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
            print(f"  {name:<34} {value}")


async def amain(
    args: argparse.Namespace, server: PostgresServer | None = None
) -> dict[str, dict[str, Any]]:
    """Run the modes on ``server`` (a running one, kept running; None: a throwaway one,
    started and removed here), a fresh database and stand-in each."""
    modes = list(MODES) if args.mode == "all" else [args.mode]
    own = server is None
    if server is None:
        server = await asyncio.to_thread(PostgresServer().start)
    report: dict[str, dict[str, Any]] = {}
    try:
        for mode in modes:
            started = time.perf_counter()
            figures = await MODES[mode](args, server)
            report[mode] = {"runtime_s": round(time.perf_counter() - started, 1), **figures}
    finally:
        if own:
            await asyncio.to_thread(server.stop)
    return report


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.cluster_bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--mode", choices=[*MODES, "all"], default="all")
    parser.add_argument("--kills", type=int, default=25, help="SIGKILLs of shard 1 (kill)")
    parser.add_argument("--tables", type=int, default=12, help="tables played, both shards")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="play before the first disturbance and after"
    )
    parser.add_argument("--outage-seconds", type=float, default=20.0)
    parser.add_argument(
        "--stuck-seconds",
        type=float,
        default=15.0,
        help="a table connected this long without an accepted move is stuck",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.1,
        help="seconds a player waits after an answer (0: as fast as the bot answers)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="write the figures here")
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the bots' logs here")
    args = parser.parse_args(argv)
    if args.tables < SHARDS:
        parser.error(f"--tables must be at least {SHARDS} (a table per shard)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    # The benchmark's own reading pool retries through the outage, noisily; it is not
    # the bot, whose logs are what the figures count.
    logging.getLogger("asyncpg.pool").setLevel(logging.CRITICAL)
    report = asyncio.run(amain(args))
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
