"""What players see of the league (README, Ratings; Seasons), through the real bot in the
Discord stand-in: the final standing's rating changes and achievements, `/season`,
`/achievements`, `/leaderboard stat:rating`, the card, and the season's end.

The league is the real one (bot/league/service.py) on the test's SQLite file and the stand-in's
clock: games played through the bot are rated as they end. Where a test needs a state no
short game reaches (a page of ratings, a season closed in a channel), it writes the
league's rows straight into storage, as tests/test_league_reads.py does.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.ai.personas import STATS_IDS
from bot.league.achievements import ACHIEVEMENTS
from bot.league.service import GameResult
from bot.present import ranking as words
from bot.present.card import CardData, layout_card
from bot.present.i18n import languages, talk
from bot.present.names import chat_name
from bot.runtime.settings import Settings
from tests.play_helpers import assert_private_to, assert_public, message_text
from tests.support.sim import SimTable
from tests.support.transcript import Driver, Transcript, pings
from tests.test_transcripts import TranscriptText, check_talk, foreign_words
from tests.test_transcripts import client_locales as client_locales  # the readers' languages
from tests.test_transcripts import seeded_salts as seeded_salts  # autouse: seeded cups

pytestmark = pytest.mark.slow  # league games through the bot: over a second each

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
    loop_cog(sim).seasons.restart()


def loop_cog(sim: SimTable) -> Any:
    """The League cog as the bot loaded it (the extension's own module, so typed loosely)."""
    cog = sim.bot.get_cog("League")
    assert cog is not None
    return cog


async def last_result(sim: SimTable) -> GameResult:
    """What the league stored for the server's last finished game (asking again returns
    the stored result, never a second rating)."""
    row = await sim.bot.storage._fetchone(
        "SELECT MAX(game_id) FROM rated_games WHERE guild_id = ?", (sim.guild.id,)
    )
    assert row is not None and row[0] is not None, "no game was rated"
    result = await sim.bot.league.game_over(int(row[0]))
    assert result is not None
    return result


async def close_season(
    sim: SimTable, season: str, champions: Iterable[tuple[str, int, int]], channel_id: int
) -> None:
    """A closed season not yet announced, as the league stores one: (family, user id,
    rating) in place order."""
    crowned = [
        {"family": f, "place": n, "user_id": u, "rating": r}
        for n, (f, u, r) in enumerate(champions, start=1)
    ]
    await sim.bot.storage._write(
        [
            (
                "INSERT INTO closed_seasons (guild_id, season, closed_at, champions, channel_id)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    sim.guild.id,
                    season,
                    sim.env.backend.clock.now().timestamp(),
                    json.dumps(crowned),
                    channel_id,
                ),
            )
        ]
    )


async def announced(sim: SimTable, season: str) -> bool:
    row = await sim.bot.storage._fetchone(
        "SELECT announced_at FROM closed_seasons WHERE guild_id = ? AND season = ?",
        (sim.guild.id, season),
    )
    return row is not None and row[0] is not None


async def rated_game(
    sim: SimTable, t: Transcript, seed: int = 75, language: str | None = None
) -> None:
    """alice and bob against Expert Ada at a dollar table of one life each, to the end:
    the people move by button (or slash), Ada after her pause."""
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
    return next(
        m for m in reversed(sim.channel.history()) if m.embeds and m.embeds[0].title == title
    )


async def test_a_rated_game_shows_each_rating_change(sim: SimTable, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    t = Transcript(sim)
    await rated_game(sim, t)
    sim.env.raise_errors()
    result = await last_result(sim)
    assert len(result.changes) == 3, "both people and the computer are rated"
    final = final_message(sim)
    rows = (final.embeds[0].description or "").splitlines()
    said = talk()
    for player, moved in result.changes.items():
        row = next(r for r in rows if words.standing_rating(moved, said) in r)
        assert row.split(" · ")[0].endswith(words.who(player, said)), row
    assert any("(+" in r for r in rows) and any("(−" in r for r in rows), rows
    # Newcomers all: every rating is provisional, and the footer says what ? means, once.
    assert final.embeds[0].footer.text == said("rating-legend", family="bluff") + " · " + said(
        "rating-provisional"
    )
    # The winner's first win and flawless game: one line that names them (nobody is
    # pinged by it), and one for bob's blind faith.
    winner, bob = str(sim.users[0].id), str(sim.users[1].id)
    assert result.earned == [(winner, "first_win"), (winner, "flawless"), (bob, "blind_faith")]
    assert rows[-2:] == [
        f"🏅 <@{winner}>: First blood and Flawless",
        f"🏅 <@{bob}>: Blind faith",
    ], "in the embed, where nobody is pinged"
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
        "Seasons last a calendar month. · ? = provisional (under 10 games)"
    )


async def test_an_admin_makes_seasons_quarters_and_others_may_not(sim: SimTable) -> None:
    a = sim.users[0]
    text = await refused_privately(sim, a, "season", length="quarter")
    assert text == "You need the Manage Server permission to change the season length."
    assert await sim.bot.storage.season_row(sim.guild.id) is None
    admins = sim.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = sim.guild.add_member(sim.env.create_user("admin"), roles=[admins])
    result = await admin.slash(sim.channel, "season", length="quarter")
    text = assert_private_to_member(sim, result, admin)
    assert text == "Done: seasons now last a quarter. This season: Q1 2026."
    assert await sim.bot.storage.season_row(sim.guild.id) == ("quarter", "2026-Q1")
    shown = assert_public(await a.slash(sim.channel, "season"))
    assert lines_of(await a.slash(sim.channel, "season"))[0] == "🏆 Season: Q1 2026"
    assert "Seasons last a quarter." in shown


async def refused_privately(
    sim: SimTable, user: simcord.MemberActor, command: str, **options: Any
) -> str:
    before = [m.id for m in sim.channel.history()]
    result = await user.slash(sim.channel, command, **options)
    text = assert_private_to(sim, result, user)
    assert [m.id for m in sim.channel.history()] == before
    return text


def assert_private_to_member(
    sim: SimTable, result: simcord.InteractionResult, owner: simcord.MemberActor
) -> str:
    assert result.ephemeral and result.response is not None
    assert all(m.id != result.response.id for m in sim.channel.history())
    return result.response.content


# --- /achievements -----------------------------------------------------------------------


async def test_achievements_of_oneself_and_of_another(sim: SimTable) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    result = await last_result(sim)
    winner_id = next(int(p) for p, key in result.earned if key == "first_win")
    winner = next(u for u in sim.users if u.id == winner_id)
    other = next(u for u in sim.users[:2] if u is not winner)
    theirs = {key for p, key in result.earned if p == str(winner_id)}
    total = len(ACHIEVEMENTS)
    mine = lines_of(await winner.slash(sim.channel, "achievements"))
    assert mine[0] == f"🏅 {chat_name(winner.name)} · {len(theirs)} of {total}"
    assert "🏅 **First blood** · 50% of players" in mine[1 : 1 + len(theirs)], "earned first"
    assert all(line.startswith("▫️ ") for line in mine[1 + len(theirs) :])
    assert len(mine) == 1 + total, "every achievement, earned or open"
    assert "▫️ **Centurion**: Play 100 games. · nobody has it yet" in mine
    assert lines_of(await other.slash(sim.channel, "achievements", user=winner)) == mine
    own = lines_of(await other.slash(sim.channel, "achievements"))
    held = sum(1 for p, _ in result.earned if p == str(other.id))
    assert own[0] == f"🏅 {chat_name(other.name)} · {held} of {total}"
    assert "▫️ **First blood**: Win a game. · 50% of players" in own


# --- /leaderboard stat:rating ----------------------------------------------------------


async def seed_ratings(sim: SimTable, family: str, people: int, start: int = 5000) -> None:
    """``people`` rated people on the server, the first best: μ 25 less half a point a
    place at σ 5 (so 1,200 less 10 a place shown), 4 rated games more a place; and
    Expert Ada above them all, who is never ranked. Each has played a game here (the
    leaderboard lists the people who played in its scope)."""
    now = sim.env.backend.clock.now().timestamp()
    people_rows = [(start + n, 25.0 - n * 0.5, 5.0, 4 + n) for n in range(people)]
    rows = [*people_rows, (STATS_IDS["expert"], 40.0, 2.0, 50)]
    await sim.bot.storage._write(
        [
            (
                "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, shown, games,"
                " last_game_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    sim.guild.id,
                    family,
                    user,
                    mu,
                    sigma,
                    round(1000 + 20 * (mu - 3 * sigma)),
                    games,
                    now,
                ),
            )
            for user, mu, sigma, games in rows
        ]
        + [
            (
                "INSERT INTO stat_buckets (guild_id, channel_id, period, user_id, rolls_made)"
                " VALUES (?, 0, 'all', ?, 1) ON CONFLICT DO NOTHING",
                (sim.guild.id, user),
            )
            for user, _, _, _ in rows
        ]
    )


async def test_the_rating_leaderboard_pages_with_provisional_marks(sim: SimTable) -> None:
    await seed_ratings(sim, "bluff", 12)
    await seed_ratings(sim, "open", 3, start=7000)
    a = sim.users[0]
    result = await a.slash(sim.channel, "leaderboard", stat="rating")
    embed = result.response.message.embeds[0]
    # "Rating" is the family more people here are rated in: 12 bluffing, 3 open.
    assert embed.title == "🏆 Rating (bluffing games) · this server · all time"
    lines = (embed.description or "").splitlines()
    assert lines[0] == "**#1** <@5000> · 1,200?"  # 1,000 + 20 × (25 − 3 × 5), 4 games
    assert lines[6] == "**#7** <@5006> · 1,140", "ten games or more: no mark"
    assert len(lines) == 10 and "<@-" not in embed.description
    assert embed.footer.text == "page 1/2 · ? = provisional (under 10 games)"
    ids = [c.custom_id for row in result.response.message.components for c in row.children]
    assert ids == ["lb:rating_bluff:server:all:-1", "lb:rating_bluff:server:all:1"]
    page2 = await a.click(result.response.message, label="▶")
    embed2 = page2.response.message.embeds[0]
    assert (embed2.description or "").splitlines() == [
        "**#11** <@5010> · 1,100",
        "**#12** <@5011> · 1,090",
    ]
    assert embed2.footer.text == "page 2/2 · ? = provisional (under 10 games)"
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
    result = await last_result(sim)
    winner = next(u for u in sim.users if (str(u.id), "first_win") in result.earned)
    held = [key for p, key in result.earned if p == str(winner.id)]
    value = f"{len(held)} · rarest: {words.rarest(sorted(held)[:3], talk())}"
    text = await winner.slash(sim.channel, "stats", text=True)
    fields = {f.name: f.value for f in text.response.message.embeds[0].fields}
    assert fields["rating · bluffing"] == words.rating(
        result.changes[str(winner.id)].after, True, talk()
    )
    assert "rating · open rolls" not in fields, "only the families played"
    assert fields["achievements"] == value, "all held by the winner alone: by key"
    assert "First blood" in value
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
    assert figures["achievements"] == value
    placed = {item.text for item in layout_card(drawn[0]).items}
    assert {"rating · bluffing", value} <= placed
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
    sent = [
        r
        for r in sim.env.http_requests
        if r.method == "POST" and r.path.endswith(f"/channels/{sim.channel.id}/messages")
    ][-1]
    assert pings(sent.json or {}) == [], "champions are named, not pinged"
    await sim.env.advance_time(180)
    assert len(sim.channel.history()) == before + 1, "a second tick posts nothing"
    shown = assert_public(await sim.users[0].slash(sim.channel, "season"))
    assert "🏆 Season: February 2026" in shown.splitlines()
    assert "**January 2026** · bluffing: <@" in shown


@contextlib.asynccontextmanager
async def write_lock_held(sim: SimTable, path: Path) -> AsyncIterator[None]:
    """Another process holds the database's write lock: for the bot's storage the
    database is down (tests/test_database_outage.py), its writes failing after 50 ms."""
    await sim.bot.storage._conn.execute("PRAGMA busy_timeout = 50")  # type: ignore[attr-defined]
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_the_season_loop_waits_out_a_database_outage(
    sim: SimTable, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    t = Transcript(sim)
    await rated_game(sim, t)
    before = len(sim.channel.history())
    caplog.set_level(logging.INFO, logger="bot.storage")
    async with write_lock_held(sim, settings.database_path):
        jump(sim, 31 * DAY)
        await sim.env.advance_time(121)
        assert len(sim.channel.history()) == before, "January cannot be closed yet"
    down = [r for r in caplog.records if r.name == "bot.storage" and "can't" in r.message]
    assert len(down) == 1, "the storage says the database is down, once"
    assert not [r for r in caplog.records if r.exc_info], "no traceback for an outage"
    await sim.env.advance_time(61)
    assert len(sim.channel.history()) == before + 1, "closed and announced once it is back"
    assert sim.channel.history()[-1].content.startswith("🏆 **January 2026** is over.")
    assert await loop_cog(sim).tick() == 0


# --- words -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", languages())
def test_season_names_and_ratings_in_every_language(language: str) -> None:
    said = talk(language)
    expected = {
        "en": ("December 2026", "1,034?"),
        "nl": ("december 2026", "1.034?"),
        "de": ("Dezember 2026", "1.034?"),
    }[language]
    assert words.season_name("2026-12", said) == expected[0]
    assert words.season_name("2026-Q4", said) == "Q4 2026"
    assert words.rating(1034, True, said) == expected[1]
    assert words.change(18, said) == "+18" and words.change(-7, said) == "−7"
    assert words.change(0, said) == "±0"
    for key in (
        "season-over",
        "season-title",
        "achievements-title",
        "card-rating",
        "stat-rating_bluff",
        "rating-provisional",
        "leaderboard-page-rating",
    ):
        assert said.has(key), (language, key)


def test_an_achievement_list_fits_one_embed() -> None:
    from bot.league.service import AchievementView

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
    await close_season(sim, "2025-12", [("bluff", sim.users[0].id, 1040)], quiet.id)
    cog = loop_cog(sim)
    caplog.set_level(logging.INFO, logger="cogs.seasons")
    assert await cog.tick() == 0
    assert await cog.tick() == 0
    assert quiet.history() == []
    assert len([r for r in caplog.records if "no channel to announce" in r.message]) == 1
    assert await announced(sim, "2025-12"), "claimed: no other process tries it either"
    # The same close in a channel it may use is posted, once.
    await close_season(sim, "2025-11", [("open", sim.users[1].id, 1010)], sim.channel.id)
    assert await cog.tick() == 1
    assert await cog.tick() == 0
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
    final = next(
        m
        for m in reversed(sim.channel.history())
        if m.embeds and m.embeds[0].title == said("final-title")
    )
    rows = (final.embeds[0].description or "").splitlines()
    result = await last_result(sim)
    first = next(p for p, _ in sorted(result.changes.items(), key=lambda pc: -pc[1].after))
    moved = result.changes[first]
    shown = f"{moved.after:,}?".replace(",", ".")
    assert rows[0].endswith(f"{shown} ({'+' if moved.delta > 0 else '−'}{abs(moved.delta)})")
    assert rows[-1].endswith(": " + said("achievement-" + result.earned[-1][1])), rows
    legend = said("rating-legend", family="bluff") + " · " + said("rating-provisional")
    assert final.embeds[0].footer.text == legend
    assert not foreign_words(message_text(final), language)


async def test_the_season_loop_leaves_other_processes_servers_alone(sim: SimTable) -> None:
    """A server another shard process runs is that process's to announce."""
    await close_season(sim, "2025-12", [("bluff", sim.users[0].id, 1040)], sim.channel.id)
    sim.bot.tables.owns = lambda guild_id: False
    cog = loop_cog(sim)
    assert await cog.tick() == 0
    assert not await announced(sim, "2025-12"), "left to the process that runs the server"
    sim.bot.tables.owns = lambda guild_id: True
    assert await cog.tick() == 1
    assert await announced(sim, "2025-12")
