"""What players see of the league (README, Ratings; Seasons), through the real bot in the
Discord stand-in: the final standing's rating changes and achievements, `/season`,
`/achievements`, `/leaderboard stat:rating`, the card, and the season's end.

The league itself is the in-memory one every test bot gets (tests/support/fake_league.py,
swapped in by tests/conftest.py): real ratings (openskill) and real seasons (bot/seasons.py)
on the simulated clock, kept in dictionaries.
"""

from __future__ import annotations

import logging
import random
import sys
from typing import Any

import discord
import pytest
import simcord

from bot.ai.personas import STATS_IDS
from bot.ratings import Skill
from bot.seasons import Champion
from bot.storage import DatabaseDownError
from cogs.card import CardData, layout_card
from cogs.present import league as words
from cogs.present.i18n import languages, talk
from tests.conftest import SimTable
from tests.play_helpers import assert_private_to, assert_public, message_text
from tests.support.fake_league import FakeLeague, rate_games
from tests.support.transcript import Driver, Transcript, pings
from tests.test_transcripts import TranscriptText, check_talk, foreign_words
from tests.test_transcripts import client_locales as client_locales  # the readers' languages
from tests.test_transcripts import seeded_salts as seeded_salts  # autouse: seeded cups

DAY = 86400.0


@pytest.fixture
def transcript_snapshot(snapshot):  # type: ignore[no-untyped-def]
    return snapshot.use_extension(TranscriptText)


#: A computer's pause before it moves, and then some (bot/ai/scheduler.py).
PAUSE = 3.5


def lines_of(result: simcord.InteractionResult) -> list[str]:
    """A public answer as a player reads it, line by line."""
    return [line for line in assert_public(result).splitlines() if line]


def jump(sim: SimTable, seconds: float) -> None:
    """Move the clock far ahead at once (to a season's end). The season loop is started
    afresh from there, as after a restart: a minute's loop would otherwise run once for
    every minute skipped."""
    sim.env.backend.clock.advance(seconds)
    cog = sim.bot.get_cog("League")
    assert cog is not None
    cog.seasons.restart()  # type: ignore[attr-defined]


def fake(sim: SimTable) -> FakeLeague:
    league = sim.bot.league
    assert isinstance(league, FakeLeague)
    return league


async def rated_game(
    sim: SimTable, t: Transcript, seed: int = 75, language: str | None = None
) -> None:
    """alice and bob against Expert Ada at a dollar table of one life each, to the end:
    the people move by button (or slash), Ada after her pause."""
    rate_games(sim.bot)
    fake(sim).award_first_wins = True
    sim.bot.tables.rng = random.Random(seed)
    a, b = sim.users[:2]
    spoken = {"language": language} if language else {}
    opening = a.slash(sim.channel, "newgame", ruleset="dollar", lives=1, turn_timer=0, **spoken)
    await t.act(a, "/newgame ruleset:dollar lives:1", opening)
    await t.act(b, "/join", b.slash(sim.channel, "join"))
    await t.act(a, "/addbot persona:expert", a.slash(sim.channel, "addbot", persona="expert"))
    await t.act(a, "/start", a.slash(sim.channel, "start"))
    driver = Driver(t, seed)
    for _ in range(300):
        table = sim.bot.tables.get(sim.channel.id)
        if table is None or table.game.phase != "playing":
            return
        if table.game.to_move in driver.users:
            await driver.step()
        else:
            await t.wait(PAUSE)
    raise AssertionError("the game did not finish")


def final_message(sim: SimTable) -> discord.Message:
    title = talk()("final-title")
    return next(m for m in reversed(sim.channel.history()) if m.embeds and
                m.embeds[0].title == title)  # fmt: skip


async def test_a_rated_game_shows_each_rating_change(sim: SimTable, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    t = Transcript(sim)
    await rated_game(sim, t)
    sim.env.raise_errors()
    result = fake(sim).results[max(fake(sim).results)]
    assert len(result.changes) == 3, "both people and the computer are rated"
    final = final_message(sim)
    rows = (final.embeds[0].description or "").splitlines()
    said = talk()
    for player, moved in result.changes.items():
        row = next(r for r in rows if words.standing_rating(moved, said) in r)
        assert row.split(" · ")[0].endswith(words.who(player, said)), row
    assert any("(+" in r for r in rows) and any("(−" in r for r in rows), rows
    # Newcomers all: every rating is provisional, and the footer says what ? means, once.
    assert final.embeds[0].footer.text == said("rating-provisional")
    # The winner's first win: one line that names them, and nobody is pinged by it.
    winner = next(p for p, _ in result.earned)
    assert rows[-1] == f"🏅 <@{winner}>: first-win", "in the embed, where nobody is pinged"
    title = said("final-title")
    assert all(not s.pinged for s in t.sent if title in s.text)
    check_talk(t, 2)
    assert t.text() == transcript_snapshot


# --- /season ---------------------------------------------------------------------------


async def test_season_shows_the_month_the_top_and_days_left(sim: SimTable) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    a = sim.users[0]
    result = await a.slash(sim.channel, "season")
    assert_public(result)
    embed = result.response.message.embeds[0]
    # The stand-in's clock starts on 1 January 2026 and the game took a few minutes.
    assert embed.title == "🏆 Season: January 2026"
    assert embed.description == "31 days left."
    assert [f.name for f in embed.fields] == ["Bluffing games"], "families played only"
    top = embed.fields[0].value.splitlines()
    assert top[0].startswith("🥇 <@") and top[1].startswith("🥈 <@") and len(top) == 2
    assert top[0].endswith("?"), "provisional, marked"
    assert "Expert Ada" not in embed.fields[0].value, "people only"
    assert embed.footer.text == (
        "Seasons last a calendar month. · ? = provisional, under 10 rated games"
    )


async def test_an_admin_makes_seasons_quarters_and_others_may_not(sim: SimTable) -> None:
    a = sim.users[0]
    text = await refused_privately(sim, a, "season", length="quarter")
    assert text == "You need the Manage Server permission to change the season length."
    assert fake(sim).length == {}
    admins = sim.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = sim.guild.add_member(sim.env.create_user("admin"), roles=[admins])
    result = await admin.slash(sim.channel, "season", length="quarter")
    text = assert_private_to_member(sim, result, admin)
    assert text == "Done: seasons now last a quarter. This season: Q1 2026."
    assert fake(sim).length == {sim.guild.id: "quarter"}
    shown = assert_public(await a.slash(sim.channel, "season"))
    assert lines_of(await a.slash(sim.channel, "season"))[0] == "🏆 Season: Q1 2026"
    assert "Seasons last a quarter." in shown


async def refused_privately(sim: SimTable, user: simcord.MemberActor, command: str,
                            **options: Any) -> str:  # fmt: skip
    before = [m.id for m in sim.channel.history()]
    result = await user.slash(sim.channel, command, **options)
    text = assert_private_to(sim, result, user)
    assert [m.id for m in sim.channel.history()] == before
    return text


def assert_private_to_member(sim: SimTable, result: simcord.InteractionResult,
                             owner: simcord.MemberActor) -> str:  # fmt: skip
    assert result.ephemeral and result.response is not None
    assert all(m.id != result.response.id for m in sim.channel.history())
    return result.response.content


# --- /achievements -----------------------------------------------------------------------


async def test_achievements_of_oneself_and_of_another(sim: SimTable) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    result = fake(sim).results[max(fake(sim).results)]
    winner_id = int(result.earned[0][0])
    winner = next(u for u in sim.users if u.id == winner_id)
    other = next(u for u in sim.users[:2] if u is not winner)
    mine = lines_of(await winner.slash(sim.channel, "achievements"))
    assert mine[0] == f"🏅 {winner.name} · 1 of 3"
    assert mine[1] == "🏅 **first-win** · 50% of players", "earned first, with its rarity"
    assert all(line.startswith("▫️ ") for line in mine[2:]) and len(mine) == 4
    assert "nobody has it yet" in mine[2]
    theirs = await other.slash(sim.channel, "achievements", user=winner)
    assert lines_of(theirs) == mine
    own = lines_of(await other.slash(sim.channel, "achievements"))
    assert own[0] == f"🏅 {other.name} · 0 of 3"
    assert "50% of players" in own[1] and own[1].startswith("▫️ ")


# --- /leaderboard stat:rating ----------------------------------------------------------


def seed_ratings(sim: SimTable, family: str, people: int, start: int = 5000) -> dict[int, Skill]:
    pool = fake(sim).skills[sim.guild.id, family]
    for n in range(people):
        pool[start + n] = Skill(mu=25.0 - n * 0.5, sigma=5.0, games=4 + n)
    pool[STATS_IDS["expert"]] = Skill(mu=40.0, sigma=2.0, games=50)  # never ranked
    return pool


async def test_the_rating_leaderboard_pages_with_provisional_marks(sim: SimTable) -> None:
    seed_ratings(sim, "bluff", 12)
    seed_ratings(sim, "open", 3, start=7000)
    a = sim.users[0]
    result = await a.slash(sim.channel, "leaderboard", stat="rating")
    embed = result.response.message.embeds[0]
    # "Rating" is the family more people here are rated in: 12 bluffing, 3 open.
    assert embed.title == "🏆 Rating (bluffing games) · this server · all time"
    lines = (embed.description or "").splitlines()
    assert lines[0] == "**#1** <@5000> · 1,200?"  # 1,000 + 20 × (25 − 3 × 5), 4 games
    assert lines[6] == "**#7** <@5006> · 1,140", "ten games or more: no mark"
    assert len(lines) == 10 and "<@-" not in embed.description
    assert embed.footer.text == "page 1/2 · ? = provisional, under 10 rated games"
    ids = [c.custom_id for row in result.response.message.components for c in row.children]
    assert ids == ["lb:rating_bluff:server:all:-1", "lb:rating_bluff:server:all:1"]
    page2 = await a.click(result.response.message, label="▶")
    embed2 = page2.response.message.embeds[0]
    assert (embed2.description or "").splitlines() == [
        "**#11** <@5010> · 1,100", "**#12** <@5011> · 1,090"]  # fmt: skip
    assert embed2.footer.text == "page 2/2 · ? = provisional, under 10 rated games"
    other = await a.slash(sim.channel, "leaderboard", stat="rating_open")
    embed3 = other.response.message.embeds[0]
    assert embed3.title == "🏆 Rating (open-roll games) · this server · all time"
    assert (embed3.description or "").splitlines()[0] == "**#1** <@7000> · 1,200?"


# --- the card --------------------------------------------------------------------------


async def test_the_card_shows_ratings_and_rarest_achievements(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    result = fake(sim).results[max(fake(sim).results)]
    winner = next(u for u in sim.users if str(u.id) == result.earned[0][0])
    text = await winner.slash(sim.channel, "stats", text=True)
    fields = {f.name: f.value for f in text.response.message.embeds[0].fields}
    assert fields["rating · bluffing"] == words.rating(
        result.changes[str(winner.id)].after, True, talk()
    )
    assert "rating · open rolls" not in fields, "only the families played"
    assert fields["achievements"] == "1 · rarest: first-win"
    # The image draws the same figures (captured on their way to the drawing).
    drawn: list[CardData] = []
    loaded = sys.modules["cogs.stats"]  # the extension as the bot loaded it
    render = loaded.render_card

    def capture(data: CardData) -> bytes:
        drawn.append(data)
        return render(data)

    monkeypatch.setattr(loaded, "render_card", capture)
    image = await winner.slash(sim.channel, "stats")
    assert image.response.message.attachments, "the card comes as an image"
    figures = dict(drawn[0].figures)
    assert figures["rating · bluffing"] == fields["rating · bluffing"]
    assert figures["achievements"] == "1 · rarest: first-win"
    placed = {item.text for item in layout_card(drawn[0]).items}
    assert {"rating · bluffing", "1 · rarest: first-win"} <= placed
    # A computer's card: where Expert Ada stands, and no achievements.
    ada = await winner.slash(sim.channel, "stats", computer="expert", text=True)
    ada_fields = {f.name: f.value for f in ada.response.message.embeds[0].fields}
    ada_moved = next(c for p, c in result.changes.items() if not p.isdigit())
    assert ada_fields["rating · bluffing"] == words.rating(ada_moved.after, True, talk())
    assert "achievements" not in ada_fields


async def test_a_new_players_card_has_no_rating_yet(sim: SimTable) -> None:
    a = sim.users[3]
    text = await a.slash(sim.channel, "stats", text=True)
    fields = {f.name: f.value for f in text.response.message.embeds[0].fields}
    assert not any(name.startswith("rating") for name in fields)
    assert fields["achievements"] == "none yet"


# --- the season's end --------------------------------------------------------------------


async def test_the_season_end_is_announced_once(sim: SimTable) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    before = len(sim.channel.history())
    # Past the end of January (the stand-in's clock starts on 1 January 2026).
    jump(sim, 31 * DAY)
    await sim.env.advance_time(1)
    posted = sim.channel.history()[before:]
    assert len(posted) == 1, [m.content for m in posted]
    lines = posted[0].content.splitlines()
    assert lines[0] == "🏆 **January 2026** is over. Champions:"
    assert lines[1].startswith("Bluffing games: 🥇 <@") and "🥈 <@" in lines[1]
    assert "Expert Ada" not in posted[0].content, "computers are never champions"
    assert lines[2] == "A new season starts now, with everyone's rating carried over: /season"
    sent = [r for r in sim.env.http_requests if r.method == "POST" and r.path.endswith(
        f"/channels/{sim.channel.id}/messages")][-1]  # fmt: skip
    assert pings(sent.json or {}) == [], "champions are named, not pinged"
    await sim.env.advance_time(180)
    assert len(sim.channel.history()) == before + 1, "a second tick posts nothing"
    shown = assert_public(await sim.users[0].slash(sim.channel, "season"))
    assert "🏆 Season: February 2026" in shown.splitlines()
    assert "**January 2026** · bluffing: <@" in shown


async def test_the_season_loop_waits_out_a_database_outage(
    sim: SimTable, caplog: pytest.LogCaptureFixture
) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    before = len(sim.channel.history())
    cog = sim.bot.get_cog("League")
    assert cog is not None
    fake(sim).failing = DatabaseDownError("down")
    jump(sim, 31 * DAY)
    await sim.env.advance_time(121)
    assert len(sim.channel.history()) == before
    assert not [r for r in caplog.records if r.exc_info], "no traceback for an outage"
    fake(sim).failing = None
    await sim.env.advance_time(61)
    assert len(sim.channel.history()) == before + 1
    assert await cog.tick() == 0  # type: ignore[attr-defined]


# --- words -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", languages())
def test_season_names_and_ratings_in_every_language(language: str) -> None:
    said = talk(language)
    expected = {"en": ("December 2026", "1,034?"), "nl": ("december 2026", "1.034?"),
                "de": ("Dezember 2026", "1.034?")}[language]  # fmt: skip
    assert words.season_name("2026-12", said) == expected[0]
    assert words.season_name("2026-Q4", said) == "Q4 2026"
    assert words.rating(1034, True, said) == expected[1]
    assert words.change(18, said) == "+18" and words.change(-7, said) == "−7"
    assert words.change(0, said) == "±0"
    for key in ("season-over", "season-title", "achievements-title", "card-rating",
                "stat-rating_bluff", "rating-provisional", "leaderboard-page-rating"):  # fmt: skip
        assert said.has(key), (language, key)


def test_an_achievement_list_fits_one_embed() -> None:
    from bot.league import AchievementView

    views = [AchievementView(f"k{n}" * 20, None if n % 2 else 1.0, n, 100) for n in range(200)]
    reply = words.achievements("bob", views, talk())
    assert reply.embed is not None and len(reply.embed.description) <= 4096
    assert reply.embed.description.startswith("🏅 **")


@pytest.mark.parametrize("language", ["nl", "de"])
async def test_the_league_speaks_the_reader_s_language(
    sim: SimTable, client_locales: dict[int, str], language: str
) -> None:
    """`/season`, `/achievements` and the card in a Dutch or German client: no English
    left, and the same rating words as the catalog's."""
    t = Transcript(sim)
    await rated_game(sim, t)
    a = sim.users[0]
    client_locales[a.id] = language
    said = talk(language)
    season = assert_public(await a.slash(sim.channel, "season"))
    assert said("season-title", season=words.season_name("2026-01", said)) in season
    achieved = assert_public(await a.slash(sim.channel, "achievements"))
    card = await a.slash(sim.channel, "stats", text=True)
    fields = {f.name: f.value for f in card.response.message.embeds[0].fields}
    assert said("card-rating", family="bluff") in fields
    for text in (season, achieved, "\n".join(fields)):
        assert not foreign_words(text, language), text


async def test_a_season_end_where_the_bot_may_not_post_is_skipped_once(
    sim: SimTable, caplog: pytest.LogCaptureFixture
) -> None:
    """The channel the server played most in forbids the bot to post: nothing is sent,
    the log says so once, and the close is not tried again."""
    quiet = sim.guild.create_text_channel(
        "quiet", overwrites={sim.bot.user: discord.PermissionOverwrite(send_messages=False)}
    )
    league, guild = fake(sim), sim.guild.id
    league.closed[guild] = [("2025-12", [Champion("bluff", 1, sim.users[0].id, 1040)])]
    league.channels[guild, "2025-12"][quiet.id] = 3
    cog = sim.bot.get_cog("League")
    assert cog is not None
    caplog.set_level(logging.INFO, logger="cogs.league")
    assert await cog.tick() == 0  # type: ignore[attr-defined]
    assert await cog.tick() == 0  # type: ignore[attr-defined]
    assert quiet.history() == []
    assert len([r for r in caplog.records if "no channel to announce" in r.message]) == 1
    assert (guild, "2025-12") in league.claimed
    # The same close in a channel it may use is posted, once.
    league.closed[guild] = [("2025-11", [Champion("open", 1, sim.users[1].id, 1010)])]
    league.channels[guild, "2025-11"][sim.channel.id] = 1
    assert await cog.tick() == 1  # type: ignore[attr-defined]
    assert await cog.tick() == 0  # type: ignore[attr-defined]
    posted = sim.channel.history()[-1].content.splitlines()
    assert posted[:2] == [
        "🏆 **November 2025** is over. Champions:",
        f"Open-roll games: 🥇 <@{sim.users[1].id}> 1,010",
    ]


@pytest.mark.parametrize("language", ["nl", "de"])
async def test_a_rated_final_standing_at_a_dutch_or_german_table(
    sim: SimTable, language: str
) -> None:
    t = Transcript(sim)
    await rated_game(sim, t, language=language)
    said = talk(language)
    final = next(m for m in reversed(sim.channel.history())
                 if m.embeds and m.embeds[0].title == said("final-title"))  # fmt: skip
    rows = (final.embeds[0].description or "").splitlines()
    assert rows[0].endswith("1.065? (+65)") and rows[-1].endswith(": first-win"), rows
    assert final.embeds[0].footer.text == said("rating-provisional")
    assert not foreign_words(message_text(final), language)


async def test_the_season_loop_leaves_other_processes_servers_alone(sim: SimTable) -> None:
    """A server another shard process runs is that process's to announce."""
    league, guild = fake(sim), sim.guild.id
    league.closed[guild] = [("2025-12", [Champion("bluff", 1, sim.users[0].id, 1040)])]
    league.channels[guild, "2025-12"][sim.channel.id] = 3
    sim.bot.tables.owns = lambda guild_id: False
    cog = sim.bot.get_cog("League")
    assert cog is not None
    before = league.ticks
    assert await cog.tick() == 0  # type: ignore[attr-defined]
    assert league.ticks == before and not league.claimed
    sim.bot.tables.owns = lambda guild_id: True
    assert await cog.tick() == 1  # type: ignore[attr-defined]
