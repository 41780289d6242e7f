"""What counts, over the wire (README, Ratings: when a game counts): the farming tried on
the league (empty games against a computer, a game the timer alone decided, a game the
host ends early) moves no rating and counts no game, and `/stats` counts exactly the
games and wins the final standings showed, a rematch lobby never started and a
computer's win included."""

from __future__ import annotations

import random

import discord
import pytest

from bot.ai.personas import STATS_IDS
from bot.engine.result import CUT_SHORT_ROUNDS
from bot.storage import Storage
from tests.play_helpers import assert_public, table_of
from tests.support.sim import SimTable
from tests.support.transcript import Driver, Transcript
from tests.test_computers import PAUSE, lobby_with_computers, play_out

#: As in tests/test_computers.py: the computers' pause is left to the virtual clock.
pytestmark = [pytest.mark.simcord(settle_timeout=0.5), pytest.mark.slow]

TITLE = "Final standing"
NOTHING = "this game counts for nothing"


async def ratings(storage: Storage, guild_id: int, user_id: int) -> list[tuple]:
    rows = await storage._fetchall(
        "SELECT family, shown FROM ratings WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return [tuple(row) for row in rows]


async def test_fifteen_empty_games_against_a_computer_leave_the_rating_at_1000(
    sim: SimTable, storage: Storage
) -> None:
    a = sim.users[0]
    for _ in range(15):
        await lobby_with_computers(sim, "mexican", ["expert"], lives=3)
        await a.slash(sim.channel, "start")
        ended = assert_public(await a.slash(sim.channel, "endgame"))
        assert NOTHING in ended, ended
    assert await ratings(storage, sim.guild.id, a.id) == []
    totals = await storage.player_totals(sim.guild.id, a.id)
    assert (totals.games_played, totals.games_won) == (0, 0)
    card = await a.slash(sim.channel, "stats", text=True)
    assert card.response.embeds[0].description.startswith("0 games")
    board = await a.slash(sim.channel, "leaderboard", stat="rating_bluff")
    assert f"<@{a.id}>" not in (board.response.embeds[0].description or "")


async def test_a_game_the_timer_alone_decided_changes_no_rating(
    sim: SimTable, storage: Storage
) -> None:
    """Nobody presses a button: the timer moves for each in turn and removes them after
    two, and the game ends by walkover. Nothing of it counts."""
    a, b = sim.users[:2]
    sim.bot.tables.rng = random.Random(3)
    await a.slash(sim.channel, "newgame", ruleset="mexican", lives=3, turn_timer=30)
    await b.slash(sim.channel, "join")
    await a.slash(sim.channel, "start")
    for _ in range(20):
        if sim.bot.tables.get(sim.channel.id) is None:
            break
        await sim.env.advance_time(31)
    assert sim.bot.tables.get(sim.channel.id) is None, "the timer ended the game"
    assert NOTHING in (sim.channel.last_message.content or "")
    for user in (a, b):
        assert await ratings(storage, sim.guild.id, user.id) == []
        assert (await storage.player_totals(sim.guild.id, user.id)).games_played == 0


async def end_when(sim: SimTable, seed: int, leads: bool) -> str:
    """A game of `mexen` between a (the host) and b: both play until a leads (or trails)
    on sips, then a ends it. The final standing's text."""
    a, b = sim.users[:2]
    sim.bot.tables.rng = random.Random(seed)
    await a.slash(sim.channel, "newgame", ruleset="mexen", turn_timer=0)
    await b.slash(sim.channel, "join")
    await a.slash(sim.channel, "start")
    driver = Driver(Transcript(sim), seed)
    for _ in range(300):
        game = table_of(sim).game
        moved = all(game.players[p].moved for p in game.seats)
        places = dict(game.final_places())
        if moved and game.to_move == game.round_starter and game.players[str(b.id)].totals:
            mine, theirs = places[str(a.id)], places[str(b.id)]
            if (mine < theirs) if leads else (mine > theirs):
                break
        await driver.step()
    ended = assert_public(await a.slash(sim.channel, "endgame"))
    return f"{ended}\n{standings(sim)[-1].embeds[0].description}"


async def test_ending_a_game_is_no_exit_and_banks_no_lead(sim: SimTable, storage: Storage) -> None:
    """The host who ends a game while behind keeps the loss (b wins); the host who ends
    it in the lead wins nothing: nobody does, and both share first place."""
    a, b = sim.users[:2]
    behind = await end_when(sim, 5, leads=False)
    assert NOTHING not in behind
    assert f"🏆 1. <@{b.id}>" in behind and f"2. <@{a.id}>" in behind, behind
    assert (await ratings(storage, sim.guild.id, a.id))[0][1] < 1000
    ahead = await end_when(sim, 6, leads=True)
    assert f"<@{a.id}> ended the game in the lead: no winner." in ahead, ahead
    assert "🏆" not in ahead and f"1. <@{a.id}>" in ahead and f"1. <@{b.id}>" in ahead
    for user, wins in ((a, 0), (b, 1)):
        totals = await storage.player_totals(sim.guild.id, user.id)
        assert (totals.games_played, totals.games_won) == (2, wins)


def standings(sim: SimTable) -> list[discord.Message]:
    return [m for m in sim.channel.history() if m.embeds and m.embeds[0].title == TITLE]


def tally(messages: list[discord.Message], who: str) -> tuple[int, int]:
    """(games, wins) of ``who`` (a mention, or a computer's name) as the final standings
    showed them: a standing that counts lists them; a 🏆 row is a win."""
    games = wins = 0
    for m in messages:
        if NOTHING in (m.content or ""):
            continue
        rows = (m.embeds[0].description or "").splitlines()
        mine = [r for r in rows if not r.startswith("🏅") and f"{who} ·" in r]
        games += bool(mine)
        wins += any(r.startswith("🏆") for r in mine)
    return games, wins


async def test_stats_count_the_games_and_wins_the_standings_showed(
    sim: SimTable, storage: Storage
) -> None:
    """A series: a game played out, a rematch lobby closed before it started, games
    against Expert Ada (she wins some), and a game the host ends once it counts."""
    a, b = sim.users[:2]
    sim.bot.tables.rng = random.Random(11)
    await a.slash(sim.channel, "newgame", ruleset="dollar", lives=1, turn_timer=0)
    await b.slash(sim.channel, "join")
    await a.slash(sim.channel, "start")
    await play_out(sim, seed=11)
    last = standings(sim)[-1]
    await b.click(last, label="Rematch")
    assert table_of(sim).game.phase == "lobby"
    await b.slash(sim.channel, "endgame")  # the rematch lobby closes: no game
    assert sim.bot.tables.get(sim.channel.id) is None
    ada = "🤖 Expert Ada"
    for seed in range(12, 18):
        await lobby_with_computers(sim, "dollar", ["expert"], lives=1)
        await a.slash(sim.channel, "start")
        await sim.env.advance_time(PAUSE)
        await play_out(sim, seed=seed)
    await a.slash(sim.channel, "newgame", ruleset="mexican", turn_timer=0)
    await b.slash(sim.channel, "join")
    await a.slash(sim.channel, "start")
    driver = Driver(Transcript(sim), 19)
    while (table_of(sim).game.played_rounds or 0) < CUT_SHORT_ROUNDS:
        await driver.step()
    await a.slash(sim.channel, "endgame")

    shown = standings(sim)
    assert len(shown) == 8, "every game that started has a final standing"
    ada_games, ada_wins = tally(shown, ada)
    assert ada_wins >= 1, "a computer's win is marked like a person's"
    for who, stats_id in ((f"<@{a.id}>", a.id), (f"<@{b.id}>", b.id), (ada, STATS_IDS["expert"])):
        totals = await storage.player_totals(sim.guild.id, stats_id)
        assert (totals.games_played, totals.games_won) == tally(shown, who), who
    assert (ada_games, ada_wins) == tally(shown, ada)
    card = await a.slash(sim.channel, "stats", text=True)
    games, wins = tally(shown, f"<@{a.id}>")
    headline = card.response.embeds[0].description
    assert headline.startswith(f"{games} game") and f" {wins} win" in headline, headline
