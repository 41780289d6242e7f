"""DATABASE_URL: SQLite by default (DATABASE_PATH keeps working), PostgreSQL by URL, and
the password in it never shown: not in the settings, the log or an error line."""

from __future__ import annotations

import io
import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.runtime.logs import REDACTED, setup_logging
from bot.runtime.settings import DEFAULT_DATABASE_PATH, Settings, SettingsError, parse_settings
from bot.storage import DatabaseUrl

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-part-of-the-token"
PG = "postgresql://bot:s3cret-pw@db.example:5432/mexican"


def settings(**values: str) -> Settings:
    return parse_settings({"DISCORD_TOKEN": TOKEN, **values})


def test_the_default_is_the_sqlite_file() -> None:
    s = settings()
    assert s.database_url is None and s.database_path == DEFAULT_DATABASE_PATH
    assert s.database == DatabaseUrl.sqlite(DEFAULT_DATABASE_PATH)
    assert str(s.database) == "sqlite:///data/mexican.db"
    assert s.database.dialect == "sqlite"


def test_database_path_keeps_working() -> None:
    s = settings(DATABASE_PATH="/srv/bot/mexican.db")
    assert s.database.dialect == "sqlite" and s.database.path == Path("/srv/bot/mexican.db")


@pytest.mark.parametrize(
    ("url", "path"),
    [("sqlite:///data/mexican.db", "data/mexican.db"), ("sqlite:////srv/m.db", "/srv/m.db")],
)
def test_a_sqlite_url_names_the_file(url: str, path: str) -> None:
    s = settings(DATABASE_URL=url)
    assert s.database_path == Path(path) and s.database.path == Path(path)
    assert settings(DATABASE_URL=url, DATABASE_PATH=path).database_path == Path(path)


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_a_postgresql_url(scheme: str) -> None:
    s = settings(DATABASE_URL=PG.replace("postgresql", scheme, 1), DATABASE_PATH="x.db")
    assert s.database.dialect == "postgresql"
    assert s.database.get_secret_value().endswith("bot:s3cret-pw@db.example:5432/mexican")


@pytest.mark.parametrize(
    ("values", "says"),
    [
        ({"DATABASE_URL": "mysql://bot:s3cret-pw@h/db"}, "starts with sqlite:/// or"),
        (
            {"DATABASE_URL": "sqlite://data/x.db"},
            "DATABASE_URL=sqlite://data/x.db: a SQLite URL "
            "names its file after three slashes, e.g. sqlite:///data/x.db ",
        ),
        ({"DATABASE_URL": "sqlite:///data/"}, "DATABASE_URL must name the database file"),
        ({"DATABASE_URL": "sqlite:///a.db", "DATABASE_PATH": "b.db"}, "two different SQLite"),
        ({"DATABASE_URL": "postgresql://bot:s3cret-pw@db.example"}, "names no database"),
        ({"DATABASE_PATH": "data/"}, "DATABASE_PATH must name the database file"),
    ],
)
def test_bad_database_settings_say_what_to_fix(values: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=says) as refused:
        settings(**values)
    assert "s3cret-pw" not in str(refused.value)


def test_the_password_never_shows_in_the_settings() -> None:
    s = settings(DATABASE_URL=PG)
    for shown in (repr(s), str(s), f"{s.database}", repr(s.database)):
        assert "s3cret-pw" not in shown
    assert "postgresql://bot:***@db.example:5432/mexican" in repr(s)
    assert "s3cret-pw" in s.secrets()


def test_the_log_scrubs_the_password() -> None:
    s = settings(DATABASE_URL=PG, LOG_LEVEL="WARNING")
    stream = io.StringIO()
    root = logging.getLogger()
    old_level = root.level
    handler = setup_logging(s, stream)
    try:
        logging.getLogger("bot.test").warning("connecting to %s", s.database.get_secret_value())
        try:
            raise ConnectionError(f"password s3cret-pw refused, token {TOKEN}")
        except ConnectionError:
            logging.getLogger("bot.test").exception("failed")
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    text = stream.getvalue()
    assert "s3cret-pw" not in text and TOKEN not in text
    assert f"bot:{REDACTED}@db.example" in text


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_an_unreachable_postgresql_is_one_line_without_the_password(tmp_path: Path) -> None:
    url = f"postgresql://bot:s3cret-pw@127.0.0.1:{_closed_port()}/mexican"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(Path.cwd()),
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": url,
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("mexican-bot: error: cannot reach PostgreSQL at"), done.stderr
    assert "DATABASE_URL" in lines[-1] and "Traceback" not in done.stderr
    assert "s3cret-pw" not in done.stderr + done.stdout
