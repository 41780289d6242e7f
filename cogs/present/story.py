"""One line per event: what a move did, said once, in the table's words.

One handler per event kind in ``HANDLERS``; a test fails when a kind has none, so a new
event cannot render as nothing. Handlers read public events only (private ones never
reach them), which keeps hidden dice out of the channel by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.engine import Cause, Event, Game, Kind, Reason

from .words import Words, amount, who


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
LEFT_WORDS = {
    Reason.LEFT_QUEUE: "{p} left the queue.",
    Reason.LEFT_GAME: "{p} left the game.",
    Reason.TIMEOUTS: "{p} missed two turns and leaves the table.",
}
OUT_WORDS = {
    Reason.NO_LIVES: "💀 {p} is out of lives.",
    Reason.LEFT_GAME: "{p} left the game and is out.",
    Reason.TIMEOUTS: "{p} missed two turns and is out.",
}


def _joined(s: Scene, e: Event) -> str | None:
    return None if s.game.phase == "lobby" else f"{who(e.player)} joined."


def _left(s: Scene, e: Event) -> str | None:
    if e.data["reason"] == Reason.LEFT_LOBBY:
        return None  # the lobby message lists who is in
    return LEFT_WORDS.get(e.data["reason"], "{p} left.").format(p=who(e.player))


def _out(s: Scene, e: Event) -> str:
    return OUT_WORDS.get(e.data["reason"], "{p} is out.").format(p=who(e.player))


def _host(s: Scene, e: Event) -> str | None:
    # Nobody needs a new host for a game that is over.
    return None if s.game.phase == "over" else f"{who(e.player)} is the host now."


def _rolled(s: Scene, e: Event) -> str | None:
    p, d = who(e.player), e.data
    if s.game.bluffing:
        if d.get("blind"):
            return f"{p} rolls blind under the cup: nobody saw the dice."
        return f"{p} rolls under the cup."
    if d["dice"] == "31" and s.kinds & THREE_ONE_KINDS:
        return None  # the 3-1's own line says it
    roll = s.words.roll(d["dice"])
    if d.get("rolloff"):
        return f"{p} rolls **{roll}** in the roll-off."
    n = d.get("n") or 1
    # Later rolls of a turn are the same player's: the turn message named them already.
    if d.get("kept"):
        return f"Roll {n}: keeps the {d['kept']}, **{roll}**."
    if n > 1:
        return f"Roll {n}: **{roll}**."
    return f"{p} rolls **{roll}**."


def _claimed(s: Scene, e: Event) -> str:
    return f"{who(e.player)} claims **{s.words.roll(e.data['claim'])}**."


def _passed(s: Scene, e: Event) -> str:
    claim = s.words.roll(e.data["claim"])
    return f"{who(e.player)} passes the cup on unseen, claiming **{claim}**."


def _accepted(s: Scene, e: Event) -> str | None:
    if e.data.get("by_roll"):
        return None  # rolling is accepting (README, Rule sets); the roll says it
    return f"{who(e.player)} accepts **{s.words.roll(e.data['claim'])}**."


def _reveal(s: Scene, e: Event) -> str:
    d, w = e.data, s.words
    claim, cup = w.roll(d["claim"]), w.roll(d["dice"])
    verdict = "Bluff caught!" if d["bluff"] else "It was true!"
    return (
        f"{who(e.player)} calls **bullshit** on {who(d['claimer'])}'s **{claim}**: "
        f"**{cup}** under the cup. {verdict} ({w.odds(d['claim'])})"
    )


def _penalty(s: Scene, e: Event) -> str | None:
    """A player's penalties of one cause, merged (see ``merge_penalties``)."""
    d = e.data
    cause = d["cause"]
    if cause == Cause.SOCIAL:
        return None  # "everyone sips" says it
    paid: list[tuple[str, int]] = d["paid"]
    drunk = [amount(n, u) for u, n in paid if u != "life"]
    lives = [amount(n, u) for u, n in paid if u == "life"]
    p = who(e.player)
    if cause == Cause.HANDED_OUT:
        return f"{who(d['by'])} hands **{' and '.join(drunk)}** to {p}."
    parts = []
    if drunk:
        parts.append(f"takes **{' and '.join(drunk)}**")
    if lives:
        parts.append(f"loses **{' and '.join(lives)}**")
    line = f"→ {p} " + " and ".join(parts)
    if IMPLIED.get(cause) not in s.kinds:
        line += f": {s.words.cause(cause, d.get('detail') or {}, d.get('by'))}"
    return line + "."


def _round_over(s: Scene, e: Event) -> str | None:
    if e.player is None:
        return f"Round {e.data['round']} is void: nobody pays."
    return None  # the penalty line names the loser


def _knight(s: Scene, e: Event) -> str:
    if e.data.get("knight") is None:
        return "There is no Knight now."
    return f"{who(e.player)} is the **Knight**."


def _game_over(s: Scene, e: Event) -> str:
    d = e.data
    if d.get("winner"):
        return f"🏆 **{who(d['winner'])} wins!**"
    if d.get("loser"):
        return f"💀 {who(d['loser'])} hit zero lives and loses the game."
    if d.get("ended_by"):
        return f"🏁 {who(d['ended_by'])} ended the game."
    return "🏁 Game over: too few players left."


def _plain(template: str) -> Callable[[Scene, Event], str]:
    def line(s: Scene, e: Event) -> str:
        return template.format(p=who(e.player), **e.data)

    return line


def _none(s: Scene, e: Event) -> None:
    return None


def _roll_named(field: str, template: str) -> Callable[[Scene, Event], str]:
    def line(s: Scene, e: Event) -> str:
        return template.format(p=who(e.player), roll=s.words.roll(e.data[field]))

    return line


HANDLERS: dict[Kind, Callable[[Scene, Event], str | None]] = {
    Kind.LOBBY: _none,  # the lobby message itself
    Kind.JOINED: _joined,
    Kind.WAITING: _plain("{p} joins at the next round."),
    Kind.SEATED: _plain("{p} sits down."),
    Kind.LEFT: _left,
    Kind.OUT: _out,
    Kind.HOST: _host,
    Kind.STARTED: _plain("🎲 Game on!"),
    Kind.ROUND_STARTED: _plain("**Round {round}**"),
    Kind.TURN: _none,  # the prompt names who is next
    Kind.ROLLED: _rolled,
    Kind.DICE: _none,  # private: only ever in the roller's own reply
    Kind.SOCIAL: _plain("{p} rolled 3-1: **Social**! Everyone sips, and {p} rolls again."),
    Kind.HANDOUT: _plain("{p} rolled 3-1: a sip to hand out, then a free roll."),
    Kind.ELBOW: _plain("{p} rolled 3-1: **Elbow**! The turn starts over."),
    Kind.CLAIMED: _claimed,
    Kind.PASSED: _passed,
    Kind.ACCEPTED: _accepted,
    Kind.REVEAL: _reveal,
    Kind.FOLDED: _roll_named("claim", "{p} folds against **{roll}**."),
    Kind.PENALTY: _penalty,
    Kind.ROUND_OVER: _round_over,
    Kind.STOOD: _roll_named("roll", "{p} stands on **{roll}**."),
    Kind.ENDED_ROUND: lambda s, e: (
        f"{who(e.player)} {s.words.ending[0]} on **{s.words.roll(e.data['roll'])}**."
    ),
    Kind.TAPPED: lambda s, e: (
        f"{who(e.player)} hits **TAP**: {who(e.data['roller'])}'s 3-2 is locked in."
    ),
    Kind.STUCK: _plain("**STUCK!** {p} has a 3-2: anyone else may TAP to lock it in."),
    Kind.POT: _plain("The pot is **{pot}**."),
    Kind.KNIGHT: _knight,
    Kind.KNIGHT_CHOICE: _plain("{p} rolled 1-1 as Knight and names the next Knight."),
    Kind.LIMIT: _plain("Roll limit this round: **{limit}**."),
    Kind.TIMEOUT: _plain("⏰ {p}'s time ran out."),
    Kind.ROLLOFF: lambda s, e: (
        "Tie for lowest: " + ", ".join(map(who, e.data["players"])) + " roll off."
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


def story(game: Game, events: Iterable[Event]) -> list[str]:
    """The public lines of one move, in the order things happened."""
    public = merge_penalties(events)
    scene = Scene(game, Words.of(game), frozenset(e.kind for e in public))
    lines = []
    for event in public:
        line = HANDLERS[event.kind](scene, event)
        if line:
            lines.append(line)
    return lines
