"""A throwaway PostgreSQL server for the test session, from the machine's own binaries.

The PostgreSQL tests (README, section Tests) need a real server, not a mock: the storage
backend's transactions, advisory locks and schema are what they test. ``PostgresServer``
runs ``initdb`` and ``postgres`` from the binaries it finds (``find_bindir``: PATH first,
then Debian's ``/usr/lib/postgresql/<version>/bin``, newest first) in a temporary folder,
with trust authentication on 127.0.0.1 and a free port, and removes it all on ``stop()``.
``tests/conftest.py`` turns it into the ``postgres_server`` and ``postgres_url`` fixtures.

Written by hand rather than with pytest-postgresql, because that plugin runs ``initdb``
as the current user, and CI runs as root, which ``initdb`` and ``postgres`` refuse; it
also needs psycopg, a second driver next to the bot's asyncpg. Here, under root, the
server runs as the ``postgres`` user (the Debian package creates it) or else as
``nobody``, through ``subprocess``'s own ``user=``/``group=``: no ``sudo``, ``runuser``
or new system user needed.

The server is tuned for tests, not for durability: ``fsync`` and ``synchronous_commit``
are off. That still keeps every committed transaction for as long as the server runs,
which is all the tests need: they kill bot processes, never the server. A test session
that is itself killed with SIGKILL cannot stop its server: it stays behind, running from
its ``/tmp/mexican-pg-*`` folder, until stopped by hand.

``python -m tests.support.postgres`` starts one by hand and prints a database's URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

SUPERUSER = "postgres"
#: Where distributions put the server binaries when they are not on PATH (Debian, Ubuntu).
SEARCH_GLOBS = ("/usr/lib/postgresql/*/bin",)
START_TIMEOUT = 60.0


class PostgresNotFound(RuntimeError):
    """No ``initdb`` and ``postgres`` binaries on this machine."""


def find_bindir() -> Path | None:
    """The folder holding both ``initdb`` and ``postgres``: from PATH, or else the newest
    ``/usr/lib/postgresql/<version>/bin`` (Debian keeps them off PATH)."""
    initdb, postgres = shutil.which("initdb"), shutil.which("postgres")
    if initdb and postgres:
        # Follow symlinks (e.g. /usr/local/bin -> /usr/lib/postgresql/15/bin) so the two
        # come from one installation.
        folder = Path(os.path.realpath(initdb)).parent
        if (folder / "postgres").is_file():
            return folder
    candidates = [Path(p) for pattern in SEARCH_GLOBS for p in glob.glob(pattern)]
    candidates.sort(key=_version_key, reverse=True)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    return None


def _version_key(folder: Path) -> tuple[int, ...]:
    """``/usr/lib/postgresql/15/bin`` -> (15,), so that 16 sorts after 9.6."""
    return tuple(int(n) for n in re.findall(r"\d+", folder.parent.name)) or (0,)


def _run_as() -> pwd.struct_passwd | None:
    """The account to run the server as: None (ourselves) unless we are root, which
    ``initdb`` and ``postgres`` refuse; then ``postgres`` if it exists, else ``nobody``."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresNotFound("running as root, and neither a 'postgres' nor a 'nobody' user")


def _major_version(bindir: Path) -> int:
    """15 from ``postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)``."""
    out = subprocess.run(
        [str(bindir / "postgres"), "--version"], capture_output=True, text=True, check=True
    ).stdout
    found = re.search(r"\) (\d+)", out)
    return int(found.group(1)) if found else 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_coroutine(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coro`` on its own event loop in a thread, so that callers work the same from
    sync code, from a fixture's setup, or inside a test's running loop."""
    result: list[Any] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as exc:
            error.append(exc)

    thread = threading.Thread(target=target, name="postgres-admin")
    thread.start()
    thread.join()
    if error:
        raise error[0]
    return result[0]


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder: ``start()``, ``create_database()``,
    ``url()``, ``stop()``. Also a context manager."""

    def __init__(self, bindir: Path | None = None) -> None:
        found = bindir or find_bindir()
        if found is None:
            raise PostgresNotFound(
                "no PostgreSQL server binaries (initdb, postgres) on PATH or in "
                "/usr/lib/postgresql/*/bin; install the 'postgresql' package"
            )
        self.bindir = found
        self.user = _run_as()
        self.version = _major_version(found)
        self.root: Path | None = None
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._databases = 0

    # ------------------------------------------------------------------ life cycle

    def start(self) -> PostgresServer:
        """initdb into a new temporary folder and start ``postgres`` on a free port."""
        # /tmp itself, not pytest's tmp_path: that one is private to root, and the server
        # may run as another user.
        self.root = Path(tempfile.mkdtemp(prefix="mexican-pg-"))
        if self.user is not None:
            os.chown(self.root, self.user.pw_uid, self.user.pw_gid)
        try:
            self._run(
                "initdb",
                "-D",
                str(self.data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            )
            # A port found free may be taken before postgres binds it: try a few.
            for attempt in range(5):
                self.port = _free_port()
                if self._launch():
                    return self
                if attempt == 4:
                    raise RuntimeError(f"postgres did not start:\n{self.log_tail()}")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Fast shutdown (SIGINT: roll back open transactions, close clients), then
        remove the folder."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def pause(self) -> None:
        """Stop the server as an outage does (fast shutdown: clients are cut off) but keep
        its data and port, so that ``resume()`` brings the same databases back."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(timeout=30)
        self.proc = None

    def resume(self) -> None:
        """Start a paused server again, on the same port and data."""
        if not self._launch():
            raise RuntimeError(f"postgres did not start again:\n{self.log_tail()}")

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def data(self) -> Path:
        assert self.root is not None, "not started"
        return self.root / "data"

    def log_tail(self, chars: int = 3000) -> str:
        log = self.root / "postgres.log" if self.root else None
        if log is None or not log.exists():
            return "(no log)"
        return log.read_text(errors="replace")[-chars:]

    def _run(self, program: str, *args: str) -> None:
        """Run one of the server's programs as the server's user; its output goes into
        the error if it fails."""
        assert self.root is not None
        done = subprocess.run(
            [str(self.bindir / program), *args],
            cwd=self.root,
            env=self._env(),
            capture_output=True,
            **self._as_user(),
        )
        if done.returncode != 0:
            output = (done.stdout + done.stderr).decode(errors="replace")
            raise RuntimeError(f"{program} failed ({done.returncode}):\n{output}")

    def _launch(self) -> bool:
        """Start postgres on ``self.port``; True once it accepts connections, False if it
        exited (e.g. the port was taken)."""
        assert self.root is not None
        log = open(self.root / "postgres.log", "ab")  # noqa: SIM115 - postgres keeps writing
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": str(self.root),
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "200",
        }
        argv = [str(self.bindir / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            argv += ["-c", f"{key}={value}"]
        with log:
            self.proc = subprocess.Popen(
                argv,
                cwd=self.root,
                env=self._env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                **self._as_user(),
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                return False
            if self._ready():
                return True
            time.sleep(0.05)
        raise RuntimeError(f"postgres not ready after {START_TIMEOUT:.0f} s:\n{self.log_tail()}")

    def _ready(self) -> bool:
        """What ``pg_ctl -w`` reads: postmaster.pid's last line says ``ready`` once the
        server accepts connections."""
        with contextlib.suppress(OSError):
            lines = (self.data / "postmaster.pid").read_text().splitlines()
            return len(lines) >= 8 and lines[7].strip() == "ready"
        return False

    def _env(self) -> dict[str, str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
        if self.user is not None:
            env |= {"HOME": str(self.root), "USER": self.user.pw_name}
        return env

    def _as_user(self) -> dict[str, Any]:
        if self.user is None:
            return {}
        return {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}

    # ------------------------------------------------------------------- databases

    def url(self, database: str = "postgres") -> str:
        """``postgresql://postgres@127.0.0.1:<port>/<database>`` (trust auth: no password
        is asked, and one put in the URL is ignored)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, hint: str = "") -> str:
        """A new empty database; returns its URL. ``hint`` (e.g. the test's name) goes
        into the database's name, to tell them apart in the server's log."""
        self._databases += 1
        slug = re.sub(r"[^a-z0-9]+", "_", hint.lower()).strip("_")[:40]
        name = f"t{self._databases}_{slug}" if slug else f"t{self._databases}"
        # From 15 on the default copies through the WAL; the plain file copy is four times
        # faster here (0.07 s against 0.28 s), and with fsync off it costs nothing else.
        strategy = " STRATEGY FILE_COPY" if self.version >= 15 else ""
        self.execute(f'CREATE DATABASE "{name}"{strategy}')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database from ``create_database``, closing its connections first."""
        name = url.rsplit("/", 1)[1]
        self.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def execute(self, sql: str, database: str = "postgres") -> None:
        """Run one statement as the superuser (asyncpg, on a loop of its own)."""
        import asyncpg

        async def run() -> None:
            conn = await asyncpg.connect(self.url(database))
            try:
                await conn.execute(sql)
            finally:
                await conn.close()

        _run_coroutine(run())


def ci() -> bool:
    """Whether this is a CI run, where a missing PostgreSQL must fail, never skip."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def postgres_or_skip() -> PostgresServer:
    """A server not yet started; if the binaries are missing, skip the test, or fail it
    with ``CI`` set: CI installs PostgreSQL (``.ci/run``), so there a missing server is a
    broken machine, and a skip would hide that the PostgreSQL tests never ran."""
    import pytest

    try:
        return PostgresServer()
    except PostgresNotFound as exc:
        if ci():
            pytest.fail(f"CI is set but PostgreSQL is missing: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL is not installed: {exc}")


if __name__ == "__main__":
    # A server for a benchmark or a manual run: prints its URL, stops on Ctrl-C.
    with PostgresServer() as server:
        print(server.create_database("manual"), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()
