"""The set-up steps operators miss most: publishing the slash commands and inviting the
bot (README, Quick start).

A bot whose commands were never published logs "ready" and shows no slash command
anywhere; a bot invited nowhere logs "ready in 0 guild(s)" and waits. Once per process,
when it is first ready, this cog asks Discord which global commands the application has;
if none, one log line says the next step and gives the invite link for this very
application, with the permissions the bot needs. If they are published but the bot is in
no server, one log line gives the link. Never both: the link is logged once.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.adapter.faces import load_faces
from bot.adapter.permissions import invite_url

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger("bot.runtime.client")


def this_python() -> str:
    """The interpreter running the bot as the operator would type it: relative where it
    lies under the working directory (`.venv/bin/python`, as the README's commands say),
    since the system's `python` has no discord.py to run `sync` with."""
    executable = Path(sys.executable)
    with contextlib.suppress(ValueError):
        return str(executable.relative_to(Path.cwd()))
    return str(executable)


class Publishing(commands.Cog):
    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        self.checked = False

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self.checked:
            return  # a resumed or reconnected gateway says "ready" again
        self.checked = True
        await load_faces(self.bot)
        await self.tell_next_step()

    async def tell_next_step(self) -> None:
        bot = self.bot
        if bot.application_id is None:
            return
        link = invite_url(bot.application_id)
        if not await self.published():
            log.warning(
                "no slash commands are published for this application: run "
                "`%s -m bot sync` once (or set DEV_GUILD_ID to a test server's id), and "
                "invite the bot with %s",
                this_python(),
                link,
            )
        elif self.in_no_server():
            log.warning("the bot is in no server yet: invite it with %s", link)

    async def published(self) -> bool:
        """Whether the commands are out; an unanswered question counts as yes (no hint
        is better than a wrong one)."""
        if self.bot.dev_guild_id is not None:
            return True  # DEV_GUILD_ID syncs at every start-up
        try:
            return bool(await self.bot.tree.fetch_commands())
        except discord.HTTPException as exc:
            log.debug("could not list the published commands: %s", exc)
            return True

    def in_no_server(self) -> bool:
        """No server at all. A process running some shards sees only their servers, so it
        also needs the application's own count (read at login) to be 0; a server that is
        down still counts, as discord.py keeps it, unavailable, in `guilds`."""
        bot = self.bot
        if bot.guilds:
            return False
        if bot.sharding is None:
            return True
        application = bot.application
        return application is not None and application.approximate_guild_count == 0


async def setup(bot: MexicanBot) -> None:
    await bot.add_cog(Publishing(bot))
