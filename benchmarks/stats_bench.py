"""How fast /leaderboard and /stats answer on a server with a long history.

Fills a fresh SQLite file (or, with --database, an empty PostgreSQL database) with N
recorded rounds (default 1,000,000) across P players (default 10,000) in 50 channels over
a year, with the counters those rounds produce in every bucket the bot keeps (server and
channel; all time, month, week) and a rating per player and family (with the channels
each was played in, at the player's last round there), then times the queries behind
/leaderboard (a page, the total, the caller's rank; every counter, and the ratings on
server and channel scope, all time and month) and /stats (totals, favourite claim,
nemesis) and /history.

    .venv/bin/python -m benchmarks.stats_bench [--rounds N] [--players P] [--db PATH]
        [--database postgresql://user@host/db | --database postgres]

``--database postgres`` starts a throwaway PostgreSQL server for the run
(``benchmarks.databases``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path

from benchmarks import running
from benchmarks.databases import THROWAWAY, postgres
from bot.league.ratings import FAMILIES, shown
from bot.storage import STATS, TOTALS_COLUMNS, Storage, open_storage
from bot.storage.sqlite import bucket_periods

GUILD = 1
YEAR = 365 * 24 * 3600.0
START = 1_764_547_200.0  # 2025-12-01 UTC


def synthesize(
    rounds: int, players: int, seed: int = 1
) -> tuple[dict, list, dict, dict, dict[tuple[int, int], float]]:
    """Counters, round rows, claim counts and catches for ``rounds`` random rounds, and
    each (player, channel)'s last round there."""
    rng = random.Random(seed)
    buckets: dict[tuple[int, str, int], list[int]] = defaultdict(lambda: [0] * len(TOTALS_COLUMNS))
    col = {name: i for i, name in enumerate(TOTALS_COLUMNS)}
    round_rows = []
    claims: dict[tuple[int, str], int] = defaultdict(int)
    catches: dict[tuple[int, int], int] = defaultdict(int)
    codes = ["65", "55", "21", "64", "66", "44", "62"]
    last_seen: dict[tuple[int, int], float] = {}
    for i in range(rounds):
        stamp = START + YEAR * i / rounds
        channel = 100 + rng.randrange(50)
        table = rng.sample(range(1, players + 1), rng.randint(2, 5))
        loser, caller = table[0], table[1]
        periods = bucket_periods(stamp)
        for player in table:
            last_seen[(player, channel)] = stamp  # rounds come in time order
        changes = [(loser, "rounds_lost", 1), (loser, "sips", rng.randint(1, 4))]
        changes += [(p, "rolls_made", 1) for p in table]
        if rng.random() < 0.5:
            changes += [(caller, "calls_made", 1), (loser, "bluffs_made", 1)]
            if rng.random() < 0.6:
                changes += [(caller, "calls_right", 1), (loser, "bluffs_caught", 1)]
                catches[(caller, loser)] += 1
            claims[(loser, rng.choice(codes))] += 1
        if rng.random() < 0.05:
            changes += [(p, "games_played", 1) for p in table] + [(table[-1], "games_won", 1)]
        if rng.random() < 0.06:
            changes.append((table[-1], "mex_rolled", 1))
        for player, name, value in changes:
            for scope in (0, channel):
                for period in periods:
                    buckets[(scope, period, player)][col[name]] += value
        summary = f'{{"paid": [[{loser}, "sip", 1, "lowest roll"]]}}'
        round_rows.append(
            (GUILD, channel, i // 20 + 1, i % 20 + 1, "mexen", loser, "lowest", summary, stamp)
        )
    return buckets, round_rows, claims, catches, last_seen


def synthesize_ratings(players: int, seed: int = 3) -> list[tuple[object, ...]]:
    """A rating per player in each family they played (four in five play each), and the
    computer personas' under negative ids, as the league stores them after a year: shown
    ratings spread around 1,000 with many ties, rated games from 1 to 300."""
    rng = random.Random(seed)
    rows: list[tuple[object, ...]] = []
    for family in FAMILIES:
        for user in [*range(-6, 0), *range(1, players + 1)]:
            if user > 0 and rng.random() >= 0.8:
                continue
            mu, sigma = rng.gauss(25, 4), rng.uniform(1.0, 8.3)
            games = rng.randint(1, 300)
            rows.append(
                (
                    GUILD,
                    family,
                    user,
                    mu,
                    sigma,
                    shown(mu, sigma),
                    games,
                    START + rng.uniform(0, YEAR),
                )
            )
    return rows


def channel_players(
    ratings: list[tuple[object, ...]], last_seen: dict[tuple[int, int], float]
) -> list[tuple[object, ...]]:
    """rated_channel_players as the league would have left it: for each person's rating,
    a row per channel they played in, at their last round there (rounds carry no family,
    so both families' rows are alike). Each rating's own last game becomes the latest of
    its channels', as the league keeps them (README, Ratings)."""
    channels: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for (user, channel), stamp in last_seen.items():
        channels[user].append((channel, stamp))
    rows: list[tuple[object, ...]] = []
    for i, (guild, family, user, *rest, _last) in enumerate(ratings):
        seen = channels.get(int(user), [])  # type: ignore[call-overload]
        if seen:
            ratings[i] = (guild, family, user, *rest, max(stamp for _, stamp in seen))
            rows += [(guild, family, channel, user, stamp) for channel, stamp in seen]
    return sorted(rows, key=lambda row: row[:4])  # type: ignore[arg-type, return-value]


async def fill(store: Storage, rounds: int, players: int) -> None:
    buckets, round_rows, claims, catches, last_seen = synthesize(rounds, players)
    ratings = synthesize_ratings(players)
    channel_rows = channel_players(ratings, last_seen)
    # Through the copy path of `migrate-db`: one transaction, on either backend.
    # In key order, as migrate-db copies them (bot/storage/base.py, KEY_COLUMNS).
    tables: dict[str, list[tuple[object, ...]]] = {
        "stat_buckets": [
            (GUILD, scope, period, user, *values)
            for (scope, period, user), values in sorted(buckets.items())
        ],
        "rounds": [(n, *row) for n, row in enumerate(round_rows, start=1)],
        "claim_counts": [(GUILD, user, claim, n) for (user, claim), n in claims.items()],
        "catches": [(GUILD, caught, catcher, n) for (catcher, caught), n in catches.items()],
        "ratings": sorted(ratings, key=lambda row: row[:3]),  # type: ignore[arg-type]
        "rated_channel_players": channel_rows,
    }

    async def batches() -> AsyncIterator[tuple[str, list[tuple[object, ...]]]]:
        for table, rows in tables.items():
            for i in range(0, len(rows), 10_000):
                yield table, rows[i : i + 10_000]

    await store.load_rows(batches(), {table: len(rows) for table, rows in tables.items()})
    print(
        f"filled {len(round_rows):,} rounds, {len(buckets):,} bucket rows, "
        f"{len(ratings):,} ratings ({len(channel_rows):,} by channel), "
        f"{players:,} players"
    )


async def timed(label: str, make, repeat: int, results: dict[str, list[float]]) -> None:
    samples = []
    for i in range(repeat):
        start = time.perf_counter()
        await make(i)
        samples.append((time.perf_counter() - start) * 1000)
    results[label] = samples


async def run(args: argparse.Namespace) -> None:
    if args.database:
        store = await open_storage(args.database)  # an empty PostgreSQL database, say
        size = ""
    else:
        path = Path(args.db or tempfile.mkdtemp(prefix="mexbench-")) / "bench.db"
        if path.exists():
            path.unlink()
        store = await open_storage(path)
    started = time.perf_counter()
    await fill(store, args.rounds, args.players)
    if not args.database:
        size = f"; file {path.stat().st_size / 1e6:.0f} MB"
    print(f"fill took {time.perf_counter() - started:.1f} s{size} ({store.dialect})")
    now = START + YEAR - 3600
    results: dict[str, list[float]] = {}
    rng = random.Random(2)
    repeat = args.repeat

    async def leaderboard(stat: str, scope: int, period: str) -> None:
        user = rng.randint(1, args.players)
        await store.leaderboard(
            GUILD, stat, channel_id=scope, period=period, now=now, offset=rng.randrange(0, 50) * 10
        )
        await store.rank_of(GUILD, stat, user, channel_id=scope, period=period, now=now)

    for stat in STATS:
        await timed(
            f"/leaderboard {stat} (server, all)",
            lambda _i, s=stat: leaderboard(s, 0, "all"),
            repeat,
            results,
        )
    await timed(
        "/leaderboard sips (server, month)",
        lambda _i: leaderboard("sips", 0, "month"),
        repeat,
        results,
    )
    await timed(
        "/leaderboard winrate (channel, week)",
        lambda _i: leaderboard("winrate", 120, "week"),
        repeat,
        results,
    )
    for stat in ("rating_bluff", "rating_open"):
        for scope, period in ((0, "month"), (120, "all"), (120, "month")):
            where = "server" if scope == 0 else "channel"
            await timed(
                f"/leaderboard {stat} ({where}, {period})",
                lambda _i, s=stat, c=scope, p=period: leaderboard(s, c, p),
                repeat,
                results,
            )

    async def card(_i: int) -> None:
        user = rng.randint(1, args.players)
        await store.player_totals(GUILD, user)
        await store.favourite_claim(GUILD, user)
        await store.nemesis(GUILD, user)

    await timed("/stats card queries", card, repeat, results)
    await timed(
        "/history 10", lambda _i: store.history(100 + rng.randrange(50), 10), repeat, results
    )
    await store.close()
    print(f"\n{'query':42} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    worst = 0.0
    for label, samples in results.items():
        samples.sort()
        p95 = samples[int(len(samples) * 0.95) - 1]
        worst = max(worst, p95)
        print(f"{label:42} {statistics.median(samples):10.2f} {p95:8.2f} {samples[-1]:8.2f}")
    print(f"\nworst p95: {worst:.2f} ms (target: at most 20 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--db", help="folder for the database file (default: a temp folder)")
    parser.add_argument(
        "--database",
        help="an empty database's URL instead, e.g. postgresql://user@host/bench;"
        f" '{THROWAWAY}' starts a throwaway PostgreSQL server",
    )
    args = parser.parse_args()
    if args.database != THROWAWAY:
        running.run(run(args))
        return
    with postgres(args.database) as server:
        args.database = server.fresh("stats_bench")
        print(server.describe())
        running.run(run(args))


if __name__ == "__main__":
    main()
