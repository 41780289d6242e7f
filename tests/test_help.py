"""`/help` through the real bot on simcord: one short private page in the reader's
language, with the commands of the table in play (its house rules too), of a rule set
asked for, or of a channel with no game (README, Commands)."""

from __future__ import annotations

import discord
import simcord

from bot.present.i18n import talk
from tests.play_helpers import assert_private_to, open_game
from tests.support.sim import SimTable
from tests.test_transcripts import client_locales as client_locales  # the readers' languages


def commands_listed(result: simcord.InteractionResult) -> list[str]:
    """The commands the page lists, by name, in the order shown."""
    assert result.response is not None
    (embed,) = result.response.embeds
    assert len(embed.fields) == 1
    return [line.split(":")[0].lstrip("/") for line in (embed.fields[0].value or "").splitlines()]


def page(result: simcord.InteractionResult) -> discord.Embed:
    assert result.response is not None
    (embed,) = result.response.embeds
    return embed


async def test_help_without_a_game_says_how_to_start_one(sim: SimTable) -> None:
    asker = sim.users[1]
    result = await asker.slash(sim.channel, "help")
    assert_private_to(sim, result, asker)
    embed = page(result)
    assert embed.title == "🎲 Help"
    assert len((embed.description or "").splitlines()) == 3  # the game in three lines
    assert commands_listed(result) == ["newgame", "join", "addbot", "start", "leave", "endgame"]
    assert embed.footer.text == "Every rule: /rules ruleset:<name>"


async def test_help_lists_the_moves_of_the_table_in_play(sim: SimTable) -> None:
    await open_game(sim, "mexico")
    result = await sim.users[2].slash(sim.channel, "help")
    assert_private_to(sim, result, sim.users[2])
    assert page(result).title == "🎲 Help · Mexico"
    assert commands_listed(result) == ["roll", "stand", "tap", "knight", "table"]
    assert "/tap: mexico: lock another player's 3-2 (STUCK)" in page(result).fields[0].value


async def test_help_follows_the_tables_house_rules(sim: SimTable) -> None:
    """A `mexican` table plays fold; the same commands as /help ruleset:mexican lists."""
    await open_game(sim, "mexican")
    here = commands_listed(await sim.users[0].slash(sim.channel, "help"))
    asked = commands_listed(await sim.users[0].slash(sim.channel, "help", ruleset="mexican"))
    assert here == asked == ["roll", "claim", "accept", "bullshit", "fold", "peek", "table"]
    dollar = commands_listed(await sim.users[0].slash(sim.channel, "help", ruleset="dollar"))
    assert "fold" not in dollar and "claim" in dollar


async def test_help_speaks_the_readers_language(
    sim: SimTable, client_locales: dict[int, str]
) -> None:
    await open_game(sim, "mexen")
    reader = sim.users[1]
    client_locales[reader.id] = "nl"
    result = await reader.slash(sim.channel, "help")
    embed = page(result)
    said = talk("nl")
    assert embed.title == "🎲 Hulp · Mexen"
    assert commands_listed(result) == [
        "gooien",
        "laten-staan",
        "ronde-afsluiten",
        "uitdelen",
        "tafel",
    ]
    assert embed.footer.text == "Alle regels: /regels variant:<naam>"
    assert said("help-moves-title") == embed.fields[0].name
