"""The one path every move takes in Discord: ask the table service to make it (lock,
engine, storage), have the presenter build the messages, and send them.

Slash commands (cogs/play.py) and buttons (cogs/components.py) both call this; neither
knows the other. It also keeps the turn clock's Discord side (reminders, expiries) and
re-posts every table after a restart. Which Discord calls show a move (which message
carries the live buttons, when a new one is posted) is decided by bot/present/planner.py, with
no I/O, and only carried out here; what any message says is the presenter's; when the
computer players move is bot/ai/scheduler.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.http import MultipartParameters

from bot.adapter import permissions, send
from bot.ai import brain, knowledge, scheduler
from bot.engine import Act, Game, GameError, Move
from bot.game.clock import TurnClock
from bot.game.fairness import Commitment
from bot.game.tables import MovedElsewhere, NoGameHere, Outcome, OutcomeUnknown, Table, TableService
from bot.present import planner
from bot.present import screens as present
from bot.present.i18n import Talk, language_of, talk
from bot.present.planner import Answer, ChannelState, Delete, Edit, Origin, Plan, Post, Retire
from bot.present.words import Words
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
#: The refusal of a move another process stored first: the table was read again.
#: What a failed answer to Discord raises: its HTTP errors, a dropped connection, a timeout.
_ANSWER_FAILED: tuple[type[BaseException], ...] = (
    discord.HTTPException,
    aiohttp.ClientError,
    OSError,
    asyncio.TimeoutError,
)


def reader(interaction: discord.Interaction) -> Talk:
    """The language of the one who clicked or typed: their private answers speak it."""
    return talk(language_of(interaction.locale))


def now() -> float:
    """Wall-clock seconds; discord.utils.utcnow keeps tests on their simulated clock."""
    return discord.utils.utcnow().timestamp()


class Dealer:
    """Runs the tables' talk in Discord for one bot."""

    def __init__(self, bot: MexicanBot) -> None:
        self.bot = bot
        self.tables: TableService = bot.tables
        self.clock = TurnClock(self.tables, now, self._remind, self._expired)
        self.tables.on_reload = self._reloaded
        #: What each channel's messages show between moves (bot/present/planner.py decides it).
        self.channels: dict[int, ChannelState] = {}
        #: A computer player's pending move per channel (its pause, then the move).
        self.thinking: dict[int, asyncio.Task[None]] = {}
        self._resume_task: asyncio.Task[None] | None = None
        #: Moves being made or shown now; shutting down waits for them (no half answers).
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    # --- shutting down ------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _working(self) -> AsyncIterator[None]:
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def drain(self, timeout: float) -> None:
        """Before the bot closes its connection: take no new moves, stop the timers, and
        let moves already under way be stored and answered (at most ``timeout`` s), so
        none is cut off mid-answer."""
        self.closing = True
        self.stop()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    # --- moves --------------------------------------------------------------------------
    async def play(
        self, interaction: discord.Interaction, move: Move | None, *,
        game_id: int | None = None, move_no: int | None = None,
        prepare: Callable[[Game], Move] | None = None,
    ) -> None:  # fmt: skip
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
        refusal = None
        async with self._working(), self.tables.lock(channel_id):
            try:
                if prepare is not None:
                    move = prepare(await self._stored_game(channel_id))
                assert move is not None, "a move, or how to build one"
                outcome = await self.tables.act_locked(
                    channel_id, player, move, now(), expect_move=move_no, expect_game=game_id,
                    force=force, name=interaction.user.display_name,
                )  # fmt: skip
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
                await self.show(interaction, outcome)
                self.clock.arm(outcome.table)
                self._schedule_computers(outcome.table)
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
        self, interaction: discord.Interaction, preset: str, options: dict[str, object],
        *, rematch_of: int | None = None, invited: tuple[str, ...] = (),
        language: str | None = None, computers: tuple[str, ...] = (),
    ) -> None:  # fmt: skip
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
        async with self._working(), self.tables.lock(interaction.channel_id):
            try:
                outcome = await self.tables.open_locked(
                    interaction.guild_id, interaction.channel_id, str(interaction.user.id),
                    preset, dict(options), now(), name=interaction.user.display_name,
                    rematch_of=rematch_of, invited=invited, language=spoken,
                )  # fmt: skip
                for computer in computers:  # the same computers sit down again
                    with contextlib.suppress(GameError):
                        await self.tables.act_locked(
                            interaction.channel_id, outcome.player,
                            Move(Act.ADD_COMPUTER, to=computer), now(),
                        )  # fmt: skip
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
                refusal = None
                await self.show(interaction, outcome)
        if refusal is not None:
            await self.refuse_text(interaction, refusal)

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby with the same rules for the players of a finished game."""
        record = await self.bot.storage.get_game(game_id)
        if record is None or record.channel_id != interaction.channel_id:
            await self.refuse(interaction, "game-not-here")
            return
        old = Table.from_record(record.id, record.guild_id, record.channel_id,
                                record.state_json)  # fmt: skip
        if old.game.phase != "over":
            await self.refuse(interaction, "game-still-on")
            return
        clicker = str(interaction.user.id)
        people = [p for p in old.game.players if p != clicker and p not in old.game.computers]
        options = old.game.options.to_dict()
        await self.open(interaction, old.game.preset, options, rematch_of=game_id,
                        invited=tuple(people), language=old.meta.language,
                        computers=tuple(old.game.computers))  # fmt: skip

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
        table = self.tables.get(channel_id)
        if table is not None:
            self._set(channel_id, planner.looked(self._state(channel_id), table, player))

    def _state(self, channel_id: int) -> ChannelState:
        return self.channels.get(channel_id, planner.EMPTY)

    def _set(self, channel_id: int, state: ChannelState) -> None:
        if state == planner.EMPTY:
            self.channels.pop(channel_id, None)
        else:
            self.channels[channel_id] = state

    # --- showing a move -----------------------------------------------------------------
    async def show(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        """Show a stored move as bot/present/planner.py plans it. If the answer to the player
        fails (the 3 s deadline missed, a dropped connection, Discord answering 404), the
        planned fallback posts the table to the channel instead, so a stored move is never
        left unseen."""
        table = outcome.table
        channel_id = table.channel_id
        message = interaction.message
        origin, stray = planner.origin_of(
            message.id if message is not None else None,
            message is not None and message.flags.ephemeral,
            bool(message is not None and message.components),
            table.meta.message_id,
        )
        plan = planner.plan(
            outcome, origin, self._state(channel_id), reader=reader(interaction), stray=stray
        )
        channel = interaction.channel
        try:
            await self._carry_out(plan, channel_id, channel, interaction)
        except _ANSWER_FAILED as err:
            log.warning("answer in channel %s failed (%s): posting the table instead",
                        channel_id, err)  # fmt: skip
            self._set(channel_id, plan.on_failure)
            channel = channel or self.bot.get_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                return
            fallback = planner.plan(outcome, Origin.FALLBACK, plan.on_failure)
            with contextlib.suppress(*_ANSWER_FAILED):
                await self._carry_out(fallback, channel_id, channel, None)

    async def _carry_out(
        self, plan: Plan, channel_id: int, channel: object,
        interaction: discord.Interaction | None,
    ) -> None:  # fmt: skip
        """Make the plan's Discord calls, in order; the channel's state is the plan's,
        with what the calls produced (a posted message's id) recorded as they succeed."""
        self._set(channel_id, plan.state)
        for operation in plan.operations:
            await self._do(operation, channel_id, channel, interaction)

    async def _do(
        self, operation: planner.Operation, channel_id: int, channel: object,
        interaction: discord.Interaction | None,
    ) -> None:  # fmt: skip
        """One operation; a refused post or edit is logged, a refused retire or delete
        ignored (the message keeps its buttons, which answer "stale" by themselves)."""
        match operation:
            case Answer(reply=reply, edit=True, live=live):
                assert interaction is not None
                await interaction.response.edit_message(**send.edit_kwargs(reply))
                if live:
                    self._set(channel_id, planner.shown(self._state(channel_id), reply))
            case Answer(reply=reply, live=True):
                assert interaction is not None
                sent = await interaction.response.send_message(**send.send_kwargs(reply))
                if sent.message_id is not None:
                    await self.tables.remember_message(channel_id, sent.message_id)
                    self._set(channel_id, planner.shown(self._state(channel_id), reply))
            case Answer(reply=reply):
                assert interaction is not None
                await send.answer(interaction, reply)
            case Post():
                await self._post(operation, channel_id, channel)
            case Edit(message_id=message_id, reply=reply, live=live, if_gone=if_gone):
                if not isinstance(channel, discord.abc.Messageable):
                    return
                try:
                    await self._edit(channel_id, message_id, send.edit_payload(reply))
                except discord.NotFound:
                    if if_gone is not None:
                        await self._post(if_gone, channel_id, channel)
                except discord.HTTPException as err:
                    self._log_forbidden(channel, err, "update the turn message")
                else:
                    if live:
                        self._set(channel_id, planner.shown(self._state(channel_id), reply))
            case Retire(message_id=message_id, keep=keep):
                if isinstance(channel, discord.abc.Messageable):
                    with contextlib.suppress(discord.HTTPException):
                        await self._edit(channel_id, message_id, send.components_payload(keep))
            case Delete(message_id=message_id):
                where = self.bot.get_channel(channel_id)
                if isinstance(where, discord.abc.Messageable):
                    with contextlib.suppress(discord.HTTPException):
                        await where.get_partial_message(message_id).delete()  # type: ignore[attr-defined]

    async def _post(self, post: Post, channel_id: int, channel: object) -> None:
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            message = await channel.send(**send.send_kwargs(post.reply))
        except discord.HTTPException as err:
            what = "remind a player" if post.reminder else "post the table"
            self._log_forbidden(channel, err, what)
            return
        if post.reminder:
            self._set(channel_id, planner.reminded(self._state(channel_id), message.id))
        if post.live:
            await self.tables.remember_message(channel_id, message.id)
            self._set(channel_id, planner.shown(self._state(channel_id), post.reply))
        if post.replaces is not None and post.replaces.message_id != message.id:
            await self._do(post.replaces, channel_id, channel, None)

    async def _edit(self, channel_id: int, message_id: int, payload: dict[str, Any]) -> None:
        """Edit a message other than the one clicked, sending the JSON as it is: nothing
        reads Discord's answer, so no discord.py message is built from it (README,
        Benchmarks). Raises what discord.py raises for any call (NotFound, Forbidden...)."""
        params = MultipartParameters(payload=payload, multipart=None, files=None)
        await self.bot.http.edit_message(channel_id, message_id, params=params)

    def _log_forbidden(self, channel: object, err: discord.HTTPException, what: str) -> None:
        """A post or edit Discord refused: the log names the permission to fix."""
        where = getattr(channel, "id", "?")
        if isinstance(err, discord.Forbidden):
            log.warning("could not %s in channel %s: %s", what, where,
                        permissions.describe_forbidden_in(channel))  # fmt: skip
        else:
            log.warning("could not %s in channel %s: %s", what, where, err)

    # --- the turn timer -----------------------------------------------------------------
    async def _remind(self, table: Table, deadline: float) -> None:
        """Half the time is gone: the player to move is pinged once (bot/present/planner.py says
        whether), with a message deleted when they move."""
        channel = self.bot.get_channel(table.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        for operation in planner.reminder(table, self._state(table.channel_id)):
            await self._do(operation, table.channel_id, channel, None)

    async def _expired(self, outcome: Outcome) -> None:
        await self._show_unasked(outcome, Origin.TIMER)
        self._schedule_computers(outcome.table)

    async def _show_unasked(self, outcome: Outcome, origin: Origin) -> None:
        """Show a move nobody clicked for (the timer's, a computer player's)."""
        channel_id = outcome.table.channel_id
        channel = self.bot.get_channel(channel_id)
        state = self._state(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            self._set(channel_id, dataclasses.replace(state, reminder=None))
            return
        await self._carry_out(planner.plan(outcome, origin, state), channel_id, channel, None)

    def _reloaded(self, table: Table) -> None:
        """A table read back after another process moved it: its clock and computer
        players go on from the stored move, not from this process's old copy."""
        self.clock.arm(table)
        self._schedule_computers(table)

    # --- computer players ---------------------------------------------------------------
    def _schedule_computers(self, table: Table) -> None:
        """If a computer player has something to do now (its turn, or a TAP), it does it
        after a short, human-looking pause (bot/ai/scheduler.py says who and when),
        through the same path as a person's move."""
        channel_id = table.channel_id
        current = asyncio.current_task()
        old = self.thinking.pop(channel_id, None)
        if old is not None and old is not current:
            old.cancel()
        if self.closing:
            return
        pending = scheduler.next_move(table.game, self.tables.rng)
        if pending is None:
            return
        # A context of its own: the pause belongs to no player's click (and a test
        # harness waiting for a click to settle does not wait for the computer).
        self.thinking[channel_id] = asyncio.create_task(
            self._computer_moves(channel_id, pending), context=contextvars.Context()
        )

    async def _computer_moves(self, channel_id: int, pending: scheduler.Pending) -> None:
        await asyncio.sleep(pending.delay)
        actor = pending.actor
        async with self._working(), self.tables.lock(channel_id):
            table = self.tables.get(channel_id)
            if table is None or not scheduler.still_due(table.game, pending) or self.closing:
                return  # a person moved first, or the game ended
            records = await self._records(table)
            move = brain.decide(knowledge.inputs(table.game, actor, records), self.tables.rng)
            if move is None:
                return
            try:
                outcome = await self.tables.act_locked(channel_id, actor, move, now())
            except MovedElsewhere:
                return  # another process moved first; the reloaded table rescheduled it
            except GameError as err:  # its view said otherwise: a bug, not a game to stop
                log.error("computer %s in channel %s chose %s: %s", actor, channel_id,
                          move.encode(), err)  # fmt: skip
                return
            except (DatabaseDownError, OutcomeUnknown):  # the storage logs the outage, once
                self._retry_computers(channel_id)
                return
            except Exception:
                log.exception("computer move in channel %s could not be stored", channel_id)
                self._retry_computers(channel_id)
                return
            with contextlib.suppress(*_ANSWER_FAILED):
                await self._show_unasked(outcome, Origin.COMPUTER)
        self.clock.arm(outcome.table)
        self._schedule_computers(outcome.table)

    def _retry_computers(self, channel_id: int, delay: float = scheduler.RETRY_SECONDS) -> None:
        """Storage trouble: the game is as stored; the computer tries again shortly, for
        as long as the game runs, from the table as it is then (it may have been read
        again from storage meanwhile)."""

        def again() -> None:
            table = self.tables.get(channel_id)
            if table is not None:
                self._schedule_computers(table)

        asyncio.get_running_loop().call_later(delay, again)

    async def _records(self, table: Table) -> dict[str, knowledge.Record]:
        """What this server's stored statistics say of the people at a bluffing table:
        public facts only (README, Leaderboard and stats). Computers' own records are
        not read: their play is the same for everyone."""
        try:
            return await knowledge.stored_records(self.bot.storage, table.guild_id, table.game)
        except DatabaseDownError:
            return {}  # the move itself will meet the outage and wait for the database
        except Exception:
            log.exception("could not read the players' statistics")
            return {}

    # --- restart ------------------------------------------------------------------------
    def resume(self, tables: list[Table], finished: Sequence[int] = ()) -> None:
        """Re-post the running tables and tidy the channels of games that just ended.

        Each table's move number is taken now, as restored: players often move before the
        gateway reports ready, and a re-post must then not land after their move."""
        restored = [(table, table.game.move_no) for table in tables]
        self._resume_task = asyncio.create_task(self._resume(restored, list(finished)))

    def stop(self) -> None:
        self.clock.stop_all()
        for task in self.thinking.values():
            task.cancel()
        self.thinking.clear()
        if self._resume_task:
            self._resume_task.cancel()

    async def _resume(self, tables: list[tuple[Table, int]], finished: list[int]) -> None:
        """After a restart each running game gets its table again, with working buttons.

        Every timer is re-armed first, so no clock waits for the re-posting; the tables
        are then re-posted a few at a time (Discord rate-limits channel messages, and a
        move made meanwhile already shows its table, so that one is skipped).
        """
        await self.bot.wait_until_ready()
        for table, _ in tables:
            self.clock.arm(table)
            self._schedule_computers(table)  # a computer's pending move survives a restart
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
                await self._retire_leftovers(channel, table)
                plan = planner.restarted(table, self._state(table.channel_id))
                await self._carry_out(plan, table.channel_id, channel, None)

        async def tidy(channel_id: int) -> None:
            """A game that ended just before the stop may have left live buttons."""
            async with gate, self.tables.lock(channel_id):
                channel = self.bot.get_channel(channel_id)
                if self.tables.get(channel_id) is None and isinstance(
                    channel, discord.abc.Messageable
                ):
                    await self._retire_leftovers(channel, None)

        await asyncio.gather(*(repost(t, move_no) for t, move_no in tables),
                             *(tidy(c) for c in finished))  # fmt: skip

    async def _retire_leftovers(
        self, channel: discord.abc.Messageable, table: Table | None
    ) -> None:
        """The id of the last turn message reaches the database only with the next move,
        so after a restart the stored id may be an older message. Take the moves off the
        channel's recent messages instead (a lifted cup stays checkable; after a finished
        game, Rematch and every cup check stay), and delete reminders the turn has
        outgrown; if the history cannot be read, the stored id is retired as usual and a
        leftover's buttons answer "stale"."""
        me = self.bot.user
        channel_id = getattr(channel, "id", 0)
        try:
            async for message in channel.history(limit=25):
                if me is None or message.author.id != me.id:
                    continue
                if present.is_reminder(message.content) and not message.components:
                    with contextlib.suppress(discord.HTTPException):
                        await message.delete()
                    continue
                found = send.button_ids(message)
                if not any(i.startswith(("mx:", "mxs:")) for i in found):
                    continue
                shown = send.components_of(message)
                if table is None:
                    keep = tuple(c for c in shown if c.custom_id.startswith("mxt:"))
                else:
                    keep = present.retired(shown, table.meta.lifted)
                with contextlib.suppress(discord.HTTPException):
                    await message.edit(view=send.view_of(keep) if keep else None)
        except discord.HTTPException as err:
            log.info("could not read channel %s to retire old buttons: %s", channel_id, err)
            return
        if table is not None:
            table.meta.message_id = None
