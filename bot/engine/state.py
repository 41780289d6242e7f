"""The game's complete state as plain data, and the records it produces.

Everything here serialises to JSON (tuples become lists) so a restarted bot resumes a game
exactly where it stopped, hidden dice included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.events import Event, Penalty, Unit
from bot.engine.presets import Options
from bot.engine.rolls import Roll

#: Version 2: penalty causes and reasons are codes with details (version 1 kept text).
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)

Phase = Literal["lobby", "playing", "over"]
__all__ = ["FORMAT_VERSION", "POINTS_PER", "Event", "GameState", "Penalty", "PlayerState", "Unit"]
#: Points per drink when a table counts in points (README, Rule sets).
POINTS_PER: dict[str, int] = {"sip": 1, "shot": 2, "chug": 4}


@dataclass(slots=True)
class PlayerState:
    lives: int | None = None
    #: "seated", "waiting", "out" (no lives left / left a lives game) or "gone" (left).
    status: str = "seated"
    #: Consecutive turn-timer expiries; two remove the player (README, Rule sets).
    timeouts: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    #: The move at which the player left the seats, so a final standing ranks those out
    #: by how long they lasted.
    out_at: int | None = None
    #: Whether the player made a move of their own in the game, and whether the turn
    #: timer ever took a turn of theirs: a person whose every turn the timer took counts
    #: for nothing in it (README, Ratings: when a game counts).
    moved: bool = False
    timed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "lives": self.lives,
            "status": self.status,
            "timeouts": self.timeouts,
            "totals": dict(self.totals),
            "out_at": self.out_at,
            "moved": self.moved,
            "timed": self.timed,
        }


def _roll(value: Any) -> Roll | None:
    return None if value is None else (value[0], value[1])


@dataclass(slots=True)
class GameState:
    """Fields shared by both families; the family-specific ones sit beside them, unused
    by the other family, so one flat record round-trips through JSON without a schema per
    rule set."""

    preset: str
    options: Options
    host: str
    phase: Phase = "lobby"
    players: dict[str, PlayerState] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    move_no: int = 0
    round_no: int = 0
    to_move: str | None = None
    winner: str | None = None
    loser: str | None = None
    #: Seats played by the computer (README, Playing against the computer).
    computers: list[str] = field(default_factory=list)
    #: Rounds decided by a person's play (README, Ratings: when a game counts); None in
    #: a state stored before the engine counted them.
    played_rounds: int | None = 0
    #: Whether a person has made a move of their own (not the timer's) in this round.
    person_moved: bool = False
    #: How the game ended: "play" (its last round decided it), "host" (/endgame) or
    #: "walkover" (players left or were removed); None while it runs.
    ended: str | None = None
    #: Who ended it with `/endgame`, if anyone did.
    ended_by: str | None = None
    #: The league rules that judge this game (`bot/engine/result.py`): 2 for games
    #: started by this version, 1 for games stored before it, judged as they were then.
    rules: int = 2
    ledger: list[Penalty] = field(default_factory=list)
    #: (round, loser or None for a void round, reason) for every finished round.
    rounds: list[tuple[int, str | None, str]] = field(default_factory=list)
    round_starter: str | None = None
    # --- bluffing ------------------------------------------------------------------------
    #: "open" (starter must roll), "rolled" (must claim), "reroll" (after Social),
    #: "answer" (a claim waits for accept / bullshit / roll), "accepted" (roll or pass).
    stage: str = "open"
    cup: Roll | None = None
    seen_by: list[str] = field(default_factory=list)
    standing: Roll | None = None
    claimer: str | None = None
    #: How the standing claim was made ("seen": after a roll the claimer saw, "blind",
    #: "pass": the cup passed on unseen) and the claim it beat: public, as at the table.
    claim_how: str | None = None
    claim_over: Roll | None = None
    # --- open rolls ----------------------------------------------------------------------
    order: list[str] = field(default_factory=list)
    limit: int | None = None
    results: dict[str, Roll] = field(default_factory=dict)
    mex_count: int = 0
    rolls: int = 0
    last: Roll | None = None
    kept: bool = False
    #: None, "handout", "reroll" (a 3-1 is owed a re-roll) or "knight" (name the Knight).
    pending: str | None = None
    stuck: bool = False
    rolloff: list[str] | None = None
    pot: int = 1
    knight: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FORMAT_VERSION,
            "preset": self.preset,
            "options": self.options.to_dict(),
            "host": self.host,
            "phase": self.phase,
            "players": {p: s.to_dict() for p, s in self.players.items()},
            "seats": list(self.seats),
            "waiting": list(self.waiting),
            "move_no": self.move_no,
            "round_no": self.round_no,
            "to_move": self.to_move,
            "winner": self.winner,
            "loser": self.loser,
            "computers": list(self.computers),
            "played_rounds": self.played_rounds,
            "person_moved": self.person_moved,
            "ended": self.ended,
            "ended_by": self.ended_by,
            "rules": self.rules,
            "ledger": [p.to_dict() for p in self.ledger],
            "rounds": [list(r) for r in self.rounds],
            "round_starter": self.round_starter,
            "stage": self.stage,
            "cup": None if self.cup is None else list(self.cup),
            "seen_by": list(self.seen_by),
            "standing": None if self.standing is None else list(self.standing),
            "claimer": self.claimer,
            "claim_how": self.claim_how,
            "claim_over": None if self.claim_over is None else list(self.claim_over),
            "order": list(self.order),
            "limit": self.limit,
            "results": {p: list(r) for p, r in self.results.items()},
            "mex_count": self.mex_count,
            "rolls": self.rolls,
            "last": None if self.last is None else list(self.last),
            "kept": self.kept,
            "pending": self.pending,
            "stuck": self.stuck,
            "rolloff": None if self.rolloff is None else list(self.rolloff),
            "pot": self.pot,
            "knight": self.knight,
        }

    @classmethod
    def _fields_from_dict(cls, data: dict[str, Any]) -> dict[str, Any]:
        version = data.get("version")
        if version not in READABLE_VERSIONS:
            raise ValueError(f"Unsupported game state version {version!r}")
        return {
            "preset": data["preset"],
            "options": Options.from_dict(data["options"]),
            "host": data["host"],
            "phase": data["phase"],
            "players": {p: PlayerState(**s) for p, s in data["players"].items()},
            "seats": list(data["seats"]),
            "waiting": list(data["waiting"]),
            "move_no": data["move_no"],
            "round_no": data["round_no"],
            "to_move": data["to_move"],
            "winner": data["winner"],
            "loser": data["loser"],
            "computers": list(data.get("computers") or []),
            "played_rounds": data.get("played_rounds"),
            "person_moved": bool(data.get("person_moved")),
            "ended": data.get("ended"),
            "ended_by": data.get("ended_by"),
            "rules": data.get("rules", 1),
            "ledger": [Penalty(**p) for p in data["ledger"]],
            "rounds": [(r[0], r[1], _V1_REASONS.get(r[2], r[2])) for r in data["rounds"]],
            "round_starter": data["round_starter"],
            "stage": data["stage"],
            "cup": _roll(data["cup"]),
            "seen_by": list(data["seen_by"]),
            "standing": _roll(data["standing"]),
            "claimer": data["claimer"],
            "claim_how": data.get("claim_how"),
            "claim_over": _roll(data.get("claim_over")),
            "order": list(data["order"]),
            "limit": data["limit"],
            "results": {p: (r[0], r[1]) for p, r in data["results"].items()},
            "mex_count": data["mex_count"],
            "rolls": data["rolls"],
            "last": _roll(data["last"]),
            "kept": data["kept"],
            "pending": data["pending"],
            "stuck": data["stuck"],
            "rolloff": None if data["rolloff"] is None else list(data["rolloff"]),
            "pot": data["pot"],
            "knight": data["knight"],
        }


#: Round reasons as version 1 wrote them, where the code differs.
_V1_REASONS = {"end early": "end_early", "timeout": "timer"}
