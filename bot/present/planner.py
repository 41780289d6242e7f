"""Which Discord calls show a move: decided here as plain values, with no I/O, so how
many calls each move costs can be read off a table of tests (README, How the table talks).

`plan` takes what a move did, where it came from (bot/game/outcomes.py: a click on the
live message, on a stray one or on a private menu; a slash command; the turn timer; a
computer player; a failed answer) and what the channel's messages show now, and returns
the operations to carry out and what the channel shows after them. The executor
(bot/adapter/executor.py) only carries the operations out and returns what Discord
produced (`Produced`); `recorded` says what the channel shows then, and
bot/present/showing.py keeps it, in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Kind
from bot.game.fairness import Commitment
from bot.game.outcomes import Origin
from bot.game.tables import Outcome, Table
from bot.present import screens as present
from bot.present.i18n import Talk
from bot.present.message import Component, Reply
from bot.present.story import story


@dataclass(frozen=True, slots=True)
class ChannelState:
    """What the bot remembers of a channel's messages between moves (in memory only: the
    live message's id is stored in the table's meta, since it must survive a restart)."""

    #: Lines shown on the live turn message: the turn's story so far.
    story: tuple[str, ...] = ()
    #: The reply the live message shows, so retiring it keeps its cup check.
    live: Reply | None = None
    #: A cup lifted on the live message, which stays checkable while it shows.
    lift: Commitment | None = None
    #: The move number at which the player to move last looked at the table.
    seen: int | None = None
    #: A reminder that pinged the player to move, deleted once they have moved.
    reminder: int | None = None

    def forgotten(self) -> ChannelState:
        """A finished game's talk: nothing of it carries over (a reminder still goes)."""
        return ChannelState(reminder=self.reminder)


EMPTY = ChannelState()


# --- operations: each one Discord call (an Edit may fall back to a Post) ------------------
@dataclass(frozen=True, slots=True)
class Retire:
    """Take the moves off an old message, keeping ``keep`` (a lifted cup's check)."""

    message_id: int
    keep: tuple[Component, ...] = ()


@dataclass(frozen=True, slots=True)
class Answer:
    """The response to the interaction (or its follow-up once answered): a new message,
    private if the reply is, or the clicked message edited in place (``edit``). ``live``:
    the message it leaves is the live turn message from now on."""

    reply: Reply
    edit: bool = False
    live: bool = False


@dataclass(frozen=True, slots=True)
class Post:
    """A new message in the channel. ``live``: it becomes the live turn message, and the
    one it ``replaces`` is retired once it is there. ``reminder``: it is the turn timer's
    reminder, deleted once the player moves."""

    reply: Reply
    live: bool = False
    replaces: Retire | None = None
    reminder: bool = False


@dataclass(frozen=True, slots=True)
class Edit:
    """Another message than the one clicked edited to show ``reply``; if Discord says it
    is gone, ``if_gone`` is posted instead."""

    message_id: int
    reply: Reply
    live: bool = False
    if_gone: Post | None = None


@dataclass(frozen=True, slots=True)
class Delete:
    message_id: int


Operation = Answer | Post | Edit | Retire | Delete


@dataclass(frozen=True, slots=True)
class Plan:
    operations: tuple[Operation, ...]
    #: The channel after the operations, once Discord has taken them all: the live
    #: message shows the reply they leave on it (a reminder's id is Discord's to give:
    #: `recorded` adds it).
    state: ChannelState
    #: The channel if the answer fails: what was settled before answering stands, and the
    #: fallback is planned from it.
    on_failure: ChannelState
    #: The channel while the operations are under way: the live message still shows what
    #: it showed until Discord has taken the new one.
    pending: ChannelState


def _plan(ops: Sequence[Operation], pending: ChannelState, on_failure: ChannelState) -> Plan:
    """The plan of ``ops``, its post-state read off the operation that shows the live
    message (there is at most one)."""
    state = pending
    for op in ops:
        if isinstance(op, Answer | Post | Edit) and op.live:
            state = shown(pending, op.reply)
    return Plan(tuple(ops), state, on_failure, pending)


@dataclass(slots=True)
class Produced:
    """What Discord made of a plan's operations, as the executor found it."""

    #: The live message shows the plan's reply (the call that shows it was taken).
    shown: bool = False
    #: A new live message was posted, with this id.
    message_id: int | None = None
    #: A reminder was posted, with this id.
    reminder: int | None = None
    #: The call that failed and stopped the rest (the answer's deadline missed, a
    #: dropped connection): the move is then shown another way.
    failed: BaseException | None = None
    #: False: no channel to make the calls in (and no interaction to answer): none made.
    reached: bool = True


# --- recording what the operations produced ------------------------------------------------
def shown(state: ChannelState, reply: Reply) -> ChannelState:
    """The live message now shows ``reply``."""
    return dataclasses.replace(state, live=reply)


def reminded(state: ChannelState, message_id: int) -> ChannelState:
    return dataclasses.replace(state, reminder=message_id)


def recorded(state: ChannelState, plan: Plan, produced: Produced) -> ChannelState:
    """The channel ``state`` once ``plan``'s operations produced ``produced``: the live
    message shows the plan's reply if Discord took it, and a reminder posted is kept to
    be deleted when the player moves."""
    if produced.shown and plan.state.live is not None:
        state = shown(state, plan.state.live)
    if produced.reminder is not None:
        state = reminded(state, produced.reminder)
    return state


def looked(state: ChannelState, table: Table, player: str) -> ChannelState:
    """``player`` looked at the table (their dice, /table, a refused move): if it is their
    turn, the timer's reminder would tell them nothing new."""
    if table.game.to_move != player:
        return state
    return dataclasses.replace(state, seen=table.game.move_no)


# --- deciding -------------------------------------------------------------------------------
def origin_of(
    clicked: int | None, private: bool, has_components: bool, live: int | None
) -> tuple[Origin, int | None]:
    """Where an interaction came from, from the message it was made on (None: a slash
    command), and the stray message to retire if it was one."""
    if clicked is None:
        return Origin.SLASH, None
    if clicked == live:
        return Origin.CLICK_LIVE, None
    if private:
        return Origin.CLICK_MENU, None
    if has_components:
        return Origin.CLICK_STRAY, clicked
    return Origin.SLASH, None


def turn_change(outcome: Outcome) -> tuple[bool, bool, bool]:
    """How a move changes the turn message: whether it pings the player to move (the turn
    has just passed to them from someone else), whether a new message is posted (only for
    that ping, and never for a computer, who needs none: else the live message is
    updated), and whether the message's lines start afresh (a new message, a new round,
    the end of the game)."""
    game = outcome.table.game
    mover = game.to_move if game.phase == "playing" else None
    passed = mover != outcome.previous_mover
    ping = passed and mover is not None and mover != outcome.player
    fresh = ping and mover not in game.computers
    restart = (
        fresh or game.phase == "over" or any(e.kind is Kind.ROUND_OVER for e in outcome.events)
    )
    return ping, fresh, restart


def says_nothing_new(outcome: Outcome) -> bool:
    """Whether the mover's private answer would only repeat their live turn message: a
    roll with no dice for them to see (blind), the Claim menu being on that message too."""
    game, player = outcome.table.game, outcome.player
    if game.to_move != player or game.owes_choice(player) is not None:
        return False
    return not any(e.kind is Kind.DICE and e.to == player for e in outcome.events)


def plan(
    outcome: Outcome,
    origin: Origin,
    state: ChannelState,
    *,
    reader: Talk | None = None,
    stray: int | None = None,
) -> Plan:
    """The Discord calls that show ``outcome``. ``reader`` speaks the language of the one
    who clicked or typed (their private answers); ``stray`` is the stray message clicked."""
    if origin is Origin.FALLBACK:
        return _fallback(outcome, state)
    if origin in (Origin.TIMER, Origin.COMPUTER):
        return _unasked(outcome, state)
    assert reader is not None, "an answered move has a reader"
    if outcome.move is None:
        reply = present.lobby(outcome.table)
        return _plan((Answer(reply, live=True),), shown(state, reply), state)
    return _answered(outcome, origin, state, reader, stray)


def _without_reminder(state: ChannelState) -> tuple[list[Operation], ChannelState]:
    """The player moved: the reminder that pinged them goes."""
    if state.reminder is None:
        return [], state
    return [Delete(state.reminder)], dataclasses.replace(state, reminder=None)


def _post(table: Table, state: ChannelState, reply: Reply) -> Post:
    """``reply`` posted as the live message; the old one keeps only a lifted cup's check."""
    old = table.meta.message_id
    replaces = None
    if old is not None:
        keep = present.retired(state.live.components, table.meta.lifted) if state.live else ()
        replaces = Retire(old, keep)
    return Post(reply, live=table.game.phase != "over", replaces=replaces)


def _refresh(table: Table, state: ChannelState, reply: Reply, *, fresh: bool) -> Operation:
    """``reply`` on the live message: edited in place (edits ping nobody), or posted anew
    when the turn passed to someone else or no message is known."""
    post = _post(table, state, reply)
    message_id = table.meta.message_id
    if message_id is None or fresh:
        return post
    return Edit(message_id, reply, live=table.game.phase != "over", if_gone=post)


def _lift(state: ChannelState, outcome: Outcome, *, starts_afresh: bool) -> ChannelState:
    """The lifted cup the live message keeps showing: a new lift replaces it, a message or
    round started afresh drops it."""
    lift = None if starts_afresh else state.lift
    if outcome.lifted is not None:
        lift = outcome.lifted
    return dataclasses.replace(state, lift=lift)


def _after(state: ChannelState, outcome: Outcome, lines: Sequence[str]) -> ChannelState:
    if outcome.table.game.phase == "over":
        return state.forgotten()
    return dataclasses.replace(state, story=tuple(lines))


def _answered(
    outcome: Outcome, origin: Origin, state: ChannelState, reader: Talk, stray: int | None
) -> Plan:
    """A person's move, answered with as few calls as the table-talk rules allow (README,
    How the table talks). A tap on the live turn message that pings nobody is one call:
    the response updates that message. A new message is posted only when the turn passed
    to another person, who must be pinged; it is the response, and retiring the old
    message's buttons is the second call. A slash command, or dice only the mover may
    see, take two as well: the answer, and the live message updated. A click on a
    leftover message (one whose id was lost in a restart) costs one more: it is retired
    too."""
    table = outcome.table
    game = table.game
    ops, state = _without_reminder(state)
    on_live = origin is Origin.CLICK_LIVE
    if game.phase == "lobby":
        # A click on the lobby edits it in place; a slash command gets a private word and
        # the lobby message is edited, so the channel keeps one lobby message.
        reply = present.lobby(table)
        state = shown(state, reply)
        if on_live:
            return _plan((*ops, Answer(reply, edit=True)), state, state)
        note = present.lobby_note(outcome, outcome.player, reader)
        refresh = _refresh(table, state, reply, fresh=False)
        return _plan((*ops, Answer(note), refresh), state, state)
    ping, fresh, restart = turn_change(outcome)
    lines = story(game, outcome.events, present.table_talk(table))
    private = present.private_after(outcome, reader)
    if private is not None and on_live and not fresh and says_nothing_new(outcome):
        private = None  # the live message, updated, says it all (a blind roll)
    from_menu = not fresh and private is None and origin is Origin.CLICK_MENU
    in_place = not fresh and (private is not None or on_live or from_menu)
    # A message that stays in place gathers the turn's lines; a new one, or a new round,
    # starts afresh (the message above, or the reveal, says what came before).
    earlier = list(state.story) if in_place and not restart else []
    state = _lift(state, outcome, starts_afresh=not in_place or restart)
    reply = present.after_move(
        outcome, earlier, ping=ping, shown_lift=state.lift if in_place else None
    )
    after = _after(state, outcome, present.combine(earlier, lines))
    live = game.phase != "over"
    if private is not None:
        ops += [Answer(private), _refresh(table, state, reply, fresh=fresh)]
    elif in_place and on_live:
        return _plan((*ops, Answer(reply, edit=True, live=live)), after, state)
    elif from_menu:
        # A choice made in the mover's private menu: that menu becomes what it did.
        note = Reply("\n".join(lines) or reader("menu-done"), private=True)
        ops += [Answer(note, edit=True), _refresh(table, state, reply, fresh=fresh)]
    else:
        ops.append(Answer(reply, live=live))
        post = _post(table, state, reply)
        if post.replaces is not None:
            ops.append(post.replaces)
    if stray is not None:
        ops.append(Retire(stray))
    return _plan(ops, after, state)


def _unasked(outcome: Outcome, state: ChannelState) -> Plan:
    """A move nobody clicked for (the timer's, a computer player's): a new turn message
    when the turn passed to a person, else the live one updated."""
    table = outcome.table
    ops, state = _without_reminder(state)
    ping, fresh, restart = turn_change(outcome)
    lines = story(table.game, outcome.events, present.table_talk(table))
    earlier = [] if restart else list(state.story)
    state = _lift(state, outcome, starts_afresh=restart)
    reply = present.after_move(
        outcome, earlier, ping=ping, shown_lift=None if restart else state.lift
    )
    ops.append(_refresh(table, state, reply, fresh=fresh))
    return _plan(ops, _after(state, outcome, present.combine(earlier, lines)), state)


def _fallback(outcome: Outcome, state: ChannelState) -> Plan:
    """The answer failed (the 3 s deadline missed, a dropped connection, a 404): the table
    is posted to the channel instead, with every button and menu the next move needs
    ("Show my dice" for private dice), so a stored move is never left unseen."""
    table = outcome.table
    game = table.game
    if outcome.move is None or game.phase == "lobby":
        reply = present.lobby(table)
    else:
        reply = present.after_move(outcome, [], ping=turn_change(outcome)[0])
    lines = story(game, outcome.events, present.table_talk(table))
    return _plan((_post(table, state, reply),), _after(state, outcome, lines), state)


def restarted(table: Table, state: ChannelState) -> Plan:
    """After a restart each running game gets its table again, with working buttons."""
    if table.game.phase == "lobby":
        reply = present.lobby(table)
    else:
        back = present.table_talk(table)("back-after-restart")
        reply = present.turn(table, [back], ping=False)
    return _plan((_post(table, state, reply),), state, state)


def ended_again(outcome: Outcome, state: ChannelState, *, running: bool = False) -> Plan:
    """A game that ended just before a stop, whose final standing never reached the
    channel: posted now, with its ratings and achievements, once (README, Ratings).
    ``running``: a new game has opened in the channel since; what its messages show is
    left as it is."""
    table = outcome.table
    t = present.table_talk(table)
    lines = [t("ended-after-restart"), *story(table.game, outcome.events, t)]
    reply = present.final(table, lines, None, outcome.result, outcome.replay)
    if running:
        return _plan((Post(reply, live=False),), state, state)
    return _plan((_post(table, state, reply),), state.forgotten(), state)


def reminder(table: Table, state: ChannelState) -> Plan:
    """Half the time is gone: ping the player once, with a message removed when they
    move. A player who already looked at their turn is not pinged again: the deadline on
    the turn message says the rest."""
    if state.seen == table.game.move_no:
        return _plan((), state, state)
    return _plan((Post(present.reminder(table), reminder=True),), state, state)
