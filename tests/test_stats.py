"""Leaderboard, player cards, history and reset, checked against games played through the
bot in simcord (and, for paging, through the storage API the bot itself uses)."""

from __future__ import annotations

import io

import discord
import pytest
import simcord
from PIL import Image

from bot.present.card import MIN_HEIGHT, WIDTH, CardData, layout_card, render_card
from bot.storage import MIGRATIONS, Storage

from .db_helpers import database_url_fixture, storage_fixture
from .engine_helpers import ScriptedDice
from .support.sim import SimTable

DAY = 24 * 3600.0

# Every test here runs on SQLite and on PostgreSQL: the same figures from both.
storage = storage_fixture()
database_url = database_url_fixture()


async def bluff_rounds(sim: SimTable) -> tuple[str, str, str]:
    """alice is caught bluffing 55 twice by bob; then bob calls a true 64 and is wrong."""
    alice, bob, carol = sim.users[:3]
    sim.bot.tables.rng = ScriptedDice([6, 2, 4, 1, 6, 4])
    await alice.slash(sim.channel, "newgame", ruleset="mexican")
    await bob.slash(sim.channel, "join")
    await carol.slash(sim.channel, "join")
    await alice.slash(sim.channel, "start")
    await alice.slash(sim.channel, "roll")  # 6-2
    await alice.slash(sim.channel, "claim", value="55")
    await bob.slash(sim.channel, "bullshit")  # alice caught: a shot; bob starts
    await bob.slash(sim.channel, "roll")  # 4-1
    await bob.slash(sim.channel, "claim", value="43")
    await carol.slash(sim.channel, "accept")
    await carol.slash(sim.channel, "roll")  # 6-4
    await carol.slash(sim.channel, "claim", value="64")
    await alice.slash(sim.channel, "bullshit")  # true: alice loses a sip
    await alice.slash(sim.channel, "endgame")
    return str(alice.id), str(bob.id), str(carol.id)


async def test_stats_figures_match_a_game_played_through_the_bot(sim: SimTable) -> None:
    alice_id, bob_id, carol_id = await bluff_rounds(sim)
    totals = await sim.bot.storage.player_totals(sim.guild.id, int(alice_id))
    assert (totals.shots, totals.sips, totals.rounds_lost) == (1, 1, 2)
    assert (totals.bluffs_made, totals.bluffs_caught, totals.calls_made) == (1, 1, 1)
    # Two rounds, then the host ends it behind: it counts, a loss (docs/league.md, Ratings).
    assert (totals.calls_right, totals.games_played, totals.rolls_made) == (0, 1, 1)
    assert totals.games_won == 0
    bob = await sim.bot.storage.player_totals(sim.guild.id, int(bob_id))
    assert (bob.calls_made, bob.calls_right, bob.shots_caused) == (1, 1, 1)
    carol = await sim.bot.storage.player_totals(sim.guild.id, int(carol_id))
    assert (carol.sips_caused, carol.bluffs_made) == (1, 0)  # 64 over a true 6-4 is no bluff

    result = await sim.users[0].slash(sim.channel, "stats", text=True)
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    assert fields["taken"] == "1 sip, 1 shot"
    assert fields["bluffs made / caught"] == "1 / 1"
    assert fields["favourite claim"] == "⚄⚄ double five (1x)"
    assert fields["nemesis"].startswith("bob")
    assert result.response.embeds[0].description == "1 game · 0 wins · 0% win rate"


async def test_leaderboard_ranks_players_from_played_games(sim: SimTable) -> None:
    alice_id, bob_id, _ = await bluff_rounds(sim)
    result = await sim.users[1].slash(sim.channel, "leaderboard", stat="shots")
    embed = result.response.embeds[0]
    assert embed.description.splitlines() == [f"**#1** <@{alice_id}> · 1"]
    assert {f.name: f.value for f in embed.fields}["Your place"] == "not ranked yet"
    result = await sim.users[1].slash(sim.channel, "leaderboard", stat="handed_out")
    assert f"<@{bob_id}>" not in result.response.embeds[0].description  # a shot is no sip
    result = await sim.users[0].slash(
        sim.channel, "leaderboard", stat="sips", scope="channel", period="week"
    )
    assert result.response.embeds[0].description == f"**#1** <@{alice_id}> · 1"


async def test_history_has_one_line_per_round(sim: SimTable) -> None:
    alice_id, _, _ = await bluff_rounds(sim)
    result = await sim.users[2].slash(sim.channel, "history", count=5)
    lines = result.response.embeds[0].description.splitlines()
    assert len(lines) == 2
    assert lines[1].startswith(f"`#1` Mexican: <@{alice_id}> lost (on a call) — ")
    # One vocabulary: the table said "double five", so the history does too.
    assert lines[1].endswith(f"<@{alice_id}> 1 shot: caught bluffing double five on ⚅⚁ sixty-two")


async def test_leaderboard_pages_and_shows_the_callers_rank(sim: SimTable) -> None:
    store = sim.bot.storage
    game = await store.create_game(sim.guild.id, sim.channel.id, "mexen", "{}")
    viewer = sim.users[3]
    deltas = {(sim.guild.id, 1000 + i): {"sips": 30 - i} for i in range(25)}
    deltas[(sim.guild.id, viewer.id)] = {"sips": 1}
    await store.save_move(game.id, "{}", "running", [], deltas, channel_id=sim.channel.id)
    result = await viewer.slash(sim.channel, "leaderboard", stat="sips")
    message = sim.channel.last_message
    embed = result.response.embeds[0]
    assert embed.footer.text == "page 1/3"
    assert embed.description.splitlines()[0] == "**#1** <@1000> · 30"
    assert {f.name: f.value for f in embed.fields}["Your place"] == "#26 · 1"
    page2 = await viewer.click(message, label="▶")
    lines = page2.response.embeds[0].description.splitlines()
    assert lines[0] == "**#11** <@1010> · 20" and len(lines) == 10
    assert page2.response.embeds[0].footer.text == "page 2/3"


def test_stats_card_is_a_png_of_the_expected_size() -> None:
    data = CardData("alice", "3 games · 1 win · 33% win rate", [("taken", "2 sips")] * 10, "x")
    png = render_card(data)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == layout_card(data).size
    assert image.width == WIDTH == 900 and image.height >= MIN_HEIGHT


async def test_stats_command_sends_the_card_as_an_image(sim: SimTable) -> None:
    await bluff_rounds(sim)
    result = await sim.users[0].slash(sim.channel, "stats")
    assert [a.filename for a in result.response.attachments] == ["stats.png"]
    assert result.response.embeds[0].image.url == "attachment://stats.png"


async def test_reset_needs_manage_server_and_a_confirmation(sim: SimTable) -> None:
    alice_id, _, _ = await bluff_rounds(sim)
    store, guild_id = sim.bot.storage, sim.guild.id

    async def shots() -> int:
        return (await store.player_totals(guild_id, int(alice_id))).shots

    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await sim.users[1].slash(sim.channel, "resetleaderboard")  # not even visible to them
    assert await shots() == 1
    admins = sim.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = sim.guild.add_member(sim.env.create_user("admin"), roles=[admins])
    asked = await admin.slash(sim.channel, "resetleaderboard")
    assert asked.ephemeral and "Sure?" in asked.response.content
    cancelled = await admin.click(asked.response, label="Cancel")
    assert "Nothing was reset" in cancelled.response.content and await shots() == 1
    asked = await admin.slash(sim.channel, "resetleaderboard")
    done = await admin.click(asked.response, label="Yes, reset the leaderboard")
    assert "Leaderboard reset" in done.response.content
    assert await shots() == 0
    assert len(await store.history(sim.channel.id)) == 2  # the history stays


async def test_periods_keep_month_and_week_apart(database_url: str) -> None:
    async with await Storage.open(database_url) as store:
        game = await store.create_game(1, 2, "mexen", "{}")
        base = 1_767_225_600.0  # 2026-01-01, a Thursday
        await store.save_move(game.id, "{}", "running", [], {(1, 7): {"sips": 3}}, now=base)
        later = base + 40 * DAY
        await store.save_move(game.id, "{}", "running", [], {(1, 7): {"sips": 2}}, now=later)
        for period, expected in (("all", 5), ("month", 2), ("week", 2)):
            rows, total = await store.leaderboard(1, "sips", period=period, now=later)
            assert (rows[0].value, total) == (expected, 1)
        rows, _ = await store.leaderboard(1, "sips", period="week", now=base + 8 * DAY)
        assert rows == []


async def test_old_totals_survive_the_move_to_stat_buckets(database_url: str) -> None:
    old = await Storage.open(database_url, migrations=MIGRATIONS[:3])
    await old._write([("INSERT INTO player_totals (guild_id, user_id, sips) VALUES (1, 9, 7)", ())])
    await old.close()
    async with await Storage.open(database_url) as store:
        assert (await store.player_totals(1, 9)).sips == 7
        rows, _ = await store.leaderboard(1, "sips")
        assert [(r.user_id, r.value) for r in rows] == [(9, 7.0)]
