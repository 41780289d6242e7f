"""One line per event: what a move did, said once, in the table's words.

One handler per event kind in ``HANDLERS``; a test fails when a kind has none, so a new
event cannot render as nothing. Handlers read public events only (private ones never
reach them), which keeps hidden dice out of the channel by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.engine import Cause, Event, Game, Kind, Reason
from bot.present.i18n import Talk
from bot.present.words import Words, amount, listing, who


@dataclass(frozen=True, slots=True)
class Scene:
    """What a handler may read besides its event: the table after the move, and which
    other kinds the move produced (a penalty after a reveal needs no cause)."""

    game: Game
    words: Words
    kinds: frozenset[Kind]


#: A penalty whose cause the move's own headline already says.
IMPLIED: dict[str, Kind] = {
    Cause.CAUGHT: Kind.REVEAL,
    Cause.WRONG_CALL: Kind.REVEAL,
    Cause.FOLDED: Kind.FOLDED,
    Cause.TIMER: Kind.TIMEOUT,
    Cause.SOCIAL: Kind.SOCIAL,
    Cause.ENDED_EARLY: Kind.ENDED_ROUND,
}

THREE_ONE_KINDS = frozenset({Kind.SOCIAL, Kind.HANDOUT, Kind.ELBOW})
#: Messages for leaving and being out, by reason (catalog keys, README Languages).
LEFT_KEYS = {
    Reason.LEFT_QUEUE: "left-queue", Reason.LEFT_GAME: "left-game",
    Reason.TIMEOUTS: "left-timeouts",
}  # fmt: skip
OUT_KEYS = {
    Reason.NO_LIVES: "out-no-lives", Reason.LEFT_GAME: "out-left",
    Reason.TIMEOUTS: "out-timeouts",
}  # fmt: skip


def _who(s: Scene, player: str | None) -> str:
    return who(player, s.words.talk)


def _joined(s: Scene, e: Event) -> str | None:
    return None if s.game.phase == "lobby" else s.words.talk("joined", p=_who(s, e.player))


def _left(s: Scene, e: Event) -> str | None:
    if e.data["reason"] == Reason.LEFT_LOBBY:
        return None  # the lobby message lists who is in
    return s.words.talk(LEFT_KEYS.get(e.data["reason"], "left"), p=_who(s, e.player))


def _out(s: Scene, e: Event) -> str:
    return s.words.talk(OUT_KEYS.get(e.data["reason"], "out"), p=_who(s, e.player))


def _host(s: Scene, e: Event) -> str | None:
    # Nobody needs a new host for a game that is over.
    return None if s.game.phase == "over" else s.words.talk("host", p=_who(s, e.player))


def _rolled(s: Scene, e: Event) -> str | None:
    p, d, t = _who(s, e.player), e.data, s.words.talk
    if s.game.bluffing:
        return t("rolled-blind" if d.get("blind") else "rolled-under-cup", p=p)
    if d["dice"] == "31" and s.kinds & THREE_ONE_KINDS:
        return None  # the 3-1's own line says it
    roll = s.words.roll(d["dice"])
    if d.get("rolloff"):
        return t("rolled-rolloff", p=p, roll=roll)
    n = d.get("n") or 1
    # Every roll line names the roller: a later roll of a turn may be the first line a
    # player reads (a slash command's answer, a new turn message after a restart).
    if d.get("kept"):
        return t("rolled-kept", p=p, n=n, die=d["kept"], roll=roll)
    if n > 1:
        return t("rolled-again", p=p, n=n, roll=roll)
    return t("rolled", p=p, roll=roll)


def _claimed(s: Scene, e: Event) -> str:
    return s.words.talk("claimed", p=_who(s, e.player), claim=s.words.roll(e.data["claim"]))


def _passed(s: Scene, e: Event) -> str:
    return s.words.talk("passed", p=_who(s, e.player), claim=s.words.roll(e.data["claim"]))


def _accepted(s: Scene, e: Event) -> str | None:
    if e.data.get("by_roll"):
        return None  # rolling is accepting (README, Rule sets); the roll says it
    return s.words.talk("accepted", p=_who(s, e.player), claim=s.words.roll(e.data["claim"]))


def _reveal(s: Scene, e: Event) -> str:
    d, w = e.data, s.words
    return w.talk(
        "reveal-bluff" if d["bluff"] else "reveal-true",
        p=_who(s, e.player), claimer=_who(s, d["claimer"]), claim=w.roll(d["claim"]),
        cup=w.roll(d["dice"]), odds=w.odds(d["claim"]),
    )  # fmt: skip


def _penalty(s: Scene, e: Event) -> str | None:
    """A player's penalties of one cause, merged (see ``merge_penalties``)."""
    d, t = e.data, s.words.talk
    cause = d["cause"]
    if cause == Cause.SOCIAL:
        return None  # "everyone sips" says it
    paid: list[tuple[str, int]] = d["paid"]
    lives = listing([amount(n, u, t) for u, n in paid if u == "life"], t)
    p = _who(s, e.player)
    if cause == Cause.HANDED_OUT:
        handed = listing([amount(n, u, t) for u, n in paid if u != "life"], t)
        return t("penalty-handed", by=_who(s, d["by"]), p=p, drunk=handed)
    # "amount-drunk": a drink as the penalty line says it, in the case (and, where the
    # language needs one, with the verb) that line wants: German "trinkt einen Kurzen".
    drunk = listing([t("amount-drunk", n=n, unit=u) for u, n in paid if u != "life"], t)
    if IMPLIED.get(cause) in s.kinds:
        why = ""
    else:
        why = s.words.cause(cause, d.get("detail") or {}, d.get("by"))
    kind = "both" if drunk and lives else "lives" if lives else "drunk"
    return t(f"penalty-{kind}" + ("-why" if why else ""), p=p, drunk=drunk, lives=lives, why=why)


def _round_over(s: Scene, e: Event) -> str | None:
    if e.player is None:
        return s.words.talk("round-void", round=e.data["round"])
    return None  # the penalty line names the loser


def _knight(s: Scene, e: Event) -> str:
    if e.data.get("knight") is None:
        return s.words.talk("knight-none")
    return s.words.talk("knight", p=_who(s, e.player))


def _round_started(s: Scene, e: Event) -> str | None:
    # A round the same move ended the game in (players left) is never played: no header.
    if s.game.phase == "over":
        return None
    return s.words.talk("round-started", round=e.data["round"])


def _game_over(s: Scene, e: Event) -> str:
    d, t = e.data, s.words.talk
    if d.get("winner"):
        return t("over-winner", p=_who(s, d["winner"]))
    if d.get("loser"):
        return t("over-loser", p=_who(s, d["loser"]))
    if d.get("ended_by"):
        return t("over-ended", p=_who(s, d["ended_by"]))
    return t("over-empty")


def _says(key: str, *fields: str) -> Callable[[Scene, Event], str]:
    """A line that needs only the player and some plain fields of the event."""

    def line(s: Scene, e: Event) -> str:
        return s.words.talk(key, p=_who(s, e.player), **{f: e.data[f] for f in fields})

    return line


def _says_roll(key: str, field: str) -> Callable[[Scene, Event], str]:
    def line(s: Scene, e: Event) -> str:
        return s.words.talk(key, p=_who(s, e.player), roll=s.words.roll(e.data[field]))

    return line


def _none(s: Scene, e: Event) -> None:
    return None


HANDLERS: dict[Kind, Callable[[Scene, Event], str | None]] = {
    Kind.LOBBY: _none,  # the lobby message itself
    Kind.JOINED: _joined,
    Kind.WAITING: _says("waiting"),
    Kind.SEATED: _says("seated"),
    Kind.LEFT: _left,
    Kind.OUT: _out,
    Kind.HOST: _host,
    Kind.STARTED: _says("started"),
    Kind.ROUND_STARTED: _round_started,
    Kind.TURN: _none,  # the prompt names who is next
    Kind.ROLLED: _rolled,
    Kind.DICE: _none,  # private: only ever in the roller's own reply
    Kind.SOCIAL: _says("social"),
    Kind.HANDOUT: _says("handout"),
    Kind.ELBOW: _says("elbow"),
    Kind.CLAIMED: _claimed,
    Kind.PASSED: _passed,
    Kind.ACCEPTED: _accepted,
    Kind.REVEAL: _reveal,
    Kind.FOLDED: _says_roll("folded", "claim"),
    Kind.PENALTY: _penalty,
    Kind.ROUND_OVER: _round_over,
    Kind.STOOD: _says_roll("stood", "roll"),
    Kind.ENDED_ROUND: lambda s, e: s.words.talk(
        "ended-round",
        p=_who(s, e.player),
        verb=s.words.ending("verb"),
        roll=s.words.roll(e.data["roll"]),
    ),
    Kind.TAPPED: lambda s, e: s.words.talk(
        "tapped", p=_who(s, e.player), roller=_who(s, e.data["roller"])
    ),
    Kind.STUCK: _says("stuck"),
    Kind.POT: _says("pot", "pot"),
    Kind.KNIGHT: _knight,
    Kind.KNIGHT_CHOICE: _says("knight-choice"),
    Kind.LIMIT: _says("limit", "limit"),
    Kind.TIMEOUT: _says("timeout"),
    Kind.ROLLOFF: lambda s, e: s.words.talk(
        "rolloff", players=listing([_who(s, p) for p in e.data["players"]], s.words.talk)
    ),
    Kind.GAME_OVER: _game_over,
}


def merge_penalties(events: Iterable[Event]) -> list[Event]:
    """Public events with each player's penalties of one cause in one event, so a lost
    call that costs a drink and a life is one line, not two."""
    out: list[Event] = []
    for e in events:
        if e.to is not None:
            continue
        if e.kind is not Kind.PENALTY:
            out.append(e)
            continue
        d = e.data
        last = out[-1] if out else None
        if (
            last is not None
            and last.kind is Kind.PENALTY
            and last.player == e.player
            and last.data["cause"] == d["cause"]
        ):
            last.data["paid"].append((d["unit"], d["amount"]))
            continue
        merged = {**d, "paid": [(d["unit"], d["amount"])]}
        out.append(Event(Kind.PENALTY, e.player, merged))
    return out


def story(game: Game, events: Iterable[Event], talk: Talk) -> list[str]:
    """The public lines of one move, in the order things happened."""
    public = merge_penalties(events)
    scene = Scene(game, Words.of(game, talk), frozenset(e.kind for e in public))
    lines = []
    for event in public:
        line = HANDLERS[event.kind](scene, event)
        if line:
            lines.append(line)
    return lines
