"""What the engine reports: one event class per kind, penalty causes and reasons as enums,
so every consumer (presenter, statistics, event log) handles a closed set, reads typed
fields, and a new kind cannot slip through unrendered.

Rolls inside event data are always their code text (``"65"``, ``"55"``, ``"21"``): the
same in memory, in the event log and in a saved state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, ClassVar, Literal

Unit = Literal["sip", "shot", "chug", "life", "point"]


class Kind(StrEnum):
    LOBBY = "lobby"  # a table opened (made by the table service, not a move)
    JOINED = "joined"
    WAITING = "waiting"  # joined a running game; sits down next round
    SEATED = "seated"
    LEFT = "left"
    OUT = "out"
    HOST = "host"
    STARTED = "started"
    ROUND_STARTED = "round_started"
    TURN = "turn"
    ROLLED = "rolled"
    DICE = "dice"  # private: the roller's own dice
    SOCIAL = "social"  # a 3-1 as Social
    HANDOUT = "handout"  # a 3-1 that hands out a sip
    ELBOW = "elbow"  # a 3-1 as Elbow
    CLAIMED = "claimed"
    PASSED = "passed"
    ACCEPTED = "accepted"
    REVEAL = "reveal"
    FOLDED = "folded"
    PENALTY = "penalty"
    ROUND_OVER = "round_over"
    STOOD = "stood"
    ENDED_ROUND = "ended_round"
    TAPPED = "tapped"
    STUCK = "stuck"
    POT = "pot"
    KNIGHT = "knight"
    KNIGHT_CHOICE = "knight_choice"
    LIMIT = "limit"
    TIMEOUT = "timeout"
    ROLLOFF = "rolloff"
    GAME_OVER = "game_over"


class Cause(StrEnum):
    """Why a penalty was paid. Details (the rolls involved) travel in ``Penalty.detail``
    so each table can word them in its own vocabulary."""

    CAUGHT = "caught"  # detail: claim, cup
    WRONG_CALL = "wrong_call"  # detail: claim, cup
    FOLDED = "folded"  # detail: claim
    SOCIAL = "social"
    TIMER = "timer"
    HANDED_OUT = "handed_out"
    KNIGHT_ONE_ONE = "knight_11"
    KNIGHT_DOUBLE = "knight_double"  # detail: die
    ENDED_EARLY = "ended_early"
    LOWEST = "lowest"  # detail: roll (None: the last of the tied players left), mexes
    POT = "pot"  # detail: roll, pot


class Reason(StrEnum):
    """Why a player left the table, or why a round ended."""

    LEFT_LOBBY = "lobby"
    LEFT_QUEUE = "queue"
    LEFT_GAME = "game"
    NO_LIVES = "no_lives"
    TIMEOUTS = "timeouts"
    KNIGHT_LEFT = "knight_left"
    # round endings
    CALL = "call"
    FOLD = "fold"
    TIMER = "timer"
    VOID = "void"
    LOWEST = "lowest"
    END_EARLY = "end_early"


# --- events: one class per kind --------------------------------------------------------------
#
# Each kind of event is a frozen class with typed fields, so a consumer matches on the class
# (``case Claimed(claim=claim)``) and a type checker sees every field; ``to_dict`` writes the
# stored form ``{"kind", "player", "data", "to"}`` exactly as logs have always held it, and
# ``event_from_dict`` reads any stored event back, old logs included.


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as data for the bot to render.

    ``to`` is ``None`` for a public event, or the one player allowed to see it (a private
    reveal of one's own dice). It is keyword-only, so each kind's own fields come
    positionally after ``player``: ``Claimed("ana", "65", "ben")``.
    """

    kind: ClassVar[Kind]
    #: (attribute, key in the stored ``data``) per field, in stored order; the keys alone,
    #: a getter of all the values at once, and the kind as plain text: set once per class
    #: by `_register`, so writing the log (every event of every move) is a few C calls.
    _layout: ClassVar[tuple[tuple[str, str], ...]] = ()
    _keys: ClassVar[tuple[str, ...]] = ()
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]] = staticmethod(lambda event: ())
    _text: ClassVar[str] = ""

    player: str | None
    to: str | None = field(default=None, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        """The stored form, byte for byte what logs hold (key order inside data too)."""
        return {"kind": self._text, "player": self.player, "data": self._data(), "to": self.to}

    def _data(self) -> dict[str, Any]:
        return dict(zip(self._keys, type(self)._values(self), strict=True))

    @classmethod
    def _load(cls, player: str | None, to: str | None, data: Mapping[str, Any]) -> Event:
        # Unknown keys are dropped: a class holds what the engine writes now, and logs are
        # never written back from these objects, so nothing stored is lost.
        values = {attr: _loaded(data[key]) for attr, key in cls._layout if key in data}
        try:
            return cls(player, **values, to=to)
        except TypeError as err:  # a key the stored event must have is missing
            raise ValueError(f"stored {cls.kind.value} event lacks a field: {err}") from err

    @staticmethod
    def from_dict(stored: Mapping[str, Any]) -> Event:
        """Any stored event as its class (see `event_from_dict`)."""
        return event_from_dict(stored)


def _loaded(value: Any) -> Any:
    """A stored value as the classes hold it: lists of names as tuples, and a roll that logs
    from before rolls were codes hold as a list of two dice, as its code."""
    if isinstance(value, list):
        if len(value) == 2 and all(type(d) is int for d in value):
            high, low = max(value), min(value)
            return f"{high}{low}"
        return tuple(value)
    return value


@dataclass(frozen=True, slots=True)
class Opened(Event):
    """A table opened (made by the table service, not by a move)."""

    kind = Kind.LOBBY
    preset: str
    rematch_of: int | None = None


@dataclass(frozen=True, slots=True)
class Joined(Event):
    kind = Kind.JOINED


@dataclass(frozen=True, slots=True)
class Waiting(Event):
    """Joined a running game; sits down next round."""

    kind = Kind.WAITING


@dataclass(frozen=True, slots=True)
class Seated(Event):
    kind = Kind.SEATED


@dataclass(frozen=True, slots=True)
class Left(Event):
    kind = Kind.LEFT
    #: A `Reason`; text from before reasons were codes stays as it was stored.
    reason: str


@dataclass(frozen=True, slots=True)
class Out(Event):
    kind = Kind.OUT
    reason: str  # a Reason, as in `Left`


@dataclass(frozen=True, slots=True)
class NewHost(Event):
    kind = Kind.HOST


@dataclass(frozen=True, slots=True)
class Started(Event):
    kind = Kind.STARTED
    players: tuple[str, ...]

    def _data(self) -> dict[str, Any]:
        return {"players": list(self.players)}


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    kind = Kind.ROUND_STARTED
    round: int


@dataclass(frozen=True, slots=True)
class Turn(Event):
    kind = Kind.TURN
    move_no: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A roll. Two stored shapes: under the cup only ``blind`` (bluffing), in the open the
    dice with ``kept``, ``rolloff`` and ``n`` (open rolls); ``blind`` is None for the
    latter."""

    kind = Kind.ROLLED
    blind: bool | None = None
    dice: str | None = None
    kept: int | None = None
    rolloff: bool = False
    #: Which counting roll of the turn this was; None for a roll-off's or a special 3-1.
    n: int | None = None

    def _data(self) -> dict[str, Any]:
        if self.blind is not None:
            return {"blind": self.blind}
        return {"dice": self.dice, "kept": self.kept, "rolloff": self.rolloff, "n": self.n}


@dataclass(frozen=True, slots=True)
class Dice(Event):
    """Private: the roller's own dice (``to`` is the roller)."""

    kind = Kind.DICE
    dice: str


@dataclass(frozen=True, slots=True)
class ThreeOne(Event):
    """A 3-1 that is an effect, not a result; one subclass per effect."""

    dice: str


@dataclass(frozen=True, slots=True)
class Social(ThreeOne):
    kind = Kind.SOCIAL


@dataclass(frozen=True, slots=True)
class HandOut(ThreeOne):
    kind = Kind.HANDOUT


@dataclass(frozen=True, slots=True)
class Elbow(ThreeOne):
    kind = Kind.ELBOW


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    kind = Kind.CLAIMED
    claim: str
    #: Who must answer the claim (stored as ``to`` in data, not the event's ``to``).
    answerer: str | None = None


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """The cup passed on unseen with a claim."""

    kind = Kind.PASSED
    claim: str
    answerer: str | None = None  # as in `Claimed`


@dataclass(frozen=True, slots=True)
class Accepted(Event):
    kind = Kind.ACCEPTED
    claim: str
    #: Accepted by rolling (README, Rule sets); stored only when so.
    by_roll: bool = False

    def _data(self) -> dict[str, Any]:
        if self.by_roll:
            return {"claim": self.claim, "by_roll": True}
        return {"claim": self.claim}


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """The cup lifted on a call of bullshit; ``player`` is the caller."""

    kind = Kind.REVEAL
    dice: str
    claim: str
    claimer: str
    bluff: bool
    loser: str


@dataclass(frozen=True, slots=True)
class Folded(Event):
    kind = Kind.FOLDED
    claim: str


@dataclass(frozen=True, slots=True)
class Penalized(Event):
    """A ledger line as it happened (the ledger's own record is `Penalty`)."""

    kind = Kind.PENALTY
    unit: Unit
    amount: int
    cause: str  # a Cause; text from before causes were codes stays as it was stored
    by: str | None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    """``player`` lost the round; None for a void round."""

    kind = Kind.ROUND_OVER
    round: int
    reason: str  # a Reason, as in `Left`


@dataclass(frozen=True, slots=True)
class Stood(Event):
    kind = Kind.STOOD
    roll: str


@dataclass(frozen=True, slots=True)
class EndedRound(Event):
    kind = Kind.ENDED_ROUND
    roll: str


@dataclass(frozen=True, slots=True)
class Tapped(Event):
    kind = Kind.TAPPED
    roller: str
    roll: str


@dataclass(frozen=True, slots=True)
class Stuck(Event):
    kind = Kind.STUCK


@dataclass(frozen=True, slots=True)
class PotGrew(Event):
    kind = Kind.POT
    pot: int
    was: int


@dataclass(frozen=True, slots=True)
class Knighted(Event):
    """The Knight changed. Three stored shapes: the Knight left (``knight`` None, with
    ``reason``), a Knight named by ``named_by``, or one who rolled 1-1 (with ``was``, the
    Knight before, maybe None)."""

    kind = Kind.KNIGHT
    knight: str | None
    reason: str | None = None
    named_by: str | None = None
    was: str | None = None

    def _data(self) -> dict[str, Any]:
        if self.reason is not None:
            return {"knight": self.knight, "reason": self.reason}
        if self.named_by is not None:
            return {"knight": self.knight, "named_by": self.named_by}
        return {"knight": self.knight, "was": self.was}


@dataclass(frozen=True, slots=True)
class KnightChoice(Event):
    kind = Kind.KNIGHT_CHOICE


@dataclass(frozen=True, slots=True)
class LimitSet(Event):
    kind = Kind.LIMIT
    limit: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    kind = Kind.TIMEOUT


@dataclass(frozen=True, slots=True)
class RollOff(Event):
    kind = Kind.ROLLOFF
    players: tuple[str, ...]

    def _data(self) -> dict[str, Any]:
        return {"players": list(self.players)}


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind = Kind.GAME_OVER
    winner: str | None
    loser: str | None
    ended_by: str | None = None


#: Stored data keys that differ from the attribute's name.
_KEYS = {(Claimed, "answerer"): "to", (Passed, "answerer"): "to"}

#: Every event class by the kind it stores; exactly one per `Kind`.
EVENT_CLASSES: dict[str, type[Event]] = {}


def _register(*classes: type[Event]) -> None:
    for cls in classes:
        own = tuple(f.name for f in fields(cls) if f.name not in ("player", "to"))
        cls._layout = tuple((name, _KEYS.get((cls, name), name)) for name in own)
        cls._keys = tuple(key for _, key in cls._layout)
        cls._values = staticmethod(_getter(own))
        cls._text = cls.kind.value
        EVENT_CLASSES[cls.kind] = cls


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """All the named attributes of an object as one tuple (attrgetter gives a bare value
    for one name)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda event: (one(event),)
    return lambda event: ()


_register(
    Opened,
    Joined,
    Waiting,
    Seated,
    Left,
    Out,
    NewHost,
    Started,
    RoundStarted,
    Turn,
    Rolled,
    Dice,
    Social,
    HandOut,
    Elbow,
    Claimed,
    Passed,
    Accepted,
    Revealed,
    Folded,
    Penalized,
    RoundOver,
    Stood,
    EndedRound,
    Tapped,
    Stuck,
    PotGrew,
    Knighted,
    KnightChoice,
    LimitSet,
    TimedOut,
    RollOff,
    GameEnded,
)
#: A 3-1's effect (the table's ``three_one`` option) -> its event.
THREE_ONE_EVENTS: dict[str, type[ThreeOne]] = {"social": Social, "handout": HandOut, "elbow": Elbow}


def event_from_dict(stored: Mapping[str, Any]) -> Event:
    """A stored event (``Event.to_dict()``, from any version of the log) as its class.

    Keys a class no longer has are dropped; keys added since the old log was written take
    their defaults; rolls stored as two dice become codes. An unknown kind is a ValueError.
    """
    kind = stored.get("kind")
    cls = EVENT_CLASSES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}")
    return cls._load(stored.get("player"), stored.get("to"), stored.get("data") or {})


@dataclass(slots=True)
class Penalty:
    """One line of the ledger: who took what, who caused it, and why."""

    player: str
    unit: Unit
    amount: int
    cause: str  # a Cause; text from before causes were codes stays as it was stored
    by: str | None
    round: int
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "unit": self.unit,
            "amount": self.amount,
            "cause": self.cause,
            "by": self.by,
            "round": self.round,
            "detail": self.detail,
        }
