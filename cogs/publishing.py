"""The set-up step operators miss most: publishing the slash commands (README, Quick start).

A bot whose commands were never published logs "ready" and shows no slash command
anywhere. Once per process, when it is first ready, this cog asks Discord which global
commands the application has; if none, one log line says the next step and gives the
invite link for this very application, with the permissions the bot needs.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.adapter.permissions import invite_url

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger("bot.runtime.client")


class Publishing(commands.Cog):
    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        self.checked = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.checked:
            return  # a resumed or reconnected gateway says "ready" again
        self.checked = True
        await self.tell_if_unpublished()

    async def tell_if_unpublished(self) -> None:
        bot = self.bot
        if bot.dev_guild_id is not None or bot.application_id is None:
            return  # DEV_GUILD_ID syncs at every start-up
        try:
            published = await bot.tree.fetch_commands()
        except discord.HTTPException as exc:
            log.debug("could not list the published commands: %s", exc)
            return
        if published:
            return
        log.warning(
            "no slash commands are published for this application: run `python -m bot sync` "
            "once (or set DEV_GUILD_ID to a test server's id), and invite the bot with %s",
            invite_url(bot.application_id),
        )


async def setup(bot: MexicanBot) -> None:
    await bot.add_cog(Publishing(bot))
