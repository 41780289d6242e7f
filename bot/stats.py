"""Turn one move's engine events into per-player counter changes for the totals table.

Kept apart from storage (which only adds numbers) and from the engine (which keeps no
scoreboard), so a stat's definition lives in one place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from .ai.personas import stats_id
from .engine import Event, Game, Kind, Roll, code, from_code
from .storage import MoveStats, RoundRecord

#: Ledger unit -> totals column, for what a player took and for what they caused.
UNIT_COLUMN = {
    "sip": "sips", "shot": "shots", "chug": "chugs", "point": "points", "life": "lives_lost",
}  # fmt: skip
CAUSED_COLUMN = {
    "sip": "sips_caused", "shot": "shots_caused", "chug": "chugs_caused",
    "point": "points_caused", "life": "lives_caused",
}  # fmt: skip

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
_CLAIMS = frozenset({Kind.CLAIMED, Kind.PASSED})


def move_deltas(events: Iterable[Event], game: Game, cup_before: Roll | None) -> Deltas:
    """Counter changes per player id caused by one move.

    ``cup_before`` is the truth under the cup before the move: a claim or pass above it is
    a bluff even if nobody calls it (the engine says what a bluff is).
    """
    out: Deltas = defaultdict(lambda: defaultdict(int))
    cup = cup_before
    for event in events:
        kind, player, data = event.kind, event.player, event.data
        if kind is Kind.PENALTY and player is not None:
            out[player][UNIT_COLUMN[data["unit"]]] += data["amount"]
            by = data.get("by")
            if by and by != player:
                out[by][CAUSED_COLUMN[data["unit"]]] += data["amount"]
        elif kind is Kind.ROUND_OVER and player is not None:
            out[player]["rounds_lost"] += 1
        elif player is not None and (
            kind is Kind.ROLLED or (kind is Kind.SOCIAL and game.bluffing)
        ):  # an open roll's 3-1 comes as a roll and its effect: count it once
            out[player]["rolls_made"] += 1
            dice = data.get("dice")
            if dice is None and kind is Kind.ROLLED:
                dice = code(game.cup) if game.cup else None  # blind or private: the truth
            if dice == TOP_CODE:
                out[player]["mex_rolled"] += 1
            if dice is not None and game.bluffing:
                cup = from_code(dice)
        elif kind is Kind.DICE and event.to is not None:
            cup = from_code(data["dice"])
        elif kind in _CLAIMS and player is not None:
            if cup is not None and game.is_bluff(cup, from_code(data["claim"])):
                out[player]["bluffs_made"] += 1
        elif kind is Kind.REVEAL and player is not None:
            out[player]["calls_made"] += 1
            if data["bluff"]:
                out[player]["calls_right"] += 1
                out[data["claimer"]]["bluffs_caught"] += 1
        elif kind is Kind.GAME_OVER:
            for member, state in game.players.items():
                if state.status != "waiting":
                    out[member]["games_played"] += 1
            if data.get("winner"):
                out[data["winner"]]["games_won"] += 1
    return {p: dict(c) for p, c in out.items() if any(c.values())}


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
        if event.kind in _CLAIMS and who is not None:
            claims.append((who, event.data["claim"]))
        elif event.kind is Kind.REVEAL and event.data["bluff"] and who is not None:
            claimer = stored_id(event.data["claimer"])
            if claimer is not None:
                catches.append((who, claimer))
        elif event.kind is Kind.ROUND_OVER:
            number = event.data["round"]
            paid = [
                [line.player, line.unit, line.amount, line.cause, line.detail, line.by]
                for line in game.ledger
                if line.round == number
            ]
            loser = stored_id(player)
            rounds.append(
                RoundRecord(number, game.preset, loser, event.data["reason"], {"paid": paid})
            )
    return MoveStats(tuple(claims), tuple(catches), tuple(rounds))
