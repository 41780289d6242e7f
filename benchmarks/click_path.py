"""How many times one button click enters each of the project's files.

Run it from the repository's root::

    python -m benchmarks.click_path            # the Roll button, on a Mexican table
    python -m benchmarks.click_path --all      # every project file, not only those below

The production bot (``create_bot``, as ``python -m bot`` builds it) logs in to simcord's
in-memory Discord over a fresh SQLite file, the tests' way (tests/conftest.py): a table is
opened, joined and started, and then the player to move clicks Roll on the live turn
message. Only that click is profiled: ``sys.setprofile`` counts every Python function
call, by the file that defines the function ("calls"), and among them the calls from
another file ("entered": the walk came into the file from outside), printed for
the Discord side (bot/adapter, cogs), the presenter (bot/present) and the game layer
(bot/game). Last comes the walk itself: the floors the calls run in, in order, with a
floor's consecutive calls taken as one visit (the Discord side's two folders as one
floor; calls below the game layer, into the engine or the storage, are left out unless
``--all``), and how many visits each floor gets: how often a click goes back and forth
between the floors. Coroutines resumed after an await count as calls again (the click
waits for the database once). The counts are deterministic for a given commit; the time
is not measured; the dice are seeded, so a run and the next roll the same.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import discord
import simcord

from bot.runtime.client import create_bot
from bot.runtime.settings import Secret, Settings
from bot.storage import Storage

ROOT = Path(__file__).resolve().parents[1]
GUILD_ID = 111_222_333_444_555_666
TOKEN = "MTExMjIyMzMzNDQ0NTU1NjY2.Gxyzzy.not-a-real-token-only-for-tests-42"
#: The dice's seed: the click rolls the same dice, and takes the same path, every run.
SEED = 7
#: The folders whose files are counted by default.
WATCHED = ("bot/adapter/", "cogs/", "bot/present/", "bot/game/")
#: The Discord side, one floor in the walk.
DISCORD_SIDE = ("bot/adapter/", "cogs/")


def floor_of(name: str) -> str:
    return "discord side" if name.startswith(DISCORD_SIDE) else name.rsplit("/", 1)[0]


def live_message(channel: simcord.ChannelHandle, message_id: int | None) -> discord.Message:
    history = channel.history()
    for message in history:
        if message.id == message_id:
            return message
    return [m for m in history if m.components][-1]


async def click_counts(
    everything: bool = False,
) -> tuple[Counter[str], Counter[str], list[str]]:
    """Function calls per project file during one Roll click, those among them made from
    another file, and the floor of every project call, in order."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            discord_token=Secret(TOKEN),
            dev_guild_id=GUILD_ID,
            database_path=Path(tmp) / "mexican.db",
        )
        storage = await Storage.open(settings.database_path)
        bot = create_bot(settings, storage)
        bot.tables.rng = random.Random(SEED)  # the same dice every run, as in the tests
        env = simcord.Env(bot)
        await env.start()
        try:
            guild = env.create_guild("The Dice Bar", id=GUILD_ID)
            channel = guild.create_text_channel("dice")
            alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
            await alice.slash(channel, "newgame", ruleset="mexican", turn_timer=0)
            await bob.slash(channel, "join")
            await alice.slash(channel, "start")
            table = bot.tables.get(channel.id)
            assert table is not None and table.game.to_move is not None
            mover = alice if str(alice.id) == table.game.to_move else bob
            message = live_message(channel, table.meta.message_id)
            counts: Counter[str] = Counter()
            entered: Counter[str] = Counter()
            walk: list[str] = []
            root = f"{ROOT}/"

            def profile(frame: FrameType, event: str, arg: Any) -> None:
                if event != "call":
                    return
                name = frame.f_code.co_filename
                if name.startswith(root) and "/.venv/" not in name and name != __file__:
                    counts[name[len(root) :]] += 1
                    if everything or name[len(root) :].startswith(WATCHED):
                        walk.append(floor_of(name[len(root) :]))
                    caller = frame.f_back
                    if caller is None or caller.f_code.co_filename != name:
                        entered[name[len(root) :]] += 1

            sys.setprofile(profile)
            try:
                result = await mover.click(message, label="Roll")
            finally:
                sys.setprofile(None)
            assert result.response is not None, "the click was not answered"
        finally:
            await env.shutdown()
            await storage.close()
    if not everything:
        counts = Counter({f: n for f, n in counts.items() if f.startswith(WATCHED)})
        entered = Counter({f: n for f, n in entered.items() if f.startswith(WATCHED)})
    return counts, entered, walk


def visits(walk: list[str]) -> list[str]:
    """The walk with each floor's consecutive calls taken as one visit."""
    return [floor for i, floor in enumerate(walk) if i == 0 or walk[i - 1] != floor]


def report(counts: Counter[str], entered: Counter[str], walk: list[str]) -> str:
    lines = [f"{'file':<32} {'calls':>6} {'entered':>8}"]
    for name, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"{name:<32} {n:>6} {entered[name]:>8}")
    by_floor: Counter[str] = Counter()
    floor_entered: Counter[str] = Counter()
    for name, n in counts.items():
        floor = name.rsplit("/", 1)[0] + "/"
        by_floor[floor] += n
        floor_entered[floor] += entered[name]
    lines.append("")
    for floor, n in sorted(by_floor.items()):
        lines.append(f"{floor:<32} {n:>6} {floor_entered[floor]:>8}")
    path = visits(walk)
    lines += ["", f"the walk: {len(path)} visits", " > ".join(path), ""]
    lines += [f"{floor:<32} {n:>6} visits" for floor, n in Counter(path).most_common()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="count every project file")
    args = parser.parse_args()
    print(report(*asyncio.run(click_counts(args.all))))


if __name__ == "__main__":
    main()
