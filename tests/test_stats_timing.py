"""When a statistic is counted (README, Leaderboard and stats): `public_deltas` against
random legal games played through the engine, and a few worked examples.

Two promises: nothing is lost (over a whole game the public counts add up to the
immediate truth of `move_deltas`), and nothing leaks (changing the dice under a cup that
is still down changes no public count).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import Act, Event, Game, Kind, Move, Roll, parse_roll
from bot.game.tables import TableMeta
from bot.league.stats import NOTHING_PENDING, Deltas, Pending, move_deltas, public_deltas

from .engine_helpers import ScriptedDice
from .test_engine_properties import (
    BLUFF_CONFIGS,
    FAST,
    HEAVY,
    Action,
    Mix,
    Setup,
    choose,
    new_game,
    perform,
    play,
    setups,
)

Totals = defaultdict[str, defaultdict[str, int]]


def totals() -> Totals:
    return defaultdict(lambda: defaultdict(int))


def add(into: Totals, deltas: Deltas) -> None:
    for player, counts in deltas.items():
        assert counts and all(n > 0 for n in counts.values()), (player, counts)
        for column, n in counts.items():
            into[player][column] += n


def plain(counts: Totals) -> Deltas:
    return {p: {k: n for k, n in c.items() if n} for p, c in counts.items() if any(c.values())}


def stored(pending: Pending) -> Pending:
    """The pending record as a restarted bot reads it back from the stored state."""
    return Pending.from_dict(orjson.loads(orjson.dumps(pending.to_dict())))


class Tally:
    """Keeps the public counts and the immediate truth of one game, move by move, the way
    the bot stores them (the pending record goes through JSON between moves)."""

    def __init__(self, game: Game) -> None:
        self.cup: Roll | None = game.cup
        self.pending = NOTHING_PENDING
        self.public = totals()
        self.truth = totals()
        self.last: Deltas = {}

    def move(self, game: Game, events: list[Event]) -> None:
        self.last, pending = public_deltas(events, game, self.cup, self.pending)
        add(self.public, self.last)
        add(self.truth, move_deltas(events, game, self.cup))
        self.pending = stored(pending)
        self.cup = game.cup


@pytest.mark.slow
@FAST
@given(setups())
def test_over_a_whole_game_the_public_counts_add_up_to_the_truth(setup: Setup) -> None:
    tally: list[Tally] = []

    def check(game: Game, action: Action | None, events: list[Event] | None) -> None:
        if action is None:
            tally.append(Tally(game))
            return
        if events is None:
            return  # a refused join: nothing happened
        tally[0].move(game, events)
        if not game.bluffing:  # every roll is public: nothing is ever held back
            assert tally[0].pending == NOTHING_PENDING
            assert tally[0].last == move_deltas(events, game, None)

    play(setup, check)
    assert plain(tally[0].public) == plain(tally[0].truth)
    assert tally[0].pending == NOTHING_PENDING, "a finished game holds nothing back"


class SwappedDice(random.Random):
    """The dice of ``random.Random(seed)``, except that roll number ``roll`` (counting the
    rolls of two dice from 0) shows ``dice``."""

    def __init__(self, seed: int, roll: int, dice: tuple[int, int]) -> None:
        super().__init__(seed)
        self.swap = {2 * roll: dice[0], 2 * roll + 1: dice[1]}
        self.thrown = 0

    def randint(self, a: int, b: int) -> int:
        value = super().randint(a, b)
        self.thrown += 1
        return self.swap.get(self.thrown - 1, value)


DIE = st.integers(1, 6)


@pytest.mark.slow
@HEAVY
@given(setups(BLUFF_CONFIGS), st.integers(0, 12), DIE, DIE)
def test_dice_under_a_cup_still_down_change_no_public_count(
    setup: Setup, roll: int, high: int, low: int
) -> None:
    """Two games with the same moves and the same dice except one roll's. Until that cup is
    lifted (or the game is over), both games make exactly the same counts public."""
    dice = random.Random(setup.dice_seed)
    other = SwappedDice(setup.dice_seed, roll, (high, low))
    games = new_game(setup, dice), new_game(setup, other)
    tallies = Tally(games[0]), Tally(games[1])
    chooser, joined = random.Random(setup.choice_seed), [0]
    swapped_down = False  # the swapped dice lie under the cup now
    for _ in range(300):
        if games[0].phase != "playing":
            return
        thrown = other.thrown
        action = choose(games[0], chooser, Mix(), joined)
        events = perform(games[0], action, dice), perform(games[1], action, other)
        if events[0] is None or events[1] is None:
            assert events == (None, None)
            continue
        kinds = [e.kind for e in events[0]], [e.kind for e in events[1]]
        if (swapped_down and Kind.REVEAL in kinds[0]) or (
            other.thrown > 2 * roll and Kind.GAME_OVER in kinds[0]
        ):
            return  # the swapped dice are public now: the games may differ from here
        if other.thrown > thrown:  # this move rolled: are its dice the swapped ones?
            swapped_down = thrown <= 2 * roll < other.thrown
            if kinds[0] != kinds[1]:
                return  # a 3-1 as Social on one side only: shown to all, no cup to keep
        for game, tally, happened in zip(games, tallies, events, strict=True):
            tally.move(game, happened)
        assert tallies[0].last == tallies[1].last, action
        assert games[0].view(None) == games[1].view(None)  # truly the same game outside


# --- worked examples ---------------------------------------------------------------------


def seated(preset: str, options: dict[str, Any] | None = None) -> Game:
    game = Game.create(preset, "ana", options or {})
    game.join("ben")
    game.join("cy")
    game.start("ana", ScriptedDice())
    return game


def steps(game: Game, tally: Tally, *moves: tuple[str, str, list[int]]) -> list[Deltas]:
    """Play ``(player, move, dice)`` steps; the counts each one made public."""
    made = []
    for player, text, dice in moves:
        act, _, value = text.partition(" ")
        move = Move(Act(act), roll=parse_roll(value) if value else None)
        tally.move(game, game.apply(player, move, ScriptedDice(dice)))
        made.append(tally.last)
    return made


def test_a_pass_and_the_claim_it_passes_on_are_judged_when_the_cup_is_lifted() -> None:
    game = seated("dollar")
    tally = Tally(game)
    made = steps(
        game,
        tally,
        ("ana", "roll", [5, 2]),
        ("ana", "claim 62", []),
        ("ben", "accept", []),
        ("ben", "pass 64", []),
        ("cy", "bullshit", []),
    )
    # An answer is public at once (what the expert models people by: ben faced a 6-2).
    assert made[:4] == [{"ana": {"rolls_made": 1}}, {}, {"ben": {"faced_10": 1}}, {}]
    assert made[4] == {
        # ana saw 5-2 and claimed 6-2: a free bluff four ranks up, shown by the reveal.
        "ana": {"bluffs_made": 1, "free_claims": 1, "free_bluffs": 1, "raise_steps": 4},
        "ben": {"bluffs_made": 1, "bluffs_caught": 1, "lives_lost": 1, "rounds_lost": 1},
        "cy": {"calls_made": 1, "calls_right": 1, "lives_caused": 1, "faced_12": 1, "called_12": 1},
    }
    assert tally.pending == NOTHING_PENDING


def test_a_21_under_the_cup_counts_for_its_roller_when_lifted() -> None:
    game = seated("mexican")
    tally = Tally(game)
    made = steps(game, tally, ("ana", "roll", [1, 2]), ("ana", "claim 65", []))
    assert made == [{"ana": {"rolls_made": 1}}, {}]
    (lifted,) = steps(game, tally, ("ben", "bullshit", []))
    assert lifted["ana"]["mex_rolled"] == 1 and "bluffs_made" not in lifted["ana"]


def test_cups_nobody_lifted_count_when_the_host_ends_the_game() -> None:
    game = seated("dollar")
    tally = Tally(game)
    made = steps(
        game,
        tally,
        ("ana", "blind", [2, 1]),
        ("ana", "claim 65", []),
        ("ben", "roll", [4, 1]),
        ("ben", "claim 66", []),
    )
    assert made == [
        {"ana": {"rolls_made": 1}},
        {},
        {"ben": {"rolls_made": 1, "faced_13": 1}},
        {},
    ]  # a blind claim says nothing of how its maker bluffs: only ben's is modelled
    forced = {"forced_claims": 1, "forced_raises": 1, "raise_steps": 5}  # 4-1 under 6-6
    assert tally.pending == Pending(
        cup={"ben": {"bluffs_made": 1, **forced}}, unseen={"ana": {"mex_rolled": 1}}
    )
    # Both moved, so the game counts; ana ends it tied in the lead: nobody wins it.
    tally.move(game, game.apply("ana", Move(Act.END)))
    assert tally.last["ana"] == {"mex_rolled": 1, "games_played": 1}
    assert tally.last["ben"] == {"bluffs_made": 1, **forced, "games_played": 1}
    assert tally.pending == NOTHING_PENDING


def test_a_fold_leaves_the_cup_unlifted_until_the_game_is_over() -> None:
    game = seated("mexican")
    tally = Tally(game)
    made = steps(
        game,
        tally,
        ("ana", "roll", [4, 1]),
        ("ana", "claim 66", []),
        ("ben", "roll", [3, 2]),
        ("ben", "fold", []),
    )
    assert "bluffs_made" not in made[3].get("ana", {})
    assert tally.pending.unseen == {
        "ana": {"bluffs_made": 1, "free_claims": 1, "free_bluffs": 1, "raise_steps": 17},
        "ben": {"forced_folds": 1},  # 3-2 could not reach 6-6: a fold nobody sees
    }
    assert not tally.pending.cup


def test_a_social_is_shown_at_once() -> None:
    game = seated("mexican")
    tally = Tally(game)
    (made,) = steps(game, tally, ("ana", "roll", [3, 1]))
    assert made["ana"]["rolls_made"] == 1 and made["ana"]["sips"] == 1
    assert tally.pending == NOTHING_PENDING


def test_a_state_stored_before_the_pending_record_still_loads() -> None:
    meta = TableMeta(language="de")
    old = meta.to_dict()
    del old["stats_pending"]
    assert TableMeta.from_dict(old) == meta
    meta.stats_pending = Pending(cup={"1": {"bluffs_made": 1}}, unseen={"2": {"mex_rolled": 1}})
    assert TableMeta.from_dict(orjson.loads(orjson.dumps(meta.to_dict()))) == meta
