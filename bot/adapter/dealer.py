"""Where slash commands (cogs/play.py) and buttons (cogs/components.py) come in: a
person's move is checked (permissions, shutting down), made under its channel's lock
(bot/game/moves.py), and handed with who asked for it to the game layer's one sink, like
the turn timer's, a computer player's, a reminder due or a table read again. The sink is
bot/present/showing.py: it plans the Discord calls (bot/present/planner.py), has
bot/adapter/executor.py make them, and keeps what each channel shows. Here too: the
private answers only one person sees (refusals, their dice, a cup's seal, /table), and
re-posting every table after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.adapter import permissions, send
from bot.adapter.executor import Executor
from bot.engine import Act, Game, GameError, Move
from bot.game.clock import TurnClock
from bot.game.fairness import Commitment
from bot.game.moves import Moves
from bot.game.outcomes import Origin
from bot.game.tables import NoGameHere, Outcome, OutcomeUnknown, Table, TableService
from bot.present import screens as present
from bot.present.i18n import Talk, language_of, talk
from bot.present.showing import Asked, Showing
from bot.present.words import Words
from bot.runtime.client import now
from bot.storage import DatabaseDownError

if TYPE_CHECKING:
    from bot.runtime.client import MexicanBot

log = logging.getLogger(__name__)

#: Tables re-posted at once after a restart.
RESUME_CONCURRENCY = 8
NOT_SAVED = "move-not-saved"
#: The database can't be reached: nothing changed (README, Running at scale).
DATABASE_DOWN = "database-down"
#: The database stopped answering while a move was committed: /table tells, later.
OUTCOME_UNKNOWN = "move-outcome-unknown"
CLOSING = "bot-closing"


def reader(interaction: discord.Interaction) -> Talk:
    """The language of the one who clicked or typed: their private answers speak it."""
    return talk(language_of(interaction.locale))


def asking(interaction: discord.Interaction) -> tuple[Origin, Asked]:
    """Where a move was asked for (a slash command, or a click: on which message is told
    against the live one by bot/present/showing.py), and who asked, to be answered."""
    message = interaction.message
    if message is None:
        return Origin.SLASH, Asked(interaction, interaction.locale)
    asked = Asked(
        interaction,
        interaction.locale,
        message.id,
        message.flags.ephemeral,
        bool(message.components),
    )
    return Origin.CLICK_LIVE, asked


class Dealer:
    """Where one bot's slash commands and buttons come in, and its tables are re-posted."""

    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        self.tables: TableService = bot.tables
        self.executor = Executor(bot)
        #: What each channel shows, and the sink every outcome reaches.
        self.showing = Showing(self.tables, self.executor)
        #: The game layer's side of every move: the lock, the clock, the computer players.
        self.moves: Moves[Asked] = Moves(self.tables, now, self.showing)
        self._resume_task: asyncio.Task[None] | None = None

    @property
    def clock(self) -> TurnClock:
        return self.moves.clock

    @property
    def thinking(self) -> dict[int, asyncio.Task[None]]:
        """A computer player's pending move per channel (the metrics count them)."""
        return self.moves.computers.thinking

    @property
    def closing(self) -> bool:
        return self.moves.closing

    # --- shutting down ------------------------------------------------------------------
    async def drain(self, timeout: float) -> None:
        """Before the bot closes its connection: take no new moves, stop the timers, and
        let moves already under way be stored and answered (at most ``timeout`` s), so
        none is cut off mid-answer."""
        self.stop()
        await self.moves.drain(timeout)

    # --- moves --------------------------------------------------------------------------
    async def play(
        self,
        interaction: discord.Interaction,
        move: Move | None,
        *,
        game_id: int | None = None,
        move_no: int | None = None,
        prepare: Callable[[Game], Move] | None = None,
    ) -> None:
        """Make ``move`` for the user who clicked or typed it, and show it. A move that
        depends on the table (the seat a computer takes) comes as ``prepare`` instead,
        built under the channel's lock from the stored table, so two at once can't both
        pick from the same state."""
        channel_id = interaction.channel_id
        if channel_id is None or interaction.guild_id is None:
            await self.refuse(interaction, "server-only")
            return
        missing = permissions.missing_sentence_for(interaction, feature=permissions.PLAY)
        if missing or self.closing:
            await self.refuse_text(interaction, missing or reader(interaction)(CLOSING))
            return
        player = str(interaction.user.id)
        force = move is not None and move.act is Act.END and interaction.permissions.manage_messages
        origin, asked = asking(interaction)
        refusal = None
        async with self.moves.turn(channel_id):
            try:
                if prepare is not None:
                    move = prepare(await self._stored_game(channel_id))
                assert move is not None, "a move, or how to build one"
                outcome = await self.tables.act_locked(
                    channel_id,
                    player,
                    move,
                    now(),
                    expect_move=move_no,
                    expect_game=game_id,
                    force=force,
                    name=interaction.user.display_name,
                )
            except GameError as err:
                self._mark_seen(channel_id, player)
                refusal = self.refusal_of(interaction, err)
            except DatabaseDownError:  # the storage logs the outage, once
                refusal = reader(interaction)(DATABASE_DOWN)
            except OutcomeUnknown:
                refusal = reader(interaction)(OUTCOME_UNKNOWN)
            except Exception:
                # Storage trouble (or a bug): the table service has put the game back as
                # it was stored, so the honest answer is that nothing happened.
                log.exception("move %s in channel %s failed", move and move.encode(), channel_id)
                refusal = reader(interaction)(NOT_SAVED)
            else:
                # Shown under the lock: the new live message is known before anyone can
                # click it. The move is stored: it is shown, whatever Discord answers.
                await self.moves.deliver(outcome, origin, asked)
        if refusal is not None:
            await self.refuse_text(interaction, refusal)

    async def table_here(self, interaction: discord.Interaction) -> Table | None:
        """The table in the interaction's channel as stored; if there is none, the user is
        told so (privately) and None comes back."""
        table = await self.tables.current(interaction.channel_id or 0)
        if table is None:
            await self.refuse(interaction, "no-game")
        return table

    async def _stored_game(self, channel_id: int) -> Game:
        """The channel's game as stored, under its lock; refused if there is none."""
        await self.tables.refresh_quietly(channel_id)
        table = self.tables.get(channel_id)
        if table is None:
            raise NoGameHere("no-game-here")
        return table.game

    async def play_typed_claim(self, interaction: discord.Interaction, text: str) -> None:
        """/claim with a typed value: the engine reads it (and decides whether it is a
        claim or a pass of the unseen cup)."""
        table = await self.table_here(interaction)
        if table is None:
            return
        try:
            move = table.game.typed_claim(str(interaction.user.id), text)
        except GameError as err:
            await self.refuse_error(interaction, err)
            return
        await self.play(interaction, move)

    async def open(
        self,
        interaction: discord.Interaction,
        preset: str,
        options: dict[str, object],
        *,
        rematch_of: int | None = None,
        invited: tuple[str, ...] = (),
        language: str | None = None,
        computers: tuple[str, ...] = (),
    ) -> None:
        """Open a lobby in this channel (a new game, or a rematch of a finished one). The
        table speaks ``language``, by default the server's preferred one. ``computers``
        sit down in the new lobby under the same lock, so they join that lobby or none:
        never one someone else opened meanwhile."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await self.refuse(interaction, "server-only")
            return
        missing = permissions.missing_sentence_for(interaction, feature=permissions.PLAY)
        if missing or self.closing:
            await self.refuse_text(interaction, missing or reader(interaction)(CLOSING))
            return
        # The server's preferred language, as its Community settings name it.
        server = interaction.guild.preferred_locale if interaction.guild else None
        spoken = language_of(language or server or interaction.guild_locale)
        refusal: str | None = None
        async with self.moves.turn(interaction.channel_id):
            try:
                outcome = await self.tables.open_locked(
                    interaction.guild_id,
                    interaction.channel_id,
                    str(interaction.user.id),
                    preset,
                    dict(options),
                    now(),
                    name=interaction.user.display_name,
                    rematch_of=rematch_of,
                    invited=invited,
                    language=spoken,
                )
                for computer in computers:  # the same computers sit down again
                    with contextlib.suppress(GameError):
                        await self.tables.act_locked(
                            interaction.channel_id,
                            outcome.player,
                            Move(Act.ADD_COMPUTER, to=computer),
                            now(),
                        )
            except GameError as err:
                refusal = present.error_text(err, reader(interaction))
            except DatabaseDownError:
                refusal = reader(interaction)(DATABASE_DOWN)
            except OutcomeUnknown:
                refusal = reader(interaction)(OUTCOME_UNKNOWN)
            except Exception:
                log.exception("could not open a table in channel %s", interaction.channel_id)
                refusal = reader(interaction)("table-not-saved")
            else:
                await self.moves.deliver(outcome, *asking(interaction))
        if refusal is not None:
            await self.refuse_text(interaction, refusal)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby with the same rules for the players of a finished game."""
        record = await self.bot.storage.get_game(game_id)
        if record is None or record.channel_id != interaction.channel_id:
            await self.refuse(interaction, "game-not-here")
            return
        old = Table.from_record(record.id, record.guild_id, record.channel_id, record.state_json)
        if old.game.phase != "over":
            await self.refuse(interaction, "game-still-on")
            return
        clicker = str(interaction.user.id)
        people = [p for p in old.game.players if p != clicker and p not in old.game.computers]
        options = old.game.options.to_dict()
        await self.open(
            interaction,
            old.game.preset,
            options,
            rematch_of=game_id,
            invited=tuple(people),
            language=old.meta.language,
            computers=tuple(old.game.computers),
        )

    # --- what only one person sees ------------------------------------------------------
    async def refuse(self, interaction: discord.Interaction, key: str, **args: object) -> None:
        """A private refusal, in the reader's language."""
        await self.refuse_text(interaction, reader(interaction)(key, **args))

    @contextlib.asynccontextmanager
    async def outage_answered(self, interaction: discord.Interaction) -> AsyncIterator[None]:
        """For buttons, which no command error handler answers: a database that can't be
        reached gets the same private answer as a command's (bot/runtime/client.py)."""
        try:
            yield
        except DatabaseDownError:
            await self.refuse(interaction, DATABASE_DOWN)

    async def refuse_error(self, interaction: discord.Interaction, err: GameError) -> None:
        await self.refuse_text(interaction, self.refusal_of(interaction, err))

    def refusal_of(self, interaction: discord.Interaction, err: GameError) -> str:
        """An engine refusal in the reader's language, rolls worded as this table words them."""
        t = reader(interaction)
        table = self.tables.get(interaction.channel_id or 0)
        return present.error_text(err, t, Words.of(table.game, t) if table else None)

    async def refuse_text(self, interaction: discord.Interaction, text: str) -> None:
        await send.answer(interaction, present.refusal(text))

    async def show_dice(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.tables.current(interaction.channel_id or 0)
        if table is None or table.game_id != game_id:
            await self.refuse(interaction, "game-over-already")
            return
        viewer = str(interaction.user.id)
        self._mark_seen(table.channel_id, viewer)
        await send.answer(interaction, present.your_cup(table, viewer, reader(interaction)))

    async def check_cup(self, interaction: discord.Interaction, game_id: int, arg: str) -> None:
        """The Cup button: your dice and the full seal of the live cup, or once a cup was
        lifted, its dice and salt to check."""
        t = reader(interaction)
        seals = present.cup_seals(arg)
        table = await self.tables.current(interaction.channel_id or 0)
        if table is not None and table.game_id == game_id:
            viewer = str(interaction.user.id)
            reply = present.cup_answer(table, viewer, seals, t)
            if reply is not None:
                self._mark_seen(table.channel_id, viewer)
                await send.answer(interaction, reply)
                return
        record = await self.bot.storage.get_game(game_id)
        if record is None or record.channel_id != interaction.channel_id:
            await self.refuse(interaction, "cup-not-here")
            return
        for event in await self.bot.storage.events(game_id):
            digest = str(event.payload.get("digest", ""))
            if event.kind == "cup_opened" and any(digest.startswith(s) for s in seals):
                commit = Commitment.from_dict(event.payload)
                words = Words.of_preset(record.ruleset, t)
                await send.answer(interaction, present.lifted_cup(commit, words))
                return
        await self.refuse(interaction, "cup-not-lifted")

    async def show_table(self, interaction: discord.Interaction) -> None:
        channel_id = interaction.channel_id or 0
        async with self.tables.lock(channel_id):
            # A move whose saving lost its answer: the table is read back first.
            await self.tables.settle_locked(channel_id)
        table = await self.table_here(interaction)
        if table is None:
            return
        viewer = str(interaction.user.id)
        self._mark_seen(table.channel_id, viewer)
        await send.answer(interaction, present.table_view(table, viewer, reader(interaction)))

    def _mark_seen(self, channel_id: int, player: str) -> None:
        self.showing.looked(channel_id, player)

    # --- restart ------------------------------------------------------------------------
    def resume(
        self, tables: list[Table], finished: Sequence[int] = (), ended: Sequence[Outcome] = ()
    ) -> None:
        """Re-post the running tables, tidy the channels of games that just ended, and
        post the final standing of those whose end never reached their channel.

        Each table's move number is taken now, as restored: players often move before the
        gateway reports ready, and a re-post must then not land after their move."""
        restored = [(table, table.game.move_no) for table in tables]
        self._resume_task = asyncio.create_task(self._resume(restored, list(finished), list(ended)))

    async def never_shown(self, ended: Sequence[Outcome]) -> list[Outcome]:
        """Of the games whose end was not noted shown, those whose channel does not hold
        their final standing: a process that died after posting one, before noting it,
        must not post it twice. Asked before the gateway connects, so no move of this
        process has pushed the standing down the channel yet."""
        left = []
        for outcome in ended:
            channel = self.bot.get_partial_messageable(outcome.table.channel_id)
            if await self.executor.shows_end(channel, outcome.table.game_id):
                await self.tables.shown(outcome.table)
            else:
                left.append(outcome)
        return left

    def stop(self) -> None:
        self.moves.stop()
        if self._resume_task:
            self._resume_task.cancel()

    async def _resume(
        self, tables: list[tuple[Table, int]], finished: list[int], ended: list[Outcome]
    ) -> None:
        """After a restart each running game gets its table again, with working buttons.

        Every timer is re-armed first, so no clock waits for the re-posting; the tables
        are then re-posted a few at a time (Discord rate-limits channel messages, and a
        move made meanwhile already shows its table, so that one is skipped).
        """
        await self.bot.wait_until_ready()
        for table, _ in tables:
            self.moves.follow(table)  # a computer's pending move survives a restart
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
                retired = await self.executor.retire_leftovers(channel, table)
                await self.showing.restarted(table, retired=retired)

        async def tidy(channel_id: int) -> None:
            """A game that ended just before the stop may have left live buttons."""
            async with gate, self.tables.lock(channel_id):
                channel = self.bot.get_channel(channel_id)
                if self.tables.get(channel_id) is None and isinstance(
                    channel, discord.abc.Messageable
                ):
                    await self.executor.retire_leftovers(channel, None)

        async def standing(outcome: Outcome) -> None:
            """A game that ended just before the stop, its end never shown: the channel
            gets its final standing."""
            async with gate, self.tables.lock(outcome.table.channel_id):
                await self.showing.ended_again(outcome)

        await asyncio.gather(
            *(repost(t, move_no) for t, move_no in tables), *(tidy(c) for c in finished)
        )
        for outcome in ended:  # after the tidy, in the order the games ended
            await standing(outcome)
