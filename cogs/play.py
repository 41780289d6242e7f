"""Playing at a table: slash commands, buttons, private dice, the turn timer and resuming
after a restart.

The cog translates: it reads who clicked what, asks the table service (lock, engine,
storage) to make the move, and renders the outcome. It holds no rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import PRESET_NAMES, GameError, code
from bot.tables import Outcome, Table, TableService

from . import render
from .clock import TurnClock
from .views import MoveButton, MoveSelect, add_choice_selects, routed_view, turn_view

if TYPE_CHECKING:
    from bot.client import MexicanBot

log = logging.getLogger(__name__)

#: Tables re-posted at once after a restart.
RESUME_CONCURRENCY = 8

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESET_NAMES]


def now() -> float:
    """Wall-clock seconds; discord.utils.utcnow keeps tests on their simulated clock."""
    return discord.utils.utcnow().timestamp()


class Play(commands.Cog):
    """One game per channel, played with slash commands or the buttons on the turn message."""

    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        self.tables: TableService = bot.tables
        self.clock = TurnClock(self.tables, now, self._remind, self._expired)
        self._resume_task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(MoveButton, MoveSelect)
        restored = await self.tables.restore(now())
        if restored:
            log.info("restored %d unfinished game(s)", len(restored))
            self._resume_task = asyncio.create_task(self._resume(restored))

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(MoveButton, MoveSelect)
        self.clock.stop_all()
        if self._resume_task:
            self._resume_task.cancel()

    async def _resume(self, tables: list[Table]) -> None:
        """After a restart each running game gets its table again, with working buttons.

        Every timer is re-armed first, so no clock waits for the re-posting; the tables
        are then re-posted a few at a time (Discord rate-limits channel messages, and a
        move made meanwhile already shows its table, so that one is skipped).
        """
        await self.bot.wait_until_ready()
        for table in tables:
            self.arm_timer(table)
        gate = asyncio.Semaphore(RESUME_CONCURRENCY)

        async def repost(table: Table, move_no: int) -> None:
            # Under the channel's lock, so a move can't post its table at the same time.
            async with gate, self.tables.lock(table.channel_id):
                current = self.tables.get(table.channel_id)
                channel = self.bot.get_channel(table.channel_id)
                if current is not table or table.game.move_no != move_no:
                    return
                if not isinstance(channel, discord.abc.Messageable):
                    return
                try:
                    await self._retire_leftovers(channel, table)
                    await self._post_turn(channel, table, "♻️ The bot restarted; the game goes on.")
                except discord.HTTPException as err:
                    log.warning("could not resume game %s: %s", table.game_id, err)

        await asyncio.gather(*(repost(t, t.game.move_no) for t in tables))

    async def _retire_leftovers(self, channel: discord.abc.Messageable, table: Table) -> None:
        """The id of the last turn message reaches the database only with the next move,
        so after a restart the stored id may be an older message. Take this table's
        buttons off the channel's recent messages instead; if the history cannot be read,
        the stored id is retired as usual and a leftover's buttons answer "stale"."""
        me = self.bot.user
        mark = f":{table.channel_id}:"
        try:
            async for message in channel.history(limit=25):
                if me is None or message.author.id != me.id or not message.components:
                    continue
                ids = [
                    getattr(item, "custom_id", None) or ""
                    for row in message.components
                    for item in getattr(row, "children", [row])
                ]
                if any(i.startswith(("mx:", "mxs:")) and mark in i for i in ids):
                    with contextlib.suppress(discord.HTTPException):
                        await message.edit(view=None)
        except discord.HTTPException as err:
            log.info("could not read channel %s to retire old buttons: %s", table.channel_id, err)
            return
        table.meta.message_id = None

    # --- the one path every move takes -----------------------------------------------------
    async def play(
        self, interaction: discord.Interaction, move: str, *, value: str | None = None,
        to: str | None = None, die: int | None = None, expect_move: int | None = None,
    ) -> None:  # fmt: skip
        if interaction.channel_id is None or interaction.guild_id is None:
            await self.refuse(interaction, "Games are played in server channels.")
            return
        force = bool(move == "end" and interaction.permissions.manage_messages)
        try:
            outcome = await self.tables.act(
                interaction.channel_id, str(interaction.user.id), move, now(),
                value=value, to=to, die=die, expect_move=expect_move, force=force,
                name=interaction.user.display_name,
            )  # fmt: skip
        except GameError as err:
            await self.refuse(interaction, str(err))
            return
        except Exception:
            # Storage trouble (or a bug): the table service has put the game back as it
            # was stored, so the honest answer is that nothing happened.
            log.exception("move %s in channel %s failed", move, interaction.channel_id)
            await self.refuse(interaction, "That move could not be saved, so it did not happen. "
                                           "Please try again.")  # fmt: skip
            return
        await self.publish(interaction, outcome)
        self.arm_timer(outcome.table)

    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer that changes nothing; player ids in it become mentions (which
        show as names and ping nobody in an ephemeral message)."""
        text = render.mention_ids(text)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def publish(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """Answer with at most two Discord calls: the reply, and retiring the old buttons.

        A click on a leftover message (one whose id was lost in a restart, so it is not
        the turn message the table knows) costs a third call: that message is retired too.
        """
        table = outcome.table
        game = table.game
        stray = self._stray_message(interaction, table)
        text = render.story(outcome)
        private = render.private_lines(outcome)
        actor = outcome.player
        choice = game.phase == "playing" and game.to_move == actor and game.pending in (
            "handout", "knight",
        )  # fmt: skip
        if private or choice:
            view = self._private_view(table, actor)
            lines = private or [render.turn_prompt(game)]
            await interaction.response.send_message("\n".join(lines), view=view, ephemeral=True)
            await self._refresh_turn(table, text)
            if stray:
                await self._retire(table, interaction.channel, stray)
            return
        same_turn = game.phase == "playing" and game.to_move == outcome.previous_mover
        # A Join or Leave click updates the lobby message in place instead of reposting it.
        same_turn = same_turn or (game.phase == "lobby" and outcome.move != "newgame")
        on_turn_message = (
            interaction.message is not None and interaction.message.id == table.meta.message_id
        )
        if same_turn and on_turn_message:
            await interaction.response.edit_message(
                content=render.turn_prompt(game) or None,
                embed=render.table_embed(table, text),
                view=turn_view(game, table.channel_id, self._names(table)),
                allowed_mentions=self._pings(game),
            )
            return
        content = render.turn_prompt(game) or None
        view = turn_view(game, table.channel_id, self._names(table))
        sent = await interaction.response.send_message(
            content=content, embed=render.table_embed(table, text),
            view=view or discord.utils.MISSING,
            allowed_mentions=self._pings(game),
        )  # fmt: skip
        await self._retire(table, interaction.channel)
        if stray:
            await self._retire(table, interaction.channel, stray)
        if sent.message_id is not None and game.phase != "over":
            await self.tables.remember_message(table.channel_id, sent.message_id)

    @staticmethod
    def _pings(game: Any) -> discord.AllowedMentions:
        """Ping the player whose move it is; lobby updates ping nobody (not the host at
        every join)."""
        return discord.AllowedMentions(users=game.phase != "lobby")

    @staticmethod
    def _stray_message(interaction: discord.Interaction, table: Table) -> int | None:
        """The public message clicked, if it carries buttons but is not the turn message."""
        message = interaction.message
        if message is None or message.id == table.meta.message_id or message.flags.ephemeral:
            return None
        return message.id if message.components else None

    def _private_view(self, table: Table, actor: str) -> discord.ui.View | None:
        game = table.game
        moves = game.legal_moves(actor)
        view = routed_view()
        add_choice_selects(view, game, table.channel_id, self._names(table), actor, moves)
        return view if view.children else None

    async def _refresh_turn(self, table: Table, text: str) -> None:
        """Same player, new state: edit the live turn message in place (edits don't ping)."""
        channel = self.bot.get_channel(table.channel_id)
        if table.meta.message_id is None or not isinstance(channel, discord.abc.Messageable):
            if isinstance(channel, discord.abc.Messageable):
                await self._post_turn(channel, table, text)
            return
        message = channel.get_partial_message(table.meta.message_id)  # type: ignore[attr-defined]
        try:
            await message.edit(
                content=render.turn_prompt(table.game) or None,
                embed=render.table_embed(table, text),
                view=turn_view(table.game, table.channel_id, self._names(table)),
            )
        except discord.NotFound:
            await self._post_turn(channel, table, text)

    async def _retire(self, table: Table, channel: Any, message_id: int | None = None) -> None:
        """Take the buttons off the previous turn message so nobody clicks a dead state."""
        old = message_id or table.meta.message_id
        if old is None or channel is None:
            return
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(old).edit(view=None)

    async def _post_turn(self, channel: discord.abc.Messageable, table: Table, text: str) -> None:
        game = table.game
        message = await channel.send(
            content=render.turn_prompt(game) or None,
            embed=render.table_embed(table, text),
            view=turn_view(game, table.channel_id, self._names(table)) or discord.utils.MISSING,
            allowed_mentions=self._pings(game),
        )
        old = table.meta.message_id
        if game.phase != "over":
            await self.tables.remember_message(table.channel_id, message.id)
        if old and old != message.id:
            await self._retire(table, channel, old)

    def _names(self, table: Table) -> dict[str, str]:
        """Display names for select menus: as seen on each player's last move, else from
        the cache (the bot has no members intent, so the cache rarely knows them)."""
        return {p: table.meta.names.get(p) or self._display(p, table) for p in table.game.seats}

    def _display(self, player: str, table: Table) -> str:
        guild = self.bot.get_guild(table.guild_id)
        member = guild.get_member(int(player)) if guild and player.isdigit() else None
        user = member or (self.bot.get_user(int(player)) if player.isdigit() else None)
        return user.display_name if user else player

    # --- the turn timer -------------------------------------------------------------------
    def arm_timer(self, table: Table) -> None:
        self.clock.arm(table)

    async def _remind(self, table: Table, deadline: float) -> None:
        channel = self.bot.get_channel(table.channel_id)
        if isinstance(channel, discord.abc.Messageable):
            with contextlib.suppress(discord.HTTPException):
                await channel.send(
                    f"⏰ {render.who(table.game.to_move)}, half your time is gone: "
                    f"move <t:{int(deadline)}:R>.",
                    allowed_mentions=discord.AllowedMentions(users=True),
                )

    async def _expired(self, outcome: Outcome) -> None:
        channel = self.bot.get_channel(outcome.table.channel_id)
        if isinstance(channel, discord.abc.Messageable):
            with contextlib.suppress(discord.HTTPException):
                await self._post_turn(channel, outcome.table, render.story(outcome))

    # --- lobby and table commands ----------------------------------------------------------
    @app_commands.command(name="newgame", description="Open a table in this channel")
    @app_commands.describe(
        ruleset="Which rules to play", lives="Lives per player (0 = off; empty = the rule set's)",
        units="Count drinks as sips or neutral points",
        turn_timer="Seconds per move before the bot moves for you (0 = off, default 90)",
    )  # fmt: skip
    @app_commands.choices(ruleset=PRESET_CHOICES)
    @app_commands.guild_only()
    async def newgame(
        self, interaction: discord.Interaction, ruleset: app_commands.Choice[str],
        lives: app_commands.Range[int, 0, 99] | None = None,
        units: Literal["sips", "points"] | None = None,
        turn_timer: app_commands.Range[int, 0, 3600] | None = None,
    ) -> None:  # fmt: skip
        options: dict[str, Any] = {}
        if lives is not None:
            options["lives"] = lives or False
        if units is not None:
            options["units"] = units
        if turn_timer is not None:
            options["turn_timer"] = turn_timer
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            outcome = await self.tables.open_table(
                interaction.guild_id, interaction.channel_id, str(interaction.user.id),
                ruleset.value, options, now(), name=interaction.user.display_name,
            )  # fmt: skip
        except GameError as err:
            await self.refuse(interaction, str(err))
            return
        except Exception:
            log.exception("could not open a table in channel %s", interaction.channel_id)
            await self.refuse(interaction, "The table could not be saved. Please try again.")
            return
        table = outcome.table
        sent = await interaction.response.send_message(
            content=render.turn_prompt(table.game),
            embed=render.table_embed(table, render.story(outcome)),
            view=turn_view(table.game, table.channel_id, {}) or discord.utils.MISSING,
            allowed_mentions=self._pings(table.game),
        )
        if sent.message_id is not None:
            await self.tables.remember_message(table.channel_id, sent.message_id)

    @app_commands.command(name="join", description="Join the game in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "join")

    @app_commands.command(name="leave", description="Leave the game in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "leave")

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "start")

    @app_commands.command(name="endgame", description="End the game (host or Manage Messages)")
    async def endgame(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "end")

    @app_commands.command(name="table", description="Show the table: seats, lives, whose move")
    async def table(self, interaction: discord.Interaction) -> None:
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await self.refuse(
                interaction, "There's no game in this channel. Start one with /newgame."
            )
            return
        await interaction.response.send_message(
            embed=render.table_embed(table, render.turn_prompt(table.game)), ephemeral=True
        )

    # --- moves ----------------------------------------------------------------------------
    @app_commands.command(name="roll", description="Roll the dice")
    @app_commands.describe(blind="Bluffing games: roll without looking",
                           keep="mexico: keep your lone 1 or 2 and roll the other die")  # fmt: skip
    async def roll(
        self, interaction: discord.Interaction, blind: bool = False,
        keep: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:  # fmt: skip
        if keep is not None:
            await self.play(interaction, "keep", die=keep)
        else:
            await self.play(interaction, "roll_blind" if blind else "roll")

    @app_commands.command(name="claim", description="Claim what is under the cup")
    @app_commands.describe(value="e.g. 65, 5-5, 500, double five, 21, mex")
    async def claim(self, interaction: discord.Interaction, value: str) -> None:
        table = self.tables.get(interaction.channel_id or 0)
        move = "claim"
        if table and table.game.bluffing and table.game.stage == "accepted":
            move = "pass"  # a claim right after accepting, without a roll, passes the cup
        await self.play(interaction, move, value=value)

    @claim.autocomplete("value")
    async def claim_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.tables.get(interaction.channel_id or 0)
        if table is None or not table.game.bluffing:
            return []
        game = table.game
        typed = current.strip().lower()
        choices = []
        for roll in reversed(game.valid_claims()):
            label = render.claim_label(game, roll)
            if typed and typed not in label.lower() and typed not in code(roll):
                continue
            choices.append(app_commands.Choice(name=label, value=code(roll)))
        return choices[:25]

    @app_commands.command(name="accept", description="Accept the claim and take the cup")
    async def accept(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "accept")

    @app_commands.command(name="bullshit", description="Call bullshit: lift the cup")
    async def bullshit(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "bullshit")

    @app_commands.command(name="fold", description="mexican: admit you can't beat it (1 sip)")
    async def fold(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "fold")

    @app_commands.command(
        name="stand", description="Open rolls: stop rolling, your last roll stands"
    )
    async def stand(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "stand")

    @app_commands.command(name="endround", description="End the round early / abort (you pay)")
    async def endround(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "endround")

    @app_commands.command(name="tap", description="mexico: lock another player's 3-2 (STUCK)")
    async def tap(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "tap")

    @app_commands.command(name="handout", description="mexen: hand your 3-1 sip to a player")
    async def handout(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.play(interaction, "handout", to=str(player.id))

    @app_commands.command(name="knight", description="mexico: name the next Knight")
    async def knight(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.play(interaction, "knight", to=str(player.id))

    @app_commands.command(name="peek", description="Look at your own dice under the cup again")
    async def peek_command(self, interaction: discord.Interaction) -> None:
        await self.peek(interaction)

    async def peek(self, interaction: discord.Interaction) -> None:
        table = self.tables.get(interaction.channel_id or 0)
        if table is None:
            await self.refuse(interaction, "There's no game in this channel.")
            return
        view = table.game.view(str(interaction.user.id))
        if not table.game.bluffing:
            await self.refuse(interaction, "Every roll is open in this game: see the table.")
        elif view["cup"] is None:
            await self.refuse(interaction, "You haven't seen the dice under the cup.")
        else:
            dice = table.game.say((view["cup"][0], view["cup"][1]))
            await self.refuse(interaction, f"🎲 Under the cup: **{dice}** (only you see this).")


async def setup(bot: MexicanBot) -> None:  # type: ignore[misc]
    await bot.add_cog(Play(bot))
