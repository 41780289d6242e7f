"""One line per event: what a move did, said once, in the table's words.

One handler per event class in ``HANDLERS``; a test fails when a kind has none, so a new
event cannot render as nothing. Handlers read public events only (private ones never
reach them), which keeps hidden dice out of the channel by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.engine import (
    Accepted,
    Cause,
    Claimed,
    Dice,
    Elbow,
    EndedRound,
    Event,
    Folded,
    Game,
    GameEnded,
    HandOut,
    Joined,
    KnightChoice,
    Knighted,
    Left,
    LimitSet,
    NewHost,
    Opened,
    Out,
    Passed,
    Penalized,
    PotGrew,
    Reason,
    Revealed,
    Rolled,
    RollOff,
    RoundOver,
    RoundStarted,
    Seated,
    Social,
    Started,
    Stood,
    Stuck,
    Tapped,
    TimedOut,
    Turn,
    Waiting,
)
from bot.engine.result import CUT_SHORT_ROUNDS, banked, counts
from bot.present.i18n import Talk
from bot.present.words import Words, listing, lives_due, lives_lost, who


@dataclass(frozen=True, slots=True)
class Scene:
    """What a handler may read besides its event: the table after the move, and which
    other kinds of event the move produced (a penalty after a reveal needs no cause)."""

    game: Game
    words: Words
    kinds: frozenset[type[Event]]


@dataclass(frozen=True, slots=True)
class Paid:
    """A player's penalties of one cause in one move, merged (see ``merge_penalties``):
    the first of them, and every (unit, amount) paid."""

    penalty: Penalized
    paid: list[tuple[str, int]]
    #: Lives that were due where a player lost their last ones (``Penalized.detail``).
    due: int | None = None

    @property
    def player(self) -> str | None:
        return self.penalty.player


#: A penalty whose cause the move's own headline already says.
IMPLIED: dict[str, type[Event]] = {
    Cause.CAUGHT: Revealed,
    Cause.WRONG_CALL: Revealed,
    Cause.FOLDED: Folded,
    Cause.TIMER: TimedOut,
    Cause.SOCIAL: Social,
    Cause.ENDED_EARLY: EndedRound,
}

THREE_ONE_KINDS: frozenset[type[Event]] = frozenset({Social, HandOut, Elbow})
#: Messages for leaving and being out, by reason (catalog keys, README Languages).
LEFT_KEYS: dict[str, str] = {
    Reason.LEFT_QUEUE: "left-queue",
    Reason.LEFT_GAME: "left-game",
    Reason.TIMEOUTS: "left-timeouts",
}
OUT_KEYS: dict[str, str] = {
    Reason.NO_LIVES: "out-no-lives",
    Reason.LEFT_GAME: "out-left",
    Reason.TIMEOUTS: "out-timeouts",
}


def _who(s: Scene, player: str | None) -> str:
    return who(player, s.words.talk)


def _joined(s: Scene, e: Joined) -> str | None:
    return None if s.game.phase == "lobby" else s.words.talk("joined", p=_who(s, e.player))


def _left(s: Scene, e: Left) -> str | None:
    if e.reason == Reason.LEFT_LOBBY:
        return None  # the lobby message lists who is in
    return s.words.talk(LEFT_KEYS.get(e.reason, "left"), p=_who(s, e.player))


def _out(s: Scene, e: Out) -> str:
    return s.words.talk(OUT_KEYS.get(e.reason, "out"), p=_who(s, e.player))


def _host(s: Scene, e: NewHost) -> str | None:
    # Nobody needs a new host for a game that is over.
    return None if s.game.phase == "over" else s.words.talk("host", p=_who(s, e.player))


def _rolled(s: Scene, e: Rolled) -> str | None:
    p, t = _who(s, e.player), s.words.talk
    if s.game.bluffing or e.dice is None:
        return t("rolled-blind" if e.blind else "rolled-under-cup", p=p)
    if e.dice == "31" and s.kinds & THREE_ONE_KINDS:
        return None  # the 3-1's own line says it
    roll = s.words.roll(e.dice)
    if e.rolloff:
        return t("rolled-rolloff", p=p, roll=roll)
    n = e.n or 1
    # Every roll line names the roller: a later roll of a turn may be the first line a
    # player reads (a slash command's answer, a new turn message after a restart).
    if e.kept:
        return t("rolled-kept", p=p, n=n, die=e.kept, roll=roll)
    if n > 1:
        return t("rolled-again", p=p, n=n, roll=roll)
    return t("rolled", p=p, roll=roll)


def _claimed(s: Scene, e: Claimed) -> str:
    return s.words.talk("claimed", p=_who(s, e.player), claim=s.words.roll(e.claim))


def _passed(s: Scene, e: Passed) -> str:
    return s.words.talk("passed", p=_who(s, e.player), claim=s.words.roll(e.claim))


def _accepted(s: Scene, e: Accepted) -> str | None:
    if e.by_roll:
        return None  # rolling is accepting (README, Rule sets); the roll says it
    return s.words.talk("accepted", p=_who(s, e.player), claim=s.words.roll(e.claim))


def _reveal(s: Scene, e: Revealed) -> str:
    w = s.words
    return w.talk(
        "reveal-bluff" if e.bluff else "reveal-true",
        p=_who(s, e.player),
        claimer=_who(s, e.claimer),
        claim=w.roll(e.claim),
        cup=w.dice(e.dice),
        odds=w.odds(e.claim),
    )


def _penalty(s: Scene, e: Penalized | Paid) -> str | None:
    """A player's penalties of one cause, merged (see ``merge_penalties``)."""
    if isinstance(e, Penalized):  # one not merged: a list of its own
        e = _paid(e)
    d, t = e.penalty, s.words.talk
    cause = d.cause
    if cause == Cause.SOCIAL:
        return None  # "everyone sips" says it
    paid = e.paid
    lost = [n for u, n in paid if u == "life"]
    lives = listing([lives_lost(n, e.due if len(lost) == 1 else None, t) for n in lost], t)
    p = _who(s, e.player)
    if cause == Cause.HANDED_OUT:
        handed = listing([t("amount-handed", n=n, unit=u) for u, n in paid if u != "life"], t)
        return t("penalty-handed", by=_who(s, d.by), p=p, drunk=handed)
    # "amount-drunk": a drink as the penalty line says it, in the case (and, where the
    # language needs one, with the verb) that line wants: German "trinkt einen Kurzen".
    drunk = listing([t("amount-drunk", n=n, unit=u) for u, n in paid if u != "life"], t)
    implied = IMPLIED.get(cause) in s.kinds
    why = "" if implied else s.words.cause(cause, d.detail, d.by)
    kind = "both" if drunk and lives else "lives" if lives else "drunk"
    return t(f"penalty-{kind}" + ("-why" if why else ""), p=p, drunk=drunk, lives=lives, why=why)


def _round_over(s: Scene, e: RoundOver) -> str | None:
    if e.player is None:
        return s.words.talk("round-void", round=e.round)
    return None  # the penalty line names the loser


def _knight(s: Scene, e: Knighted) -> str:
    if e.knight is None:
        return s.words.talk("knight-none")
    return s.words.talk("knight", p=_who(s, e.player))


def _round_started(s: Scene, e: RoundStarted) -> str | None:
    # A round the same move ended the game in (players left) is never played: no header.
    if s.game.phase == "over":
        return None
    return s.words.talk("round-started", round=e.round)


def _game_over(s: Scene, e: GameEnded) -> str:
    """How the game ended, where the move's own lines do not say it, or why it counts
    for nothing (README, Ratings: when a game counts). The winners are marked in the
    final standing below, so they are not named twice."""
    t, game = s.words.talk, s.game
    counted = counts(game)
    lines = []
    if e.ended_by:
        # Ended in the lead: nobody wins (docs/league.md, Ratings: when a game counts).
        key = "over-ended-lead" if counted and banked(game) else "over-ended"
        lines.append(t(key, p=_who(s, e.ended_by)))
    elif e.loser and not counted:
        lines.append(t("over-loser", p=_who(s, e.loser)))
    elif not counted:
        lines.append(t("over-empty"))
    if game.round_no and game.played_rounds is not None and not counted:
        lines.append(t(_uncounted(game), n=CUT_SHORT_ROUNDS))
    return "\n".join(lines)


def _uncounted(game: Game) -> str:
    """Why a started game counts for nothing: nobody played, the timer played for all but
    one, or (a game stored before rules 2) it was cut short under `CUT_SHORT_ROUNDS`."""
    if game.rules >= 2:
        moved = any(state.moved for state in game.players.values())
        return "over-timer" if moved else "over-unplayed"
    return "over-short" if game.played_rounds else "over-unplayed"


def _says(key: str, *fields: str) -> Callable[[Scene, Event], str]:
    """A line that needs only the player and some plain fields of the event."""

    def line(s: Scene, e: Event) -> str:
        return s.words.talk(key, p=_who(s, e.player), **{f: getattr(e, f) for f in fields})

    return line


def _says_roll(key: str, field: str) -> Callable[[Scene, Event], str]:
    def line(s: Scene, e: Event) -> str:
        return s.words.talk(key, p=_who(s, e.player), roll=s.words.roll(getattr(e, field)))

    return line


def _none(s: Scene, e: Event) -> None:
    return None


def _ended_round(s: Scene, e: EndedRound) -> str:
    w = s.words
    return w.talk("ended-round", p=_who(s, e.player), verb=w.ending("verb"), roll=w.roll(e.roll))


def _tapped(s: Scene, e: Tapped) -> str:
    return s.words.talk("tapped", p=_who(s, e.player), roller=_who(s, e.roller))


def _rolloff(s: Scene, e: RollOff) -> str:
    return s.words.talk("rolloff", players=listing([_who(s, p) for p in e.players], s.words.talk))


#: Each event class's line; a handler takes its own class (the table is keyed by it, so
#: the ``Any`` only stands for "the key's class").
HANDLERS: dict[type[Event], Callable[[Scene, Any], str | None]] = {
    Opened: _none,  # the lobby message itself
    Joined: _joined,
    Waiting: _says("waiting"),
    Seated: _says("seated"),
    Left: _left,
    Out: _out,
    NewHost: _host,
    Started: _says("started"),
    RoundStarted: _round_started,
    Turn: _none,  # the prompt names who is next
    Rolled: _rolled,
    Dice: _none,  # private: only ever in the roller's own reply
    Social: _says("social"),
    HandOut: _says("handout"),
    Elbow: _says("elbow"),
    Claimed: _claimed,
    Passed: _passed,
    Accepted: _accepted,
    Revealed: _reveal,
    Folded: _says_roll("folded", "claim"),
    Penalized: _penalty,
    RoundOver: _round_over,
    Stood: _says_roll("stood", "roll"),
    EndedRound: _ended_round,
    Tapped: _tapped,
    Stuck: _says("stuck"),
    PotGrew: _says("pot", "pot"),
    Knighted: _knight,
    KnightChoice: _says("knight-choice"),
    LimitSet: _says("limit", "limit"),
    TimedOut: _says("timeout"),
    RollOff: _rolloff,
    GameEnded: _game_over,
}


def _paid(e: Penalized) -> Paid:
    return Paid(e, [(e.unit, e.amount)], lives_due(e.unit, e.detail))


def merge_penalties(events: Iterable[Event]) -> list[Event | Paid]:
    """Public events with each player's penalties of one cause in one `Paid`, so a lost
    call that costs a drink and a life is one line, not two."""
    out: list[Event | Paid] = []
    for e in events:
        if e.to is not None:
            continue
        if not isinstance(e, Penalized):
            out.append(e)
            continue
        last = out[-1] if out else None
        if isinstance(last, Paid) and last.player == e.player and last.penalty.cause == e.cause:
            last.paid.append((e.unit, e.amount))
            out[-1] = Paid(last.penalty, last.paid, lives_due(e.unit, e.detail) or last.due)
            continue
        out.append(_paid(e))
    return out


def story(game: Game, events: Iterable[Event], talk: Talk) -> list[str]:
    """The public lines of one move, in the order things happened."""
    public = merge_penalties(events)
    kinds = frozenset(type(e.penalty) if isinstance(e, Paid) else type(e) for e in public)
    scene = Scene(game, Words.of(game, talk), kinds)
    lines = []
    for event in public:
        line = (
            _penalty(scene, event)
            if isinstance(event, Paid)
            else HANDLERS[type(event)](scene, event)
        )
        if line:
            lines.append(line)
    return lines
