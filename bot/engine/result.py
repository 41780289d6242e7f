"""What a finished game means for the league: whether it counts, for whom, and its result.

Written once, here, because every number players compare reads it: the ratings, the
games and wins on `/stats` and the leaderboards, the achievements and the final standing
(docs/league.md, Ratings: when a game counts). Pure: it reads a game's final state only.

A started game has no free exit: once a game counts, leaving it, sleeping out of it or
ending it with `/endgame` is a result, never an escape. Games stored before these rules
(`Game.rules` 1) are judged as they were then.
"""

from __future__ import annotations

from bot.engine.game import Game
from bot.engine.state import POINTS_PER

#: Rules 1 only: rounds a person's play must have decided before a game that did not end
#: by play counted (games stored before rules 2 are judged as they were then).
CUT_SHORT_ROUNDS = 5


def counts(game: Game) -> bool:
    """Whether a game counts anywhere: it is over and at least two took part in it, a
    person among them (see `takes_part`). A lobby that never started, a game ended
    before anyone moved, and a game the timer played for all its people but one count
    for nothing."""
    if game.phase != "over":
        return False
    if game.rules < 2:
        return _counted_then(game)
    entrants = [p for p in _seated_ever(game) if takes_part(game, p)]
    return len(entrants) >= 2 and any(p not in game.computers for p in entrants)


def takes_part(game: Game, player: str) -> bool:
    """Whether a game that counts counts for ``player``: every computer that sat at the
    table, and every person who made a move of their own in it. A person whose turns the
    timer took, or whose turn never came, played nothing: the timer plays for nobody."""
    if game.rules < 2:
        return True
    return player in game.computers or game.players[player].moved


def places(game: Game) -> list[tuple[str, int]]:
    """The result of a game for the league: everyone who takes part, best first, with
    their place (ties share it: 1, 1, 3). The final standing, the ratings, `/stats` and
    the achievements all read this one order.

    - Played to its end: the game's own order (`Game.final_places`). A player who left
      or slept out of it (the timer removed them) takes the place they had when they
      went: last among those still in then, above whoever was out before.
    - Ended with `/endgame` (a game without lives ends no other way): ending a game never
      wins it for whoever ends it. If the player who ended it was first then, alone or
      shared, nobody wins: everyone still seated shares first place, and those out or
      gone before keep their places below. Otherwise the standing stands as it was, the
      ender's loss with it (a tie would let whoever is behind end their way out).
    """
    order = game.final_places()
    if game.rules < 2:
        return order
    seated = _seated_ever(game)
    entrants = [p for p, _ in order if p in seated and takes_part(game, p)]
    tie = _banked(game)
    keyed = [(_rank(game, p, tie=tie), p) for p in entrants]
    keyed.sort(key=lambda pair: pair[0])
    result: list[tuple[str, int]] = []
    last: tuple[int, ...] | None = None
    place = 0
    for n, (rank, player) in enumerate(keyed, start=1):
        if rank != last:
            place, last = n, rank
        result.append((player, place))
    return result


def winners(game: Game, standing: list[tuple[str, int]] | None = None) -> frozenset[str]:
    """Who won a game that counts: everyone in first place of its result (ties share
    it), nobody who walked away, and nobody at all in a game its ender ended in the lead.
    ``standing``: the game's `places`, if the caller has them already."""
    if not counts(game):
        return frozenset()
    if game.rules >= 2 and _banked(game):
        return frozenset()
    if standing is None:
        standing = places(game)
    return frozenset(p for p, place in standing if place == 1 and not game.left_early(p))


def banked(game: Game) -> bool:
    """Whether a game was ended with `/endgame` by a player who was first then, alone or
    shared: nobody wins it and everyone still seated shares first place (`places`)."""
    return game.rules >= 2 and _banked(game)


def _banked(game: Game) -> bool:
    who = game.ended_by
    if game.ended != "host" or who is None or who not in game.seats:
        return False
    ranks = {p: _rank(game, p, tie=False) for p in game.seats}
    return ranks[who] == min(ranks.values())


def _rank(game: Game, player: str, *, tie: bool) -> tuple[int, ...]:
    """A player's sort key in `places` (lower is better; equal keys share a place);
    ``tie``: the game was ended in the lead (`banked`), so those seated share first."""
    state = game.players[player]
    group = 0
    if tie:
        if player in game.seats:
            return (0, 0, 0, 0, 0)
        group = 1
    drunk = sum(n * POINTS_PER.get(u, 1) for u, n in state.totals.items() if u != "life")
    lasted = -(state.out_at if state.out_at is not None else game.move_no)
    if game.options.lives is None:
        # Without lives, what was drunk decides among those who stayed; a leaver is last
        # among those still in when they went, the latest leaver first.
        if game.left_early(player):
            return (group, 1, lasted, 0, 0)
        return (group, 0, 0 if player == game.winner else 1, drunk, 0)
    won = 0 if player == game.winner else 1
    # With lives, leaving is being knocked out at that moment: no lives left.
    lives = 0 if game.left_early(player) else (state.lives or 0)
    return (group, won, -lives, lasted, drunk)


def _seated_ever(game: Game) -> set[str]:
    """Everyone who sat at the table once it started (a queue left before a seat came
    free is not a seat)."""
    return {
        p
        for p, state in game.players.items()
        if p in game.seats or (state.status != "waiting" and state.out_at is not None)
    }


def _counted_then(game: Game) -> bool:
    """Rules 1: a person's play decided a round, and either its last round decided the
    game or it lasted `CUT_SHORT_ROUNDS` such rounds; a game stored before rounds were
    counted counts once it started."""
    played = game.played_rounds
    if played is None:
        return game.round_no >= 1
    if played < 1:
        return False
    return game.ended == "play" or played >= CUT_SHORT_ROUNDS
