"""Recent play against the record (README, Playing against the computer: "Safe
exploitation"): a person who keeps their style is trusted, one who switches is caught
within a few games, and the memory reads public counters only."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai import bank, bluff
from bot.ai.opponents import Profile
from bot.ai.personas import DEFAULT, PERSONAS
from bot.ai.recent import LATCH, SPAN, RecentPlay, drifted, minus, observations

EXPERT = PERSONAS[DEFAULT]
N = 21


def grow(profile: Profile, rng: random.Random, bluff_rate: float, call_rate: float) -> Profile:
    """One more claim and one more answer, drawn at these rates."""
    rank = rng.randrange(8, N)
    bluffed = rng.random() < bluff_rate
    called = rng.random() < call_rate
    faced = list(profile.faced)
    calls = list(profile.called)
    faced[rank] += 1
    calls[rank] += called
    return replace(
        profile,
        free_claims=profile.free_claims + 1,
        free_bluffs=profile.free_bluffs + bluffed,
        faced=tuple(faced),
        called=tuple(calls),
    )


def test_the_memory_reads_the_last_span_once_it_reaches_back() -> None:
    memory = RecentPlay()
    rng = random.Random(1)
    profile = Profile()
    seen = []
    for _ in range(100):
        profile = grow(profile, rng, 0.2, 0.3)
        memory.update("p", profile)
        seen.append(memory.recent("p", profile))
    first = next(i for i, r in enumerate(seen) if r is not None)
    assert 2 * first + 2 >= SPAN, "nothing is read before the memory spans SPAN observations"
    last = seen[-1]
    assert last is not None and SPAN <= observations(last) <= SPAN + 2 * 10
    assert minus(profile, minus(profile, last)) == last


def test_a_reset_of_the_statistics_empties_the_memory() -> None:
    memory = RecentPlay()
    rng = random.Random(2)
    profile = Profile()
    for _ in range(60):
        profile = grow(profile, rng, 0.2, 0.3)
        memory.update("p", profile)
    assert memory.recent("p", profile) is not None
    assert memory.update("p", Profile()) is False
    assert memory.recent("p", Profile()) is None


def test_a_steady_player_is_rarely_taken_for_one_who_switched() -> None:
    """The same rates all along: over 3,000 claims and answers the record is rarely in
    doubt, and a player whose rates are fixed never is."""
    for rates, most in (((0.25, 0.4), 0.1), ((0.0, 1.0), 0.0)):
        memory = RecentPlay()
        rng = random.Random(3)
        profile = Profile()
        doubts = 0
        for _ in range(3000):
            profile = grow(profile, rng, *rates)
            doubts += memory.update("p", profile)
        assert doubts / 3000 <= most, (rates, doubts)


def test_a_switch_of_style_is_caught_within_a_few_games_and_doubted_a_while() -> None:
    """Truthful for 1,000 claims and answers, then bluffing and calling far more."""
    memory = RecentPlay()
    rng = random.Random(4)
    profile = Profile()
    for _ in range(1000):
        profile = grow(profile, rng, 0.0, 0.2)
        assert not memory.update("p", profile)
    caught = None
    doubts = 0
    for n in range(1, 2 * LATCH):
        profile = grow(profile, rng, 0.5, 0.6)
        doubted = memory.update("p", profile)
        assert memory.doubted("p", profile) == doubted, "doubted() reads what update() says"
        if doubted and caught is None:
            caught = n
        doubts += doubted
    assert caught is not None and caught <= SPAN, f"caught after {caught} new observations"
    assert doubts >= LATCH // 2, "the doubt lasts while the blend describes neither style"


def test_she_plays_the_solved_strategy_heads_up_while_the_record_is_doubted() -> None:
    rng = random.Random(5)
    profile = Profile()
    for _ in range(600):
        profile = grow(profile, rng, 0.0, 0.2)
    for part in ("claim", "answer"):
        assert bluff.exploit_share(profile, EXPERT, "dollar", 2, part, doubted=False) > 0
        assert bluff.exploit_share(profile, EXPERT, "dollar", 2, part, doubted=True) == 0.0
        # At a bigger table trust alone decides, but not in a record that is doubted.
        assert bluff.exploit_share(profile, EXPERT, "dollar", 3, part, doubted=False) > 0
        assert bluff.exploit_share(profile, EXPERT, "dollar", 3, part, doubted=True) == 0.0


def test_the_counts_that_differ_only_by_chance_are_not_a_switch() -> None:
    same = Profile(free_claims=20, free_bluffs=5)
    rest = Profile(free_claims=420, free_bluffs=105)
    record = Profile(free_claims=440, free_bluffs=110)
    assert minus(record, same) == rest
    assert not drifted(record, same)
    assert drifted(
        Profile(free_claims=440, free_bluffs=120), Profile(free_claims=20, free_bluffs=15)
    )


class Stored:
    """The one storage query a computer's knowledge needs, over counters set by hand."""

    def __init__(self) -> None:
        self.totals: dict[str, int] = {}

    async def player_records(
        self, guild_id: int, user_ids: list[int]
    ) -> dict[int, tuple[dict[str, int], int]]:
        return {uid: (dict(self.totals), self.totals.get("free_claims", 0)) for uid in user_ids}


def counters(profile: Profile) -> dict[str, int]:
    row = {name: getattr(profile, name) for name in ("free_claims", "free_bluffs")}
    row |= {f"faced_{r}": n for r, n in enumerate(profile.faced)}
    return row | {f"called_{r}": n for r, n in enumerate(profile.called)}


async def test_the_records_the_computers_read_carry_the_doubt_of_their_memory() -> None:
    """As the bot reads them (``knowledge.stored_records`` with the computers' memory):
    the same stored counters, read as they grow, are doubted once the style switches."""
    from bot.ai.knowledge import stored_records
    from tests.test_ai_bluff import table

    game = table("mexican")
    storage, memory = Stored(), RecentPlay()
    rng = random.Random(6)
    profile = Profile()
    for _ in range(600):
        profile = grow(profile, rng, 0.0, 0.2)
        storage.totals = counters(profile)
        records = await stored_records(storage, 1, game, memory)
        assert not records["111"].doubted
    doubted = False
    for _ in range(SPAN):
        profile = grow(profile, rng, 0.6, 0.7)
        storage.totals = counters(profile)
        doubted = (await stored_records(storage, 1, game, memory))["111"].doubted
    assert doubted
    # Without a memory (a reader that keeps none) nothing is ever doubted.
    assert not (await stored_records(storage, 1, game))["111"].doubted


def test_the_memory_forgets_the_least_recently_read_beyond_its_people() -> None:
    memory = RecentPlay(people=2)
    rng = random.Random(7)
    profiles = {key: Profile() for key in "abc"}
    for _ in range(SPAN + 10):
        for key in "ab":
            profiles[key] = grow(profiles[key], rng, 0.2, 0.3)
            memory.update(key, profiles[key])
    assert memory.recent("a", profiles["a"]) is not None
    memory.update("a", profiles["a"])  # "a" read last: "b" is the one to go
    memory.update("c", grow(profiles["c"], rng, 0.2, 0.3))
    assert memory.recent("b", profiles["b"]) is None
    assert memory.recent("a", profiles["a"]) is not None


def test_a_long_bait_buys_no_more_lean_than_the_cap() -> None:
    """Her running bank (docs/computer.md, "Safe exploitation"): a stretch of weak play
    fills it only to the cap, a punishment empties it, and she leans again only once her
    results have earned back what the floor holds; the all-time bank never pays."""
    memory = RecentPlay()
    memory.update("p", Profile())  # read as the bot reads: the record, then the bank
    assert memory.spend("p", 0.0) == bank.SEED  # a new person: the seed
    for won in range(0, 300, 5):  # 300 rounds won above the policy
        running = memory.spend("p", float(won))
    assert running == bank.CAP
    lean = bluff.affordable(Profile(), "dollar", "answer", running)
    assert lean == bluff.RATE["dollar"] / bluff.RISK["dollar"]["answer"], "the full lean"
    # A punishment takes the cap back, and no more is lent however much was won before.
    assert memory.spend("p", 295.0 - bank.CAP) == 0.0
    assert bluff.affordable(Profile(), "dollar", "answer", 0.0) == 0.0
    assert memory.spend("p", 200.0) == bank.FLOOR
    assert memory.spend("p", 200.0 - bank.FLOOR) == 0.0, "the floor is earned back first"
    assert memory.spend("p", 205.0 - bank.FLOOR) == 5.0
    assert memory.bank("p", 1000.0) == bank.CAP and memory.spend("p", 206.0 - bank.FLOOR) == 6.0
    # Read without a memory (or forgotten), she opens with the seed and the all-time bank.
    assert RecentPlay().bank("p", 1000.0) == bank.CAP
    assert RecentPlay().bank("p", -1000.0) == bank.FLOOR


def test_the_running_bank_is_forgotten_with_the_person() -> None:
    memory = RecentPlay(people=1)
    memory.update("a", Profile())
    memory.spend("a", 100.0)
    memory.spend("a", 90.0)
    assert memory.bank("a", 90.0) == bank.CAP - 10
    memory.update("b", Profile())  # "a" is forgotten: read again as a stranger to memory
    assert memory.bank("a", 90.0) == bank.CAP


async def test_the_records_the_computers_read_carry_her_running_bank() -> None:
    """As the bot reads them: the duel counters' rounds move the running bank, a long run
    of rounds won fills it only to the cap, and rounds lost empty it."""
    from bot.ai.knowledge import stored_records
    from tests.test_ai_bluff import table

    game = table("dollar")
    storage, memory = Stored(), RecentPlay()
    banks = []
    # Rounds she won and lost (the person's lost and won), half started by each.
    for won, lost in [(0, 0), (10, 10), (400, 100), (400, 130), (400, 300)]:
        storage.totals = {"duel_rounds": won + lost, "duel_led": (won + lost) // 2}
        storage.totals |= {"duel_won": lost, "duel_lost": won}
        banks.append((await stored_records(storage, 1, game, memory))["111"].bank)
    assert banks[:3] == [bank.SEED, bank.SEED, bank.CAP]
    # 30 rounds lost where the policy expects half: 15 rounds below its expectation.
    assert banks[3] == pytest.approx(bank.CAP - 15, abs=0.5)
    assert banks[4] == bank.FLOOR
    assert (await stored_records(storage, 1, game))["111"].bank is None, "no memory, no bank"
