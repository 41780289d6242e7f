"""bot/runtime/metrics.py and bot/runtime/monitor.py in-process (README, Running at scale:
Metrics and health): the metrics' names and labels, counting at the table service and the storage
boundary, the gauges and health checks read from a bot, and the settings that turn it on.
The same, over the wire against a real process: tests/test_metrics_wire.py."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bot.engine import Act, GameError, Move
from bot.game.tables import NoGameHere, TableService
from bot.runtime import monitor
from bot.runtime.metrics import Metrics, Snapshot, instrument, refusal_reason
from bot.runtime.settings import DEFAULT_POOL_SIZE, SettingsError, parse_settings
from bot.storage import StaleGameError, Storage, open_storage
from bot.storage.postgres import POOL_SIZE

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-part-of-the-token"


def samples(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = metrics.render().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_refusal_reasons_are_catalog_keys_never_sentences() -> None:
    assert refusal_reason(GameError("not-your-turn", player="123456789")) == "not-your-turn"
    # a sentence raised outside the engine's table is named by its class
    sentence = NoGameHere("There's no game in this channel. Start one with /newgame.")
    assert refusal_reason(sentence) == "no-game-here"
    assert refusal_reason(GameError("Typed <@123> here")) == "game-error"


def test_each_bot_counts_on_a_registry_of_its_own() -> None:
    one, two = Metrics(), Metrics()
    one.moved("roll")
    one.refused(GameError("not-your-turn"))
    one.called_discord("POST", "/channels/{channel_id}/messages")
    one.answer_seconds.observe(0.2)
    first, second = samples(one), samples(two)
    assert first[("mexican_moves_total", (("act", "roll"),))] == 1
    assert first[("mexican_refusals_total", (("reason", "not-your-turn"),))] == 1
    route = (("method", "POST"), ("route", "/channels/{channel_id}/messages"))
    assert first[("mexican_discord_calls_total", route)] == 1
    assert first[("mexican_answer_seconds_count", ())] == 1
    assert ("mexican_moves_total", (("act", "roll"),)) not in second
    assert REGISTRY.get_sample_value("mexican_moves_total", {"act": "roll"}) is None


def test_gauges_are_read_when_scraped() -> None:
    now = {"snap": Snapshot()}
    metrics = Metrics(lambda: now["snap"])
    before = samples(metrics)
    assert before[("mexican_games_running", (("phase", "lobby"),))] == 0
    assert before[("mexican_games_running", (("phase", "playing"),))] == 0
    now["snap"] = Snapshot({"lobby": 1, "playing": 3}, thinking=2, shards_held=4)
    after = samples(metrics)
    assert after[("mexican_games_running", (("phase", "playing"),))] == 3
    assert after[("mexican_games_running", (("phase", "lobby"),))] == 1
    assert after[("mexican_computers_thinking", ())] == 2
    assert after[("mexican_shards_held", ())] == 4


class _Store:
    async def get_game(self, game_id: int) -> int:
        return game_id

    async def save_move(self) -> None:
        raise StaleGameError("another process moved first")

    async def load_running_games(self) -> None:
        raise OSError("disk gone")

    async def close(self) -> None: ...


async def test_storage_calls_are_timed_and_failures_counted_on_the_instance_only() -> None:
    metrics = Metrics()
    store, other = _Store(), _Store()
    names = instrument(metrics, store, (StaleGameError,))
    assert sorted(names) == ["get_game", "load_running_games", "save_move"]  # not close
    assert await store.get_game(7) == 7
    with pytest.raises(StaleGameError):
        await store.save_move()
    with pytest.raises(OSError):
        await store.load_running_games()
    await other.get_game(1)  # another instance is not counted
    got = samples(metrics)
    op = "operation"
    assert got[("mexican_database_seconds_count", ((op, "get_game"),))] == 1
    assert got[("mexican_database_seconds_count", ((op, "save_move"),))] == 1
    assert got[("mexican_database_errors_total", ((op, "load_running_games"),))] == 1
    assert got.get(("mexican_database_errors_total", ((op, "save_move"),)), 0) == 0  # an answer
    assert "get_game" not in vars(other)


async def test_moves_and_refusals_counted_at_the_table_service(storage: Storage) -> None:
    metrics = Metrics()
    tables = TableService(storage, random.Random(3))
    monitor.count_moves(metrics, tables)
    instrument(metrics, storage, monitor.EXPECTED_STORAGE)
    await tables.open_table(1, 10, "100", "mexican", {"turn_timer": 0}, now=1.0)
    await tables.act(10, "200", Move(Act.JOIN), now=2.0)
    await tables.act(10, "100", Move(Act.START), now=3.0)
    with pytest.raises(GameError):
        await tables.act(10, "300", Move(Act.ROLL), now=4.0)  # not at the table
    with pytest.raises(GameError):
        await tables.act(11, "100", Move(Act.ROLL), now=4.0)  # no game in that channel
    got = samples(metrics)
    moves = {dict(ls)["act"]: v for (n, ls), v in got.items() if n == "mexican_moves_total"}
    assert moves == {"newgame": 1, "join": 1, "start": 1}
    reasons = {dict(ls)["reason"]: v for (n, ls), v in got.items() if n.endswith("refusals_total")}
    assert reasons == {"not-in-game": 1, "no-game-here": 1}
    assert got[("mexican_database_seconds_count", (("operation", "save_move"),))] == 2


def _bot(**attrs: Any) -> Any:
    table = SimpleNamespace
    tables = {1: table(game=table(phase="lobby")), 2: table(game=table(phase="playing"))}
    task = SimpleNamespace(done=lambda: False)
    base = {
        "tables": SimpleNamespace(tables=tables),
        "dealer": SimpleNamespace(thinking={2: task}),
        "sharding": None,
        "is_closed": lambda: False,
        "is_ready": lambda: True,
    }
    return SimpleNamespace(**{**base, **attrs})


def test_snapshot_reads_tables_computers_and_shards() -> None:
    snap = monitor.snapshot(_bot())
    assert snap == Snapshot({"lobby": 1, "playing": 1}, thinking=1, shards_held=1)
    sharded = monitor.snapshot(_bot(sharding=SimpleNamespace(ids=(0, 2))))
    assert sharded.shards_held == 2
    leased = _bot(leases=SimpleNamespace(held=(3,), ok=True), sharding=SimpleNamespace(ids=(0,)))
    assert monitor.snapshot(leased).shards_held == 1
    assert monitor.shards_held(leased) == (3,)


async def test_health_names_each_check(storage: Storage) -> None:
    assert await monitor.health(_bot(), storage) == {
        "gateway": True,
        "database": True,
        "shards": True,
    }
    lost = _bot(leases=SimpleNamespace(held=(), ok=False), is_ready=lambda: False)
    assert await monitor.health(lost, storage) == {
        "gateway": False,
        "database": True,
        "shards": False,
    }
    await storage.close()
    assert (await monitor.health(_bot(), storage))["database"] is False


def test_metrics_settings() -> None:
    off = parse_settings({"DISCORD_TOKEN": TOKEN})
    assert off.metrics_port is None and off.metrics_host == "127.0.0.1"
    assert off.database_pool_size == DEFAULT_POOL_SIZE == POOL_SIZE == 8
    on = parse_settings(
        {
            "DISCORD_TOKEN": TOKEN,
            "METRICS_PORT": "9108",
            "METRICS_HOST": "0.0.0.0",
            "DATABASE_POOL_SIZE": "20",
        }
    )
    assert (on.metrics_port, on.metrics_host, on.database_pool_size) == (9108, "0.0.0.0", 20)


@pytest.mark.parametrize(
    ("values", "names"),
    [
        ({"METRICS_PORT": "0"}, "METRICS_PORT"),
        ({"METRICS_PORT": "65536"}, "METRICS_PORT"),
        ({"METRICS_PORT": "http"}, "METRICS_PORT"),
        ({"METRICS_HOST": "0.0.0.0"}, "METRICS_HOST=0.0.0.0 needs METRICS_PORT"),
        ({"METRICS_PORT": "9108", "METRICS_HOST": "http://x/"}, "METRICS_HOST"),
        ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE"),
        ({"DATABASE_POOL_SIZE": "101"}, "DATABASE_POOL_SIZE"),
        ({"DATABASE_POOL_SIZE": "eight"}, "DATABASE_POOL_SIZE"),
    ],
)
def test_bad_metrics_settings_name_themselves(values: dict[str, str], names: str) -> None:
    with pytest.raises(SettingsError, match=names):
        parse_settings({"DISCORD_TOKEN": TOKEN, **values})


@pytest.mark.slow
async def test_pool_size_reaches_postgresql(postgres_url: str) -> None:
    store = await open_storage(postgres_url, pool_size=3)
    try:
        assert store._pool.get_max_size() == 3  # type: ignore[attr-defined]
        await store.ping()
    finally:
        await store.close()


async def test_ping_answers_on_sqlite_and_raises_once_closed(tmp_path: Path) -> None:
    store = await open_storage(tmp_path / "x.db")
    await store.ping()
    await store.close()
    with pytest.raises(Exception):  # noqa: B017 - whatever the backend raises
        await store.ping()
