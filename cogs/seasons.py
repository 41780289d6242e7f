"""`/season`, `/achievements` and the season's end (README, Ratings; Seasons).

Translates between Discord and bot/league/service.py: the league decides (what a season is, who
the champions are, who announces), the presenter words it (bot/present/ranking.py), and
this cog only asks and sends. The season loop wakes every minute on the bot's clock
(tests move it), closes the seasons that ended in this process's servers and posts each
close once, whichever process or restart gets there first.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.adapter import checks
from bot.adapter.permissions import ANNOUNCE, is_thread, missing, permissions_in
from bot.adapter.send import answer
from bot.league.seasons import LENGTHS
from bot.league.service import SeasonClose
from bot.present import ranking as words
from bot.present.i18n import language_of, talk
from bot.present.names import chat_name
from bot.present.screens import refusal
from bot.runtime.answering import respond
from bot.storage import DatabaseDownError

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger(__name__)

#: How often the loop looks for seasons that ended.
TICK_SECONDS = 60.0
Length = Literal["month", "quarter"]


class League(commands.Cog):
    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        #: The last tick failed (logged once until one succeeds again).
        self.failing = False
        #: Closes that could not be posted: logged once each.
        self.skipped: set[tuple[int, str]] = set()

    async def cog_load(self) -> None:
        self.seasons.start()

    async def cog_unload(self) -> None:
        self.seasons.cancel()

    # --- the season loop ---------------------------------------------------------------

    @tasks.loop(seconds=TICK_SECONDS)
    async def seasons(self) -> None:
        await self.tick()

    @seasons.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    def owned_guilds(self) -> list[int]:
        """The servers this process runs (bot/game/shards.py): only their seasons are its."""
        return [g.id for g in self.bot.guilds if self.bot.tables.owns(g.id)]

    async def tick(self) -> int:
        """Rate what a crash left unrated, close the seasons that ended, and announce
        each close once; how many were posted. A database outage waits for the next tick
        (README, Running at scale: While the database is down)."""
        guilds = self.owned_guilds()
        if not guilds:
            return 0
        league = self.bot.league
        posted = 0
        try:
            closes = await league.tick(guilds)
            for close in closes:
                posted += await self.announce(close)
        except DatabaseDownError:
            return posted  # the storage has logged the outage once
        except Exception as err:
            if not self.failing:  # once, until a tick works again: no log spam
                log.warning(
                    "the season loop failed (%s: %s); trying again every minute",
                    type(err).__name__,
                    err,
                )
            self.failing = True
            return posted
        if self.failing:
            log.info("the season loop works again")
        self.failing = False
        return posted

    async def announce(self, close: SeasonClose) -> int:
        """Post one close in its channel, if this process is the one to (the claim) and
        the bot may speak there; a channel it may not use is skipped, logged once."""
        channel = await self._channel(close.channel_id)
        if channel is None or not self._may_post(channel):
            if (close.guild_id, close.season) not in self.skipped:
                self.skipped.add((close.guild_id, close.season))
                log.info(
                    "season %s of guild %s: no channel to announce it in",
                    close.season,
                    close.guild_id,
                )
            await self.bot.league.claim_announcement(close.guild_id, close.season)
            return 0
        if not await self.bot.league.claim_announcement(close.guild_id, close.season):
            return 0  # another process (or an earlier tick) posts it
        guild = self.bot.get_guild(close.guild_id)
        t = talk(language_of(guild.preferred_locale if guild else None))
        reply = words.season_over(close, t)
        try:
            # A channel a game was played in: a text channel or thread, never a category or
            # a forum (which take no messages).
            await channel.send(  # type: ignore[union-attr]  # a game's channel takes messages
                reply.content, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as err:
            log.warning(
                "could not announce season %s in channel %s: %s",
                close.season,
                close.channel_id,
                err,
            )
            return 0
        return 1

    async def _channel(
        self, channel_id: int | None
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None:
        """The channel by id: from the cache, else asked of Discord (a thread the cache
        does not hold); None if it is gone or hidden from the bot."""
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel

    @staticmethod
    def _may_post(channel: object) -> bool:
        """The permissions table's answer for an announcement (bot/adapter/permissions.py), so
        Administrator counts here as it does for a game."""
        permissions = permissions_in(channel)
        return permissions is not None and not missing(
            permissions, in_thread=is_thread(channel), feature=ANNOUNCE
        )

    # --- /season and /achievements --------------------------------------------------------

    @app_commands.command(
        name="season", description="This season: days left, the top players and past champions"
    )
    @app_commands.describe(length="Manage Server only: seasons last a month or a quarter")
    @app_commands.guild_only()
    async def season(self, interaction: discord.Interaction, length: Length | None = None) -> None:
        t = talk(language_of(interaction.locale))
        problem = checks.first(
            checks.in_server(interaction),
            checks.one_of(length, LENGTHS, "season-length", t) if length is not None else None,
        )
        if problem or interaction.guild_id is None:
            await answer(interaction, refusal(problem or checks.server_only(interaction)))
            return
        if length is not None:
            if not interaction.permissions.manage_guild:
                await answer(interaction, refusal(t("season-needs-permission")))
                return
            key = await self.bot.league.set_season_length(interaction.guild_id, length)
            text = t("season-length-set", length=length, season=words.season_name(key, t))
            await respond(interaction, ephemeral=True, content=text)
            return
        view = await self.bot.league.season_view(interaction.guild_id)
        await answer(interaction, words.season(view, t))

    @app_commands.command(
        name="achievements",
        description="Achievements earned and still open, and how rare each is here",
    )
    @app_commands.describe(user="Whose achievements (you, if empty)")
    @app_commands.guild_only()
    async def achievements(
        self, interaction: discord.Interaction, user: discord.Member | None = None
    ) -> None:
        """Public, like `/stats`: achievements are there to be shown off and compared."""
        t = talk(language_of(interaction.locale))
        problem = checks.in_server(interaction)
        if problem or interaction.guild_id is None:
            await answer(interaction, refusal(problem or checks.server_only(interaction)))
            return
        target = user or interaction.user
        views = await self.bot.league.achievements_of(interaction.guild_id, target.id)
        await answer(interaction, words.achievements(chat_name(target.display_name), views, t))


async def setup(bot: MexicanBot) -> None:
    await bot.add_cog(League(bot))
