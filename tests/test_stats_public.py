"""Statistics tell nobody what is under a cup (README, Leaderboard and stats).

The same moves are played three times through the real bot, each time in a fresh
simcord Discord with its own database, with dice that differ only under cups nobody
lifts: under true claims, under bluffs, and a 21. At every moment a cup is down, what
the other players can read (every player's `/stats` text and card image, every
`/leaderboard` stat of the server and of the channel) must be the same in all three
games. When the game is over the hidden facts are counted, so the figures differ then.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.runtime.client import create_bot
from bot.runtime.settings import Secret, Settings
from bot.storage import STATS, PlayerTotals, Storage

from .engine_helpers import ScriptedDice
from .support.sim import DEV_GUILD_ID, PLAYER_NAMES, TEST_TOKEN, SimTable
from .test_play_restart import restart

pytestmark = pytest.mark.slow  # whole games played twice, seconds each

#: One step of a scripted game: (player index, command, options); "look" reads everything.
Step = tuple[int, str, dict[str, Any]]
LOOK: Step = (0, "look", {})


@dataclass
class Played:
    #: What the other players could read at each "look", in order.
    readings: list[Any]
    #: Every player's stored server totals at each "look", and once the game is over.
    totals: list[list[PlayerTotals]]


async def readable(users: list[simcord.MemberActor], channel: Any) -> list[Any]:
    """Everything statistics show anyone: each player's card as text and as an image, and
    every leaderboard of the server and of the channel."""
    viewer = users[-1]  # dave, who is not at the table
    seen: list[Any] = []
    for user in users:
        text = await viewer.slash(channel, "stats", user=user, text=True)
        assert text.response is not None
        seen.append([e.to_dict() for e in text.response.embeds])
        card = await viewer.slash(channel, "stats", user=user)
        assert card.response is not None
        (image,) = card.response.attachments
        seen.append(await image.read())
    for stat in STATS:
        for scope in ("server", "channel"):
            board = await viewer.slash(channel, "leaderboard", stat=stat, scope=scope)
            assert board.response is not None
            seen.append([e.to_dict() for e in board.response.embeds])
    return seen


async def play(folder: Path, preset: str, dice: list[int]) -> Played:
    """Play the preset's steps at a fresh table, in a fresh Discord and database."""
    settings = Settings(
        discord_token=Secret(TEST_TOKEN),
        dev_guild_id=DEV_GUILD_ID,
        database_path=folder / "mexican.db",
    )
    readings: list[Any] = []
    totals: list[list[PlayerTotals]] = []
    async with await Storage.open(settings.database_path) as storage:
        bot = create_bot(settings, storage)
        async with simcord.run(bot) as env:
            guild = env.create_guild("The Dice Bar", id=DEV_GUILD_ID)
            channel = guild.create_text_channel("dice")
            users = [guild.add_member(env.create_user(name)) for name in PLAYER_NAMES]
            rng = bot.tables.rng = ScriptedDice(list(dice))

            async def all_totals() -> list[PlayerTotals]:
                return [await storage.player_totals(guild.id, u.id) for u in users[:3]]

            await users[0].slash(channel, "newgame", ruleset=preset, turn_timer=0)
            for user in users[1:3]:
                await user.slash(channel, "join")
            await users[0].slash(channel, "start")
            table = bot.tables.get(channel.id)
            assert table is not None and table.game.phase == "playing"
            for who, command, options in STEPS[preset]:
                if command == "look":
                    readings.append(await readable(users, channel))
                    totals.append(await all_totals())
                    continue
                before = table.game.move_no
                await users[who].slash(channel, command, **options)
                assert table.game.move_no == before + 1, f"{command} {options} was refused"
            assert table.game.phase == "over" and not rng.dice
            totals.append(await all_totals())
    return Played(readings, totals)


#: alice, bob and carol play; dave reads. Each "look" comes while a cup is down, or
#: after a cup was lifted whose dice are the same in every run.
STEPS: dict[str, list[Step]] = {
    # Round 1: alice claims 54; bob takes the cup and rolls, so alice's dice are never
    # shown; bob bluffs 65 on a 64 and carol lifts it. Round 2: carol claims 43, alice
    # (the host) ends the game with the cup down.
    "mexican": [
        (0, "roll", {}),
        (0, "claim", {"value": "54"}),
        LOOK,
        (1, "roll", {}),
        LOOK,
        (1, "claim", {"value": "65"}),
        LOOK,
        (2, "bullshit", {}),
        LOOK,
        (2, "roll", {}),
        (2, "claim", {"value": "43"}),
        LOOK,
        (0, "endgame", {}),
    ],
    # Round 1: alice bluffs 62 on a 52, bob passes her cup on claiming 64, carol lifts
    # it: both claims are judged at once. Round 2: carol rolls blind and claims 52,
    # alice passes it on claiming 54, bob takes the cup and rolls (the blind dice are
    # never shown), claims a true 62 and carol calls. Round 3: carol claims 43, alice
    # ends the game with the cup down.
    "dollar": [
        (0, "roll", {}),
        (0, "claim", {"value": "62"}),
        (1, "accept", {}),
        (1, "claim", {"value": "64"}),
        (2, "bullshit", {}),
        LOOK,
        (2, "roll", {"blind": True}),
        (2, "claim", {"value": "52"}),
        LOOK,
        (0, "accept", {}),
        (0, "claim", {"value": "54"}),
        LOOK,
        (1, "roll", {}),
        LOOK,
        (1, "claim", {"value": "62"}),
        LOOK,
        (2, "bullshit", {}),
        LOOK,
        (2, "roll", {}),
        (2, "claim", {"value": "43"}),
        LOOK,
        (0, "endgame", {}),
    ],
}

#: The cup claimed first in the middle round (never lifted) and the last cup (the game
#: ends with it down), by run: under true claims, under bluffs, and a 21.
FIRST = {"true": [6, 3], "bluff": [4, 1], "21": [2, 1]}
LAST = {"true": [5, 5], "bluff": [3, 2], "21": [1, 2]}


def dice_of(preset: str, run: str) -> list[int]:
    if preset == "mexican":
        return [*FIRST[run], 6, 4, *LAST[run]]
    return [5, 2, *FIRST[run], 6, 4, *LAST[run]]


@pytest.mark.parametrize("preset", ["mexican", "dollar"])
async def test_a_cup_down_reads_the_same_whatever_lies_under_it(
    tmp_path: Path, preset: str
) -> None:
    runs: dict[str, Played] = {}
    for run in FIRST:
        folder = tmp_path / run
        folder.mkdir()
        runs[run] = await play(folder, preset, dice_of(preset, run))
    true = runs["true"]
    assert len(true.readings) == sum(step is LOOK for step in STEPS[preset])
    for n, reading in enumerate(true.readings):
        assert runs["bluff"].readings[n] == reading, f"{preset}: a bluff shows at look {n}"
        assert runs["21"].readings[n] == reading, f"{preset}: a 21 shows at look {n}"
    # Nothing is lost, only delayed: once the game is over the hidden cups are counted.
    for run, played in runs.items():
        final = played.totals[-1]
        assert [t.bluffs_made for t in final] == BLUFFS[preset][run], run
        assert [t.mex_rolled for t in final] == MEXES[preset][run], run
    if preset == "dollar":  # a lifted cup judges its roller's claim and the pass on it
        for played in runs.values():
            first_lift = played.totals[0]
            assert [t.bluffs_made for t in first_lift] == [1, 1, 0]
            assert [t.bluffs_caught for t in first_lift] == [0, 1, 0]


#: Bluffs made and 21s rolled by alice, bob and carol once the game is over, by run.
BLUFFS = {
    "mexican": {"true": [0, 1, 0], "bluff": [1, 1, 1], "21": [0, 1, 0]},
    "dollar": {"true": [1, 1, 0], "bluff": [2, 1, 2], "21": [1, 1, 0]},
}
MEXES = {
    "mexican": {"true": [0, 0, 0], "bluff": [0, 0, 0], "21": [1, 0, 1]},
    "dollar": {"true": [0, 0, 0], "bluff": [0, 0, 0], "21": [0, 0, 2]},
}


async def test_facts_held_back_survive_a_restart(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    """alice rolls a 21 that bob takes away unlifted, bob bluffs 55 on a 41; a new bot on
    the same database (nothing kept in memory) counts both when the game ends."""
    alice, bob, carol = sim.users[:3]
    sim.bot.tables.rng = ScriptedDice([2, 1, 4, 1])
    await alice.slash(sim.channel, "newgame", ruleset="mexican", turn_timer=0)
    await bob.slash(sim.channel, "join")
    await carol.slash(sim.channel, "join")
    await alice.slash(sim.channel, "start")
    await alice.slash(sim.channel, "roll")
    await alice.slash(sim.channel, "claim", value="54")
    await bob.slash(sim.channel, "roll")
    await bob.slash(sim.channel, "claim", value="55")

    async def counted(user: simcord.MemberActor) -> tuple[int, int, int]:
        totals = await storage.player_totals(sim.guild.id, user.id)
        return totals.rolls_made, totals.mex_rolled, totals.bluffs_made

    assert (await counted(alice), await counted(bob)) == ((1, 0, 0), (1, 0, 0))
    await restart(sim, settings, storage, [])
    await alice.slash(sim.channel, "endgame")
    assert sim.bot.tables.get(sim.channel.id) is None
    assert (await counted(alice), await counted(bob)) == ((1, 1, 0), (1, 0, 1))
