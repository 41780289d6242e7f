"""What a finished game means for the league: whether it counts, and who won it.

Written once, here, because every number players compare reads it: the ratings, the
games and wins on `/stats` and the leaderboards, the achievements and the final standing
(README, Ratings: when a game counts). Pure: it reads a game's final state only.
"""

from __future__ import annotations

from bot.engine.game import Game

#: Rounds a person's play must have decided before a game that did not end by play (the
#: host's `/endgame`, or everyone else leaving or sleeping through their turns) counts.
#: Five rounds give every seat of a usual table a turn at losing one, so a lucky first
#: round cannot be banked by ending the game (README, Ratings).
CUT_SHORT_ROUNDS = 5


def counts(game: Game) -> bool:
    """Whether a game counts anywhere: it is over, a person's play decided at least one
    round (a call, a fold, a lowest roll, ending one's own round), and either its last
    round decided it or it lasted `CUT_SHORT_ROUNDS` such rounds. A lobby that never
    started, a game ended before anyone played, and a game the timer alone decided count
    for nothing. A game stored before the engine counted played rounds is judged as it
    was then: it counts once it started."""
    if game.phase != "over":
        return False
    played = game.played_rounds
    if played is None:
        return game.round_no >= 1
    if played < 1:
        return False
    return game.ended == "play" or played >= CUT_SHORT_ROUNDS


def winners(game: Game, places: list[tuple[str, int]] | None = None) -> frozenset[str]:
    """Who won a game that counts: everyone in first place of its final standing (ties
    share it), whoever ended it; nobody who walked away. ``places``: the game's
    ``final_places()``, if the caller has them already."""
    if not counts(game):
        return frozenset()
    if places is None:
        places = game.final_places()
    return frozenset(p for p, place in places if place == 1 and not game.left_early(p))
