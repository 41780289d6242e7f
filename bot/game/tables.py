"""The tables in play: one game per channel, one lock per channel, stored before answered.

This is the layer between the Discord cogs and the engine. It knows no Discord types: a
channel is an id and a player is a user id as text. Every move runs under the channel's
lock, is applied to the engine, and is written to storage in one transaction before the
caller renders a reply; if the write fails the in-memory game is put back as it was.

Several processes may share one database (shards, or an old and a new process during a
rolling restart). Each move is stored only on the move number this service last read;
if another process stored a move first, the move is refused and the table reloaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import orjson

from bot.ai.personas import persona_of
from bot.engine import (
    BOT_ONLY,
    Act,
    Event,
    Game,
    GameError,
    IllegalMove,
    Kind,
    Move,
    Opened,
    Revealed,
    Rolled,
    RoundOver,
    StaleAction,
    event_from_dict,
)
from bot.game.fairness import Commitment
from bot.game.shards import owns_all
from bot.league.service import GameResult, League
from bot.league.stats import NOTHING_PENDING, Pending, move_records, public_deltas, stored_id
from bot.storage import (
    ChannelBusyError,
    CommitUnknownError,
    DatabaseDownError,
    GameRecord,
    GameStatus,
    StaleGameError,
    StateJson,
    Storage,
)

log = logging.getLogger(__name__)

#: The stored status of each engine phase.
STATUS: dict[str, GameStatus] = {"lobby": "lobby", "playing": "running", "over": "over"}
#: Seconds a player gets after a restart whose downtime ate their turn timer.
RESUME_GRACE = 30.0
#: Pauses between reading a game back after its COMMIT's answer was lost: about 1.5 s
#: in all, so the player still gets an answer inside Discord's three seconds.
SETTLE_PAUSES = (0.1, 0.2, 0.4, 0.8)


TIMEOUT = Move(Act.TIMEOUT)


class NoGameHere(GameError):
    pass


class ChannelBusy(GameError):
    pass


class MovedElsewhere(StaleAction):
    """Another process stored a move on this game first; the table has been reloaded."""


class OutcomeUnknown(Exception):
    """The database stopped answering while a move was committed, and did not answer
    again in time to tell whether it kept it. The table is read back from storage
    before its next move (README, Running at scale: While the database is down)."""


@dataclass(slots=True)
class TableMeta:
    """What the bot keeps beside the engine's state: the sealed cup and the turn clock."""

    commit: Commitment | None = None
    #: The cup lifted last, so the Cup button on the reveal can show its dice and salt.
    lifted: Commitment | None = None
    #: Wall-clock second the current move's timer runs out (None: no timer running).
    deadline: float | None = None
    #: The move number the deadline belongs to; a later move makes the timer stale.
    deadline_move: int = -1
    #: The public message that carries the live buttons, so the next move can retire them.
    message_id: int | None = None
    #: Display names by player id, as last seen on their moves (select menus cannot show
    #: mentions, and the bot has no member cache without the privileged members intent).
    names: dict[str, str] = field(default_factory=dict)
    #: Players a rematch lobby invited (its message keeps naming those not seated yet).
    invited: list[str] = field(default_factory=list)
    #: The language the table speaks in the channel (README, Languages).
    language: str = "en"
    #: Statistics decided by dice still under a cup, or under cups nobody lifted: stored
    #: with every move until the table may know them (README, Leaderboard and stats).
    stats_pending: Pending = NOTHING_PENDING

    def to_dict(self) -> dict[str, Any]:
        return {
            "commit": self.commit.to_dict() if self.commit else None,
            "lifted": self.lifted.to_dict() if self.lifted else None,
            "deadline": self.deadline,
            "deadline_move": self.deadline_move,
            "message_id": self.message_id,
            "names": dict(self.names),
            "invited": list(self.invited),
            "language": self.language,
            "stats_pending": self.stats_pending.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMeta:
        commit, lifted = data.get("commit"), data.get("lifted")
        return cls(
            commit=Commitment.from_dict(commit) if commit else None,
            lifted=Commitment.from_dict(lifted) if lifted else None,
            deadline=data.get("deadline"),
            deadline_move=data.get("deadline_move", -1),
            message_id=data.get("message_id"),
            names=dict(data.get("names") or {}),
            invited=list(data.get("invited") or []),
            language=str(data.get("language") or "en"),
            stats_pending=Pending.from_dict(data.get("stats_pending")),
        )


@dataclass(slots=True)
class Table:
    game_id: int
    guild_id: int
    channel_id: int
    game: Game
    meta: TableMeta = field(default_factory=TableMeta)

    #: The JSON last written to storage: what a failed move rolls back to, without the
    #: cost of copying the state before every move.
    saved: str = ""
    #: The stored move number `saved` belongs to: the next move is stored only on it.
    stored_move: int = 0
    #: A move's COMMIT lost its answer and could not be read back: what storage holds
    #: is unknown until the table is read again.
    unsettled: bool = False

    def restore(self, text: str) -> None:
        data = orjson.loads(str(text))  # orjson takes no str subclass (a StateJson)
        self.game = Game.from_dict(data["engine"])
        self.meta = TableMeta.from_dict(data.get("meta") or {})

    def state_json(self) -> str:
        state = {"engine": self.game.to_dict(), "meta": self.meta.to_dict()}
        return StateJson(orjson.dumps(state).decode())

    @classmethod
    def from_record(
        cls, game_id: int, guild_id: int, channel_id: int, text: str, move_no: int = 0
    ) -> Table:
        data = orjson.loads(str(text))  # orjson takes no str subclass (a StateJson)
        return cls(
            game_id,
            guild_id,
            channel_id,
            Game.from_dict(data["engine"]),
            TableMeta.from_dict(data.get("meta") or {}),
            text,
            move_no,
        )


@dataclass(slots=True)
class Outcome:
    """What one accepted move did, for the cog to render."""

    table: Table
    player: str
    move: Move | None  # None: a table was opened
    events: list[Event]
    #: A cup sealed by this move (show its digest), and a cup lifted by it (show its salt).
    sealed: Commitment | None = None
    lifted: Commitment | None = None
    #: The player whose move it was before this one (a new mover gets a new message).
    previous_mover: str | None = None
    #: A game this move ended: its rating changes and achievements (bot/league/service.py);
    #: None while the game runs, or if the league could not be reached (it catches up).
    result: GameResult | None = None
    #: A game this move ended: its replay's address, if its server shows its games.
    replay: str | None = None


_Told = TypeVar("_Told", bound="Outcome | None")


class TableObserver(Protocol):
    """Told of every move the service stored and every one it refused, whoever made it
    (bot/runtime/monitor.py counts them)."""

    def moved(self, outcome: Outcome) -> None: ...

    def refused(self, err: GameError) -> None: ...


class TableService:
    def __init__(
        self,
        storage: Storage,
        rng: random.Random | None = None,
        *,
        owns: Callable[[int], bool] = owns_all,
        league: League | None = None,
        replay_link: Callable[[int, int], Awaitable[str | None]] | None = None,
    ) -> None:
        self.storage = storage
        #: (server, game) -> the finished game's replay on the web companion, if the
        #: server opted in (README, Web companion); None: this bot serves no pages.
        self.replay_link = replay_link
        #: Rates a finished game and awards its achievements (bot/league/service.py); None in
        #: tests of the tables alone.
        self.league = league
        self.rng = rng or random.SystemRandom()
        #: Whether a guild's games are this process's to run (bot/game/shards.py): the database
        #: may be shared by several shard processes, each restoring its own guilds only.
        self.owns = owns
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        #: Told of a table read back from the database because another process moved it
        #: (bot/game/moves.py hands it to the sink, and re-arms its turn timer and computer
        #: players from it).
        self.on_reload: Callable[[Table], Awaitable[None]] | None = None
        #: Told of every stored and refused move (``open_locked``, ``act_locked`` and
        #: ``expire_locked``, which every other step goes through).
        self.observers: list[TableObserver] = []

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def get(self, channel_id: int) -> Table | None:
        return self.tables.get(channel_id)

    async def restore(self, now: float | None = None) -> list[Table]:
        """Bring every stored lobby and running game back into memory after a restart.

        Turn timers keep their stored deadlines, except that a player whose time ran out
        (or nearly) while the bot was down gets a short grace period: the outage was not
        theirs to lose a round over. Games of guilds another shard process owns stay
        where they are: that process restores and times them.
        """
        restored = []
        for record in await self.storage.load_running_games():
            if not self.owns(record.guild_id):
                continue
            try:
                table = Table.from_record(
                    record.id,
                    record.guild_id,
                    record.channel_id,
                    record.state_json,
                    record.move_no,
                )
            except (ValueError, KeyError) as err:
                log.error("game %s could not be restored: %s", record.id, err)
                continue
            meta = table.meta
            if now is not None and meta.deadline is not None:
                grace = min(RESUME_GRACE, table.game.options.turn_timer)
                meta.deadline = max(meta.deadline, now + grace)
            self.tables[record.channel_id] = table
            restored.append(table)
        return restored

    async def unshown_ends(self, since: float) -> list[Outcome]:
        """Games of this process's servers that ended since ``since`` but whose final
        standing never reached the channel (the process stopped between a game's end and
        its answer), each as its last move's end, rated (README, Ratings). A lobby closed
        before it started has no standing to show: it is marked shown at once."""
        ended: list[Outcome] = []
        for record in await self.storage.unshown_ends(since):
            if not self.owns(record.guild_id):
                continue
            try:
                table = Table.from_record(
                    record.id, record.guild_id, record.channel_id, record.state_json
                )
            except (ValueError, KeyError) as err:
                log.error("game %s could not be read back: %s", record.id, err)
                continue
            game = table.game
            if game.round_no == 0:
                await self.shown(table)
                continue
            stored = await self.storage.events(record.id)
            last = [event_from_dict(e.payload) for e in stored if e.kind == Kind.GAME_OVER][-1:]
            result = await self._rate(record.id, record.guild_id, game)
            replay = await self._replay(table)
            ended.append(Outcome(table, game.host, None, list(last), result=result, replay=replay))
        return ended

    async def shown(self, table: Table) -> None:
        """A finished game's final standing reached its channel: a restart does not post
        it again. Best effort: if storage cannot take it now, a restart posts it again."""
        try:
            await self.storage.mark_shown(table.game_id)
        except Exception as err:  # the standing is on screen; at worst it is shown twice
            log.warning("game %s: could not note its standing as shown (%s)", table.game_id, err)

    # Each step has a ``*_locked`` form for a caller that holds the channel's lock itself:
    # the bot shows a move under the same lock, so the message that carries the live
    # buttons is known before anyone can click it (README, Playing: Races).

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host: str,
        preset: str,
        options: dict[str, Any] | None,
        now: float,
        *,
        name: str | None = None,
        rematch_of: int | None = None,
        invited: tuple[str, ...] = (),
        language: str = "en",
    ) -> Outcome:
        async with self.lock(channel_id):
            return await self.open_locked(
                guild_id,
                channel_id,
                host,
                preset,
                options,
                now,
                name=name,
                rematch_of=rematch_of,
                invited=invited,
                language=language,
            )

    async def open_locked(
        self,
        guild_id: int,
        channel_id: int,
        host: str,
        preset: str,
        options: dict[str, Any] | None,
        now: float,
        *,
        name: str | None = None,
        rematch_of: int | None = None,
        invited: tuple[str, ...] = (),
        language: str = "en",
    ) -> Outcome:
        """Open a lobby: the game and its first log entry are stored in one transaction."""
        return await self._observed(
            self._open(
                guild_id,
                channel_id,
                host,
                preset,
                options,
                now,
                name=name,
                rematch_of=rematch_of,
                invited=invited,
                language=language,
            )
        )

    async def _observed(self, step: Awaitable[_Told]) -> _Told:
        """``step``'s outcome, or its refusal, told to the observers."""
        try:
            outcome = await step
        except GameError as err:
            for observer in self.observers:
                observer.refused(err)
            raise
        if isinstance(outcome, Outcome):
            for observer in self.observers:
                observer.moved(outcome)
        return outcome

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        host: str,
        preset: str,
        options: dict[str, Any] | None,
        now: float,
        *,
        name: str | None,
        rematch_of: int | None,
        invited: tuple[str, ...],
        language: str,
    ) -> Outcome:
        if channel_id in self.tables and not (
            await self.refresh_quietly(channel_id) and channel_id not in self.tables
        ):
            raise ChannelBusy("channel-busy")
        game = Game.create(preset, host, options)
        table = Table(0, guild_id, channel_id, game)
        if name:
            table.meta.names[host] = name
        table.meta.invited = [p for p in invited if p != host]
        table.meta.language = language
        table.saved = table.state_json()
        opened = {
            "player": host,
            "move": "newgame",
            "preset": preset,
            "options": options or {},
            "rematch_of": rematch_of,
        }
        try:
            record = await self.storage.create_game(
                guild_id,
                channel_id,
                preset,
                table.saved,
                status="lobby",
                now=now,
                events=[("move", opened)],
            )
        except ChannelBusyError as err:
            # Opened by another process: this one now knows it, so moves there are played.
            await self.refresh_quietly(channel_id)
            raise ChannelBusy("channel-busy") from err
        except CommitUnknownError as err:
            record = await self._opened(channel_id, table.saved, err)
        table.game_id = record.id
        self.tables[channel_id] = table
        events: list[Event] = [Opened(host, preset, rematch_of)]
        return Outcome(table, host, None, events)

    async def act(
        self,
        channel_id: int,
        player: str,
        move: Move,
        now: float,
        *,
        expect_move: int | None = None,
        expect_game: int | None = None,
        force: bool = False,
        name: str | None = None,
    ) -> Outcome:
        async with self.lock(channel_id):
            return await self.act_locked(
                channel_id,
                player,
                move,
                now,
                expect_move=expect_move,
                expect_game=expect_game,
                force=force,
                name=name,
            )

    async def act_locked(
        self,
        channel_id: int,
        player: str,
        move: Move,
        now: float,
        *,
        expect_move: int | None = None,
        expect_game: int | None = None,
        force: bool = False,
        name: str | None = None,
    ) -> Outcome:
        """Make one move; ``name`` is the player's display name, kept for select menus.

        ``expect_game`` and ``expect_move`` are what a button was drawn for: a button of
        another game, or of an earlier turn, is refused and changes nothing.

        A refusal is never decided on a copy the database has left behind (README,
        Running at scale): before one is given, the stored move number is read; if the
        database is ahead (another process moved, opened or ended the game), the table is
        reloaded and the move decided again, once.
        """
        return await self._observed(
            self._act(channel_id, player, move, now, expect_move, expect_game, force, name)
        )

    async def _act(
        self,
        channel_id: int,
        player: str,
        move: Move,
        now: float,
        expect_move: int | None,
        expect_game: int | None,
        force: bool,
        name: str | None,
    ) -> Outcome:
        if move.act in BOT_ONLY:  # only the turn timer times a player out (``expire``)
            raise IllegalMove("button-not-ours")
        if move.act is Act.ADD_COMPUTER and persona_of(move.to or "") is None:
            raise IllegalMove("no-such-computer")
        try:
            return await self._decide(
                channel_id, player, move, now, expect_move, expect_game, force, name
            )
        except MovedElsewhere:
            pass  # already reloaded from the database
        except GameError:
            if not await self.refresh_quietly(channel_id):
                raise
        return await self._decide(
            channel_id, player, move, now, expect_move, expect_game, force, name
        )

    async def _decide(
        self,
        channel_id: int,
        player: str,
        move: Move,
        now: float,
        expect_move: int | None,
        expect_game: int | None,
        force: bool,
        name: str | None,
    ) -> Outcome:
        table = self.tables.get(channel_id)
        if expect_game is not None and (table is None or table.game_id != expect_game):
            # worded by the presenter: the engine knows nothing of games before this one
            raise StaleAction("earlier-game")
        return await self._apply(
            channel_id,
            player,
            move,
            now,
            expect_move=expect_move,
            force=force,
            name=name,
        )

    async def current(self, channel_id: int) -> Table | None:
        """The channel's table as stored: checked against the database first, so "no game
        here" or what a table shows is never an answer from a copy another process has
        moved past. Storage that can't be read leaves the copy as it is. Under the
        channel's lock: a move being stored must not be read back half way."""
        async with self.lock(channel_id):
            await self.refresh_quietly(channel_id)
        return self.tables.get(channel_id)

    async def refresh_quietly(self, channel_id: int) -> bool:
        """`refresh`, but a database that can't be read now changes nothing (the answer
        then stands on this process's copy, as before a database existed to ask)."""
        try:
            return await self.refresh(channel_id)
        except DatabaseDownError:
            return False  # the storage's health has logged the outage, once
        except Exception:
            log.warning("could not check channel %s against the database", channel_id)
            return False

    async def refresh(self, channel_id: int) -> bool:
        """Bring this process's copy of the channel's game up to the stored one: the same
        game at a later move, another game (opened elsewhere), or none (ended elsewhere).
        True if the copy changed; call it under the channel's lock."""
        head = await self.storage.channel_head(channel_id)
        table = self.tables.get(channel_id)
        if head == ((table.game_id, table.stored_move) if table is not None else None):
            return False
        record = await self.storage.get_game(head[0]) if head is not None else None
        if record is None or record.status == "over":
            self.tables.pop(channel_id, None)
            return table is not None
        try:
            if table is not None and table.game_id == record.id:
                table.restore(record.state_json)
                table.saved, table.stored_move = record.state_json, record.move_no
            else:
                table = Table.from_record(
                    record.id,
                    record.guild_id,
                    record.channel_id,
                    record.state_json,
                    record.move_no,
                )
                self.tables[channel_id] = table
        except (ValueError, KeyError) as err:
            log.error("game %s could not be loaded: %s", record.id, err)
            return False
        if self.on_reload is not None:
            await self.on_reload(table)
        return True

    async def expire(self, channel_id: int, move_no: int, now: float) -> Outcome | None:
        async with self.lock(channel_id):
            return await self.expire_locked(channel_id, move_no, now)

    async def expire_locked(self, channel_id: int, move_no: int, now: float) -> Outcome | None:
        """The turn timer armed at ``move_no`` ran out; ``None`` if a move came first."""
        return await self._observed(self._expire(channel_id, move_no, now))

    async def _expire(self, channel_id: int, move_no: int, now: float) -> Outcome | None:
        table = self.tables.get(channel_id)
        if table is None or table.game.move_no != move_no or table.game.to_move is None:
            return None
        if table.game.phase != "playing":
            return None
        return await self._apply(channel_id, table.game.to_move, TIMEOUT, now)

    def remember_message(self, channel_id: int, message_id: int) -> None:
        """Store which message carries the live buttons; kept in memory only, because the
        next stored move carries it to disk and a lost id only leaves old buttons to
        answer "stale" by themselves."""
        table = self.tables.get(channel_id)
        if table is not None:
            table.meta.message_id = message_id

    async def _apply(
        self,
        channel_id: int,
        player: str,
        move: Move,
        now: float,
        *,
        expect_move: int | None = None,
        force: bool = False,
        name: str | None = None,
    ) -> Outcome:
        table = self.tables.get(channel_id)
        if table is None:
            raise NoGameHere("no-game-here")
        if table.unsettled:
            await self._settle_table(channel_id, table)
        game = table.game
        cup_before = game.cup
        previous = game.to_move if game.phase == "playing" else None
        try:
            events = game.apply(player, move, self.rng, expect_move=expect_move, force=force)
        except GameError:
            raise  # a refusal changed nothing, by the engine's contract
        except BaseException:
            table.restore(table.saved)
            raise
        try:
            outcome = Outcome(table, player, move, events, previous_mover=previous)
            if name:
                table.meta.names[player] = name
            self._update_meta(table, outcome, now)
            log_events: list[tuple[str, dict[str, Any]]] = [
                ("move", {"player": player, "move": move.encode()})
            ]
            log_events += [(e.kind, e.to_dict()) for e in events]
            if outcome.lifted:
                log_events.append(("cup_opened", outcome.lifted.to_dict()))
            if outcome.sealed:
                log_events.append(("cup_sealed", {"digest": outcome.sealed.digest}))
            public, table.meta.stats_pending = public_deltas(
                events, game, cup_before, table.meta.stats_pending
            )
            deltas = {
                (table.guild_id, who): d
                for p, d in public.items()
                if (who := stored_id(p)) is not None
            }
            records = move_records(events, game)
            game.forget_before(game.round_no)  # finished rounds live on in the event log
            state = table.state_json()
            await self.storage.save_move(
                table.game_id,
                state,
                STATUS[game.phase],
                log_events,
                deltas,
                now=now,
                channel_id=table.channel_id,
                stats=records,
                expect_move_no=table.stored_move,
            )
        except StaleGameError as err:
            # Another process stored a move first: this one did not happen, and what this
            # process knew of the table is out of date.
            table.restore(table.saved)
            await self.refresh_quietly(channel_id)
            raise MovedElsewhere("moved-elsewhere") from err
        except CommitUnknownError as err:
            # The connection died with the COMMIT on its way: the move may be stored.
            if not await self._was_stored(channel_id, table, state):
                table.restore(table.saved)
                raise DatabaseDownError("the move was not stored") from err
        except BaseException:
            # Not stored means not played: put the table back as it was last stored.
            table.restore(table.saved)
            raise
        table.saved = state
        table.stored_move += 1
        if game.phase == "over":
            self.tables.pop(channel_id, None)
            outcome.result = await self._rate(table.game_id, table.guild_id, game)
            outcome.replay = await self._replay(table)
        return outcome

    async def _replay(self, table: Table) -> str | None:
        """The finished game's replay link, if its server shows its games; a storage
        failure only leaves the link out."""
        if self.replay_link is None or table.game.round_no == 0:
            return None
        try:
            return await self.replay_link(table.guild_id, table.game_id)
        except Exception as err:
            log.warning("game %s: no replay link now (%s)", table.game_id, err)
            return None

    async def _rate(self, game_id: int, guild_id: int, game: Game) -> GameResult | None:
        """The finished game's ratings and achievements, once its last move is stored
        (nothing is lost: a failure here leaves the game unrated, and the league's
        periodic catch-up rates it; README, Ratings)."""
        if self.league is None:
            return None
        try:
            return await self.league.game_over(game_id, guild_id=guild_id, game=game)
        except DatabaseDownError:
            return None  # the storage's health has logged the outage, once
        except Exception:
            log.exception("game %s could not be rated now; the league catches up later", game_id)
            return None

    async def _opened(self, channel_id: int, state: str, err: CommitUnknownError) -> GameRecord:
        """A lobby whose COMMIT lost its answer: the channel's stored game, if it is this
        one (the same state, down to its seal's salt); `DatabaseDownError` if none was
        stored, `ChannelBusy` if another process's game is there, `OutcomeUnknown` if
        the database does not answer in time to tell (the channel is read back before
        its next move: a stored lobby then turns up as "already running", and is found)."""
        for pause in (*SETTLE_PAUSES, None):
            try:
                record = await self.storage.get_game_for_channel(channel_id)
            except DatabaseDownError:
                if pause is None:
                    break
                await asyncio.sleep(pause)
                continue
            if record is None:
                raise DatabaseDownError("the lobby was not stored") from err
            if record.state_json == state:
                return record
            await self.refresh_quietly(channel_id)
            raise ChannelBusy("channel-busy") from err
        raise OutcomeUnknown(f"channel {channel_id}: the database did not answer to tell")

    async def _was_stored(self, channel_id: int, table: Table, state: str) -> bool:
        """Whether a move whose COMMIT lost its answer is in storage: the game row holds
        this move's number and state exactly (stored), or still the number before it
        (not stored). If the database does not answer in time, the table goes back to
        what was last known stored, is marked to be read again before its next move,
        and `OutcomeUnknown` says so; if another process moved the game since, the
        table is read again and the answer is unknown all the same."""
        for pause in (*SETTLE_PAUSES, None):
            try:
                record = await self.storage.get_game(table.game_id)
            except DatabaseDownError:
                if pause is None:
                    break
                await asyncio.sleep(pause)
                continue
            if record is None or record.move_no == table.stored_move:
                return False
            if record.move_no == table.stored_move + 1 and record.state_json == state:
                return True
            table.restore(table.saved)
            await self.refresh_quietly(channel_id)
            raise OutcomeUnknown(f"game {table.game_id} moved on before it could be read back")
        table.restore(table.saved)
        table.unsettled = True
        raise OutcomeUnknown(f"game {table.game_id}: the database did not answer to tell")

    async def settle_locked(self, channel_id: int) -> None:
        """Read a table back whose last move's fate is unknown, before showing it; the
        caller holds the channel's lock. Raises `DatabaseDownError` while that can't be
        done."""
        table = self.tables.get(channel_id)
        if table is not None and table.unsettled:
            with contextlib.suppress(StaleAction):
                await self._settle_table(channel_id, table)

    async def _settle_table(self, channel_id: int, table: Table) -> None:
        """Before a move on an unsettled table: if storage holds the move number last
        known here, the lost move did not count and the table is right as it is;
        otherwise the table is read again and the move is refused as made on an old
        table (`StaleAction`), like one another process moved first."""
        record = await self.storage.get_game(table.game_id)
        table.unsettled = False
        if record is not None and record.move_no == table.stored_move:
            return
        await self.refresh(channel_id)
        raise MovedElsewhere("moved-elsewhere")

    def _update_meta(self, table: Table, outcome: Outcome, now: float) -> None:
        game, meta = table.game, table.meta
        kinds = {type(e) for e in outcome.events}
        if Revealed in kinds or RoundOver in kinds or game.phase == "over":
            if Revealed in kinds:
                outcome.lifted = meta.lifted = meta.commit
            meta.commit = None
        sealing = Rolled in kinds and RoundOver not in kinds
        if game.bluffing and game.cup is not None and sealing:
            meta.commit = Commitment.seal(game.cup)
            outcome.sealed = meta.commit
        timer = game.options.turn_timer
        person = game.to_move is not None and game.to_move not in game.computers
        if game.phase == "playing" and timer > 0 and person:  # computers never time out
            meta.deadline = now + timer
            meta.deadline_move = game.move_no
        else:
            meta.deadline = None
            meta.deadline_move = -1
