"""The expert computer at a bluffing table: its answers, its claims, and what it may know
(README, Playing against the computer)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from bot.ai import bank, bluff, bluff_policy, brain, knowledge
from bot.ai.knowledge import Inputs, Record
from bot.ai.opponents import Model, Profile
from bot.ai.personas import PERSONAS
from bot.engine import RANK, Act, Game, Move, Roll
from bot.game.tables import TableService
from bot.storage import open_storage

ME = "cpu_expert_1"
THEM = "111"
EXPERT = PERSONAS["expert"]
CALL, ROLL = Move(Act.BULLSHIT), Move(Act.ROLL)


def table(preset: str) -> Game:
    game = Game.create(preset, THEM, {"lives": 4} if preset == "mexican" else {})
    game.add_computer(THEM, ME)
    game.start(THEM, random.Random(0))
    return game


def facing(preset: str, claim: Roll, over: Roll | None, cup: Roll = (6, 6)) -> Game:
    """The expert to answer ``claim`` made over ``over`` by someone who saw ``cup``."""
    game = table(preset)
    game.stage, game.to_move, game.claimer = "answer", ME, THEM
    game.standing, game.claim_over, game.claim_how = claim, over, "seen"
    game.cup, game.seen_by = cup, [THEM]
    return game


def holding(preset: str, dice: Roll, standing: Roll | None = None) -> Game:
    """The expert having rolled ``dice`` and seen them, to claim over ``standing``."""
    game = table(preset)
    game.stage, game.to_move = "rolled", ME
    game.standing, game.claimer = standing, THEM if standing else None
    game.claim_how = "seen" if standing else None
    game.cup, game.seen_by = dice, [ME]
    return game


def decide(game: Game, records: dict[str, Record] | None = None, seed: int = 0) -> Move | None:
    return brain.decide(knowledge.inputs(game, ME, records), random.Random(seed))


def calls(game: Game, records: dict[str, Record] | None = None, tries: int = 400) -> float:
    return sum(decide(game, records, seed) == CALL for seed in range(tries)) / tries


# --- answering ------------------------------------------------------------------------------


@pytest.mark.parametrize("tie", [(6, 4), (5, 5), (2, 1)])
def test_a_high_tie_is_called(tie: Roll) -> None:
    """A tie is most often the smallest lie; accepting it means rolling against the same
    high claim, which loses more than calling."""
    assert decide(facing("mexican", tie, over=tie)) == CALL


def test_a_low_tie_is_accepted_and_rolled() -> None:
    """Against 3-2 nearly any roll ties or beats it: rolling is worth more than calling a
    claim that is most likely true."""
    assert decide(facing("mexican", (3, 2), over=(3, 2))) == ROLL


def test_the_solved_round_answers_ties_and_counts_the_next_start() -> None:
    policy = bluff_policy.policy("mexican")
    assert policy.start_value > 0.1  # the caller starts the next round, and that counts
    assert set(policy.respond(8, 8, "seen")) <= {"call", "accept"}  # a tie is answered
    assert policy.respond(1, 1, "seen").get("accept", 0.0) > 0.5


def test_a_blind_claim_is_judged_by_the_odds_of_a_fresh_roll() -> None:
    game = facing("dollar", (5, 5), over=(6, 5))
    game.claim_how = "blind"
    assert calls(game) > 0.9  # 3 in 36 to be true, from anyone
    game = facing("dollar", (4, 1), over=(3, 2))
    game.claim_how = "blind"
    assert calls(game) < 0.1


def test_a_cup_it_saw_passed_back_is_answered_from_what_it_saw() -> None:
    game = facing("dollar", (5, 5), over=(5, 4), cup=(6, 6))
    game.claim_how, game.seen_by = "pass", [ME]
    assert decide(game) != CALL  # 6-6 holds 5-5
    game.cup = (5, 4)
    assert decide(game) == CALL


def test_it_never_claims_what_is_not_legal() -> None:
    for preset in ("mexican", "dollar"):
        for dice in ((3, 2), (5, 4), (6, 6), (2, 1)):
            for seed in range(30):
                game = holding(preset, dice, standing=(5, 5))
                move = decide(game, seed=seed)
                assert move in game.legal_actions(ME), (preset, dice)


def test_with_the_top_roll_in_hand_it_never_folds() -> None:
    for seed in range(100):
        assert decide(holding("mexican", (2, 1), standing=(6, 6)), seed=seed) != Move(Act.FOLD)


def test_it_mixes_its_claims_where_the_solution_mixes() -> None:
    """No fixed tell: holding 5-1 at the start of a round, she claims several values."""
    claims = {decide(holding("mexican", (5, 1)), seed=seed) for seed in range(300)}
    assert len(claims) >= 5


# --- reading people, bounded ---------------------------------------------------------------

#: Where a fresh roll makes the claim less than half the time: 6-2 and up.
UNLIKELY = RANK[(6, 2)]


def honest(call_from: int = UNLIKELY) -> Record:
    """Someone the statistics show claiming the truth, or the smallest lie when the truth
    cannot beat the claim, and calling every claim of rank ``call_from`` or more."""
    profile = Profile(
        free_claims=600,
        forced_claims=300,
        faced=(40,) * 21,
        called=tuple(40 if r >= call_from else 0 for r in range(21)),
    )
    return Record(claims=900, profile=profile)


def liar() -> Record:
    """Someone who bluffs half the time, three ranks high, and calls like ``honest``."""
    profile = dataclasses.replace(
        honest().profile, free_bluffs=300, forced_raises=280, raise_steps=3 * 580
    )
    return Record(claims=900, bluffs=580, profile=profile)


def duels(record: Record, her_share: float, rounds: int = 2000) -> Record:
    """``record`` with a heads-up history against her: ``rounds`` rounds, half of them
    started by each, of which she won ``her_share``."""
    lost = round(rounds * her_share)
    profile = dataclasses.replace(
        record.profile,
        duel_rounds=rounds,
        duel_led=rounds // 2,
        duel_won=rounds - lost,
        duel_lost=lost,
    )
    return dataclasses.replace(record, profile=profile)


def test_with_rounds_banked_she_accepts_an_honest_players_raise_a_liars_she_calls() -> None:
    """She leans toward the best answer only as far as her bank and the part's rate let
    her (README, Playing against the computer: "Safe exploitation")."""
    game = facing("dollar", (5, 4), over=(5, 2))
    assert calls(game) == 1.0  # the policy alone calls it
    banked = duels(honest(), 0.75)
    lean = bluff.exploit_share(banked.profile, EXPERT, "dollar", 2, "answer")
    assert 0 < lean <= bluff.RATE["dollar"] / bluff.RISK["dollar"]["answer"]
    assert 1.0 - lean - 0.08 < calls(game, {THEM: banked}) < 1.0 - lean / 2
    assert calls(game, {THEM: duels(liar(), 0.75)}) == 1.0


def test_without_rounds_banked_she_plays_the_solved_strategy_move_for_move() -> None:
    """A long record she has not beaten (or none) buys no lean: the same moves, seed for
    seed, as with no record at all."""
    for game in (facing("dollar", (5, 4), over=(5, 2)), holding("mexican", (4, 2))):
        plain = [decide(game, None, seed) for seed in range(100)]
        for record in (duels(honest(), 0.25), duels(honest(), 0.49)):
            assert [decide(game, {THEM: record}, seed) for seed in range(100)] == plain
        # A new record (nothing banked, nothing lost) gets the seed's small lean.
        assert [decide(game, {THEM: honest()}, seed) for seed in range(100)] != plain


def test_the_bank_is_what_she_won_beyond_the_policys_expected_rounds() -> None:
    policy = bluff_policy.policy("dollar")
    even = duels(honest(), 0.5).profile  # half the rounds started by each: she expects half
    assert bank.banked(even, "dollar") == pytest.approx(0.0)
    ahead = duels(honest(), 0.6).profile
    assert bank.banked(ahead, "dollar") == pytest.approx(200)
    # She started every round: credited the starts, charged the starter's edge.
    led = dataclasses.replace(ahead, duel_led=0)
    edge = policy.value_for_starter - policy.start_value
    assert bank.banked(led, "dollar") == pytest.approx(200 - 2000 * edge / 2)
    assert bank.banked(Profile(), "dollar") == 0.0


def test_what_she_may_risk_grows_with_the_bank_up_to_the_rate() -> None:
    """The seed alone buys a little; a bank buys more, never past ``RATE`` a round; a
    loss buys nothing."""
    risk, rate = bluff.RISK["dollar"]["answer"], bluff.RATE["dollar"]
    start = bluff.affordable(Profile(), "dollar", "answer")
    assert start == pytest.approx(min(rate / risk, bank.SEED / (risk * bluff.SPEND)))
    assert bluff.affordable(duels(honest(), 0.75).profile, "dollar", "answer") == rate / risk
    assert bluff.affordable(duels(honest(), 0.3).profile, "dollar", "answer") == 0.0
    # At a bigger table there is no equilibrium to keep to: trust alone, past the cap.
    profile = honest().profile
    seen = profile.seen_claims + profile.answers
    trust = bluff.exploit_share(profile, EXPERT, "dollar", 3, "answer")
    assert trust == pytest.approx(EXPERT.read * seen / (seen + bluff.HALF_TRUST))
    assert trust > bluff.MAX_TRUST > bluff.exploit_share(profile, EXPERT, "dollar", 2, "answer")


def test_an_honest_players_raise_is_accepted_a_liars_called_at_a_bigger_table() -> None:
    game = facing("dollar", (5, 4), over=(5, 2))
    game.seats = [THEM, ME, "222"]
    assert calls(game, {THEM: honest()}) < 0.25
    assert calls(game, {THEM: liar()}) > 0.75


def test_an_honest_players_smallest_raise_is_called_when_it_was_forced() -> None:
    """Over 6-2 most rolls fall short, and an honest player then claims 6-3."""
    assert calls(facing("dollar", (6, 3), over=(6, 2)), {THEM: honest()}) > 0.75


def claims_made(game: Game, record: Record, tries: int = 200) -> dict[Roll, int]:
    made: dict[Roll, int] = {}
    for seed in range(tries):
        move = decide(game, {THEM: record}, seed)
        assert move is not None and move.roll is not None
        made[move.roll] = made.get(move.roll, 0) + 1
    return made


def test_against_someone_who_calls_only_doubles_it_claims_the_highest_plain_roll() -> None:
    """The policy never claims 6-5 holding 4-2 here; with a bank she does, as often as
    the claims' rate lets her."""
    record = duels(honest(call_from=RANK[(1, 1)]), 0.75)
    assert claims_made(holding("dollar", (4, 2)), Record()).get((6, 5), 0) == 0
    made = claims_made(holding("dollar", (4, 2)), record, 400)
    lean = bluff.exploit_share(record.profile, EXPERT, "dollar", 2, "claim")
    assert 0 < lean <= bluff.RATE["dollar"] / bluff.RISK["dollar"]["claim"]
    assert lean - 0.1 < made.get((6, 5), 0) / 400 < lean + 0.1


def test_heads_up_it_trusts_a_record_at_most_max_trust_at_a_table_by_its_length() -> None:
    """Heads-up, however long the record and big the bank, she plays the policy some of
    the time. At a bigger table the alternative is answering a typical player, no safer
    than a long, steady record: there a short record is answered now and then, a long
    one nearly always (a record in doubt not at all: tests/test_recent_play.py)."""
    assert bluff.MAX_TRUST < 1.0
    rich = duels(honest(call_from=RANK[(1, 1)]), 0.9, rounds=20_000).profile
    assert bluff.exploit_share(rich, EXPERT, "dollar", 2, "claim") <= bluff.MAX_TRUST
    game = holding("dollar", (4, 2))
    game.seats = ["222", ME, THEM]  # her claim goes to them
    long = claims_made(game, honest(call_from=RANK[(1, 1)]), 400)
    answer, most = max(long.items(), key=lambda kv: kv[1])
    assert most > 0.9 * 400
    short = honest(call_from=RANK[(1, 1)])
    few = dataclasses.replace(short.profile, free_claims=6, forced_claims=3, faced=(0,) * 21)
    made = claims_made(game, Record(claims=9, profile=few), 400)
    typical = claims_made(game, Record(), 100)  # someone with no record at all
    assert list(typical) != [answer] and len(typical) == 1
    assert made.get(next(iter(typical)), 0) > 0.5 * 400, made  # nine observations: mostly not


def test_a_profile_is_read_back_from_the_stored_counters() -> None:
    row = {"free_claims": 7, "forced_folds": 2, "faced_3": 5, "called_3": 4, "calls_made": 9}
    record = Record.from_totals(row, claims=12)
    assert record.claims == 12 and record.calls == 9
    assert record.profile.free_claims == 7 and record.profile.forced_folds == 2
    assert record.profile.faced[3] == 5 and record.profile.called[3] == 4
    assert record.profile.answers == 5 and record.profile.seen_claims == 9


def test_at_a_bigger_table_she_answers_a_typical_player_where_she_reads_nobody() -> None:
    """Heads-up with no record she plays the solved (heads-up) strategy; at a table of
    three she answers a typical player there instead, with the next start worth less."""
    heads_up = facing("dollar", (5, 4), over=(5, 2))
    assert bluff._read(heads_up.view(ME), random.Random(1), EXPERT, {}, set(), {}, "answer") is None
    three = facing("dollar", (5, 4), over=(5, 2))
    three.seats = [THEM, ME, "222"]
    found = bluff._read(three.view(ME), random.Random(1), EXPERT, {}, set(), {}, "answer")
    assert found is not None and found.players == 3
    assert found.model == Model.fit(Profile(), found.rules)
    start = bluff_policy.policy("dollar").start_value
    assert found.start == pytest.approx(start * 2 / 3)
    plain = dataclasses.replace(EXPERT, read=0.0)  # personas that read nobody: the policy
    assert bluff._read(three.view(ME), random.Random(1), plain, {}, set(), {}, "answer") is None


def test_only_the_expert_reads_opponents() -> None:
    assert EXPERT.read == 1.0
    assert all(p.read == 0.0 for key, p in PERSONAS.items() if key != "expert")


# --- what it may know -----------------------------------------------------------------------


async def stored(tmp_path: Path, preset: str) -> dict[str, Record]:
    """Records as the computer players read them: games played through the table service
    into a real database, then ``knowledge.stored_records`` (bot/game/computers.py calls it)."""
    storage = await open_storage(tmp_path / f"{preset}.db")
    try:
        service = TableService(storage, random.Random(3))
        rng = random.Random(4)
        guild, now = 1, 1_000_000.0
        for channel in range(10, 18):
            await service.open_table(
                guild, channel, THEM, preset, table(preset).options.to_dict(), now
            )
            if channel < 16:
                await service.act(channel, "222", Move(Act.JOIN), now)
            else:  # heads-up against her: the rounds her bank is read from
                await service.act(channel, THEM, Move(Act.ADD_COMPUTER, to=ME), now)
            await service.act(channel, THEM, Move(Act.START), now)
            for _ in range(400):
                live = service.get(channel)
                if live is None or live.game.phase != "playing" or live.game.to_move is None:
                    break
                mover = live.game.to_move
                moves = [m for m in live.game.legal_actions(mover) if m.act not in LEAVING]
                await service.act(channel, mover, rng.choice(moves), now)
        seated = Game.create(preset, THEM, table(preset).options.to_dict())
        seated.join("222")
        seated.add_computer(THEM, ME)
        return await knowledge.stored_records(storage, guild, seated)
    finally:
        await storage.close()


LEAVING = (Act.LEAVE, Act.END)


@pytest.mark.parametrize("preset", ["mexican", "dollar"])
async def test_changing_the_cup_under_another_seats_claim_never_changes_the_decision(
    tmp_path: Path, preset: str
) -> None:
    """With the records the computer players build from storage (so the expert reads a
    profile of the claimer), the dice under a cup she has not seen change nothing."""
    records = await stored(tmp_path, preset)
    profile = records[THEM].profile
    assert profile.answers > 20 and profile.seen_claims > 20
    assert profile.duel_won + profile.duel_lost > 5  # her bank against them is read too
    lowest = 1 if preset == "mexican" else 0
    checked = 0
    for claim in ((3, 2), (5, 4), (6, 3), (2, 2), (5, 5), (2, 1)):
        for over in (None, (3, 2), (6, 1), claim):
            if over is not None and (RANK[claim] < RANK[over] or RANK[over] < lowest):
                continue
            if preset == "dollar" and over == claim and claim != (2, 1):
                continue
            game = facing(preset, claim, over)
            for seed in range(5):
                first = decide(game, records, seed)
                for cup in ((3, 2), (6, 6), (2, 1), claim):
                    game.cup = cup
                    assert decide(game, records, seed) == first, (claim, over, cup)
                checked += 1
    assert checked >= 80


async def test_dice_rolled_blind_are_not_read_either(tmp_path: Path) -> None:
    records = await stored(tmp_path, "dollar")
    for seed in range(10):
        game = holding("dollar", (3, 2), standing=(5, 4))
        game.seen_by = []  # rolled blind: under the cup, unseen even by the roller
        first = decide(game, records, seed)
        for cup in ((6, 6), (2, 1), (4, 1)):
            game.cup = cup
            assert decide(game, records, seed) == first


def test_inputs_hold_the_view_and_only_the_others_records() -> None:
    game = facing("dollar", (6, 2), over=(5, 4))
    mine = Record(claims=50, bluffs=10)
    found = knowledge.inputs(game, ME, {THEM: Record(claims=5), ME: mine, "999": mine})
    assert found == Inputs(game.view(ME), {THEM: Record(claims=5)})
    assert found.view["cup"] is None  # she did not see that cup
