"""The CFR solver and the shipped bluffing tables (README, Rule sets: ``mexican``,
``dollar``): the solver converges, the tables are valid strategies whose recorded
exploitability is what they really have, and a plain simulation of the round agrees with
the solver's values."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.ai import bluff_policy
from bot.ai.bluff_policy import Policy, choose

cfr = pytest.importorskip("tools.cfr")  # the solver needs numpy (the test extra)

PRESETS = ("dollar", "mexican")
ROUNDS = 20_000


def document(preset: str) -> dict[str, Any]:
    text = resources.files("bot.ai").joinpath("policy", f"{preset}.json").read_text("utf-8")
    return json.loads(text)


# --- the solver ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_exploitability_falls_as_iterations_rise(preset: str) -> None:
    game = cfr.Game.of(preset)
    solver = cfr.Solver(game)
    uniform = cfr.exploitability(game, game.uniform()).gap
    solver.run(20)
    few = cfr.exploitability(game, solver.average()).gap
    solver.run(180)
    more = cfr.exploitability(game, solver.average()).gap
    assert uniform > few > 2 * more > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_a_best_response_scores_what_it_claims_and_beats_playing_along(preset: str) -> None:
    game = cfr.Game.of(preset)
    strategy = game.uniform()
    own = cfr.play(game, strategy, strategy, first=0)
    for first in (0, 1):
        score, best = cfr.best_response(game, strategy, first=first)
        # (a tie's level is settled by repeated passes: exact to far below any figure shown)
        assert cfr.play(game, best, strategy, first=first) == pytest.approx(score, abs=1e-9)
        # the strategy's own score from that seat is one of the responses searched
        assert score > (own if first == 0 else -own) + 0.1


def test_settling_spots_the_strategy_never_reaches_changes_no_score() -> None:
    game = cfr.Game.of("dollar")
    solver = cfr.Solver(game)
    solver.run(50)
    pruned = cfr.from_tables(game, cfr.to_tables(game, solver.average()))
    settled = cfr.settle_off_path(game, pruned)
    changed = [name for name in cfr.TABLES if (settled[name] != pruned[name]).any()]
    assert "after" in changed and "pass_claim" in changed
    before, after = cfr.exploitability(game, pruned), cfr.exploitability(game, settled)
    assert after.gap == pytest.approx(before.gap, abs=1e-12)
    assert after.value == pytest.approx(before.value, abs=1e-12)


@pytest.mark.slow
def test_the_command_line_prints_the_curve_and_writes_a_loadable_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mexican.json"
    args = ["--preset", "mexican", "--iterations", "5", "--start-value", "0.25"]
    assert cfr.main([*args, "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "worth 0.2500" in lines[0]
    assert [line.split()[1] for line in lines[2:5]] == ["1", "2", "5"]
    doc = json.loads(out.read_text("utf-8"))
    assert [mark for mark, _ in doc["exploitability"]["curve"]] == [1, 2, 5]
    assert doc["start_value"] == 0.25
    assert Policy(doc).respond(1, None, "seen")


def test_the_tables_are_installed_with_the_package() -> None:
    with open(Path(__file__).parents[1] / "pyproject.toml", "rb") as f:
        setuptools = tomllib.load(f)["tool"]["setuptools"]
    assert "policy/*.json" in setuptools["package-data"]["bot.ai"]


def test_checkpoints_run_one_two_five_up_to_the_end() -> None:
    assert cfr.checkpoints(120) == [1, 2, 5, 10, 20, 50, 100, 120]
    assert cfr.checkpoints(1) == [1]


# --- the shipped tables -------------------------------------------------------------------


@pytest.mark.parametrize("preset", [*PRESETS, "maexchen"])
def test_shipped_tables_are_distributions_over_legal_actions_everywhere(preset: str) -> None:
    doc = document(preset)
    game = cfr.Game.of(preset, doc["start_value"])
    expected: dict[str, set[str]] = {name: set() for name in cfr.TABLES}
    for name, key, index, actions in cfr._info_sets(game):
        row = doc[name] if name == "start" else doc[name][key]
        legal = {actions[a] for a, ok in enumerate(game.masks[name][index]) if ok}
        assert row and set(row) <= legal, (name, key, row, legal)
        assert all(x > 0 for x in row.values()), (name, key, row)
        assert sum(row.values()) == pytest.approx(1.0, abs=1e-9), (name, key, row)
        expected[name].add(key)
    for name in cfr.TABLES:
        if name != "start":
            assert set(doc[name]) == expected[name], name


@pytest.mark.parametrize("preset", [*PRESETS, "maexchen"])
def test_recorded_exploitability_is_what_the_shipped_table_has(preset: str) -> None:
    doc = document(preset)
    game = cfr.Game.of(preset, doc["start_value"])
    ex = cfr.exploitability(game, cfr.from_tables(game, doc))
    recorded = doc["exploitability"]
    assert ex.gap == pytest.approx(recorded["shipped"], abs=1e-8)
    assert ex.starter == pytest.approx(recorded["best_response_as_starter"], abs=1e-8)
    assert ex.second == pytest.approx(recorded["best_response_as_second"], abs=1e-8)
    assert ex.value == pytest.approx(doc["value_for_starter"], abs=1e-8)
    assert 0 <= ex.gap < 0.005
    curve = [gap for _, gap in recorded["curve"]]
    assert curve[-1] < curve[0] / 100
    assert doc["solver"]["iterations"] == recorded["curve"][-1][0]


# --- what the strategy does ---------------------------------------------------------------


def test_holding_the_top_roll_you_never_fold() -> None:
    for s in [None, *range(1, 21)]:
        assert "fold" not in bluff_policy.claim_seen("mexican", s, 20), s


def test_dice_that_reach_the_standing_claim_are_not_folded() -> None:
    # Claiming the dice themselves wins a call and can do no worse than folding.
    for s in range(1, 21):
        for d in range(s, 21):
            assert bluff_policy.claim_seen("mexican", s, d).get("fold", 0.0) <= 0.01, (s, d)


def test_a_top_claim_nobody_saw_is_called() -> None:
    # Blind or passed on, a top claim is true 1 time in 36; accepting it leaves you
    # needing the top roll yourself.
    for s in [None, *range(20)]:
        assert bluff_policy.respond("dollar", 20, s, "blind") == {"call": 1.0}, s
        if s is not None:
            assert bluff_policy.respond("dollar", 20, s, "pass") == {"call": 1.0}, s


def test_under_the_arena_rules_a_top_claim_is_only_ever_called() -> None:
    # A claim of 21 is lifted at once (README, Arena rules): no accepting it, nothing
    # claimed over it, and no cup held after it.
    doc = document("maexchen")
    assert doc["rules"]["top_shown"] is True and doc["start_value"] == 0.0
    for key, row in doc["respond"].items():
        if key.startswith("20,"):
            assert row == {"call": 1.0}, key
    assert not [k for k in doc["after"] if k.startswith("20,")]
    assert not [k for k in doc["claim_seen"] if k.startswith("20,")]
    assert bluff_policy.policy("maexchen").legal_claims(20) == []


def test_a_bare_first_claim_of_the_lowest_roll_is_accepted() -> None:
    # Everyone holds at least a 3-2 when the claim is 3-2 (mexican) or 3-1 (dollar).
    assert bluff_policy.respond("mexican", 1, None, "seen").get("accept", 0.0) > 0.99
    assert bluff_policy.respond("dollar", 0, None, "seen").get("accept", 0.0) > 0.99


# --- the lookup API -----------------------------------------------------------------------


def test_lookups_answer_in_plain_python_types() -> None:
    claims = bluff_policy.claim_seen("dollar", 10, 3)
    assert claims and all(type(a) is int and type(x) is float for a, x in claims.items())
    answer = bluff_policy.respond("dollar", 12, 10, "seen")
    assert set(answer) <= {"call", "accept"}
    assert set(bluff_policy.after("dollar", 12, 10, "seen")) <= {"roll", "blind", "pass"}
    assert set(bluff_policy.start("dollar")) <= {"roll", "blind"}
    passes = bluff_policy.pass_claim("dollar", 12, 10, "seen")
    assert passes and all(type(a) is int and a > 12 for a in passes)
    answer["call"] = 5.0  # a caller's copy: the table itself is untouched
    assert bluff_policy.respond("dollar", 12, 10, "seen")["call"] != 5.0


def test_keys_outside_the_abstract_game_get_a_safe_answer() -> None:
    assert bluff_policy.respond("mexican", 9, 9, "seen") == {"call": 1.0}  # a tie
    assert bluff_policy.after("mexican", 9, 9, "seen") == {"roll": 1.0}
    assert bluff_policy.claim_seen("mexican", 0, 5) == {5: 1.0}  # 3-1 is no claim there
    assert bluff_policy.pass_claim("dollar", 20, 19, "seen") == {}
    assert bluff_policy.pass_claim("dollar", 5, 7, "seen") == {6: 1.0}
    with pytest.raises(ValueError, match="dollar, mexican"):
        bluff_policy.start("mexen")


def test_the_lookup_needs_no_numpy() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from bot.ai import bluff_policy\n"
        "print(bluff_policy.respond('dollar', 12, 10, 'seen'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "call" in out.stdout or "accept" in out.stdout


def test_choose_draws_by_probability() -> None:
    rng = Random(3)
    draws = [choose({"call": 0.25, "accept": 0.75}, rng) for _ in range(4000)]
    assert 0.22 < draws.count("call") / len(draws) < 0.28
    with pytest.raises(ValueError):
        choose({}, rng)


# --- a plain simulation of the round agrees with the solver ----------------------------


def _rank(rng: Random, reroll_three_one: bool) -> int:
    from bot.engine.rolls import RANK, THREE_ONE, make_roll

    while True:
        roll = make_roll(rng.randint(1, 6), rng.randint(1, 6))
        if not (reroll_three_one and roll == THREE_ONE):
            return RANK[roll]


def simulate(first: Policy, second: Policy, rng: Random, reroll: bool) -> float:
    """One abstract round, written straight from the rules: ``first``'s score, +1 for
    the round won (-1 lost) and the next start's worth to whoever gets it (the caller,
    or after a fold the other player)."""
    players = (first, second)
    start = first.start_value
    actor = 0
    how = "seen" if choose(first.start(), rng) == "roll" else "blind"
    cup = _rank(rng, reroll)
    standing: int | None = None
    accepted: tuple[int, int | None, str] | None = None
    while True:
        me = players[actor]
        if how == "seen":
            action = choose(me.claim_seen(standing, cup), rng)
        elif how == "blind":
            action = choose(me.claim_blind(standing), rng)
        else:
            assert accepted is not None
            action = choose(me.pass_claim(*accepted), rng)
        other = 1 - actor
        if action == "fold":
            return (-1 - start) if actor == 0 else (1 + start)
        claim, over = int(action), standing
        if choose(players[other].respond(claim, over, how), rng) == "call":
            loser = actor if cup < claim else other
            caller = 1.0 if other == 0 else -1.0
            return (1.0 if loser == 1 else -1.0) + start * caller
        actor = other
        nxt = choose(players[actor].after(claim, over, how), rng)
        standing = claim
        if nxt == "pass":
            accepted, how = (claim, over, how), "pass"
        else:
            how = "seen" if nxt == "roll" else "blind"
            cup = _rank(rng, reroll)


def _mean_score(first: Policy, second: Policy, reroll: bool, seed: int) -> float:
    rng = Random(seed)
    return sum(simulate(first, second, rng, reroll) for _ in range(ROUNDS)) / ROUNDS


@pytest.mark.parametrize("preset", PRESETS)
def test_simulated_rounds_score_the_solver_value(preset: str) -> None:
    doc = document(preset)
    policy = Policy(doc)
    score = _mean_score(policy, policy, doc["rules"]["reroll_three_one"], seed=11)
    assert score == pytest.approx(doc["value_for_starter"], abs=0.03)  # ~4 standard errors


@pytest.mark.parametrize("preset", PRESETS)
def test_simulated_best_response_scores_its_value(preset: str) -> None:
    """The best response is a table over the same information sets, so playing it in
    the plain simulation must score what the DP says: it sees nothing it should not."""
    doc = document(preset)
    game = cfr.Game.of(preset, doc["start_value"])
    shipped = Policy(doc)
    reroll = doc["rules"]["reroll_three_one"]
    for first in (0, 1):
        value, best = cfr.best_response(game, cfr.from_tables(game, doc), first=first)
        responder = Policy({**doc, **cfr.to_tables(game, best)})
        if first == 0:
            score = _mean_score(responder, shipped, reroll, seed=5)
        else:
            score = -_mean_score(shipped, responder, reroll, seed=6)
        assert score == pytest.approx(value, abs=0.03)
