"""Turn one move's engine events into per-player counter changes for the totals table.

Kept apart from storage (which only adds numbers) and from the engine (which keeps no
scoreboard), so a stat's definition lives in one place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.ai.personas import persona_of, stats_id
from bot.engine import (
    RANK,
    Accepted,
    Claimed,
    Dice,
    Event,
    Folded,
    Game,
    GameEnded,
    Passed,
    Penalized,
    Revealed,
    Roll,
    Rolled,
    RoundOver,
    RoundStarted,
    Social,
    code,
    from_code,
)
from bot.engine.result import counts, winners
from bot.engine.result import places as result_places
from bot.storage import MoveStats, RoundRecord

#: Ledger unit -> totals column, for what a player took and for what they caused.
UNIT_COLUMN = {
    "sip": "sips",
    "shot": "shots",
    "chug": "chugs",
    "point": "points",
    "life": "lives_lost",
}
CAUSED_COLUMN = {
    "sip": "sips_caused",
    "shot": "shots_caused",
    "chug": "chugs_caused",
    "point": "points_caused",
    "life": "lives_caused",
}

Deltas = dict[str, dict[str, int]]


def stored_id(player: str | None) -> int | None:
    """The id a player's statistics are kept under: a person's Discord id, a computer
    persona's negative id (never ranked on a leaderboard), or None (names in engine
    tests)."""
    if not player:
        return None
    if player.isdigit():
        return int(player)
    return stats_id(player)


TOP_CODE = "21"


@dataclass(frozen=True, slots=True)
class Pending:
    """Counter changes already decided but not yet public (README, Leaderboard and stats).

    ``cup`` holds the facts about the dice under the cup now (its roller's 21, and every
    claim or pass made about those dice): the table learns them when that cup is lifted.
    ``unseen`` holds the facts about cups taken away unlifted (a new roll, a fold, a
    timer, a void round): the table learns them only when the game is over. The record
    holds counts, not dice, so it outlives the finished rounds a saved game forgets.
    """

    cup: Deltas = field(default_factory=dict)
    unseen: Deltas = field(default_factory=dict)

    def to_dict(self) -> dict[str, Deltas]:
        return {"cup": self.cup, "unseen": self.unseen}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Pending:
        data = data or {}
        return cls(_copy(data.get("cup") or {}), _copy(data.get("unseen") or {}))


NOTHING_PENDING = Pending()


def _copy(deltas: Deltas) -> Deltas:
    return {p: {k: int(n) for k, n in c.items()} for p, c in deltas.items()}


def _add(into: dict[str, defaultdict[str, int]], deltas: Deltas) -> None:
    for player, changes in deltas.items():
        row = into[player]
        for column, n in changes.items():
            row[column] += n


class _Counter:
    """Where each counted fact goes: to the public counters at once, or held back.

    With ``hold`` off every fact is public as it happens (the whole truth, which is what
    the held-back counts add up to once a game is over).
    """

    def __init__(self, pending: Pending, hold: bool) -> None:
        self.hold = hold
        self.out: dict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.cup: dict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.unseen: dict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
        _add(self.cup, pending.cup)
        _add(self.unseen, pending.unseen)

    def public(self, player: str, column: str, n: int = 1) -> None:
        self.out[player][column] += n

    def under_cup(self, player: str, column: str, n: int = 1) -> None:
        """A fact about the dice under the cup now."""
        (self.cup if self.hold else self.out)[player][column] += n

    def lifted(self) -> None:
        """The cup is lifted: everything about its dice is public."""
        _add(self.out, _plain(self.cup))
        self.cup.clear()

    def taken_away(self) -> None:
        """The cup goes without being lifted: its facts wait for the end of the game."""
        _add(self.unseen, _plain(self.cup))
        self.cup.clear()

    def game_over(self) -> None:
        self.lifted()
        _add(self.out, _plain(self.unseen))
        self.unseen.clear()

    def result(self) -> tuple[Deltas, Pending]:
        return _plain(self.out), Pending(_plain(self.cup), _plain(self.unseen))


def _plain(counts: dict[str, defaultdict[str, int]]) -> Deltas:
    return {p: {k: n for k, n in c.items() if n} for p, c in counts.items() if any(c.values())}


def _count(events: Iterable[Event], game: Game, cup_before: Roll | None, counter: _Counter) -> None:
    """Every statistic's one definition: what each event counts, and whether the fact is
    public when it happens or is about dice under a cup.

    ``cup_before`` is the truth under the cup before the move: a claim or pass above it is
    a bluff even if nobody calls it (the engine says what a bluff is).
    """
    cup = cup_before
    for event in events:
        player = event.player
        match event:
            case Penalized(unit=unit, amount=amount, by=by) if player is not None:
                counter.public(player, UNIT_COLUMN[unit], amount)
                if by and by != player:
                    counter.public(by, CAUSED_COLUMN[unit], amount)
            case RoundOver():
                counter.taken_away()  # a lifted cup was counted at its reveal, just before
                if player is not None:
                    counter.public(player, "rounds_lost")
                if (person := _duelist(game)) is not None and player is not None:
                    counter.public(person, "duel_lost" if player == person else "duel_won")
            case RoundStarted() if (person := _duelist(game)) is not None:
                counter.public(person, "duel_rounds")
                if player == person:
                    counter.public(person, "duel_led")
            # An open roll's 3-1 comes as a roll and its effect: count it once.
            case Rolled() | Social() if player is not None and (
                isinstance(event, Rolled) or game.bluffing
            ):
                counter.public(player, "rolls_made")  # everyone sees a roll being made
                if game.bluffing:
                    counter.taken_away()  # new dice: the old ones go unseen
                dice = event.dice  # open rolls and a Social show their dice
                if dice is None and isinstance(event, Rolled):
                    dice = code(game.cup) if game.cup else None  # under the cup: the truth
                    if dice == TOP_CODE:
                        counter.under_cup(player, "mex_rolled")
                elif dice == TOP_CODE:
                    counter.public(player, "mex_rolled")
                if dice is not None and game.bluffing:
                    cup = from_code(dice)
            case Dice(dice=dice) if event.to is not None:
                cup = from_code(dice)
            case Claimed(claim=claim) | Passed(claim=claim) if player is not None:
                if cup is not None and game.is_bluff(cup, from_code(claim)):
                    counter.under_cup(player, "bluffs_made")
                if isinstance(event, Claimed) and cup is not None and game.claim_how == "seen":
                    floor = game.lowest_claim(game.claim_over)
                    _count_seen_claim(counter, player, RANK[cup], floor, RANK[from_code(claim)])
            case Accepted(claim=claim) if player is not None:
                counter.public(player, f"faced_{RANK[from_code(claim)]}")
            case Folded(claim=claim) if player is not None and cup is not None:
                if RANK[cup] < game.lowest_claim(from_code(claim)):
                    counter.under_cup(player, "forced_folds")
            case Revealed(claim=claim, bluff=bluff, claimer=claimer) if player is not None:
                counter.lifted()
                counter.public(player, "calls_made")
                answered = RANK[from_code(claim)]
                counter.public(player, f"faced_{answered}")
                counter.public(player, f"called_{answered}")
                if bluff:
                    counter.public(player, "calls_right")
                    counter.public(claimer, "bluffs_caught")
            case GameEnded():
                counter.game_over()
                if counts(game):  # one meaning of a game and a win (README, Ratings)
                    for member, _ in result_places(game):
                        counter.public(member, "games_played")
                    for member in winners(game):
                        counter.public(member, "games_won")


def _duelist(game: Game) -> str | None:
    """The person in a heads-up bluffing game against a computer that reads people (the
    expert), whose rounds against her are counted: what she has won from them bounds how
    far she strays from the solved strategy (README, Playing against the computer)."""
    if not game.bluffing or len(game.players) != 2:
        return None
    readers = [p for p in game.players if (persona := persona_of(p)) and persona.read > 0]
    others = [p for p in game.players if persona_of(p) is None]
    return others[0] if len(readers) == 1 and len(others) == 1 else None


def _count_seen_claim(counter: _Counter, player: str, dice: int, floor: int, claim: int) -> None:
    """How a claim made knowing the dice relates to them and to the lowest valid claim:
    what the expert computer models a player by (README, Playing against the computer).
    About the dice under the cup, so held back like a bluff."""
    honest = max(dice, floor)
    if dice >= floor:
        counter.under_cup(player, "free_claims")
        if claim > dice:
            counter.under_cup(player, "free_bluffs")
        elif claim < dice:
            counter.under_cup(player, "free_unders")
    else:
        counter.under_cup(player, "forced_claims")
        if claim > floor:
            counter.under_cup(player, "forced_raises")
    if claim > honest:
        counter.under_cup(player, "raise_steps", claim - honest)


def public_deltas(
    events: Iterable[Event], game: Game, cup_before: Roll | None, pending: Pending
) -> tuple[Deltas, Pending]:
    """The counter changes one move makes public, per player, and what stays held back.

    Call it once per accepted move, in order, with the move's events, the game after the
    move, the dice under the cup before it (``game.cup`` read before ``apply``) and the
    ``Pending`` this function returned for the game's previous move (``NOTHING_PENDING``
    for a new game). Keep the returned ``Pending`` with the game, stored with the move.

    A counter changes when what it counts becomes public to the table (README, Leaderboard
    and stats): rolls, claims, calls, catches, penalties, rounds and games when they
    happen; a 21 rolled under the cup and a claim above the dice under it when that cup
    is lifted, or when the game is over if it never is. Open rolls and a Social show their
    dice at once. So what a move returns never depends on dice still under a cup, and the
    returns over a whole game, up to and including its GAME_OVER move (after which nothing
    is pending), add up to ``move_deltas`` over the same moves.

    Pure: no storage, no Discord, no clock; neither ``pending`` nor ``game`` is changed.
    Players are the engine's ids; the returned counts are positive and never empty rows.
    """
    counter = _Counter(pending, hold=True)
    _count(events, game, cup_before, counter)
    return counter.result()


def move_deltas(events: Iterable[Event], game: Game, cup_before: Roll | None) -> Deltas:
    """Counter changes per player id caused by one move, hidden facts counted at once:
    the truth the public counts catch up with when a game is over (for tests and
    measurements, never for what players read)."""
    counter = _Counter(NOTHING_PENDING, hold=False)
    _count(events, game, cup_before, counter)
    return counter.result()[0]


def move_records(events: Iterable[Event], game: Game) -> MoveStats:
    """Claims made, bluffs caught and rounds finished by one move, for cards and history.

    Players with no stored id (engine tests use names) are left out.
    """
    claims: list[tuple[int, str]] = []
    catches: list[tuple[int, int]] = []
    rounds: list[RoundRecord] = []
    for event in events:
        player = event.player
        who = stored_id(player)
        if isinstance(event, Claimed | Passed) and who is not None:
            claims.append((who, event.claim))
        elif isinstance(event, Revealed) and event.bluff and who is not None:
            claimer = stored_id(event.claimer)
            if claimer is not None:
                catches.append((who, claimer))
        elif isinstance(event, RoundOver):
            number = event.round
            paid = [
                [line.player, line.unit, line.amount, line.cause, line.detail, line.by]
                for line in game.ledger
                if line.round == number
            ]
            loser = stored_id(player)
            rounds.append(RoundRecord(number, game.preset, loser, event.reason, {"paid": paid}))
    return MoveStats(tuple(claims), tuple(catches), tuple(rounds))
