"""Playing at a table with slash commands: each command names a move and hands it to the
dealer (bot/adapter/dealer.py), the same path a button takes. It holds no rules and builds no
messages.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.adapter import checks
from bot.adapter.dealer import Dealer, reader
from bot.ai.personas import PERSONA_NAMES, PERSONAS, next_id, next_persona, persona_of
from bot.engine import PRESET_NAMES, Act, Game, GameError, Move
from bot.engine.presets import MAX_TURN_TIMER
from bot.present.i18n import language_of, languages, talk
from bot.present.screens import claim_label
from bot.present.words import Words
from bot.runtime.client import now
from cogs.components import ITEMS, refuse_unrouted

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger(__name__)

#: Channels whose game ended this recently get their leftover buttons retired after a
#: restart (a game that ended longer ago was tidied up by the bot that ended it).
LEFTOVER_WINDOW = 24 * 3600.0

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]
PERSONA_CHOICES = [
    app_commands.Choice(
        name=locale_str(f"{p.name}: {p.blurb}"[:100], key=f"choice-persona-{key}"), value=key
    )
    for key, p in PERSONAS.items()
]
#: Each language named in itself, so anyone finds their own in the list.
LANGUAGE_CHOICES = [
    app_commands.Choice(name=talk(code)("language-name"), value=code) for code in languages()
]
__all__ = ["Play", "now"]


class Play(commands.Cog):
    """One game per channel, played with slash commands or the buttons on the turn message."""

    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        self.dealer = Dealer(bot)

    async def cog_load(self) -> None:
        self.bot.dealer = self.dealer
        self.bot.add_dynamic_items(*ITEMS)
        self.bot.add_listener(refuse_unrouted, "on_interaction")
        restored = await self.bot.tables.restore(now())
        # Restores this process's shards' games only; of the finished ones, channels in
        # other shards' guilds are not in this process's cache, so tidying skips them.
        finished = await self.bot.storage.recently_finished(now() - LEFTOVER_WINDOW)
        ended = await self.dealer.never_shown(
            await self.bot.tables.unshown_ends(now() - LEFTOVER_WINDOW)
        )
        if restored:
            log.info("restored %d unfinished game(s)", len(restored))
        if ended:
            log.info("%d finished game(s) to show the final standing of", len(ended))
        if restored or finished or ended:
            self.dealer.resume(restored, [channel for channel, _ in finished], ended)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*ITEMS)
        self.bot.remove_listener(refuse_unrouted, "on_interaction")
        self.dealer.stop()
        self.bot.dealer = None

    async def _move(self, interaction: discord.Interaction, act: Act, **args: Any) -> None:
        await self.dealer.play(interaction, Move(act, **args))

    # --- lobby and table ----------------------------------------------------------------
    @app_commands.command(name="newgame", description="Open a table in this channel")
    @app_commands.describe(
        ruleset="Which rules to play",
        lives="Lives per player (0 = off; empty = the rule set's)",
        units="Count drinks as sips or neutral points",
        turn_timer="Seconds per move before the bot moves for you (0 = off, default 90)",
        language="The table's language (default: the server's)",
    )
    @app_commands.choices(ruleset=PRESET_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.guild_only()
    async def newgame(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Choice[str],
        lives: app_commands.Range[int, 0, 99] | None = None,
        units: Literal["sips", "points"] | None = None,
        turn_timer: app_commands.Range[int, 0, 3600] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        t = reader(interaction)
        problem = checks.first(
            checks.in_server(interaction),
            checks.one_of(ruleset.value, PRESET_NAMES, "ruleset", t),
            None if lives is None else checks.within(lives, 0, 99, "lives", t),
            None if units is None else checks.one_of(units, ("sips", "points"), "units", t),
            None
            if turn_timer is None
            else checks.within(turn_timer, 0, MAX_TURN_TIMER, "turn-timer", t),
            None if language is None else checks.one_of(language.value, languages(), "language", t),
        )
        if problem:
            await self.dealer.refuse_text(interaction, problem)
            return
        options: dict[str, Any] = {}
        if lives is not None:
            options["lives"] = lives or False
        if units is not None:
            options["units"] = units
        if turn_timer is not None:
            options["turn_timer"] = turn_timer
        spoken = language.value if language else None
        await self.dealer.open(interaction, ruleset.value, options, language=spoken)

    @app_commands.command(name="join", description="Join the game in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.JOIN)

    @app_commands.command(name="leave", description="Leave the game in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.LEAVE)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.START)

    @app_commands.command(name="endgame", description="End the game (host or Manage Messages)")
    async def endgame(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.END)

    @app_commands.command(name="addbot", description="Seat a computer player (host, in the lobby)")
    @app_commands.describe(persona="Which computer player (empty: the next one)")
    @app_commands.choices(persona=PERSONA_CHOICES)
    async def addbot(
        self, interaction: discord.Interaction, persona: app_commands.Choice[str] | None = None
    ) -> None:
        wanted = persona.value if persona else None
        problem = wanted and checks.one_of(wanted, PERSONA_NAMES, "computer", reader(interaction))
        if problem:
            await self.dealer.refuse_text(interaction, problem)
            return

        def seat(game: Game) -> Move:
            """Chosen under the channel's lock, from the stored lobby (README, Playing)."""
            key = wanted or next_persona(game.computers)
            return Move(Act.ADD_COMPUTER, to=next_id(key, list(game.players)))

        await self.dealer.play(interaction, None, prepare=seat)

    @app_commands.command(
        name="removebot", description="Take a computer player out (host, in the lobby)"
    )
    @app_commands.describe(persona="Which computer player (empty: the last one seated)")
    @app_commands.choices(persona=PERSONA_CHOICES)
    async def removebot(
        self, interaction: discord.Interaction, persona: app_commands.Choice[str] | None = None
    ) -> None:
        table = await self.dealer.table_here(interaction)
        if table is None:
            return
        wanted = persona.value if persona else None
        seated = [c for c in table.game.computers if wanted in (None, _persona_key(c))]
        if not seated:
            await self.dealer.refuse_error(interaction, GameError("no-such-computer"))
            return
        await self._move(interaction, Act.REMOVE_COMPUTER, to=seated[-1])

    @app_commands.command(name="table", description="Show the table: seats, lives, whose move")
    async def table(self, interaction: discord.Interaction) -> None:
        await self.dealer.show_table(interaction)

    # --- moves --------------------------------------------------------------------------
    @app_commands.command(name="roll", description="Roll the dice")
    @app_commands.describe(
        blind="Bluffing games: roll without looking",
        keep="mexico: keep your lone 1 or 2 and roll the other die",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        blind: bool = False,
        keep: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:
        if keep is not None:
            problem = checks.within(keep, 1, 2, "keep", reader(interaction))
            if problem:
                await self.dealer.refuse_text(interaction, problem)
                return
            await self._move(interaction, Act.KEEP, die=keep)
        else:
            await self._move(interaction, Act.ROLL_BLIND if blind else Act.ROLL)

    @app_commands.command(name="claim", description="Claim what is under the cup")
    @app_commands.describe(value="e.g. 65, 5-5, 500, double five, 21, mex")
    async def claim(self, interaction: discord.Interaction, value: str) -> None:
        if not isinstance(value, str):
            await self.dealer.refuse(interaction, "claim-typed")
            return
        await self.dealer.play_typed_claim(interaction, value)

    @claim.autocomplete("value")
    async def claim_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.bot.tables.get(interaction.channel_id or 0)
        if table is None or not table.game.bluffing or not isinstance(current, str):
            return []
        game = table.game
        words = Words.of(game, talk(language_of(interaction.locale)))
        typed = current.strip().lower()[:40]
        choices = []
        # Lowest valid claim first, as in the Claim menu: the usual claim is just above.
        for roll in game.valid_claims():
            move = Move(Act.CLAIM, roll=roll)
            label, digits = claim_label(words, move), f"{roll[0]}{roll[1]}"
            if typed and typed not in label.lower() and typed not in digits:
                continue
            choices.append(app_commands.Choice(name=label, value=digits))
        return choices[:25]

    @app_commands.command(name="accept", description="Accept the claim and take the cup")
    async def accept(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.ACCEPT)

    @app_commands.command(name="bullshit", description="Call bullshit: lift the cup")
    async def bullshit(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.BULLSHIT)

    @app_commands.command(name="fold", description="mexican: admit you can't beat it (1 sip)")
    async def fold(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.FOLD)

    @app_commands.command(
        name="stand", description="Open rolls: stop rolling, your last roll stands"
    )
    async def stand(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.STAND)

    @app_commands.command(name="endround", description="End the round early (you pay)")
    async def endround(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.ENDROUND)

    @app_commands.command(name="tap", description="mexico: lock another player's 3-2 (STUCK)")
    async def tap(self, interaction: discord.Interaction) -> None:
        await self._move(interaction, Act.TAP)

    @app_commands.command(name="handout", description="mexen: hand your 3-1 sip to a player")
    @app_commands.describe(player="Who drinks your sip")
    async def handout(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._move(interaction, Act.HANDOUT, to=str(player.id))

    @app_commands.command(name="knight", description="mexico: name the next Knight")
    @app_commands.describe(player="Who becomes the next Knight")
    async def knight(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._move(interaction, Act.KNIGHT, to=str(player.id))

    @app_commands.command(name="peek", description="Look at your own dice under the cup again")
    async def peek(self, interaction: discord.Interaction) -> None:
        table = await self.dealer.table_here(interaction)
        if table is None:
            return
        if not table.game.bluffing:
            await self.dealer.refuse(interaction, "peek-open")
            return
        await self.dealer.show_dice(interaction, table.game_id)


def _persona_key(player: str) -> str | None:
    persona = persona_of(player)
    return persona.key if persona else None


async def setup(bot: MexicanBot) -> None:
    await bot.add_cog(Play(bot))
