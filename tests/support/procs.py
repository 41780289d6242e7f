"""A bot as a child process: start it against the stand-in, read its CPU and memory from
/proc, stop it (SIGTERM) or kill it (SIGKILL). Its settings are the ones in README, section
Settings; nothing is inherited from the environment running the tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

from .standin import StandIn

REPO_ROOT = Path(__file__).resolve().parents[2]
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.fake-token-for-tests-0123456789abcdef"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def base_env(**settings: str) -> dict[str, str]:
    """No inherited DISCORD_* (or any other) variables; just enough to find Python and the
    repo's packages (``bot``, ``cogs``, ``benchmarks``), plus ``settings``."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(REPO_ROOT),
        **settings,
    }


def bot_env(standin: StandIn, database: Path, **extra: str) -> dict[str, str]:
    """Just what the bot needs: the fake token, the stand-in, a database; nothing inherited."""
    settings = {
        "DISCORD_TOKEN": FAKE_TOKEN,
        "DISCORD_API_BASE": standin.api_base,
        "DISCORD_GATEWAY_URL": standin.gateway_url,
        "DEV_GUILD_ID": str(standin.dev_guild_id) if standin.guilds else "",
        "DATABASE_PATH": str(database),
        "LOG_LEVEL": "WARNING",
    }
    return base_env(**{**settings, **extra})


class BotProcess:
    """``python -m <module>`` (the real bot: ``bot``; the baseline: ``benchmarks.bare_bot``)."""

    def __init__(
        self,
        module: str,
        env: dict[str, str],
        cwd: Path,
        log: Path | None = None,
        *,
        piped: bool = False,
    ):
        """``piped``: the output reaches ``log`` through a pipe, which no limit on the
        size of the process's files (RLIMIT_FSIZE) stops."""
        self.module, self.env, self.cwd, self.log = module, env, cwd, log
        self.piped = piped and log is not None
        self.proc: asyncio.subprocess.Process | None = None
        self.started = 0.0
        self._log_file = None
        self._copier: asyncio.Task[None] | None = None

    async def start(self, *prefix: str) -> None:
        """Start it; ``prefix`` runs it under a wrapper (e.g. a profiler's argv)."""
        out = asyncio.subprocess.DEVNULL
        if self.log is not None:
            self._log_file = open(self.log, "ab")  # noqa: SIM115 - closed in wait()
            out = asyncio.subprocess.PIPE if self.piped else self._log_file  # type: ignore[assignment]
        argv = (
            [*prefix, sys.executable, "-m", self.module]
            if prefix
            else [
                sys.executable,
                "-m",
                self.module,
            ]
        )
        self.started = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            *argv,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT if self.piped else out,
        )
        if self.piped:
            self._copier = asyncio.ensure_future(self._copy_output())

    async def _copy_output(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while chunk := await self.proc.stdout.read(65536):
            if self._log_file is not None:
                self._log_file.write(chunk)
                self._log_file.flush()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def cpu_seconds(self) -> float:
        """utime + stime of the process (all its threads: aiosqlite's too)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def thread_cpu(self) -> dict[str, float]:
        """CPU seconds of the main thread (the event loop) and of all other threads
        (aiosqlite's worker, discord.py's keep-alive) together."""
        main = other = 0.0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
                if int(task.name) == self.pid:
                    main += cpu
                else:
                    other += cpu
        return {"main": main, "other": other}

    def memory_kb(self) -> dict[str, int]:
        """VmRSS and VmHWM (peak RSS) in kB."""
        out = {}
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
        return out

    async def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM and wait; SIGKILL if it does not stop in time."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                await self.kill()
        return await self.wait()

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        await self.wait()

    async def wait(self) -> int | None:
        if self.proc is None:
            return None
        code = await self.proc.wait()
        if self._copier is not None:
            await self._copier
            self._copier = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        return code
