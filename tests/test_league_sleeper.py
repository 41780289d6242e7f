"""The timer plays for nobody, over the wire, in all five rule sets (docs/league.md, Ratings:
when a game counts): a player who joined and never pressed a button counts for nothing,
no rating, no game or win on `/stats`, no achievement, while the game still counts for
the two who played it; alone with a sleeper, a game counts for nobody."""

from __future__ import annotations

import random

import pytest

from bot.engine import Act
from bot.engine.presets import PRESET_NAMES
from bot.storage import Storage
from tests.play_helpers import table_of
from tests.support.sim import SimTable
from tests.support.transcript import Driver, Transcript
from tests.test_league_counting import NOTHING, TITLE, ratings

pytestmark = pytest.mark.slow

#: The turn timer the sleeper's turns run out on.
TIMER = 30


async def play_with_a_sleeper(sim: SimTable, preset: str, awake: int, seed: int) -> str:
    """A three-life game of ``preset``: the first ``awake`` users play by random taps, the
    next user joins and never presses a button. The standing's text."""
    host, *others = sim.users[: awake + 1]
    sim.bot.tables.rng = random.Random(seed)
    await host.slash(sim.channel, "newgame", ruleset=preset, lives=3, turn_timer=TIMER)
    for user in others:
        await user.slash(sim.channel, "join")
    await host.slash(sim.channel, "start")
    sleeper = str(others[-1].id)
    driver = Driver(Transcript(sim), seed, slash_share=0)
    rng = random.Random(seed)
    for _ in range(400):
        table = sim.bot.tables.get(sim.channel.id)
        if table is None or table.game.phase != "playing":
            break
        game = table_of(sim).game
        mover = game.to_move
        assert mover is not None
        if mover == sleeper:
            await sim.env.advance_time(TIMER + 1)
            continue
        moves = [m for m in game.legal_actions(mover) if m.act is not Act.TAP]
        await driver.make(mover, rng.choice(moves))
    assert sim.bot.tables.get(sim.channel.id) is None or table_of(sim).game.phase == "over"
    shown = [m for m in sim.channel.history() if m.embeds and m.embeds[0].title == TITLE]
    last = shown[-1]
    return f"{last.content}\n{last.embeds[0].description}"


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_a_sleeper_counts_for_nothing_in_every_rule_set(
    sim: SimTable, storage: Storage, preset: str
) -> None:
    a, b, sleeper = sim.users[:3]
    shown = await play_with_a_sleeper(sim, preset, awake=2, seed=len(preset))
    guild = sim.guild.id
    assert await ratings(storage, guild, sleeper.id) == [], shown
    totals = await storage.player_totals(guild, sleeper.id)
    assert (totals.games_played, totals.games_won) == (0, 0), shown
    held = await storage._fetchall(
        "SELECT key FROM achievements WHERE guild_id = ? AND user_id = ?", (guild, sleeper.id)
    )
    assert list(held) == [], shown
    assert f"<@{sleeper.id}> ·" in shown and "timer only: not counted" in shown, shown
    assert NOTHING not in shown, "the two who played still count"
    for user in (a, b):
        assert (await storage.player_totals(guild, user.id)).games_played == 1
        assert len(await ratings(storage, guild, user.id)) == 1
    card = await sleeper.slash(sim.channel, "stats", text=True)
    assert card.response.embeds[0].description.startswith("0 games")


@pytest.mark.parametrize("preset", ["mexen", "mexico", "mexicanen"])
async def test_alone_with_a_sleeper_nothing_counts(
    sim: SimTable, storage: Storage, preset: str
) -> None:
    """The open-roll games the timer used to win for a sleeper."""
    a, sleeper = sim.users[:2]
    shown = await play_with_a_sleeper(sim, preset, awake=1, seed=7)
    assert NOTHING in shown, shown
    for user in (a, sleeper):
        assert await ratings(storage, sim.guild.id, user.id) == []
        assert (await storage.player_totals(sim.guild.id, user.id)).games_played == 0
