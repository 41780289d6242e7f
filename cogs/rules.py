"""`/rules`: explain a preset, or list all five, from the data in `bot.rulebook`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.presets import PRESET_NAMES
from bot.rulebook import FAIR_CUP, ROLL_ORDER, RULEBOOK, TABLE_RULES

EMBED_COLOUR = discord.Colour.dark_gold()

RULESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]


def rules_embed(preset: str) -> discord.Embed:
    """One preset's rules; the rule lines go in the description (4096 chars, not 1024)."""
    page = RULEBOOK[preset]
    embed = discord.Embed(
        title=page.title,
        description=f"*{page.summary}*\n\n" + "\n".join(f"• {line}" for line in page.rules),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name="Roll order", value=ROLL_ORDER, inline=False)
    if page.style.lower().startswith("bluff"):
        embed.add_field(name="Is the bot cheating? Check the cup", value=FAIR_CUP, inline=False)
    embed.set_footer(text=f"{page.style} · rule set: {preset}")
    return embed


def overview_embed() -> discord.Embed:
    embed = discord.Embed(
        title="Mexican dice: five ways to play",
        description=ROLL_ORDER,
        colour=EMBED_COLOUR,
    )
    for name in PRESET_NAMES:
        page = RULEBOOK[name]
        embed.add_field(name=f"{name} · {page.style}", value=page.summary, inline=False)
    embed.add_field(
        name="At every table", value="\n".join(f"• {line}" for line in TABLE_RULES), inline=False
    )
    embed.add_field(name="Is the bot cheating? Check the cup", value=FAIR_CUP, inline=False)
    embed.set_footer(text="Details: /rules ruleset:<name>")
    return embed


class Rules(commands.Cog):
    """Read-only help; needs no game state, so it also works as a smoke test of the bot."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="Show the rules of a rule set, or all five")
    @app_commands.describe(ruleset="The rule set to explain; leave empty for an overview")
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def rules(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Choice[str] | None = None,
    ) -> None:
        embed = overview_embed() if ruleset is None else rules_embed(ruleset.value)
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
