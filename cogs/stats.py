"""Leaderboard, player cards and round history: the rivalry that brings groups back.

Reads only what the table service stored with each move; nothing here changes a game.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.storage import MINIMUMS, STATS, PlayerTotals, Ranked

from . import checks
from .card import CardData, render_card
from .present.history import history_line
from .present.table import refusal
from .present.words import Words, amount, who
from .send import answer, routed_view

if TYPE_CHECKING:
    from bot.client import MexicanBot

log = logging.getLogger(__name__)

PAGE = 10
STAT_CHOICES = [app_commands.Choice(name=spec.title, value=key) for key, spec in STATS.items()]
Scope = Literal["server", "channel"]
Period = Literal["all", "month", "week"]


def _now() -> float:
    return discord.utils.utcnow().timestamp()


def format_value(stat: str, value: float) -> str:
    return f"{value * 100:.0f}%" if STATS[stat].percent else f"{value:g}"


async def leaderboard_page(
    bot: MexicanBot, guild_id: int, channel_id: int, viewer: int, stat: str, scope: str,
    period: str, page: int,
) -> tuple[discord.Embed, discord.ui.View]:  # fmt: skip
    """One page of a ranking, with the viewer's own place and buttons to turn pages."""
    spec = STATS[stat]
    where = channel_id if scope == "channel" else 0
    rows, total = await bot.storage.leaderboard(
        guild_id, stat, channel_id=where, period=period, now=_now(),
        offset=page * PAGE, limit=PAGE,
    )  # fmt: skip
    pages = max(1, math.ceil(total / PAGE))
    scope_text = "this channel" if scope == "channel" else "this server"
    period_text = {"all": "all time", "month": "this month", "week": "this week"}[period]
    lines = [f"**#{r.rank}** {who(str(r.user_id))} · {format_value(stat, r.value)}" for r in rows]
    if not lines:
        lines = ["Nobody is ranked here yet: play a game!"]
    embed = discord.Embed(
        title=f"🏆 {spec.title} · {scope_text} · {period_text}",
        description="\n".join(lines),
        colour=discord.Colour.dark_gold(),
    )
    mine: Ranked | None = await bot.storage.rank_of(
        guild_id, stat, viewer, channel_id=where, period=period, now=_now()
    )
    embed.add_field(
        name="Your place",
        value=f"#{mine.rank} · {format_value(stat, mine.value)}" if mine else "not ranked yet",
    )
    if spec.percent:
        minimum = {"winrate": "min_games", "bluffing": "min_bluffs", "calls": "min_calls"}[stat]
        embed.set_footer(text=f"page {page + 1}/{pages} · at least {MINIMUMS[minimum]} to rank")
    else:
        embed.set_footer(text=f"page {page + 1}/{pages}")
    view = routed_view()
    view.add_item(PageButton(stat, scope, period, page - 1, "◀", disabled=page <= 0))
    view.add_item(PageButton(stat, scope, period, page + 1, "▶", disabled=page + 1 >= pages))
    return embed, view


#: Pages a leaderboard button may ask for; a million players is more than any server has.
MAX_PAGE = 100_000
_PAGE = re.compile(r"(?P<stat>[a-z_]{1,20}):(?P<scope>server|channel):(?P<period>all|month|week)"
                   r":(?P<page>\d{1,6})")  # fmt: skip


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lb:(?P<rest>.{0,96})"):
    """Turns a leaderboard page; the custom id holds the whole query, so it survives
    restarts. Any ``lb:`` id reaches the callback, which refuses what does not parse."""

    def __init__(self, stat: str, scope: str, period: str, page: int, label: str = "▶",
                 disabled: bool = False) -> None:  # fmt: skip
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lb:{stat}:{scope}:{period}:{page}",
            )
        )
        self.stat, self.scope, self.period, self.page = stat, scope, period, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> PageButton:
        m = _PAGE.fullmatch(match["rest"])
        if m is None:
            return cls("", "server", "all", -1, item.label or "▶")
        return cls(m["stat"], m["scope"], m["period"], int(m["page"]), item.label or "▶")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.stat not in STATS or interaction.guild_id is None or not 0 <= self.page <= MAX_PAGE:
            await interaction.response.send_message("That page no longer exists.", ephemeral=True)
            return
        bot: MexicanBot = interaction.client  # type: ignore[assignment]
        embed, view = await leaderboard_page(
            bot, interaction.guild_id, interaction.channel_id or 0, interaction.user.id,
            self.stat, self.scope, self.period, self.page,
        )  # fmt: skip
        await interaction.response.edit_message(embed=embed, view=view)


def card_data(name: str, totals: PlayerTotals, favourite: tuple[str, int] | None,
              nemesis: tuple[int, int] | None, nemesis_name: str | None) -> CardData:  # fmt: skip
    """The figures of a player card, shared by the image and the text fallback. Plain
    ASCII where the card's built-in font has no other glyph ("none", not a dash)."""
    t = totals
    rate = f"{t.games_won / t.games_played:.0%}" if t.games_played else "no"
    expected = t.rolls_made * 2 / 36
    luck = f"{t.mex_rolled:,} ({expected:,.1f} expected)"
    drinks = [amount(n, u) for n, u in ((t.sips, "sip"), (t.shots, "shot"), (t.chugs, "chug"),
                                        (t.points, "point")) if n]  # fmt: skip
    caused = [amount(n, u) for n, u in ((t.sips_caused, "sip"), (t.shots_caused, "shot"),
              (t.chugs_caused, "chug"), (t.points_caused, "point"),
              (t.lives_caused, "life")) if n]  # fmt: skip
    # Claims are made only at the bluffing tables, which speak in words.
    claim = Words.of_preset("mexican").roll(favourite[0]) if favourite else ""
    figures = [
        ("taken", ", ".join(drinks) or "nothing"),
        ("caused", ", ".join(caused) or "nothing"),
        ("lives lost", f"{t.lives_lost:,}"),
        ("rounds lost", f"{t.rounds_lost:,}"),
        ("bluffs made / caught", f"{t.bluffs_made:,} / {t.bluffs_caught:,}"),
        ("calls made / right", f"{t.calls_made:,} / {t.calls_right:,}"),
        ("21s rolled", luck),
        ("favourite claim", f"{claim} ({favourite[1]:,}x)" if favourite else "none yet"),
        ("nemesis", f"{nemesis_name} ({nemesis[1]:,}x)" if nemesis and nemesis_name
         else "none yet"),
        ("rolls", f"{t.rolls_made:,}"),
    ]  # fmt: skip
    games = amount(t.games_played, "game") if t.games_played != 1 else "1 game"
    wins = f"{t.games_won:,} {'win' if t.games_won == 1 else 'wins'}"
    return CardData(
        name=name,
        headline=f"{games} - {wins} - {rate} win rate",
        figures=figures,
        footer="luck: 21s rolled against the 2-in-36 you'd expect from your rolls",
    )


class Stats(commands.Cog):
    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot

    @staticmethod
    async def _refuse(interaction: discord.Interaction, text: str) -> None:
        await answer(interaction, refusal(text))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton)

    @app_commands.command(name="leaderboard", description="Who drinks, wins and bluffs the most")
    @app_commands.describe(stat="What to rank by", scope="This server or this channel only",
                           period="All time, this month or this week")  # fmt: skip
    @app_commands.choices(stat=STAT_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction,
        stat: app_commands.Choice[str] | None = None,
        scope: Scope = "server", period: Period = "all",
    ) -> None:  # fmt: skip
        key = stat.value if stat else "wins"
        problem = checks.first(
            checks.in_server(interaction),
            checks.one_of(key, STATS, "The stat"),
            checks.one_of(scope, ("server", "channel"), "The scope"),
            checks.one_of(period, ("all", "month", "week"), "The period"),
        )
        if problem or interaction.guild_id is None:
            await self._refuse(interaction, problem or checks.SERVER_ONLY)
            return
        embed, view = await leaderboard_page(
            self.bot, interaction.guild_id, interaction.channel_id or 0, interaction.user.id,
            key, scope, period, 0,
        )  # fmt: skip
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's card: games, drinks, bluffs, luck")
    @app_commands.describe(user="Whose card (you, if empty)", text="Plain text instead of an image")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.Member | None = None,
        text: bool = False,
    ) -> None:  # fmt: skip
        if interaction.guild_id is None:
            await self._refuse(interaction, checks.SERVER_ONLY)
            return
        target = user or interaction.user
        store = self.bot.storage
        totals = await store.player_totals(interaction.guild_id, target.id)
        favourite = await store.favourite_claim(interaction.guild_id, target.id)
        nemesis = await store.nemesis(interaction.guild_id, target.id)
        nemesis_name = await self._name(interaction.guild, nemesis[0]) if nemesis else None
        data = card_data(target.display_name, totals, favourite, nemesis, nemesis_name)
        embed = discord.Embed(
            title=f"🎲 {data.name}", description=data.headline, colour=discord.Colour.dark_gold()
        )
        for label, value in data.figures:
            embed.add_field(name=label, value=value)
        if text:
            await interaction.response.send_message(embed=embed)
            return
        try:
            # ~100 ms of drawing and PNG packing: off the event loop, so tables don't wait.
            png = await asyncio.to_thread(render_card, data)
        except Exception:  # a broken font must not cost the player their card
            log.exception("could not draw a stats card; sending text")
            await interaction.response.send_message(embed=embed)
            return
        image = discord.Embed(title=f"🎲 {data.name}", colour=discord.Colour.dark_gold())
        image.set_image(url="attachment://stats.png")
        await interaction.response.send_message(
            embed=image, file=discord.File(fp=io.BytesIO(png), filename="stats.png")
        )

    async def _name(self, guild: discord.Guild | None, user_id: int) -> str:
        """A display name for the card (mentions don't render in images)."""
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        user = member or self.bot.get_user(user_id)
        return user.display_name if user else f"player {user_id}"

    @app_commands.command(name="history", description="The last rounds played in this channel")
    @app_commands.describe(count="How many rounds (1-25)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 25] = 10
    ) -> None:
        problem = checks.first(checks.in_server(interaction),
                               checks.within(count, 1, 25, "The number of rounds"))  # fmt: skip
        if problem:
            await self._refuse(interaction, problem)
            return
        records = await self.bot.storage.history(interaction.channel_id or 0, count)
        lines = [history_line(r) for r in records] or ["No rounds played here yet."]
        text = "\n".join(lines)
        embed = discord.Embed(
            title="📜 Last rounds here", description=text[-4000:], colour=discord.Colour.dark_gold()
        )
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name="resetleaderboard", description="Wipe this server's leaderboard (Manage Server)"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def reset(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await self._refuse(interaction, checks.SERVER_ONLY)
            return
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "You need the Manage Server permission to reset the leaderboard.", ephemeral=True
            )
            return
        await interaction.response.send_message(
            "This wipes every counter, favourite claim and nemesis of this server for good "
            "(the round history stays). Sure?",
            view=ConfirmReset(interaction.user.id),
            ephemeral=True,
        )


class ConfirmReset(discord.ui.View):
    """A second, deliberate click; only the admin who asked can give it."""

    def __init__(self, admin_id: int) -> None:
        super().__init__(timeout=60)
        self.admin_id = admin_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.admin_id or not interaction.permissions.manage_guild:
            await interaction.response.send_message("This isn't your button.", ephemeral=True)
            return False
        return True

    @discord.ui.button(label="Yes, reset the leaderboard", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        bot: MexicanBot = interaction.client  # type: ignore[assignment]
        if interaction.guild_id is None:
            await interaction.response.send_message(checks.SERVER_ONLY, ephemeral=True)
            return
        removed = await bot.storage.reset_guild_stats(interaction.guild_id)
        self.stop()
        await interaction.response.edit_message(
            content=f"Leaderboard reset ({removed} entries removed).", view=None
        )

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        self.stop()
        await interaction.response.edit_message(content="Nothing was reset.", view=None)


async def setup(bot: MexicanBot) -> None:  # type: ignore[misc]
    await bot.add_cog(Stats(bot))
