"""`/web`: a server admin turns the web companion's pages on or off and gets the link
(README, Web companion). Off by default; the link's token is stored, and turning the
pages off deletes it, so the old link shows nothing. The answer is private: the admin
decides where to share the link."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import checks
from bot.adapter.send import answer
from bot.present.i18n import language_of, talk
from bot.present.links import server_link
from bot.present.screens import refusal
from bot.runtime.answering import respond
from bot.runtime.client import now
from bot.web.serve import new_token

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

Switch = Literal["on", "off"]


class Web(commands.Cog):
    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="web",
        description="This server's leaderboards, profiles and replays on the web (Manage Server)",
    )
    @app_commands.describe(pages="Turn the web pages on or off (empty: show the link)")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def web(self, interaction: discord.Interaction, pages: Switch | None = None) -> None:
        t = talk(language_of(interaction.locale))
        problem = checks.first(
            checks.in_server(interaction),
            checks.one_of(pages, ("on", "off"), "web-pages", t) if pages is not None else None,
        )
        if problem or interaction.guild_id is None:
            await answer(interaction, refusal(problem or checks.server_only(interaction)))
            return
        if not interaction.permissions.manage_guild:
            await answer(interaction, refusal(t("web-needs-permission")))
            return
        base = self.bot.web_url
        if base is None:
            await answer(interaction, refusal(t("web-not-set-up")))
            return
        store, guild = self.bot.storage, interaction.guild_id
        if pages == "off":
            await store.close_web_link(guild)
            text = t("web-off")
        else:
            token = (
                await store.open_web_link(guild, new_token(), now())
                if pages == "on"
                else await store.web_link(guild)
            )
            text = t("web-on", link=server_link(base, token)) if token else t("web-is-off")
        await respond(interaction, ephemeral=True, content=text)


async def setup(bot: MexicanBot) -> None:
    await bot.add_cog(Web(bot))
