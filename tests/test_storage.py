"""Storage against a real SQLite file and a real PostgreSQL database: migrations,
one-transaction moves, move numbers, concurrency. Most tests run on both backends
(``database_url``, tests/db_helpers.py); the file-level ones are SQLite's own."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai.opponents import DUEL_COUNTS, PROFILE_COUNTS
from bot.engine import Game
from bot.storage import (
    MIGRATIONS,
    PROFILE_COLUMNS,
    SCHEMA_VERSION,
    TOTALS_COLUMNS,
    ChannelBusyError,
    DatabaseUrl,
    GameNotFoundError,
    PlayerTotals,
    SchemaTooNewError,
    SqliteStorage,
    StaleGameError,
    StateJson,
    Storage,
    StorageError,
    games,
    open_storage,
)
from bot.storage.dialect import numbered

from .db_helpers import (
    INTEGRITY_ERRORS,
    SQL_ERRORS,
    database_url_fixture,
    set_stored_version,
    stored_version,
    table_names,
)

GUILD = 10
CHANNEL = 20


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")
        return {row[0] for row in rows}


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


database_url = database_url_fixture()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "folder" / "test.db"


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    """An up-to-date store on each backend in turn (in place of conftest's SQLite one)."""
    opened = await open_storage(database_url)
    try:
        yield opened
    finally:
        await opened.close()


# ------------------------------------------------------------------------- migrations


async def test_fresh_file_is_created_migrated_and_in_wal_mode(db_path: Path) -> None:
    store = await Storage.open(db_path)
    assert await store.schema_version() == SCHEMA_VERSION
    async with store._conn.execute("PRAGMA foreign_keys") as cursor:
        assert (await cursor.fetchone())[0] == 1
    await store.close()

    assert db_path.is_file()
    assert user_version(db_path) == SCHEMA_VERSION
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {
        "games",
        "game_events",
        "stat_buckets",
        "rounds",
        "claim_counts",
        "catches",
        "one_open_game_per_channel",
    } <= tables(db_path)
    assert "player_totals" not in tables(db_path)  # folded into stat_buckets by step 4


async def test_a_fresh_database_gets_every_table(database_url: str) -> None:
    async with await Storage.open(database_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION
    assert await stored_version(database_url) == SCHEMA_VERSION
    names = await table_names(database_url)
    assert {
        "games",
        "game_events",
        "stat_buckets",
        "rounds",
        "claim_counts",
        "catches",
        "one_open_game_per_channel",
    } <= names
    assert "player_totals" not in names


async def test_empty_existing_file_comes_up_to_date(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"")
    async with await Storage.open(db_path) as store:
        assert await store.schema_version() == SCHEMA_VERSION


def test_there_are_at_least_two_migration_steps() -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 2


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
async def test_every_older_version_comes_up_to_date(database_url: str, version: int) -> None:
    old = await Storage.open(database_url, migrations=MIGRATIONS[:version])
    assert await old.schema_version() == version
    game_id = None
    if version >= 1:  # the games table exists from step 1: data must survive upgrades
        game_id = (await old.create_game(GUILD, CHANNEL, "mexen", '{"round": 1}')).id
    await old.close()

    async with await Storage.open(database_url) as store:
        assert await store.schema_version() == SCHEMA_VERSION
        if game_id is not None:
            game = await store.get_game(game_id)
            assert game is not None and game.state_json == '{"round": 1}'
            assert game.move_no == 0  # step 5 numbers the moves of games already there
        # Everything from later steps works on the upgraded file.
        with pytest.raises(ChannelBusyError) if game_id else _nothing():
            await store.create_game(GUILD, CHANNEL, "mexen", "{}")
        assert (await store.player_totals(GUILD, 1)).sips == 0


async def test_reopening_an_up_to_date_file_changes_nothing(database_url: str) -> None:
    async with await Storage.open(database_url) as store:
        await store.create_game(GUILD, CHANNEL, "dollar", "{}")
    async with await Storage.open(database_url) as store:
        assert len(await store.load_running_games()) == 1
        assert await store.schema_version() == SCHEMA_VERSION


async def test_newer_schema_is_refused(database_url: str) -> None:
    await (await Storage.open(database_url)).close()
    await set_stored_version(database_url, SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNewError):
        await Storage.open(database_url)


async def test_a_failing_migration_step_leaves_the_previous_version(database_url: str) -> None:
    broken = (*MIGRATIONS, ("CREATE TABLE half_done (a INTEGER)", "THIS IS NOT SQL"))
    with pytest.raises(SQL_ERRORS):
        await Storage.open(database_url, migrations=broken)
    assert await stored_version(database_url) == SCHEMA_VERSION
    assert "half_done" not in await table_names(database_url)


# ------------------------------------------------------------------------ games, moves


async def test_one_open_game_per_channel(storage: Storage) -> None:
    first = await storage.create_game(GUILD, CHANNEL, "mexican", "{}")
    with pytest.raises(ChannelBusyError):
        await storage.create_game(GUILD, CHANNEL, "mexico", "{}")
    other_channel = await storage.create_game(GUILD, CHANNEL + 1, "mexico", "{}")

    assert await storage.get_game_for_channel(CHANNEL) == first
    await storage.save_move(first.id, '{"done": true}', "over")
    assert await storage.get_game_for_channel(CHANNEL) is None
    second = await storage.create_game(GUILD, CHANNEL, "mexico", "{}")
    assert [g.id for g in await storage.load_running_games()] == [other_channel.id, second.id]


async def test_save_move_writes_state_events_and_totals(database_url: str) -> None:
    ticks = iter([100.0, 200.0, 300.0])
    async with await Storage.open(database_url, clock=lambda: next(ticks)) as store:
        game = await store.create_game(GUILD, CHANNEL, "mexen", '{"v": 0}')
        assert (game.created_at, game.updated_at, game.status) == (100.0, 100.0, "lobby")

        seqs = await store.save_move(
            game.id,
            '{"v": 1}',
            "running",
            [("rolled", {"player": 1, "dice": [2, 1]}), ("turn_ended", {})],
            {(GUILD, 1): {"rolls_made": 1, "mex_rolled": 1}},
        )
        assert seqs == [1, 2]
        seqs = await store.save_move(
            game.id,
            '{"v": 2}',
            "running",
            [("lost", {"player": 2})],
            {(GUILD, 1): {"rolls_made": 2}, (GUILD, 2): {"sips": 4, "rounds_lost": 1}},
        )
        assert seqs == [3]

        saved = await store.get_game(game.id)
        assert saved is not None
        assert (saved.state_json, saved.status, saved.created_at, saved.updated_at) == (
            '{"v": 2}',
            "running",
            100.0,
            300.0,
        )
        events = await store.events(game.id)
        assert [(e.seq, e.kind, e.payload) for e in events] == [
            (1, "rolled", {"player": 1, "dice": [2, 1]}),
            (2, "turn_ended", {}),
            (3, "lost", {"player": 2}),
        ]
        assert [e.created_at for e in events] == [200.0, 200.0, 300.0]
        one = await store.player_totals(GUILD, 1)
        assert (one.rolls_made, one.mex_rolled, one.sips) == (3, 1, 0)
        two = await store.player_totals(GUILD, 2)
        assert (two.sips, two.rounds_lost) == (4, 1)
        # Totals are per guild.
        assert await store.player_totals(GUILD + 1, 2) == PlayerTotals(GUILD + 1, 2)


async def test_play_profiles_add_up_apart_from_the_leaderboards(database_url: str) -> None:
    """How someone plays is kept per server, all time, in its own table: the computers
    read it with the counters, the leaderboards' buckets never carry it, and a reset of
    the server's statistics wipes it too."""
    async with await Storage.open(database_url) as store:
        game = await store.create_game(GUILD, CHANNEL, "dollar", "{}")
        for move in range(1, 3):
            await store.save_move(
                game.id,
                f'{{"v": {move}}}',
                "running",
                [("claimed", {})],
                {
                    (GUILD, 1): {"calls_made": 1, "faced_12": 1, "called_12": 1},
                    (GUILD, 2): {"rolls_made": 1, "free_claims": 1, "raise_steps": 3},
                },
                channel_id=CHANNEL,
            )
        found = await store.player_records(GUILD, [1, 2])
        one, two = found[1][0], found[2][0]
        assert (one["calls_made"], one["faced_12"], one["called_12"]) == (2, 2, 2)
        assert (two["free_claims"], two["raise_steps"], two["calls_made"]) == (2, 6, 0)
        assert set(one) == {*TOTALS_COLUMNS, *PROFILE_COLUMNS}
        assert await store.count_rows("play_profiles") == 2
        assert await store.reset_guild_stats(GUILD) > 0
        assert await store.count_rows("play_profiles") == 0


async def test_a_reset_wipes_the_servers_league_but_not_which_games_were_rated(
    database_url: str,
) -> None:
    """/resetleaderboard starts the league afresh too (ratings and the channels they were
    played in, achievements and their progress, seasons and champions), on that server
    only; the list of rated games stays, so catching up never rates an old game again."""
    league = (
        "ratings",
        "achievements",
        "achievement_progress",
        "seasons",
        "closed_seasons",
        "rated_channel_players",
    )
    async with await Storage.open(database_url) as store:
        for guild in (GUILD, GUILD + 1):
            await store._write(
                [
                    (
                        "INSERT INTO stat_buckets (guild_id, channel_id, period, user_id, sips)"
                        " VALUES (?, 0, 'all', 1, 1)",
                        (guild,),
                    ),
                    (
                        "INSERT INTO ratings VALUES (?, 'bluff', 1, 25.0, 8.0, 1000, 1, 5.0)",
                        (guild,),
                    ),
                    (
                        "INSERT INTO rated_games VALUES (?, ?, 'bluff', 5.0, '{}', NULL)",
                        (guild, guild),
                    ),
                    ("INSERT INTO rated_channel_players VALUES (?, 'bluff', 9, 1, 5.0)", (guild,)),
                    (
                        "INSERT INTO achievements VALUES (?, 1, 'first_game', ?, 5.0)",
                        (guild, guild),
                    ),
                    ("INSERT INTO achievement_progress VALUES (?, 1, 'games', 1)", (guild,)),
                    ("INSERT INTO seasons VALUES (?, 'month', '2026-12')", (guild,)),
                    (
                        "INSERT INTO closed_seasons (guild_id, season, closed_at, champions)"
                        " VALUES (?, '2026-11', 5.0, '[]')",
                        (guild,),
                    ),
                ]
            )
        assert await store.reset_guild_stats(GUILD) == 1
        for table in (*league, "stat_buckets"):
            assert await store.count_rows(table) == 1, table  # the other server's
        assert await store.count_rows("rated_games") == 2


async def test_finished_and_unknown_games_are_read_only(storage: Storage) -> None:
    game = await storage.create_game(GUILD, CHANNEL, "dollar", "{}")
    await storage.save_move(game.id, "{}", "over", [("game_over", {"winner": 1})])
    with pytest.raises(GameNotFoundError):
        await storage.save_move(game.id, "{}", "running")
    with pytest.raises(GameNotFoundError):
        await storage.save_move(9999, "{}", "running")
    assert len(await storage.events(game.id)) == 1


async def test_timestamps_can_be_passed_in(storage: Storage) -> None:
    game = await storage.create_game(GUILD, CHANNEL, "mexico", "{}", now=5.0)
    await storage.save_move(game.id, "{}", "running", [("x", {})], now=7.5)
    saved = await storage.get_game(game.id)
    assert saved is not None and (saved.created_at, saved.updated_at) == (5.0, 7.5)
    assert (await storage.events(game.id))[0].created_at == 7.5


async def test_many_games_writing_at_once(storage: Storage) -> None:
    games = [await storage.create_game(GUILD, 1000 + i, "mexen", "{}") for i in range(25)]
    moves = 6

    async def play(game_id: int, move: int) -> list[int]:
        return await storage.save_move(
            game_id,
            json.dumps({"move": move}),
            "running",
            [("rolled", {"move": move}), ("passed", {"move": move})],
            {(GUILD, 7): {"rolls_made": 1}, (GUILD, 10_000 + game_id): {"sips": move}},
        )

    results = await asyncio.gather(*(play(g.id, m) for m in range(moves) for g in games))

    assert sorted(seq for seqs in results for seq in seqs) == sorted(
        list(range(1, 2 * moves + 1)) * len(games)
    )
    for game in games:
        events = await storage.events(game.id)
        assert [e.seq for e in events] == list(range(1, 2 * moves + 1))
        # A move's two events are always adjacent: no interleaving inside a move.
        assert all(events[i].payload == events[i + 1].payload for i in range(0, len(events), 2))
        assert (await storage.player_totals(GUILD, 10_000 + game.id)).sips == sum(range(moves))
    assert (await storage.player_totals(GUILD, 7)).rolls_made == moves * len(games)


async def test_moves_that_arrive_together_share_one_commit_and_fail_alone(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Group commit (SQLite): moves of several channels that wait together are written in
    one transaction, each answered after its COMMIT; one that fails there (a stale move
    number) is rolled back alone and the others are stored."""
    import bot.storage.sqlite as db_module

    groups: list[int] = []
    real = db_module._write_group

    def counting(db: sqlite3.Connection, writes: list) -> list:
        groups.append(len(writes))
        return real(db, writes)

    monkeypatch.setattr(db_module, "_write_group", counting)
    async with await SqliteStorage.open(db_path) as store:
        games = [await store.create_game(GUILD, 100 + i, "mexen", "{}") for i in range(4)]
        results = await asyncio.gather(
            *(
                store.save_move(
                    g.id,
                    json.dumps({"n": i}),
                    "running",
                    [("m", {"n": i})],
                    {(GUILD, 1): {"sips": 1}},
                    expect_move_no=1 if i == 2 else 0,
                )
                for i, g in enumerate(games)
            ),
            return_exceptions=True,
        )
        assert groups == [4]
        assert isinstance(results[2], StaleGameError)
        assert [r for i, r in enumerate(results) if i != 2] == [[1], [1], [1]]
        stored = [await store.get_game(g.id) for g in games]
        assert [r.move_no for r in stored if r is not None] == [1, 1, 0, 1]
        assert await store.events(games[2].id) == []
        assert (await store.player_totals(GUILD, 1)).sips == 3
        # Alone, a move is written at once, in a group of its own.
        assert await store.save_move(games[0].id, "{}", "running", [("m", {})]) == [2]
        assert groups == [4, 1]


# ------------------------------------------------------------------ failed transactions


async def _snapshot(storage: Storage, game_id: int) -> tuple[object, ...]:
    return (
        await storage.get_game(game_id),
        await storage.events(game_id),
        await storage.player_totals(GUILD, 1),
        await storage.player_totals(GUILD, 2),
    )


async def test_failure_mid_save_leaves_nothing_behind(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await storage.create_game(GUILD, CHANNEL, "mexican", '{"v": 0}')
    await storage.save_move(game.id, '{"v": 1}', "running", [("a", {})], {(GUILD, 1): {"sips": 1}})
    before = await _snapshot(storage, game.id)

    def explode(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    # The state update and the events are already written when the totals step fails.
    monkeypatch.setattr(games, "add_totals", explode)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await storage.save_move(
            game.id, '{"v": 2}', "over", [("b", {}), ("c", {})], {(GUILD, 1): {"sips": 5}}
        )
    monkeypatch.undo()

    assert await _snapshot(storage, game.id) == before
    # And the store is still usable afterwards.
    assert await storage.save_move(game.id, '{"v": 2}', "running", [("b", {})]) == [2]


async def test_a_new_game_and_its_first_events_are_one_transaction(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/newgame used to write the game and its log entry in two steps: a stop between
    them left a lobby without its entry. Now a failure while logging leaves no game."""

    def explode(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(games, "append_events", explode)
    with pytest.raises(RuntimeError, match="disk on fire"):
        await storage.create_game(GUILD, CHANNEL, "mexen", "{}", events=[("move", {"n": 1})])
    monkeypatch.undo()
    assert await storage.get_game_for_channel(CHANNEL) is None
    game = await storage.create_game(GUILD, CHANNEL, "mexen", "{}", events=[("move", {"n": 1})])
    assert [(e.seq, e.kind, e.payload) for e in await storage.events(game.id)] == [
        (1, "move", {"n": 1})
    ]


async def test_constraint_violation_on_last_player_rolls_back_the_whole_move(
    storage: Storage,
) -> None:
    game = await storage.create_game(GUILD, CHANNEL, "mexican", "{}")
    before = await _snapshot(storage, game.id)
    with pytest.raises(INTEGRITY_ERRORS):
        await storage.save_move(
            game.id,
            '{"v": 9}',
            "running",
            [("a", {}), ("b", {})],
            {(GUILD, 1): {"sips": 3}, (GUILD, 2): {"shots": -1}},  # totals never go below 0
        )
    assert await _snapshot(storage, game.id) == before


@pytest.mark.parametrize(
    ("events", "deltas", "error"),
    [
        ([("ok", {}), ("bad", {"x": object()})], {}, TypeError),
        ([("", {})], {}, ValueError),
        ([], {(GUILD, 1): {"no_such_column": 1}}, ValueError),
        ([], {(GUILD, 1): {"sips": "1; DROP TABLE games"}}, TypeError),
        ([], {(GUILD, 1): {"sips": True}}, TypeError),
    ],
)
async def test_bad_input_is_refused_before_anything_is_written(
    storage: Storage, events: list, deltas: dict, error: type[Exception]
) -> None:
    game = await storage.create_game(GUILD, CHANNEL, "mexican", "{}")
    before = await _snapshot(storage, game.id)
    with pytest.raises(error):
        await storage.save_move(game.id, '{"v": 1}', "running", events, deltas)
    assert await _snapshot(storage, game.id) == before


async def test_state_must_be_json_and_status_known(storage: Storage) -> None:
    with pytest.raises(ValueError):
        await storage.create_game(GUILD, CHANNEL, "mexican", "not json")
    with pytest.raises(ValueError):
        await storage.create_game(GUILD, CHANNEL, "mexican", "{}", status="over")
    game = await storage.create_game(GUILD, CHANNEL, "mexican", "{}")
    with pytest.raises(ValueError):
        await storage.save_move(game.id, "{}", "paused")  # type: ignore[arg-type]


def test_a_state_the_table_service_serialised_is_not_parsed_again() -> None:
    """Its maker's orjson made it JSON: one parse per move saved (docs/benchmarks.md);
    any other text is still parsed before a transaction starts."""
    from bot.game.tables import Table
    from bot.storage.games import check_json

    check_json(StateJson("not parsed: its maker vouches"))
    with pytest.raises(ValueError):
        check_json("not json")
    table = Table(1, GUILD, CHANNEL, Game.create("mexican", "1"))
    state = table.state_json()
    assert type(state) is StateJson and json.loads(state)["engine"]
    Table(1, GUILD, CHANNEL, Game.create("mexican", "2")).restore(state)  # orjson reads it


# ------------------------------------------------------------------------------ misc


def test_player_totals_fields_match_the_schema() -> None:
    names = [f.name for f in dataclasses.fields(PlayerTotals)]
    assert names == ["guild_id", "user_id", *TOTALS_COLUMNS]
    # The counters of how someone plays, which only the computers read, live apart.
    modelled = [*PROFILE_COUNTS, *(f"faced_{r}" for r in range(21))]
    modelled += [f"called_{r}" for r in range(21)]
    modelled += DUEL_COUNTS
    assert list(PROFILE_COLUMNS) == modelled


async def test_close_is_idempotent_and_final(database_url: str) -> None:
    store = await Storage.open(database_url)
    await store.close()
    await store.close()
    assert store.closed
    with pytest.raises(StorageError):
        await store.create_game(GUILD, CHANNEL, "mexican", "{}")


class _nothing:
    """A do-nothing context manager, for a `with` that only sometimes expects an error."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_the_backends_spell_no_query_of_the_bots_tables() -> None:
    """Every query and write is written once, over the driver seam (bot/storage/driver.py):
    a backend module that named one of the bot's tables in SQL would be a second copy
    of a write, free to drift from the first."""
    import re

    import bot.storage.postgres as postgres
    import bot.storage.sqlite as sqlite
    from bot.storage import DATA_TABLES, PROCESS_TABLES

    tables = "|".join([*DATA_TABLES, *PROCESS_TABLES])
    spelled = re.compile(rf"\b(?:INSERT INTO|UPDATE|DELETE FROM|FROM|JOIN)\s+(?:{tables})\b")
    for module in (sqlite, postgres):
        assert module.__file__ is not None
        assert spelled.findall(Path(module.__file__).read_text("utf-8")) == [], module.__name__
    assert spelled.search("UPDATE games SET move_no = 1")  # not a test of nothing


def test_the_methods_answered_by_query_modules_are_timed_like_the_others() -> None:
    """Storage hands most calls to a query module; each is still a coroutine function of
    the class under its own name, which is what the metrics time (bot/runtime/metrics.py)."""
    from bot.runtime.metrics import storage_operations
    from bot.storage.postgres import PostgresStorage

    for backend in (SqliteStorage, PostgresStorage):
        timed = set(storage_operations(backend.__new__(backend)))
        assert {
            "save_move",
            "create_game",
            "leaderboard",
            "season_top",
            "take_shard_leases",
            "count_rows",
            "load_rows",
            "ping",
        } <= timed


def test_the_aiosqlite_worker_hook_used_for_one_call_per_move_exists() -> None:
    import inspect

    import aiosqlite

    hook = aiosqlite.Connection._execute
    assert inspect.iscoroutinefunction(hook)
    assert list(inspect.signature(hook).parameters)[:2] == ["self", "fn"]


# ---------------------------------------------------------------- move numbers, locks


async def test_every_saved_move_counts_and_a_stale_number_writes_nothing(
    storage: Storage,
) -> None:
    """The guard that keeps two processes from both moving one game: a move is written
    only on the move number its process read."""
    game = await storage.create_game(GUILD, CHANNEL, "mexen", '{"v": 0}')
    assert game.move_no == 0
    assert await storage.save_move(
        game.id, '{"v": 1}', "running", [("a", {})], expect_move_no=0
    ) == [1]
    assert await storage.save_move(game.id, '{"v": 2}', "running", [("b", {})]) == [2]
    saved = await storage.get_game(game.id)
    assert saved is not None and saved.move_no == 2
    before = await _snapshot(storage, game.id)

    with pytest.raises(StaleGameError):  # read at move 1: someone else saved move 2
        await storage.save_move(
            game.id,
            '{"v": "late"}',
            "over",
            [("late", {})],
            {(GUILD, 1): {"sips": 9}},
            expect_move_no=1,
        )
    assert await _snapshot(storage, game.id) == before
    assert await storage.save_move(game.id, '{"v": 3}', "over", expect_move_no=2) == []
    # Finished by another process: stale for whoever still holds move 2.
    with pytest.raises(StaleGameError):
        await storage.save_move(game.id, "{}", "running", expect_move_no=2)
    with pytest.raises(GameNotFoundError):
        await storage.save_move(game.id, "{}", "running", expect_move_no=3)
    assert issubclass(StaleGameError, StorageError)


async def test_two_writers_on_one_number_exactly_one_wins(database_url: str) -> None:
    """Two connections (two processes) save a move on the same number at once."""
    async with await Storage.open(database_url) as one, await Storage.open(database_url) as two:
        game = await one.create_game(GUILD, CHANNEL, "mexen", "{}")
        results = await asyncio.gather(
            *(
                store.save_move(
                    game.id,
                    json.dumps({"by": n}),
                    "running",
                    [("m", {"by": n})],
                    channel_id=CHANNEL,
                    expect_move_no=0,
                )
                for n, store in enumerate((one, two, one, two))
            ),
            return_exceptions=True,
        )
        assert sum(r == [1] for r in results) == 1
        assert sum(isinstance(r, StaleGameError) for r in results) == 3
        events = await two.events(game.id)
        saved = await two.get_game(game.id)
        assert saved is not None and saved.move_no == 1
        assert [e.seq for e in events] == [1]
        assert saved.state_json == json.dumps(events[0].payload)


@pytest.mark.slow
async def test_a_move_on_postgresql_waits_for_the_channels_advisory_lock(
    postgres_url: str,
) -> None:
    """Writers of one channel queue on pg_advisory_xact_lock(channel_id); another
    channel's move does not wait."""
    import asyncpg

    async with await Storage.open(postgres_url) as store:
        game = await store.create_game(GUILD, CHANNEL, "mexen", "{}")
        other = await store.create_game(GUILD, CHANNEL + 1, "mexen", "{}")
        holder = await asyncpg.connect(postgres_url)
        try:
            tx = holder.transaction()
            await tx.start()
            await holder.execute("SELECT pg_advisory_xact_lock($1)", CHANNEL)
            waiting = asyncio.create_task(
                store.save_move(game.id, "{}", "running", channel_id=CHANNEL, expect_move_no=0)
            )
            await store.save_move(other.id, "{}", "running", channel_id=CHANNEL + 1)
            await asyncio.sleep(0.3)
            assert not waiting.done()
            await tx.rollback()
            assert await asyncio.wait_for(waiting, 5) == []
        finally:
            await holder.close()


@pytest.mark.slow
async def test_postgresql_connections_go_back_to_the_pool_holding_nothing(
    postgres_url: str,
) -> None:
    """The pool skips asyncpg's reset query (a round trip a call), which is safe only
    because the bot leaves no session state: after the migration lock, a league
    transaction, a move and a failed move, no connection holds an advisory lock or an
    open transaction, and the lock of a failed move's channel is free again."""
    import asyncpg

    async with await Storage.open(postgres_url) as store:
        game = await store.create_game(GUILD, CHANNEL, "mexen", "{}")
        await store.save_move(game.id, "{}", "running", channel_id=CHANNEL)
        async with store.guild_transaction(GUILD) as tx:
            assert await tx.fetch_each([("SELECT 1", ()), ("SELECT 2 WHERE FALSE", ())]) == [
                [(1,)],
                [],
            ]
        with pytest.raises(StaleGameError):
            await store.save_move(game.id, "{}", "running", channel_id=CHANNEL, expect_move_no=0)
        with pytest.raises(RuntimeError):
            async with store.guild_transaction(GUILD):
                raise RuntimeError("a league transaction that fails half-way")
        watcher = await asyncpg.connect(postgres_url)
        try:
            locks = await watcher.fetchval(
                "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'"
            )
            busy = await watcher.fetchval(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state <> 'idle'"
            )
            assert (locks, busy) == (0, 0)
            async with watcher.transaction():  # the failed move's channel lock is free
                assert await watcher.fetchval("SELECT pg_try_advisory_xact_lock($1)", CHANNEL)
        finally:
            await watcher.close()


# ------------------------------------------------------------------ URLs and dialects


def test_parameters_are_renumbered_for_asyncpg() -> None:
    assert numbered("SELECT a FROM t WHERE x = ? AND y = ?") == (
        "SELECT a FROM t WHERE x = $1 AND y = $2",
        2,
    )
    sql, order = numbered("SELECT :b, :a, :b, 'x:y?', n::text FROM t WHERE c = :a")
    assert sql == "SELECT $1, $2, $1, 'x:y?', n::text FROM t WHERE c = $2"
    assert order == ("b", "a")


@pytest.mark.parametrize(
    ("raw", "dialect", "path"),
    [
        ("sqlite:///data/mexican.db", "sqlite", Path("data/mexican.db")),
        ("sqlite:////srv/bot/mexican.db", "sqlite", Path("/srv/bot/mexican.db")),
        ("postgresql://bot:s3cr%40t@db.example:5432/mexican", "postgresql", None),
        ("postgres://bot:pw@localhost/mexican", "postgresql", None),
        ("postgresql://localhost/mexican", "postgresql", None),
    ],
)
def test_database_urls(raw: str, dialect: str, path: Path | None) -> None:
    url = DatabaseUrl.parse(raw)
    assert (url.dialect, url.path, url.get_secret_value()) == (dialect, path, raw)


def test_a_database_password_never_shows() -> None:
    url = DatabaseUrl.parse("postgresql://bot:s3cr%40t@db.example:5432/mexican")
    for shown in (str(url), repr(url), f"{url}", str([url])):
        assert "s3cr" not in shown
        assert "bot:***@db.example:5432/mexican" in shown
    assert set(url.secrets()) == {"s3cr%40t", "s3cr@t"}
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(url)


@pytest.mark.parametrize(
    "raw",
    [
        "mysql://bot:pw@host/db",
        "sqlite://relative.db",
        "sqlite:///",
        "postgresql://bot:pw@host:port/db",
        "postgresql://bot:pw@host:5432",
        "postgresql:///mexican",
    ],
)
def test_bad_database_urls_are_refused_without_the_password(raw: str) -> None:
    with pytest.raises(ValueError) as refused:
        DatabaseUrl.parse(raw)
    assert ":pw@" not in str(refused.value)


async def test_the_factory_picks_the_backend_from_the_url(
    database_url: str, tmp_path: Path
) -> None:
    async with await open_storage(database_url) as store:
        assert store.dialect == database_url.split(":", 1)[0]
    async with await SqliteStorage.open(tmp_path / "plain.db") as store:
        assert isinstance(store, SqliteStorage)


async def test_the_copied_tables_are_the_whole_schema(database_url: str) -> None:
    """`DATA_TABLES` (what migrate-db copies) names every table and column there is."""
    from bot.storage import DATA_TABLES, PROCESS_TABLES

    from .db_helpers import raw_fetch

    await (await open_storage(database_url)).close()
    for table, columns in DATA_TABLES.items():
        if database_url.startswith("sqlite"):
            rows = await raw_fetch(database_url, f"PRAGMA table_info({table})")
            found = {str(row[1]) for row in rows}
        else:
            rows = await raw_fetch(
                database_url,
                "SELECT column_name FROM information_schema.columns"
                f" WHERE table_schema = 'public' AND table_name = '{table}'",
            )
            found = {str(row[0]) for row in rows}
        assert found == set(columns), table
    if database_url.startswith("sqlite"):
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
    tables = {str(row[0]) for row in await raw_fetch(database_url, sql)}
    not_data = {"schema_version", "sqlite_sequence", *PROCESS_TABLES}
    assert tables - not_data == set(DATA_TABLES)
