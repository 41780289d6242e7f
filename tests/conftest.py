"""Shared fixtures: a real SQLite store in tmp_path, and the production bot inside simcord.

`sim` is the fixture later tests drive whole games through: the bot is built by the same
`create_bot` factory as `python -m bot`, logged in to simcord's in-memory Discord, with a
guild whose id matches DEV_GUILD_ID so the start-up sync lands where the players are.
Never call `bot.close()` in a test; simcord detaches the bot and `storage` closes the file.
What tests import (`SimTable`, `DEV_GUILD_ID`, ...) is in tests/support/sim.py: this file
holds fixtures only.

`postgres_url` gives a test an empty database of its own on a real PostgreSQL server that
the session starts on first use (`postgres_server`, tests/support/postgres.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import simcord

from bot.runtime.client import MexicanBot, create_bot
from bot.runtime.settings import Secret, Settings
from bot.storage import Storage
from tests.support.postgres import PostgresServer, postgres_or_skip
from tests.support.sim import DEV_GUILD_ID, PLAYER_NAMES, TEST_TOKEN, SimTable


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        discord_token=Secret(TEST_TOKEN),
        dev_guild_id=DEV_GUILD_ID,
        database_path=tmp_path / "data" / "mexican.db",
        # The stand-in makes every account at its clock's start, minutes before the
        # games: every account would be new. The league tests of new accounts set it.
        new_account_days=0,
    )


@pytest.fixture
async def storage(settings: Settings) -> AsyncIterator[Storage]:
    store = await Storage.open(settings.database_path)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def simcord_bot(settings: Settings, storage: Storage) -> MexicanBot:
    """Read by simcord's `simcord_env` fixture, which logs this bot in."""
    return create_bot(settings, storage)


@pytest.fixture
def sim(simcord_env: simcord.Env, simcord_bot: MexicanBot) -> SimTable:
    guild = simcord_env.create_guild("The Dice Bar", id=DEV_GUILD_ID)
    channel = guild.create_text_channel("dice")
    users = [guild.add_member(simcord_env.create_user(name)) for name in PLAYER_NAMES]
    return SimTable(simcord_env, simcord_bot, guild, channel, users)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the whole session (tests/support/postgres.py),
    started only if a test asks for it. Without PostgreSQL binaries the tests that need it
    are skipped, except in CI (``CI`` set), where that is an error: CI installs the server
    (``.ci/run``), so a missing one means a broken machine, not a test to leave out."""
    server = postgres_or_skip()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh, empty database of its own for each test, as a ``postgresql://`` URL (the
    form of the ``DATABASE_URL`` setting); dropped after the test. Only for tests marked
    ``slow`` (README, Tests), so that ``pytest -m "not slow"`` never starts the server."""
    if request.node.get_closest_marker("slow") is None:
        pytest.fail(f"{request.node.nodeid} uses PostgreSQL: mark it slow", pytrace=False)
    postgres_server: PostgresServer = request.getfixturevalue("postgres_server")
    url = postgres_server.create_database(request.node.name)
    try:
        yield url
    finally:
        postgres_server.drop_database(url)
