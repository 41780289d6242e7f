"""The PostgreSQL the tests run against (tests/support/postgres.py, README section Tests).

The storage, crash and shard tests trust ``postgres_url`` to be a real server and an
empty database of the test's own; these tests check that promise, and that a machine
without PostgreSQL skips those tests locally but fails them in CI, where a skip would
hide that they never ran.
"""

from __future__ import annotations

import os

import pytest

from tests.support import postgres
from tests.support.postgres import PostgresServer, postgres_or_skip

pytestmark = pytest.mark.slow  # starts PostgreSQL


async def test_postgres_url_is_an_empty_database_of_its_own(
    postgres_url: str, postgres_server: PostgresServer
) -> None:
    import asyncpg

    assert postgres_url.startswith("postgresql://postgres@127.0.0.1:")
    conn = await asyncpg.connect(postgres_url)
    try:
        tables = await conn.fetchval(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        )
        assert tables == 0
        await conn.execute("CREATE TABLE mine (n int)")
        database = await conn.fetchval("SELECT current_database()")
    finally:
        await conn.close()
    # A second test's database is another one, and starts empty.
    other = postgres_server.create_database("other")
    try:
        assert other != postgres_url
        conn = await asyncpg.connect(other)
        try:
            assert await conn.fetchval("SELECT current_database()") != database
            assert await conn.fetchval("SELECT to_regclass('mine')") is None
        finally:
            await conn.close()
    finally:
        postgres_server.drop_database(other)


def test_server_never_runs_as_root(postgres_server: PostgresServer) -> None:
    """initdb and postgres refuse root; under root the server takes another account."""
    assert postgres_server.proc is not None
    uid = os.stat(postgres_server.data).st_uid
    assert uid != 0 or os.geteuid() != 0


@pytest.mark.parametrize("ci", ["", "true"])
def test_missing_postgres_skips_locally_and_fails_in_ci(
    ci: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "find_bindir", lambda: None)
    monkeypatch.setenv("CI", ci)
    expected = pytest.fail.Exception if ci else pytest.skip.Exception
    with pytest.raises(expected, match="PostgreSQL"):
        postgres_or_skip()
