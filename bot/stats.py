"""Turn one move's engine events into per-player counter changes for the totals table.

Kept apart from storage (which only adds numbers) and from the engine (which keeps no
scoreboard), so a stat's definition lives in one place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from .engine import RANK, Event, Game
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


def move_deltas(events: Iterable[Event], game: Game, cup_before: tuple[int, int] | None) -> Deltas:
    """Counter changes per player id caused by one move.

    ``cup_before`` is the truth under the cup before the move: a claim or pass above it is
    a bluff even if nobody calls it.
    """
    out: Deltas = defaultdict(lambda: defaultdict(int))
    cup = cup_before
    for event in events:
        kind, player = event.kind, event.player
        if kind == "penalty" and player is not None:
            out[player][UNIT_COLUMN[event.data["unit"]]] += event.data["amount"]
            by = event.data.get("by")
            if by and by != player:
                out[by][CAUSED_COLUMN[event.data["unit"]]] += event.data["amount"]
        elif kind == "round_over" and player is not None:
            out[player]["rounds_lost"] += 1
        elif kind in ("rolled", "social") and player is not None:
            out[player]["rolls_made"] += 1
            dice = event.data.get("dice")
            if dice is None and kind == "rolled":
                dice = list(game.cup) if game.cup else None
            if dice is not None and sorted(dice) == [1, 2]:
                out[player]["mex_rolled"] += 1
            if dice is not None and game.bluffing:
                cup = (max(dice), min(dice))
        elif kind == "dice" and event.to is not None:
            cup = (event.data["dice"][0], event.data["dice"][1])
        elif kind in ("claimed", "passed") and player is not None:
            claim = event.data["claim"]
            claimed = (int(claim[0]), int(claim[1]))
            if cup is not None and RANK[cup] < RANK[claimed]:
                out[player]["bluffs_made"] += 1
        elif kind == "reveal" and player is not None:
            out[player]["calls_made"] += 1
            if event.data["bluff"]:
                out[player]["calls_right"] += 1
                out[event.data["claimer"]]["bluffs_caught"] += 1
        elif kind == "game_over":
            for member, state in game.players.items():
                if state.status != "waiting":
                    out[member]["games_played"] += 1
            if event.data.get("winner"):
                out[event.data["winner"]]["games_won"] += 1
    return {p: dict(c) for p, c in out.items() if any(c.values())}


def move_records(events: Iterable[Event], game: Game) -> MoveStats:
    """Claims made, bluffs caught and rounds finished by one move, for cards and history.

    Player ids that are not Discord ids (engine tests use names) are left out.
    """
    claims: list[tuple[int, str]] = []
    catches: list[tuple[int, int]] = []
    rounds: list[RoundRecord] = []
    for event in events:
        player = event.player
        if event.kind in ("claimed", "passed") and player and player.isdigit():
            claims.append((int(player), event.data["claim"]))
        elif event.kind == "reveal" and event.data["bluff"] and player and player.isdigit():
            claimer = event.data["claimer"]
            if claimer.isdigit():
                catches.append((int(player), int(claimer)))
        elif event.kind == "round_over":
            number = event.data["round"]
            paid = [
                [line.player, line.unit, line.amount, line.cause]
                for line in game.ledger
                if line.round == number
            ]
            loser = int(player) if player and player.isdigit() else None
            rounds.append(
                RoundRecord(number, game.preset, loser, event.data["reason"], {"paid": paid})
            )
    return MoveStats(tuple(claims), tuple(catches), tuple(rounds))
