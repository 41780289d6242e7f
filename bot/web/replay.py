"""A finished game, move by move, as the table showed it (README, Web companion: Replays).

Hidden stays hidden: a replay is built from the public entries of the game's log only,
read through a list of what may be shown, never from the stored state's dice. A cup's
dice appear only where the table lifted it (a call of bullshit: ``reveal`` and the
``cup_opened`` seal beside it); the roller's private ``dice`` entries, the moves as
typed, and the final state's last cup are never read into a step. A kind of entry this
module does not know is left out, so a new private one cannot slip through.

Each step's lines are the table's own (bot/present/story.py, in the reader's language);
the table beside them (lives, what each player took, the claim, the cup) is folded from
the same public events.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.engine import (
    Claimed,
    Event,
    Game,
    GameEnded,
    Kind,
    Left,
    Out,
    Passed,
    Penalized,
    Reason,
    Revealed,
    Rolled,
    RoundStarted,
    Seated,
    Started,
    Turn,
    event_from_dict,
)
from bot.game.fairness import message
from bot.present.i18n import Talk
from bot.present.screens import standing
from bot.present.story import story
from bot.present.words import Words, amount, listing
from bot.storage.web_queries import StoredEntry

#: The engine's kinds a replay may read: every kind but the roller's private dice. A
#: stored event addressed to one player (``to``) is left out whatever its kind.
PUBLIC_KINDS = frozenset(kind.value for kind in Kind) - {Kind.DICE.value}
#: The table service's own entries (bot/game/tables.py): a move's start, and the seals.
MOVE, SEALED, OPENED = "move", "cup_sealed", "cup_opened"
#: The order drinks are listed in.
UNITS = ("sip", "shot", "chug", "point")


@dataclass(frozen=True, slots=True)
class Seal:
    """A cup's seal: its digest when it went down; the hashed text once lifted."""

    digest: str
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    player: str
    lives: int | None
    taken: str
    out: bool


@dataclass(frozen=True, slots=True)
class Step:
    """The table after one move: what was said, and what lies on the table."""

    lines: tuple[str, ...]
    round: int
    to_move: str | None
    claim: str | None
    claimer: str | None
    #: None (no cup), "down" (dice hidden) or "lifted" (``dice`` shows them).
    cup: str | None
    dice: str | None
    seal: Seal | None
    seats: tuple[Seat, ...]


@dataclass(slots=True)
class _Move:
    """One move's public part of the log."""

    events: list[Event] = field(default_factory=list)
    sealed: str | None = None
    opened: Mapping[str, Any] | None = None


def public_moves(entries: Sequence[StoredEntry]) -> Iterator[_Move]:
    """The log cut at each move, keeping only what the channel saw."""
    current: _Move | None = None
    for entry in entries:
        if entry.kind == MOVE:
            if current is not None:
                yield current
            current = _Move()
            continue
        if current is None:
            current = _Move()
        if entry.kind in PUBLIC_KINDS:
            payload = orjson.loads(entry.payload)
            if payload.get("to") is None:
                current.events.append(event_from_dict(payload))
        elif entry.kind == SEALED:
            current.sealed = str(orjson.loads(entry.payload)["digest"])
        elif entry.kind == OPENED:
            current.opened = orjson.loads(entry.payload)
    if current is not None:
        yield current


def _games(state_text: str) -> dict[str, Game]:
    """The game as the lines' wording needs it, by phase: the final state's rules and
    players, its cup emptied (the lines never read it; nothing here may hold it)."""
    engine = dict(orjson.loads(state_text)["engine"])
    engine.update(cup=None, seen_by=[])
    return {phase: Game.from_dict({**engine, "phase": phase}) for phase in ("lobby", "playing")} | {
        "over": Game.from_dict({**engine, "phase": "over"})
    }


class _Table:
    """The public table, folded from public events."""

    def __init__(self, lives: int | None) -> None:
        self.start_lives = lives
        self.seats: list[str] = []
        self.lives: dict[str, int | None] = {}
        self.taken: dict[str, dict[str, int]] = {}
        #: Each player's takings as words, made again only when they change (a step
        #: lists every seat: worded afresh, they were most of a long replay's time).
        self.taken_words: dict[str, str] = {}
        self.out: set[str] = set()
        self.round = 0
        self.to_move: str | None = None
        self.claim: str | None = None
        self.claimer: str | None = None
        self.cup: str | None = None
        self.dice: str | None = None
        self.seal: Seal | None = None
        #: A lifted cup stays on show for the move that lifted it, though that move also
        #: began the next round; the move after clears it, and only then does the header
        #: move on to the round begun (``next_round``), so a cup is never shown under the
        #: number of the round after its own.
        self.clear_next = False
        self.next_round: int | None = None

    def clear(self) -> None:
        self.claim = self.claimer = self.cup = self.dice = None
        self.seal = None
        self.clear_next = False
        if self.next_round is not None:
            self.round, self.next_round = self.next_round, None

    def seat(self, player: str | None) -> None:
        if player and player not in self.seats:
            self.seats.append(player)
            self.lives[player] = self.start_lives
            self.taken[player] = {}

    def apply(self, event: Event) -> None:
        match event:
            case Started(players=players):
                for player in players:
                    self.seat(player)
            case Seated(player=player):
                self.seat(player)
            case RoundStarted(round=number):
                if self.cup == "lifted":
                    self.clear_next, self.next_round = True, number
                else:
                    self.round = number
                    self.clear()
            case Turn(player=player):
                self.to_move = player
            case Rolled(blind=blind, player=player) if blind is not None:
                self.cup, self.dice, self.seal = "down", None, None
                self.to_move = player
            case Claimed(claim=claim, player=player) | Passed(claim=claim, player=player):
                self.claim, self.claimer = claim, player
            case Revealed(dice=dice):
                self.cup, self.dice = "lifted", dice
            case Penalized(player=player, unit=unit, amount=n) if player in self.lives:
                if unit == "life":
                    left = self.lives[player]
                    self.lives[player] = None if left is None else max(0, left - n)
                else:
                    bag = self.taken[player]
                    bag[unit] = bag.get(unit, 0) + n
                    self.taken_words.pop(player, None)
            case Out(player=player) if player:
                self.out.add(player)
            case Left(player=player, reason=reason) if player and reason != Reason.LEFT_LOBBY:
                self.out.add(player)
            case GameEnded():
                self.to_move = None

    def step(self, lines: list[str], words: Words) -> Step:
        t = words.talk
        for player in self.seats:
            if player not in self.taken_words:
                bag = self.taken[player]
                self.taken_words[player] = listing(
                    [amount(n, u, t) for u in UNITS if (n := bag.get(u))], t
                )
        seats = tuple(
            Seat(player, self.lives.get(player), self.taken_words[player], player in self.out)
            for player in self.seats
        )
        return Step(
            tuple(lines),
            self.round,
            self.to_move,
            words.roll(self.claim) if self.claim else None,
            self.claimer,
            self.cup,
            words.dice(self.dice) if self.dice else None,
            self.seal,
            seats,
        )


def replay(state_text: str, entries: Sequence[StoredEntry], t: Talk) -> list[Step]:
    """The steps of a finished game, from its first move that said anything at the table
    (the start) to its end."""
    games = _games(state_text)
    final = games["over"]
    words = Words.of(final, t)
    table = _Table(final.options.lives)
    steps: list[Step] = []
    phase = "lobby"
    for move in public_moves(entries):
        if any(isinstance(e, Started) for e in move.events):
            phase = "playing"
        if any(isinstance(e, GameEnded) for e in move.events):
            phase = "over"
        if table.clear_next:
            table.clear()
        for event in move.events:
            table.apply(event)
        if move.sealed is not None:
            table.seal = Seal(move.sealed)
        lifted = any(isinstance(e, Revealed) for e in move.events)
        if move.opened is not None and lifted:
            dice = move.opened["dice"]
            table.seal = Seal(
                str(move.opened["digest"]),
                message((int(dice[0]), int(dice[1])), str(move.opened["salt"])),
            )
        lines = story(games[phase], move.events, t)
        if any(isinstance(e, GameEnded) for e in move.events) and final.round_no:
            # The end shows the final standing, its winners marked, as the table did.
            lines += [t("final-title"), *standing(final, t)]
        if phase != "lobby" and (lines or steps):
            steps.append(table.step(lines, words))
    return steps
