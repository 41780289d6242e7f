"""The cluster soak benchmark's smallest run, end to end, so that it cannot rot unseen.

``benchmarks.cluster_bench --mode kill`` with one SIGKILL of shard 1's process and two
tables (README, Benchmarks): real bot processes, the stand-in, the session's PostgreSQL
server. The figures must be there and add up; the one kill must lose nothing.
"""

from __future__ import annotations

import pytest

from benchmarks.cluster_bench import amain, parse
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.slow  # starts bot processes and PostgreSQL


async def test_smallest_kill_run_reports_sane_figures(postgres_server: PostgresServer) -> None:
    args = parse(
        [
            "--mode",
            "kill",
            "--kills",
            "1",
            "--tables",
            "2",
            "--seconds",
            "1",
            "--stuck-seconds",
            "3",
        ]
    )
    report = await amain(args, postgres_server)

    kill = report["kill"]
    assert kill["kills"] == 1 and kill["tables"] == 2
    assert kill["acknowledged"] > 0
    assert kill["lost"] == 0 and kill["doubled"] == 0
    # Every stored move a player made was acknowledged, or sent and never answered.
    assert kill["acknowledged"] <= kill["stored"] <= kill["acknowledged"] + kill["unanswered"]
    assert 0 < kill["shard0_answered"] <= kill["shard0_sent"]
    assert kill["shard0_p99_ms"] is not None and kill["shard0_p99_ms"] > 0
    assert kill["restarts_never_answering"] == 0
    assert 0 < kill["restart_answer_median_s"] <= kill["restart_answer_max_s"] < 60
    assert 0 <= kill["reposts_after_newer_move"] <= kill["reposts"]
    assert set(kill["tracebacks"]) == {"shard0.log", "shard1.log"}
    assert kill["exit_codes"] == {"shard0": 0, "shard1": 0}
    assert kill["runtime_s"] > 0
