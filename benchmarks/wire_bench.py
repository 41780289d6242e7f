"""The whole bot on the wire: the real ``python -m bot`` process against a local Discord
stand-in, under open and saturating load, against a bare discord.py bot as the baseline.

Usage::

    .venv/bin/python -m benchmarks.wire_bench [--games 1000] [--rate 150,500] [--seconds 30]
        [--mode all|open|saturation|both|big] [--big-games 10000] [--no-bare] [--profile]
        [--database postgresql://…|postgres [--shards N]]

One process runs the stand-in (``tests.support.standin``: REST + gateway on 127.0.0.1) and
the driver; the bot runs in its own process (DISCORD_TOKEN fake, DISCORD_API_BASE and
DISCORD_GATEWAY_URL at the stand-in, DEV_GUILD_ID its first guild, DATABASE_PATH in a temp
dir, LOG_LEVEL=WARNING). The driver opens ``--games`` games in as many channels (/newgame,
/join, /start; 2-4 players, the five presets in turn) and plays random legal moves, read
off the bot's answers (see ``tests.support.driver``); a game that ends is opened again.

- ``open``: every game makes a move every ``games / rate`` seconds (random phase), whether
  or not the bot keeps up (a game whose last move is unanswered skips its tick, counted);
  one phase per rate of ``--rate`` (default 150 and 500 moves/s).
- ``saturation``: every game moves as soon as its last move was answered.
- ``big``: ``--big-games`` running games stored in the database (written through
  ``bot.storage``), the bot started on them: memory per game against the same guilds with
  no games, and the time from process start until a move is answered, after SIGKILL.

Latency is from the INTERACTION_CREATE leaving the stand-in to the callback POST reaching
it. CPU is the bot process's utime + stime (its threads included) from /proc. The same
open and saturating load (the recorded interaction payloads, replayed) then goes to
``benchmarks.bare_bot``, which answers each interaction with one message as large as the
bot's median answer (the callback bodies the stand-in received from the bot). A ratio
against the bare bot is printed only for a phase in which both bots kept up with the
offered rate (at least ``KEPT_UP`` of it answered): a bot that falls behind defers and
queues, and its CPU per move then measures something else. The stand-in's and driver's
own CPU (one process) is reported per phase: it shares the machine's cores.

``--profile`` samples the real bot with py-spy during its saturation phase and prints the
functions with the most samples (needs ``pip install py-spy``).

``--database`` runs the load phases twice, the bot on SQLite (as without it) and then on
PostgreSQL, at the same offered load, so one report has a row for each: an empty
database's ``postgresql://`` URL, or ``postgres`` for a throwaway server started from the
machine's binaries (``benchmarks.databases``; only then is the server's own CPU per move
known and added). ``big`` stays on SQLite. With ``--shards N`` the PostgreSQL runs are
instead one process running all N shards (SHARD_COUNT=N) and N processes of one shard
each (SHARD_IDS=0 … N-1) on one database, against a stand-in of N shards whose guilds
alternate between them: the saturation ceiling of one process against N (README, Running
at scale). The bare bot does not shard, so there is no bare baseline then.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.databases import THROWAWAY, Postgres, is_postgres, postgres
from tests.support.driver import PRESETS, Driver, Table, accepted, engine_move, slash_for
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import Interaction, StandIn

MISS = 3.0  # Discord's window to answer an interaction

TARGET_P99 = 0.100
#: The bot's CPU per move against the bare bot's, by offered rate (issue 42); saturation
#: takes the highest rate's.
TARGET_COST_RATIO = {150.0: 2.0, 500.0: 2.2}
#: The bot's saturation ceiling as a share of the bare bot's.
TARGET_CEILING = 0.5
#: A phase kept up with its offered rate if it answered at least this share of it.
KEPT_UP = 0.95
TARGET_KB_PER_GAME = 50.0
TARGET_RESTART = 2.0


# ----------------------------------------------------------------------- measuring


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class LoopLag:
    """How late the stand-in's own event loop wakes up (its share of the latency)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.lags = []
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            self.lags.append(time.perf_counter() - t - 0.005)

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self.lags


@dataclass
class Phase:
    bot: str
    mode: str
    seconds: float = 0.0
    offered: float | None = None  # moves/s offered (open load)
    latencies: list[float] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    unanswered: int = 0
    errors: int = 0
    skipped: int = 0  # open load: a tick found the game's last move unanswered
    no_move: int = 0  # open load: the driver knew no legal move yet
    cpu: float = 0.0
    db_cpu: float = float("nan")  # a throwaway PostgreSQL server's own CPU
    proc_cpu: list[float] = field(default_factory=list)  # per bot process (shards)
    threads: dict[str, float] = field(default_factory=dict)
    harness_cpu: float = 0.0  # the stand-in and driver process
    rest: Counter[str] = field(default_factory=Counter)
    #: The callback bodies' sizes in bytes (the bare bot answers with their median).
    answer_bytes: list[int] = field(default_factory=list)
    #: Discord calls made for each kind of interaction (counted once the phase is over).
    calls_by_kind: Counter[str] = field(default_factory=Counter)
    seen: list[Interaction] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    mem: dict[str, int] = field(default_factory=dict)

    @property
    def answered(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.answered / self.seconds if self.seconds else 0.0

    @property
    def misses(self) -> int:
        return self.unanswered + sum(1 for v in self.latencies if v > MISS)

    @property
    def kept_up(self) -> bool:
        """Whether the phase answered the load it was offered (saturation always does)."""
        if self.offered is None:
            return True
        return self.answered >= KEPT_UP * self.offered * self.seconds

    @property
    def cpu_per_interaction(self) -> float:
        return self.cpu / self.answered if self.answered else float("nan")

    @property
    def db_cpu_per_interaction(self) -> float:
        return self.db_cpu / self.answered if self.answered else float("nan")

    @property
    def rest_per_interaction(self) -> float:
        return sum(self.rest.values()) / self.answered if self.answered else float("nan")

    def record(self, inter: Interaction) -> None:
        self.kinds[inter.kind] += 1
        self.seen.append(inter)
        if inter.latency is None:
            self.unanswered += 1
            return
        self.latencies.append(inter.latency)
        if not accepted(inter):
            self.refused += 1


class Bots:
    """The bot processes of one run, measured as one: several shard processes share the
    load, so their CPU and memory are summed. ``db`` is the PostgreSQL whose server CPU is
    read along (a throwaway one; otherwise NaN)."""

    def __init__(self, procs: list[BotProcess], db: Postgres | None = None) -> None:
        self.procs = procs
        self.db = db

    @property
    def pid(self) -> int:
        return self.procs[0].pid

    async def start(self) -> None:
        for proc in self.procs:
            await proc.start()

    async def stop(self) -> int | None:
        codes = [await proc.stop() for proc in self.procs]
        return next((c for c in codes if c), codes[0] if codes else None)

    def cpu_seconds(self) -> float:
        return sum(self.each_cpu())

    def each_cpu(self) -> list[float]:
        return [proc.cpu_seconds() for proc in self.procs]

    def server_cpu(self) -> float:
        return self.db.server_cpu() if self.db is not None else float("nan")

    def thread_cpu(self) -> dict[str, float]:
        out: Counter[str] = Counter()
        for proc in self.procs:
            out.update(proc.thread_cpu())
        return dict(out)

    def memory_kb(self) -> dict[str, int]:
        out: Counter[str] = Counter()
        for proc in self.procs:
            out.update(proc.memory_kb())
        return dict(out)


@dataclass
class Run:
    """One bot set-up the load phases run against."""

    label: str
    postgres: bool = False  # False: a SQLite file of its own
    processes: int = 1
    shard_count: int = 0  # 0: unsharded


# ---------------------------------------------------------------------------- load


class Load:
    """What a channel does on its turn: the real driver, or a replay for the bare bot."""

    def __init__(self, standin: StandIn) -> None:
        self.standin = standin

    async def turn(self, channel_id: int, phase: Phase) -> None:
        raise NotImplementedError

    async def _send(self, inter: Interaction, phase: Phase, timeout: float = 15.0) -> None:
        try:
            await self.standin.dispatch(inter)
            assert inter.done is not None
            await asyncio.wait_for(asyncio.shield(inter.done), timeout)
        except (TimeoutError, ConnectionError):
            pass
        finally:
            self.standin.forget(inter)
        phase.record(inter)


class GameLoad(Load):
    def __init__(self, standin: StandIn, driver: Driver, sample: list[str]) -> None:
        super().__init__(standin)
        self.driver = driver
        self.sample = sample  # recorded payloads, for the bare bot's replay
        self.sample_max = 20_000

    async def turn(self, channel_id: int, phase: Phase) -> None:
        table = self.driver.tables[channel_id]
        if table.phase == "over":
            table.phase, table.live, table.live_no = "lobby", None, -1
            for inter in self.driver.lobby_steps(table):
                await self._send(inter, phase)
                if inter.latency is None:
                    return
            table.games += 1
            return
        inter = self.driver.next_move(table)
        if inter is None:
            phase.no_move += 1
            await asyncio.sleep(0.05)
            return
        if len(self.sample) < self.sample_max:
            self.sample.append(json.dumps([inter.kind, inter.payload]))
        await self._send(inter, phase)


class ReplayLoad(Load):
    """The real bot's recorded interactions, replayed (with fresh ids) to the bare bot."""

    def __init__(self, standin: StandIn, sample: list[str]) -> None:
        super().__init__(standin)
        self.by_channel: dict[int, list[tuple[str, dict[str, Any]]]] = {}
        for text in sample:
            kind, payload = json.loads(text)
            self.by_channel.setdefault(int(payload["channel_id"]), []).append((kind, payload))
        self.all = [x for v in self.by_channel.values() for x in v]
        self.next: Counter[int] = Counter()

    async def turn(self, channel_id: int, phase: Phase) -> None:
        mine = self.by_channel.get(channel_id) or self.all
        kind, payload = mine[self.next[channel_id] % len(mine)]
        self.next[channel_id] += 1
        await self._send(self.standin.clone(payload, kind), phase)


async def run_phase(
    standin: StandIn,
    bot: Bots,
    load: Load,
    channels: list[int],
    phase: Phase,
    *,
    seconds: float,
    rate: float | None,
) -> Phase:
    """Open load (``rate`` moves/s over all channels) or saturation (``rate`` None)."""
    lag = LoopLag()
    lag.start()
    rest_before = Counter(standin.rest_counts)
    cpu_before = bot.cpu_seconds()
    each_before = bot.each_cpu()
    db_before = bot.server_cpu()
    threads_before = bot.thread_cpu()
    harness_before = time.process_time()
    rng = random.Random(7)
    start = time.perf_counter()
    end = start + seconds
    busy: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def one(cid: int) -> None:
        busy.add(cid)
        try:
            await load.turn(cid, phase)
        finally:
            busy.discard(cid)

    async def open_loop(cid: int, period: float) -> None:
        tick = start + rng.random() * period
        while tick < end:
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
            if cid in busy:
                phase.skipped += 1
            else:
                task = asyncio.create_task(one(cid))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            tick += period

    async def closed_loop(cid: int) -> None:
        await asyncio.sleep(rng.random() * 0.2)
        while time.perf_counter() < end:
            await one(cid)

    if rate is not None:
        period = len(channels) / rate
        loops = [open_loop(c, period) for c in channels]
    else:
        loops = [closed_loop(c) for c in channels]
    await asyncio.gather(*loops)
    phase.seconds = time.perf_counter() - start
    # Moves still in flight at the end are answered (or time out) before we count.
    if tasks:
        await asyncio.wait(tasks, timeout=20)
    phase.cpu = bot.cpu_seconds() - cpu_before
    phase.db_cpu = bot.server_cpu() - db_before
    phase.proc_cpu = [b - a for a, b in zip(each_before, bot.each_cpu(), strict=True)]
    after = bot.thread_cpu()
    phase.threads = {k: after[k] - threads_before[k] for k in after}
    phase.harness_cpu = time.process_time() - harness_before
    await asyncio.sleep(0.2)  # the last answers' follow-up calls
    phase.rest = Counter(standin.rest_counts) - rest_before
    for inter in phase.seen:
        phase.calls_by_kind[inter.kind] += len(inter.rest)
        if inter.callback_bytes:
            phase.answer_bytes.append(inter.callback_bytes)
    phase.seen.clear()
    phase.lag = await lag.stop()
    phase.mem = bot.memory_kb()
    phase.offered = rate
    return phase


# ------------------------------------------------------------------------ profiling


class Profiler:
    def __init__(self, pid: int, out: Path, seconds: float) -> None:
        self.out = out
        exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        self.argv = [
            exe,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(int(seconds)),
            "--rate",
            "200",
            "--format",
            "raw",
            "--output",
            str(out),
            "--nonblocking",
            "--gil",
        ]
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    async def finish(self) -> str:
        if self.proc is None:
            return "profiler not started"
        try:
            await asyncio.wait_for(self.proc.wait(), 60)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        if not self.out.exists():
            return "py-spy wrote no profile"
        return summarize_profile(self.out)


def summarize_profile(path: Path, top: int = 20) -> str:
    """Self and inclusive sample shares per function from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    incl: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        count = int(n)
        frames = stack.split(";")
        if frames and frames[0].startswith("thread"):
            frames = frames[1:]
        frames = [
            f.split(" (")[0]
            + " ("
            + f.split(" (")[-1].split(":")[0].split("/")[-1]
            + (")" if " (" in f else "")
            if " (" in f
            else f
            for f in frames
        ]
        total += count
        if frames:
            own[frames[-1]] += count
        for f in set(frames):
            incl[f] += count
    if not total:
        return "empty profile"
    lines = [f"{total} samples (all threads). Top self time:"]
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top)]
    lines.append("Top inclusive:")
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in incl.most_common(top + 10)]
    return "\n".join(lines)


# ---------------------------------------------------------------------- the phases


async def wait_answers(standin: StandIn, timeout: float = 30.0) -> None:
    await asyncio.wait_for(standin.ready.wait(), timeout)


async def settle_rss(bot: BotProcess | Bots, seconds: float = 1.0) -> dict[str, int]:
    await asyncio.sleep(seconds)
    return bot.memory_kb()


async def create_games(
    driver: Driver, tables: list[Table], phase: Phase, concurrency: int = 64
) -> None:
    sem = asyncio.Semaphore(concurrency)
    load = GameLoad(driver.standin, driver, [])

    async def one(table: Table) -> None:
        async with sem:
            table.phase = "over"  # GameLoad.turn opens the lobby for tables that are over
            await load.turn(table.channel_id, phase)

    start = time.perf_counter()
    await asyncio.gather(*(one(t) for t in tables))
    phase.seconds = time.perf_counter() - start


async def load_phases(
    standin: StandIn,
    proc: Bots,
    load: Any,
    label: str,
    args: argparse.Namespace,
    profile: Path | None,
    report: dict[str, Any],
) -> list[Phase]:
    """A short warm-up, then the open-load and saturation phases the mode asks for; the
    same for the real bot and the bare one, so their figures compare like for like."""
    done: list[Phase] = []
    channels = standin.channels
    if args.mode in ("open", "both", "all"):
        warm_up = Phase(label, "warm-up")
        await run_phase(
            standin,
            proc,
            load,
            channels,
            warm_up,
            seconds=min(3.0, args.seconds),
            rate=args.rates[0],
        )
        for rate in args.rates:
            done.append(
                await run_phase(
                    standin,
                    proc,
                    load,
                    channels,
                    Phase(label, "open"),
                    seconds=args.seconds,
                    rate=rate,
                )
            )
    if args.mode in ("saturation", "both", "all"):
        profiler = None
        if profile is not None:
            profiler = Profiler(proc.pid, profile, args.seconds)
            await profiler.start()
        done.append(
            await run_phase(
                standin,
                proc,
                load,
                channels,
                Phase(label, "saturation"),
                seconds=args.seconds,
                rate=None,
            )
        )
        if profiler is not None:
            report.setdefault("profiles", {})[label] = await profiler.finish()
    return done


def plan_runs(args: argparse.Namespace, db: Postgres | None) -> list[Run]:
    """The set-ups to load: the bot on SQLite alone (no --database), or on SQLite and
    then PostgreSQL, or (--shards) on PostgreSQL as one process and as N."""
    if db is None:
        return [Run("mexican")]
    if args.shards > 1:
        n = args.shards
        return [Run("pg 1 proc", True, 1, n), Run(f"pg {n} procs", True, n, n)]
    return [Run("sqlite"), Run("postgresql", True)]


def bot_processes(
    args: argparse.Namespace, run: Run, standin: StandIn, work: Path, db: Postgres | None
) -> Bots:
    """The bot process(es) of ``run``: its database (an empty one), and its shards."""
    procs = []
    slug = "load" if run.label == "mexican" else run.label.replace(" ", "-")
    url = None
    if run.postgres:
        assert db is not None
        url = db.fresh(f"wire {slug}")
    for i in range(run.processes):
        extra: dict[str, str] = {}
        if url is not None:
            extra["DATABASE_URL"] = url
        if run.shard_count:
            extra["SHARD_COUNT"] = str(run.shard_count)
            if run.processes > 1:
                extra["SHARD_IDS"] = str(i)
        env = bot_env(standin, work / f"{slug}.db", **extra)
        if url is not None:
            del env["DATABASE_PATH"]  # the database is DATABASE_URL's only
        if args.extra_path:
            env["PYTHONPATH"] += ":" + args.extra_path
        if args.bot_tree:  # another version of the bot under the same bench
            env["PYTHONPATH"] = args.bot_tree + ":" + env["PYTHONPATH"]
        log = work / (f"bot-{slug}.log" if run.processes == 1 else f"bot-{slug}-{i}.log")
        procs.append(BotProcess(args.bot_module, env, work, log))
    return Bots(procs, db if url is not None else None)


async def load_bench(
    args: argparse.Namespace, work: Path, report: dict[str, Any], db: Postgres | None = None
) -> None:
    phases: list[Phase] = []
    report["phases"] = phases
    report["runs"] = {}
    for n, run in enumerate(plan_runs(args, db)):
        await load_run(args, work, report, run, db, bare=n == 0 and not run.shard_count)


async def load_run(
    args: argparse.Namespace,
    work: Path,
    report: dict[str, Any],
    run: Run,
    db: Postgres | None,
    *,
    bare: bool,
) -> None:
    """One set-up under the load phases (every run the same games, seed and load), then
    the bare bot under the same load, replayed, if ``bare``."""
    rng = random.Random(args.seed)
    if run.shard_count:
        # A few guilds per shard, alternating between the shards (README, Tests).
        per_guild = max(1, math.ceil(args.games / (4 * run.shard_count)))
        standin = StandIn(
            channels=args.games,
            members=args.members,
            shard_count=run.shard_count,
            channels_per_guild=per_guild,
        )
    else:
        standin = StandIn(channels=args.games, members=args.members)
    standin.keep_interactions = False
    await standin.start()
    driver = Driver(standin, rng)
    phases: list[Phase] = report["phases"]
    summary: dict[str, Any] = {"run": run, "load": os.getloadavg()}
    report["runs"][run.label] = summary
    sample: list[str] = []
    bot = bot_processes(args, run, standin, work, db)
    try:
        await bot.start()
        await wait_answers(standin, 30.0 * run.processes)
        mem0 = await settle_rss(bot, 3.0)  # past on_ready (2 s after the last guild)
        tables = []
        for i, cid in enumerate(standin.channels):
            players = rng.sample(standin.members, rng.randint(2, 4))
            tables.append(driver.add_table(cid, players, PRESETS[i % len(PRESETS)]))
        setup = Phase(run.label, "create games")
        cpu0 = bot.cpu_seconds()
        await create_games(driver, tables, setup)
        setup.cpu = bot.cpu_seconds() - cpu0
        mem1 = await settle_rss(bot, 1.0)
        summary["mem_load"] = (mem0, mem1)
        phases.append(setup)
        load = GameLoad(standin, driver, sample)
        name = "saturation" if run.label == "mexican" else f"saturation-{run.label}"
        profile = work / f"{name.replace(' ', '-')}.pyspy.txt" if args.profile else None
        phases += await load_phases(standin, bot, load, run.label, args, profile, report)
        summary["mem_end"] = bot.memory_kb()
        summary["games_played"] = sum(t.games for t in tables)
    finally:
        summary["bot_exit"] = await bot.stop()
        unknown = report.setdefault("unknown_routes", {})
        for route, count in standin.unknown_routes.items():
            unknown[route] = unknown.get(route, 0) + count

    if bare and not args.no_bare and sample:
        standin.reset_connection()
        sizes = [b for p in phases if p.bot == run.label for b in p.answer_bytes]
        size = round(pct([float(b) for b in sizes], 50)) if sizes else 0
        bare_bot = Bots(
            [
                BotProcess(
                    "benchmarks.bare_bot",
                    bot_env(standin, work / "unused.db", BARE_ANSWER_BYTES=str(size)),
                    work,
                    work / "bot-bare.log",
                )
            ]
        )
        replay = ReplayLoad(standin, sample)
        try:
            await bare_bot.start()
            await wait_answers(standin)
            await asyncio.sleep(0.5)
            phases += await load_phases(standin, bare_bot, replay, "bare", args, None, report)
        finally:
            await bare_bot.stop()
    await standin.stop()


# --------------------------------------------------------------- 10,000 stored games


async def prefill(path: Path, standin: StandIn, games: int, rng: random.Random) -> dict[int, Any]:
    """``games`` running games, one per channel, stored through ``bot.storage``; each a
    few random moves in. Returns the engine games by channel."""
    from bot.engine import Game, GameError
    from bot.game.fairness import Commitment
    from bot.game.tables import Table as StoredTable
    from bot.storage import Storage

    storage = await Storage.open(path)
    now = time.time()
    out: dict[int, Any] = {}
    try:
        for i, cid in enumerate(standin.channels[:games]):
            gid = standin.channel_guild[cid]
            preset = PRESETS[i % len(PRESETS)]
            players = [str(p) for p in rng.sample(standin.members, rng.randint(2, 4))]
            # A long timer: the timers are armed at start-up but do not fire in the run.
            game = Game.create(preset, players[0], {"turn_timer": 3600})
            for p in players[1:]:
                game.join(p)
            game.start(players[0], rng)
            table = StoredTable(0, gid, cid, game)
            for _ in range(rng.randint(0, 6)):
                move = engine_move(game, rng)
                if move is None:
                    break
                player, chosen = move
                try:
                    game.apply(player, chosen, rng)
                except GameError:
                    continue
                table.meta.commit = (
                    Commitment.seal(game.cup) if game.bluffing and game.cup is not None else None
                )
            if game.phase != "playing":
                continue
            table.meta.names = {p: f"Player {int(p) % 1_000_000}" for p in players}
            table.meta.deadline = now + 3600
            table.meta.deadline_move = game.move_no
            await storage.create_game(gid, cid, preset, table.state_json(), status="running")
            out[cid] = game
    finally:
        await storage.close()
    return out


async def restart_probe(
    standin: StandIn,
    bot: BotProcess,
    games: dict[int, Any],
    rng: random.Random,
    used: set[int],
    probes: list[float],
    *,
    seconds: float,
) -> float | None:
    """From process start: dispatch a legal move as soon as the bot is connected, resend
    every 0.25 s until one is answered; then keep probing (other games) for ``seconds``.
    Returns the time from process start to the first answered move."""
    first = None
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and first is None:
        await asyncio.wait_for(standin.connected.wait(), 60)
        inter = pick_probe(standin, games, rng, used)
        if inter is None:
            return None
        try:
            await standin.dispatch(inter)
            assert inter.done is not None
            await asyncio.wait_for(asyncio.shield(inter.done), 0.25)
            first = (inter.answered or 0) - bot.started
        except (TimeoutError, ConnectionError):
            await asyncio.sleep(0.01)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        inter = pick_probe(standin, games, rng, used)
        if inter is None:
            break
        try:
            await standin.dispatch(inter)
            assert inter.done is not None
            await asyncio.wait_for(asyncio.shield(inter.done), 10)
            probes.append(inter.latency or 0.0)
        except (TimeoutError, ConnectionError):
            probes.append(float("inf"))
        await asyncio.sleep(0.1)
    return first


def pick_probe(
    standin: StandIn, games: dict[int, Any], rng: random.Random, used: set[int]
) -> Interaction | None:
    for cid, game in games.items():
        if cid in used:
            continue
        used.add(cid)
        move = engine_move(game, rng)
        if move is None:
            continue
        inter = slash_for(standin, cid, *move)
        if inter is not None:
            return inter
    return None


async def wait_resumed(standin: StandIn, before: int, games: int, timeout: float) -> float:
    """Seconds until the bot has posted every restored game's turn message again."""
    start = time.perf_counter()
    key = "POST /channels/{cid}/messages"
    while time.perf_counter() - start < timeout:
        if standin.rest_counts.get(key, 0) - before >= games:
            return time.perf_counter() - start
        await asyncio.sleep(0.1)
    return float("nan")


async def big_bench(args: argparse.Namespace, work: Path, report: dict[str, Any]) -> None:
    n = args.big_games
    rng = random.Random(args.seed + 1)
    standin = StandIn(channels=n, members=args.members)
    standin.keep_interactions = False
    await standin.start()
    big: dict[str, Any] = {"games": n}
    report["big"] = big
    try:
        # The same guilds and channels with no games: the baseline.
        empty = BotProcess("bot", bot_env(standin, work / "empty.db"), work, work / "bot-empty.log")
        await empty.start()
        await wait_answers(standin, 60)
        big["mem_empty"] = await settle_rss(empty, 4.0)
        await empty.stop()
        standin.reset_connection()

        t = time.perf_counter()
        games = await prefill(work / "big.db", standin, n, rng)
        big["prefill_s"] = time.perf_counter() - t
        big["stored"] = len(games)
        used: set[int] = set()

        for run in ("first start", "after SIGKILL"):
            standin.reset_connection()
            bot = BotProcess("bot", bot_env(standin, work / "big.db"), work, work / "bot-big.log")
            posts = standin.rest_counts.get("POST /channels/{cid}/messages", 0)
            probes: list[float] = []
            await bot.start()
            resumed = asyncio.create_task(wait_resumed(standin, posts, len(games), 180))
            first = await restart_probe(standin, bot, games, rng, used, probes, seconds=5.0)
            entry = {
                "first_answer_s": first,
                "login_s": (standin.first_request_at or 0) - bot.started,
                "identify_s": (standin.identified_at or 0) - bot.started,
                "probes": probes,
            }
            entry["resume_s"] = await resumed
            entry["mem"] = await settle_rss(bot, 2.0)
            big[run] = entry
            if run == "first start":
                await bot.kill()  # SIGKILL, then start again on the same database
            else:
                await bot.stop()
    finally:
        await standin.stop()


# ------------------------------------------------------------------------- report


def fmt_ms(v: float) -> str:
    return f"{1000 * v:.1f}"


def print_comparison(
    args: argparse.Namespace,
    report: dict[str, Any],
    runs: dict[str, dict[str, Any]],
    by: dict[tuple[str, str], Phase],
) -> None:
    """The runs side by side (--database, --shards): per move, the bot's CPU and the
    PostgreSQL server's (a throwaway one's; on SQLite the database works inside the bot),
    Discord calls, p99 at the offered load, and the saturation ceiling with what it cost
    in CPU: moves per CPU-second of bot + server is what one core would carry."""
    print(f"\n== by set-up ({report.get('db_note', '')}; {os.cpu_count()} cores)")
    head = (
        "set-up",
        "procs",
        f"p99 ms @{args.rate:.0f}/s",
        "open: bot+db CPU ms/move",
        "REST/move",
        "saturation moves/s",
        "sat: bot+db CPU ms/move",
        "sat CPU-s/s bot, db, harness",
        "moves per CPU-s",
        "load at start",
    )
    print(" | ".join(head))

    def cpu(p: Phase | None) -> str:
        if p is None or not p.answered:
            return "-"
        bot = 1000 * p.cpu_per_interaction
        if math.isnan(p.db_cpu):
            return f"{bot:.2f}"
        db = 1000 * p.db_cpu_per_interaction
        return f"{bot:.2f}+{db:.2f}={bot + db:.2f}"

    for label, run in runs.items():
        op, sat = by.get((label, "open", args.rate)), by.get((label, "saturation", None))
        rest = sat or op
        busy = per_cpu = "-"
        if sat is not None and sat.seconds and sat.answered:
            # SQLite works inside the bot; an operator's server's CPU is not known.
            known = not math.isnan(sat.db_cpu)
            db = sat.db_cpu if known else 0.0
            server = "?" if run["run"].postgres else "in bot"
            busy = (
                f"{sat.cpu / sat.seconds:.2f}, "
                + (f"{db / sat.seconds:.2f}" if known else server)
                + f", {sat.harness_cpu / sat.seconds:.2f}"
            )
            per_cpu = f"{sat.answered / (sat.cpu + db):.0f}" + (
                "" if known or server == "in bot" else " (bot only)"
            )
        row = (
            label,
            run["run"].processes,
            fmt_ms(pct(op.latencies, 99)) if op else "-",
            cpu(op),
            f"{rest.rest_per_interaction:.2f}" if rest else "-",
            f"{sat.rate:.0f}" if sat else "-",
            cpu(sat),
            busy,
            per_cpu,
            " ".join(f"{x:.2f}" for x in run["load"]),
        )
        print(" | ".join(str(x) for x in row))


def print_report(args: argparse.Namespace, report: dict[str, Any]) -> None:
    phases: list[Phase] = report.get("phases", [])
    verdicts: list[tuple[str, str, bool | None]] = []
    if phases:
        print(f"\n== load: {args.games} games, {args.members} members, {args.seconds:.0f} s phases")
        head = (
            "bot",
            "phase",
            "answered",
            "moves/s",
            "p50 ms",
            "p99 ms",
            "max ms",
            ">3s",
            "refused",
            "skipped",
            "CPU ms/int",
            "REST/int",
            "answer B",
            "harness CPU-s/s",
            "lag p99 ms",
        )
        print(" | ".join(head))
        for p in phases:
            row = (
                p.bot,
                p.mode + (f" @{p.offered:.0f}/s" if p.offered else ""),
                p.answered,
                f"{p.rate:.0f}",
                fmt_ms(pct(p.latencies, 50)),
                fmt_ms(pct(p.latencies, 99)),
                fmt_ms(max(p.latencies, default=float("nan"))),
                p.misses,
                p.refused,
                p.skipped,
                f"{1000 * p.cpu_per_interaction:.2f}",
                f"{p.rest_per_interaction:.2f}",
                f"{pct([float(b) for b in p.answer_bytes], 50):.0f}",
                f"{p.harness_cpu / p.seconds:.2f}" if p.seconds else "-",
                fmt_ms(pct(p.lag, 99)),
            )
            print(" | ".join(str(x) for x in row))
        runs: dict[str, dict[str, Any]] = report.get("runs", {})
        one = list(runs) == ["mexican"]  # the plain run: its report as it always was

        def tag(label: str) -> str:
            return "" if one else f"[{label}] "

        for p in phases:
            if p.bot in runs and p.mode in ("open", "saturation"):
                mode = p.mode + (f" @{p.offered:.0f}/s" if p.offered else "")
                calls = ", ".join(f"{k}: {v / p.answered:.2f}" for k, v in p.rest.most_common())
                print(f"{tag(p.bot)}REST calls per interaction ({mode}): {calls}")
                split = ", ".join(
                    f"{k} thread {1000 * v / p.answered:.2f} ms" for k, v in p.threads.items()
                )
                print(
                    f"{tag(p.bot)}bot CPU per interaction by thread ({mode}): {split}; "
                    f"stand-in and driver: {p.harness_cpu / p.seconds:.2f} CPU-s/s"
                )
                if len(p.proc_cpu) > 1:
                    print(
                        f"{tag(p.bot)}CPU-s/s by process ({mode}): "
                        + ", ".join(f"{c / p.seconds:.2f}" for c in p.proc_cpu)
                    )
                if not math.isnan(p.db_cpu):
                    print(
                        f"{tag(p.bot)}PostgreSQL server CPU per interaction ({mode}): "
                        f"{1000 * p.db_cpu_per_interaction:.2f} ms"
                    )
                mix = ", ".join(f"{k} {v}" for k, v in p.kinds.most_common(12))
                print(f"{tag(p.bot)}interaction mix ({mode}): {mix}")
                by_kind = ", ".join(
                    f"{k} {p.calls_by_kind[k] / v:.2f}" for k, v in p.kinds.most_common(12)
                )
                print(f"{tag(p.bot)}Discord calls per interaction by kind ({mode}): {by_kind}")
        for label, run in runs.items():
            if "mem_load" not in run:
                continue
            mem0, mem1 = run["mem_load"]
            grow = mem1["VmRSS"] - mem0["VmRSS"]
            peak = run["mem_end"]["VmHWM"] - mem0["VmRSS"]
            print(
                f"{tag(label)}bot RSS: {mem0['VmRSS']} kB before games, {mem1['VmRSS']} kB"
                f" with {args.games} games ({grow / args.games:.1f} kB/game); peak (VmHWM) at"
                f" the end {run['mem_end']['VmHWM']} kB ({peak / args.games:.1f} kB/game over"
                f" the pre-game RSS); games opened in the run: {run.get('games_played')}"
            )
        if report.get("unknown_routes"):
            print("unanswered REST routes:", report["unknown_routes"])
        by = {(p.bot, p.mode, p.offered): p for p in phases}
        for label in runs:
            for rate in args.rates:
                op = by.get((label, "open", rate))
                if op is None:
                    continue
                ok = pct(op.latencies, 99) <= TARGET_P99 and op.misses == 0 and op.unanswered == 0
                verdicts.append(
                    (
                        f"{tag(label)}{args.games} games @ {rate:.0f}/s offered: p99 <= 100"
                        f" ms, no 3-s misses (p99 {fmt_ms(pct(op.latencies, 99))} ms, "
                        f"{op.misses} misses, achieved {op.rate:.0f}/s)",
                        "",
                        ok,
                    )
                )
        for label in runs:
            keys = [("open", r) for r in args.rates] + [("saturation", None)]
            for mode, rate in keys:
                real, bare = by.get((label, mode, rate)), by.get(("bare", mode, rate))
                if not (real and bare and bare.answered):
                    continue
                name = f"{mode} @{rate:.0f}/s" if rate else mode
                if not (real.kept_up and bare.kept_up):
                    behind = ", ".join(
                        f"{p.bot} {p.rate:.0f}/s" for p in (real, bare) if not p.kept_up
                    )
                    print(
                        f"{tag(label)}{name}: no ratio, a bot fell behind the offered rate "
                        f"({behind}): it defers and queues, so its CPU per move means nothing"
                    )
                    verdicts.append((f"{tag(label)}cost per move ({name}): not measured", "", None))
                    continue
                ratio = real.cpu_per_interaction / bare.cpu_per_interaction
                lat = pct(real.latencies, 50) / pct(bare.latencies, 50)
                print(
                    f"{tag(label)}{name}: bot/bare CPU per interaction {ratio:.2f}x "
                    f"({1000 * real.cpu_per_interaction:.2f} / "
                    f"{1000 * bare.cpu_per_interaction:.2f} ms); p50 latency {lat:.2f}x"
                    + (
                        f"; ceiling {real.rate:.0f} vs {bare.rate:.0f} interactions/s "
                        f"({real.rate / bare.rate:.2f})"
                        if rate is None
                        else ""
                    )
                )
                if rate is None:
                    share = real.rate / bare.rate if bare.rate else float("nan")
                    verdicts.append(
                        (
                            f"{tag(label)}saturation ceiling >= {TARGET_CEILING} of bare's "
                            f"({share:.2f})",
                            "",
                            share >= TARGET_CEILING,
                        )
                    )
                target = TARGET_COST_RATIO.get(rate or max(args.rates), 2.0)
                verdicts.append(
                    (
                        f"{tag(label)}cost per move <= {target}x bare ({name}: {ratio:.2f}x)",
                        "",
                        ratio <= target,
                    )
                )
        if not one:
            print_comparison(args, report, runs, by)
        for label, profile in report.get("profiles", {}).items():
            print(
                f"\npy-spy, bot process, saturation phase{'' if one else f' ({label})'}:\n"
                + profile
            )
    big = report.get("big")
    if big:
        n = big["stored"]
        print(f"\n== {n} stored running games (pre-fill {big['prefill_s']:.1f} s)")
        base = big["mem_empty"]["VmRSS"]
        for run in ("first start", "after SIGKILL"):
            e = big.get(run)
            if not e:
                continue
            probes = [p for p in e["probes"] if p != float("inf")]
            print(
                f"{run}: login {e['login_s']:.2f} s, IDENTIFY {e['identify_s']:.2f} s, "
                f"first move answered {e['first_answer_s'] or float('nan'):.2f} s after "
                f"process start; every turn re-posted after {e['resume_s']:.1f} s; moves "
                f"during the re-posting: p50 {fmt_ms(pct(probes, 50))} ms, p99 "
                f"{fmt_ms(pct(probes, 99))} ms, max {fmt_ms(max(probes, default=0))} ms, "
                f"{len(e['probes']) - len(probes)} unanswered; RSS {e['mem']['VmRSS']} kB, "
                f"HWM {e['mem']['VmHWM']} kB"
            )
        e = big.get("after SIGKILL") or big.get("first start")
        per = (e["mem"]["VmRSS"] - base) / n
        peak = (e["mem"]["VmHWM"] - base) / n
        print(
            f"memory: {base} kB with the guilds and no games; {per:.1f} kB per game with "
            f"{n} open ({peak:.1f} kB/game at peak)"
        )
        verdicts.append(
            (f"<= 50 kB per game with {n} open ({per:.1f} kB)", "", per <= TARGET_KB_PER_GAME)
        )
        restart = (big.get("after SIGKILL") or {}).get("first_answer_s")
        verdicts.append(
            (
                f"restart with {n} stored games answers within 2 s "
                f"({restart if restart is not None else float('nan'):.2f} s)",
                "",
                restart is not None and restart <= TARGET_RESTART,
            )
        )
    if verdicts:
        print("\n== targets")
        for text, _, ok in verdicts:
            print(f"  [{'HOLDS' if ok else 'MISSED' if ok is not None else 'N/A'}] {text}")


async def amain(args: argparse.Namespace) -> int:
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="wire-bench-") as tmp:
        work = Path(tmp)
        try:
            with contextlib.ExitStack() as stack:
                db = None
                if args.database and args.mode != "big":
                    db = stack.enter_context(postgres(args.database))
                    report["db_note"] = db.describe()
                if args.mode != "big":
                    await load_bench(args, work, report, db)
            if args.mode in ("big", "all"):
                await big_bench(args, work, report)  # on SQLite, as ever
        finally:
            if args.keep_logs:
                Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
                for log in work.glob("*.log"):
                    shutil.copy(log, Path(args.keep_logs) / log.name)
                for prof in work.glob("*.pyspy.txt"):
                    shutil.copy(prof, Path(args.keep_logs) / prof.name)
    print_report(args, report)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.wire_bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--rate",
        default="150,500",
        help="moves/s offered (open), one phase per comma-separated rate",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    parser.add_argument(
        "--mode", choices=("all", "open", "saturation", "both", "big"), default="all"
    )
    parser.add_argument("--big-games", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=200, help="members per guild")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-bare", action="store_true", help="skip the bare-bot baseline")
    parser.add_argument("--profile", action="store_true", help="py-spy the saturation phase")
    parser.add_argument(
        "--bot-module", default="bot", help="run this module as the bot (load phases only)"
    )
    parser.add_argument("--extra-path", help="append to the bot's PYTHONPATH")
    parser.add_argument(
        "--bot-tree",
        metavar="DIR",
        help="run the bot from this source tree (e.g. `git archive main` unpacked), to"
        " compare two versions under the same bench",
    )
    parser.add_argument("--keep-logs", metavar="DIR", help="copy bot logs and profiles here")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="also run the load phases on PostgreSQL: an empty database's postgresql:// URL,"
        f" or '{THROWAWAY}' to start a throwaway server",
    )
    parser.add_argument(
        "--shards",
        type=int,
        default=0,
        metavar="N",
        help="with --database: one process running N shards against N processes of one",
    )
    args = parser.parse_args(argv)
    try:
        args.rates = [float(r) for r in str(args.rate).split(",") if r.strip()]
    except ValueError:
        parser.error("--rate takes moves/s, comma-separated: 150,500")
    if not args.rates or min(args.rates) <= 0:
        parser.error("--rate takes positive moves/s")
    args.rate = max(args.rates)  # the set-up comparison's p99 is at the highest rate
    if args.database is not None and not is_postgres(args.database):
        parser.error(f"--database takes a postgresql:// URL or '{THROWAWAY}'")
    if args.shards and args.database is None:
        parser.error("--shards needs --database: shard processes share one PostgreSQL")
    return asyncio.run(amain(args))


if __name__ == "__main__":
    sys.exit(main())
