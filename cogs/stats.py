"""Leaderboard, player cards and round history: the rivalry that brings groups back.

Reads only what the table service stored with each move; nothing here changes a game.
Every answer speaks the language of the user who asked or clicked (README, Languages):
the words come from the catalog, stats by their key (``stat-<key>``), never from storage.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.adapter import checks
from bot.adapter.send import answer, routed_view
from bot.ai.personas import PERSONAS, STATS_IDS, persona_of_stats_id
from bot.present import ids
from bot.present.card import for_the_font, render_card
from bot.present.figures import board_value, card_data
from bot.present.history import history_line
from bot.present.i18n import Talk, language_of, talk
from bot.present.links import replay_link
from bot.present.names import plain_name
from bot.present.screens import refusal
from bot.present.words import who
from bot.runtime.answering import respond, respond_first, update
from bot.storage import MINIMUMS, STATS, DatabaseDownError, Ranked, RoundRecord

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger(__name__)

PAGE = 10
#: Finished games whose replays /history links, newest first (README, Web companion).
REPLAYS = 5
COMPUTER_CHOICES = [app_commands.Choice(name=p.name, value=k) for k, p in PERSONAS.items()]
#: The rating leaderboards, one per family of rule sets (README, Ratings): storage ranks
#: them like any stat; "rating" alone is the league's main family of the server.
RATINGS = {key: spec.family for key, spec in STATS.items() if spec.family}
RATING = "rating"
STAT_CHOICES = [
    app_commands.Choice(name=locale_str(spec.title, key=f"stat-{key}"), value=key)
    for key, spec in STATS.items()
    if key not in RATINGS
] + [
    app_commands.Choice(name=locale_str(title, key=f"stat-{key}"), value=key)
    for key, title in (
        (RATING, "Rating"),
        ("rating_bluff", "Rating (bluffing games)"),
        ("rating_open", "Rating (open-roll games)"),
    )
]
#: Every stat a leaderboard page can show (its buttons carry one of these).
RANKED = frozenset(STATS) | frozenset(RATINGS)
#: What /leaderboard's stat option may be.
CHOSEN = tuple(dict.fromkeys([*STATS, *RATINGS, RATING]))
Scope = Literal["server", "channel"]
Period = Literal["all", "month", "week"]


def _now() -> float:
    return discord.utils.utcnow().timestamp()


def format_value(stat: str, value: float, games: int = 0, t: Talk | None = None) -> str:
    """A leaderboard figure, as the web companion shows it too (bot/present/figures.py)."""
    return board_value(stat, value, games, t)


class PageGone(Exception):
    """A page past the board's last one."""


async def leaderboard_page(
    bot: MexicanBot,
    guild_id: int,
    channel_id: int,
    viewer: int,
    stat: str,
    scope: str,
    period: str,
    page: int,
    t: Talk | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of a ranking, with the viewer's own place and buttons to turn pages, in
    the viewer's language (English when none is given). A page past the last one is
    ``PageGone``."""
    t = t or talk()
    where = channel_id if scope == "channel" else 0
    rows, total = await bot.storage.leaderboard(
        guild_id,
        stat,
        channel_id=where,
        period=period,
        now=_now(),
        offset=page * PAGE,
        limit=PAGE,
    )
    pages = max(1, math.ceil(total / PAGE))
    if page >= pages:  # a forged id, or a board that shrank since its page was shown
        raise PageGone(page)
    title = t(
        "leaderboard-title",
        stat=t(f"stat-{stat}"),
        scope=t("leaderboard-scope", scope=scope),
        period=t("leaderboard-period", period=period),
    )
    lines = [
        f"**#{r.rank}** {who(str(r.user_id), t)} · {format_value(stat, r.value, r.games_played, t)}"
        for r in rows
    ]
    if not lines:
        lines = [t("leaderboard-empty")]
    embed = discord.Embed(
        title=title,
        description="\n".join(lines),
        colour=discord.Colour.dark_gold(),
    )
    mine: Ranked | None = await bot.storage.rank_of(
        guild_id, stat, viewer, channel_id=where, period=period, now=_now()
    )
    embed.add_field(
        name=t("leaderboard-your-place"),
        value=f"#{mine.rank} · {format_value(stat, mine.value, mine.games_played, t)}"
        if mine
        else t("leaderboard-not-ranked"),
    )
    if stat in RATINGS:
        embed.set_footer(text=t("leaderboard-page-rating", page=page + 1, pages=pages))
    elif STATS[stat].percent:
        minimum = {"winrate": "min_games", "bluffing": "min_bluffs", "calls": "min_calls"}[stat]
        embed.set_footer(
            text=t(
                "leaderboard-page-minimum", page=page + 1, pages=pages, minimum=MINIMUMS[minimum]
            )
        )
    else:
        embed.set_footer(text=t("leaderboard-page", page=page + 1, pages=pages))
    view = routed_view()
    view.add_item(PageButton(stat, scope, period, page - 1, "◀", disabled=page <= 0))
    view.add_item(PageButton(stat, scope, period, page + 1, "▶", disabled=page + 1 >= pages))
    return embed, view


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.PAGE_ROUTE):
    """Turns a leaderboard page; the custom id holds the whole query, so it survives
    restarts. Any ``lb:`` id reaches the callback, which refuses what does not parse, a
    page past the board's last, and a click on any message but a leaderboard page."""

    def __init__(
        self,
        stat: str,
        scope: str,
        period: str,
        page: int,
        label: str = "▶",
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=ids.page_id(stat, scope, period, page),
            )
        )
        self.stat, self.scope, self.period, self.page = stat, scope, period, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        # The clicked component: a button, so it has a label.
        label = (item.label if isinstance(item, discord.ui.Button) else None) or "▶"
        parsed = ids.read_page(match["rest"])
        if parsed is None:
            return cls("", "server", "all", -1, label)
        return cls(*parsed, label)

    async def callback(self, interaction: discord.Interaction) -> None:
        # The page is drawn again for whoever turns it, in their language.
        t = talk(language_of(interaction.locale))
        bot = cast("MexicanBot", interaction.client)  # the client that routed the click
        misplaced = checks.misplaced(interaction, await _live_message(bot, interaction))
        if misplaced is not None:
            await self._refuse(interaction, t(misplaced))
            return
        if (
            self.stat not in RANKED
            or interaction.guild_id is None
            or not 0 <= self.page <= ids.MAX_PAGE
        ):
            await self._refuse(interaction, t("leaderboard-page-gone"))
            return
        try:
            embed, view = await leaderboard_page(
                bot,
                interaction.guild_id,
                interaction.channel_id or 0,
                interaction.user.id,
                self.stat,
                self.scope,
                self.period,
                self.page,
                t,
            )
        except PageGone:
            await self._refuse(interaction, t("leaderboard-page-gone"))
            return
        except DatabaseDownError:  # a button: no command error handler answers it
            await self._refuse(interaction, t("database-down"))
            return
        await update(interaction, embed=embed, view=view)

    @staticmethod
    async def _refuse(interaction: discord.Interaction, text: str) -> None:
        await respond(interaction, ephemeral=True, content=text)


async def _live_message(bot: MexicanBot, interaction: discord.Interaction) -> int | None:
    """The id of the channel's live turn message. A move being shown holds the channel's
    lock until its new message's id is kept, so a page click waits for that first: a
    fresh turn message is never taken for a page."""
    channel_id = interaction.channel_id or 0
    if bot.tables.get(channel_id) is None:
        return None
    async with bot.tables.lock(channel_id):
        table = bot.tables.get(channel_id)
        return table.meta.message_id if table else None


async def refuse_unrouted(interaction: discord.Interaction) -> None:
    """An ``on_interaction`` listener: a click with a page's id that the button above does
    not take (its message does not carry it, or it is too long) is refused, not left
    unanswered."""
    problem = checks.not_taken(interaction, (ids.PAGE,))
    if problem is not None:
        t = talk(language_of(interaction.locale))
        await respond(interaction, ephemeral=True, content=t(problem))


class Stats(commands.Cog):
    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot

    @staticmethod
    async def _refuse(interaction: discord.Interaction, text: str) -> None:
        await answer(interaction, refusal(text))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton)
        self.bot.add_listener(refuse_unrouted, "on_interaction")

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton)
        self.bot.remove_listener(refuse_unrouted, "on_interaction")

    @app_commands.command(name="leaderboard", description="Who drinks, wins and bluffs the most")
    @app_commands.describe(
        stat="What to rank by",
        scope="This server or this channel only",
        period="All time, this month or this week",
    )
    @app_commands.choices(stat=STAT_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        stat: app_commands.Choice[str] | None = None,
        scope: Scope = "server",
        period: Period = "all",
    ) -> None:
        key = stat.value if stat else "wins"
        t = talk(language_of(interaction.locale))
        problem = checks.first(
            checks.in_server(interaction),
            checks.one_of(key, CHOSEN, "stat", t),
            checks.one_of(scope, ("server", "channel"), "scope", t),
            checks.one_of(period, ("all", "month", "week"), "period", t),
        )
        if problem or interaction.guild_id is None:
            await self._refuse(interaction, problem or checks.server_only(interaction))
            return
        if key == RATING:  # the league's rule (README, Ratings)
            family = await self.bot.league.main_family(interaction.guild_id)
            key = next(stat for stat, of in RATINGS.items() if of == family)
        embed, view = await leaderboard_page(
            self.bot,
            interaction.guild_id,
            interaction.channel_id or 0,
            interaction.user.id,
            key,
            scope,
            period,
            0,
            t,
        )
        await respond(interaction, ephemeral=False, embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's card: games, drinks, bluffs, luck")
    @app_commands.describe(
        user="Whose card (you, if empty)",
        text="Plain text instead of an image",
        computer="A computer player's card instead",
    )
    @app_commands.choices(computer=COMPUTER_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.Member | None = None,
        text: bool = False,
        computer: app_commands.Choice[str] | None = None,
    ) -> None:
        t = talk(language_of(interaction.locale))
        problem = checks.in_server(interaction) or (
            checks.one_of(computer.value, STATS_IDS, "computer", t) if computer else None
        )
        if problem or interaction.guild_id is None:
            await self._refuse(interaction, problem or checks.server_only(interaction))
            return
        if computer is not None:  # people like to see how their nemesis plays
            target_id, shown = STATS_IDS[computer.value], PERSONAS[computer.value].display()
        else:
            target = user or interaction.user
            target_id, shown = target.id, plain_name(target.display_name)
        store = self.bot.storage
        totals = await store.player_totals(interaction.guild_id, target_id)
        favourite = await store.favourite_claim(interaction.guild_id, target_id)
        nemesis = await store.nemesis(interaction.guild_id, target_id)
        nemesis_name = await self._name(interaction.guild, nemesis[0], t) if nemesis else None
        skills = await self.bot.league.skills_of(interaction.guild_id, target_id)
        held = None
        if computer is None:  # computers earn no achievements
            held = await self.bot.league.card_achievements(interaction.guild_id, target_id)
        data = card_data(
            shown, totals, favourite, nemesis, nemesis_name, t, skills=skills, achievements=held
        )
        embed = discord.Embed(
            title=f"🎲 {data.name}", description=data.headline, colour=discord.Colour.dark_gold()
        )
        for label, value in data.figures:
            embed.add_field(name=label, value=value)
        if text:
            await respond(interaction, ephemeral=False, embed=embed)
            return
        try:
            # ~150 ms of drawing and PNG packing (benchmarks.card_bench): off the event loop.
            png = await asyncio.to_thread(render_card, for_the_font(data))
        except Exception:  # a broken font must not cost the player their card
            log.exception("could not draw a stats card; sending text")
            await respond(interaction, ephemeral=False, embed=embed)
            return
        image = discord.Embed(title=f"🎲 {data.name}", colour=discord.Colour.dark_gold())
        image.set_image(url="attachment://stats.png")
        if not await respond_first(
            interaction,
            ephemeral=False,
            embed=image,
            file=discord.File(fp=io.BytesIO(png), filename="stats.png"),
        ):
            # Deferred (slow storage): a file in a follow-up could need Attach Files,
            # which the bot does not ask for, so the card comes as text.
            await respond(interaction, ephemeral=False, embed=embed)

    async def _name(self, guild: discord.Guild | None, user_id: int, t: Talk) -> str:
        """A display name for the card (mentions don't render in images)."""
        persona = persona_of_stats_id(user_id)
        if persona is not None:
            return persona.display()
        member = guild.get_member(user_id) if guild else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        user = member or self.bot.get_user(user_id)
        return plain_name(user.display_name) if user else t("card-unknown-player", id=str(user_id))

    @app_commands.command(name="history", description="The last rounds played in this channel")
    @app_commands.describe(count="How many rounds (1-25)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 25] = 10
    ) -> None:
        t = talk(language_of(interaction.locale))
        problem = checks.first(
            checks.in_server(interaction), checks.within(count, 1, 25, "rounds", t)
        )
        if problem:
            await self._refuse(interaction, problem)
            return
        records = await self.bot.storage.history(interaction.channel_id or 0, count)
        lines = [history_line(r, t) for r in records] or [t("history-empty")]
        replays = await self._replays(interaction.guild_id or 0, records, t)
        text = "\n".join(lines)
        if replays:
            text = text[: 4000 - len(replays) - 1] + "\n" + replays
        embed = discord.Embed(
            title=t("history-title"), description=text[-4000:], colour=discord.Colour.dark_gold()
        )
        await respond(interaction, ephemeral=False, embed=embed)

    async def _replays(self, guild_id: int, records: Sequence[RoundRecord], t: Talk) -> str:
        """Links to the replays of the finished games the listed rounds are from, newest
        first, when the server shows its games (README, Web companion); else nothing."""
        token = await self.bot.storage.web_link(guild_id) if self.bot.web_url else None
        if token is None or self.bot.web_url is None:
            return ""
        links = []
        for game_id in list(dict.fromkeys(r.game_id for r in records if r.game_id))[:REPLAYS]:
            record = await self.bot.storage.get_game(game_id)
            if record is not None and record.status == "over":
                url = replay_link(self.bot.web_url, token, game_id)
                links.append(t("history-replay", n=game_id, url=url))
        return t("history-replays", links=" · ".join(links)) if links else ""

    @app_commands.command(
        name="resetleaderboard", description="Wipe this server's leaderboard (Manage Server)"
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def reset(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await self._refuse(interaction, checks.server_only(interaction))
            return
        t = talk(language_of(interaction.locale))
        if not interaction.permissions.manage_guild:
            await respond(interaction, ephemeral=True, content=t("reset-needs-permission"))
            return
        await respond(
            interaction,
            ephemeral=True,
            content=t("reset-sure"),
            view=ConfirmReset(interaction.user.id, t),
        )


class ConfirmReset(discord.ui.View):
    """A second, deliberate click; only the admin who asked can give it.

    The buttons are labelled in the admin's language; each answer is in the language of
    whoever clicked.
    """

    def __init__(self, admin_id: int, t: Talk | None = None) -> None:
        super().__init__(timeout=60)
        self.admin_id = admin_id
        t = t or talk()
        self.confirm.label = t("reset-confirm")
        self.cancel.label = t("reset-cancel")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.admin_id or not interaction.permissions.manage_guild:
            t = talk(language_of(interaction.locale))
            await respond(interaction, ephemeral=True, content=t("reset-not-yours"))
            return False
        return True

    @discord.ui.button(style=discord.ButtonStyle.danger)  # labelled in __init__
    async def confirm(
        self, interaction: discord.Interaction[MexicanBot], _: discord.ui.Button[Any]
    ) -> None:
        bot = interaction.client
        if interaction.guild_id is None:
            await respond(interaction, ephemeral=True, content=checks.server_only(interaction))
            return
        removed = await bot.storage.reset_guild_stats(interaction.guild_id)
        self.stop()
        t = talk(language_of(interaction.locale))
        await update(interaction, content=t("reset-done", n=removed), view=None)

    @discord.ui.button(style=discord.ButtonStyle.secondary)  # labelled in __init__
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button[Any]) -> None:
        self.stop()
        t = talk(language_of(interaction.locale))
        await update(interaction, content=t("reset-nothing"), view=None)


async def setup(bot: MexicanBot) -> None:
    await bot.add_cog(Stats(bot))
