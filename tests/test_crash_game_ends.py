"""Crash test around game ends: the real ``python -m bot`` killed with SIGKILL again and
again while its tables play games of one life each, so that games end every few moves
and many kills land between a game's end and its answer (README, Ratings: every result
announced).

Afterwards every finished game that started has had its final standing posted exactly
once (the restart posts those a kill cut off), the database notes each as shown, and
every achievement the league stored was announced in a standing. The harness is the one
of tests/test_crash_kill9.py; more kills::

    CRASH_END_KILLS=150 .venv/bin/python -m pytest -s tests/test_crash_game_ends.py
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.support.standin import EPHEMERAL, Interaction, is_game_over
from tests.test_crash_kill9 import SEED, CrashRun

pytestmark = pytest.mark.slow  # starts bot processes

KILLS = int(os.environ.get("CRASH_END_KILLS", "40"))
MENTION = re.compile(r"<@(\d+)>")


class GameEndRun(CrashRun):
    """The crash run with one life per player, counting the final standings posted."""

    def __init__(self, tmp: Path, kills: int, seed: int) -> None:
        super().__init__(tmp, kills, seed, None)
        for table in self.driver.tables.values():
            table.options["lives"] = 1
        #: channel -> {message id: the standing's embed text}, however often it is edited.
        self.standings: dict[int, dict[str, str]] = {}
        inner = self.standin.on_message

        def counting(
            channel_id: int, message: dict[str, Any], how: str, inter: Interaction | None
        ) -> None:
            if is_game_over(message) and not message.get("flags", 0) & EPHEMERAL:
                embed = message["embeds"][0]
                text = f"{message.get('content') or ''}\n{embed.get('description') or ''}"
                self.standings.setdefault(channel_id, {})[str(message["id"])] = text
            inner(channel_id, message, how, inter)

        self.standin.on_message = counting
        self.finishing = False

    async def unshown(self) -> int:
        rows = await self.stored.fetch(
            "SELECT state_json FROM games WHERE status = 'over' AND shown_at IS NULL"
        )
        return sum(orjson.loads(state)["engine"]["round_no"] >= 1 for (state,) in rows)

    async def finish(self) -> None:
        self.finishing = True
        await super().finish()

    async def play(self, table: Any, until: float) -> None:
        """In the last start, first let the restart post the standings the kills cut off
        (it does so in the background after connecting), then play on."""
        if self.finishing:
            self.finishing = False
            began = time.perf_counter()
            while await self.unshown() and time.perf_counter() < began + 20:
                await asyncio.sleep(0.1)
            until += time.perf_counter() - began  # the table still gets its time to play
        await super().play(table, until)


def announced(text: str) -> int:
    """(person, achievement) pairs a standing's 🏅 lines name."""
    count = 0
    for line in text.splitlines():
        if line.startswith("🏅 "):
            people, names = line[2:].split(": ", 1)
            count += len(MENTION.findall(people)) * len(re.split(r", | and ", names))
    return count


async def test_every_game_end_is_shown_once_through_kills(tmp_path: Path) -> None:
    started = time.perf_counter()
    run = GameEndRun(tmp_path, KILLS, SEED)
    await run.run()
    runtime = time.perf_counter() - started
    try:
        games = await run.stored.fetch(
            "SELECT id, channel_id, shown_at, state_json FROM games WHERE status = 'over'"
        )
        earned = await run.stored.fetch("SELECT COUNT(*) FROM achievements")
    finally:
        await run.stored.close()
    played = [
        (gid, cid, shown)
        for gid, cid, shown, state in games
        if orjson.loads(state)["engine"]["round_no"] >= 1
    ]
    per_channel: dict[int, int] = {}
    for _, cid, _ in played:
        per_channel[cid] = per_channel.get(cid, 0) + 1
    posted = {cid: len(ids) for cid, ids in run.standings.items()}
    reposted = sum(
        "The bot restarted: this is how the last game ended." in text
        for ids in run.standings.values()
        for text in ids.values()
    )
    stored_earned = int(earned[0][0])
    shown_earned = sum(announced(text) for ids in run.standings.values() for text in ids.values())
    print(
        f"\ncrash test around game ends: {run.kills} SIGKILLs "
        f"({run.kill_phases['while playing']} while playing) in {runtime:.1f} s; "
        f"{len(played)} finished games, {sum(posted.values())} final standings posted "
        f"({reposted} of them after a restart), {stored_earned} achievements earned and "
        f"{shown_earned} announced"
    )
    assert len(played) >= KILLS // 2, "games really ended between the kills"
    assert all(shown is not None for _, _, shown in played), "a standing never noted shown"
    assert posted == per_channel, "each finished game's standing posted exactly once"
    assert shown_earned == stored_earned
