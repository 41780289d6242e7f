"""`/rules`: explain a preset, or list all five; `/help`: the commands at hand. From the data
in `bot.present.rulebook`.

The words come from the catalog in the language of whoever asked (README, Languages).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.personas import PERSONAS
from bot.engine.presets import PRESET_NAMES
from bot.present.i18n import Talk, language_of, talk
from bot.present.rulebook import (
    HelpPage,
    fair_cup,
    help_page,
    roll_order,
    rule_page,
    table_rules,
)
from bot.present.words import ruleset_name
from bot.runtime.answering import respond

EMBED_COLOUR = discord.Colour.dark_gold()

RULESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]


def rules_embed(preset: str, t: Talk | None = None) -> discord.Embed:
    """One preset's rules; the rule lines go in the description (4096 chars, not 1024)."""
    t = t or talk()
    page = rule_page(preset, t)
    embed = discord.Embed(
        title=page.title,
        description=f"*{page.summary}*\n\n" + "\n".join(f"• {line}" for line in page.rules),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name=t("rules-roll-order-title"), value=roll_order(t), inline=False)
    if page.bluffing:
        embed.add_field(name=t("rules-fair-cup-title"), value=fair_cup(t), inline=False)
    embed.set_footer(text=t("rules-footer", style=page.style, preset=ruleset_name(preset, t)))
    return embed


def overview_embed(t: Talk | None = None) -> discord.Embed:
    """All five rule sets in a line each, and what holds at every table."""
    t = t or talk()
    embed = discord.Embed(
        title=t("rules-overview-title"), description=roll_order(t), colour=EMBED_COLOUR
    )
    for name in PRESET_NAMES:
        page = rule_page(name, t)
        heading = t("rules-overview-preset", preset=ruleset_name(name, t), style=page.style)
        embed.add_field(name=heading, value=page.summary, inline=False)
    at_every_table = "\n".join(f"• {line}" for line in table_rules(t))
    embed.add_field(name=t("rules-table-title"), value=at_every_table, inline=False)
    embed.add_field(name=t("rules-fair-cup-title"), value=fair_cup(t), inline=False)
    embed.add_field(name=t("rules-computers-title"), value=computers_text(t), inline=False)
    embed.set_footer(text=t("rules-overview-footer"))
    return embed


def computers_text(t: Talk | None = None) -> str:
    """Who the computer players are: a line of character each."""
    t = t or talk()
    return "\n".join(
        t("rules-computer", name=p.display(), blurb=t(f"persona-{p.key}"))
        for p in PERSONAS.values()
    )


def help_embed(page: HelpPage) -> discord.Embed:
    """`/help` on a phone: three lines of what the game is, then the commands at hand."""
    embed = discord.Embed(title=page.title, description="\n".join(page.game), colour=EMBED_COLOUR)
    embed.add_field(name=page.commands_title, value="\n".join(page.commands), inline=False)
    embed.set_footer(text=page.more)
    return embed


class Rules(commands.Cog):
    """Read-only help; needs no game state, so it also works as a smoke test of the bot."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="Show the rules of a rule set, or all five")
    @app_commands.describe(
        ruleset="The rule set to explain; leave empty for an overview",
        public="Show the rules to everyone in the channel (default: only you)",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rules(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Choice[str] | None = None,
        public: bool = False,
    ) -> None:
        """Private unless asked otherwise: a page of rules (1,000 to 1,800 characters) in
        the channel buries the game for everyone else on their phones."""
        t = talk(language_of(interaction.locale))
        embed = overview_embed(t) if ruleset is None else rules_embed(ruleset.value, t)
        await respond(interaction, embed=embed, ephemeral=not public)

    @app_commands.command(name="help", description="What the game is and the commands at hand")
    @app_commands.describe(
        ruleset="A rule set's commands; leave empty for the game in this channel",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def help(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        """Always private and short: the commands of the table in play, with its house
        rules, or of the rule set asked for; /rules goes deeper."""
        t = talk(language_of(interaction.locale))
        if ruleset is not None:
            page = help_page(None, ruleset.value, t)
        else:
            table = getattr(self.bot, "tables", None)
            playing = table.get(interaction.channel_id or 0) if table is not None else None
            if playing is None or playing.game.phase == "over":
                page = help_page(None, None, t)
            else:
                page = help_page(playing.game.options, playing.game.preset, t)
        await respond(interaction, embed=help_embed(page), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
