"""The arena measures the bot as it runs (README, Benchmarks: Computer players).

Every opponent plays legal games to their end, heads-up and at a table of three; the
expert decides on exactly ``knowledge.inputs`` with records ``Record.from_totals`` of the
arena's own statistics; and those statistics are what the bot stores for the same game,
checked by replaying the game through the table service into a real database.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from benchmarks import ai_arena
from benchmarks.ai_arena import EXPERT, PEOPLE, Statistics, play_game
from benchmarks.ai_exploiters import (
    Baiter,
    Creeper,
    against_solved,
    her_strategy,
    play_profile,
    solved,
)
from bot.ai import bluff, knowledge
from bot.ai.bank import CAP, FLOOR
from bot.ai.knowledge import Inputs, Record
from bot.ai.opponents import Profile
from bot.ai.personas import PERSONAS
from bot.engine import Act, Event, Game, Move, Roll, RoundStarted
from bot.game.tables import TableService
from bot.league.stats import move_deltas, move_records, stored_id
from bot.storage import open_storage

#: Each bluffing preset and one open-roll preset.
PRESETS = ("mexican", "dollar", "mexen")
GAMES = 3


def opponents(preset: str) -> list[str]:
    """Every opponent that plays ``preset``; of the thresholds the two ends and the middle."""
    named = [o for o in ai_arena.OPPONENTS if not o.startswith("threshold-")]
    named += ["threshold-0", "threshold-10", "threshold-20"]
    return [o for o in named if ai_arena.plays(o, preset)]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_opponent_plays_legal_games_to_the_end(preset: str, players: int) -> None:
    for name in opponents(preset):
        found = ai_arena.BASELINES.get(name, (None, None))[0 if preset in ai_arena.BLUFFING else 1]
        exploiter = None
        stats, dice, minds = Statistics(), random.Random(players), random.Random(7)
        adversary = None
        if name in ai_arena.EXPLOITERS:
            exploiter = ai_arena.Exploiter(cheat=name == "exploiter-cheat")
            found = exploiter.play
        elif name in ai_arena.ADAPTIVE:
            adversary = ai_arena.adversary_for(name, preset, stats)
            if isinstance(adversary, Baiter):
                adversary.phase = 1  # bait one game, punish the next
            if isinstance(adversary, Creeper):
                adversary.bait_games = 1  # bait one game, then lean on her
            found = adversary.play
        assert found is not None
        tally = ai_arena.Tally(preset, name, players)
        for _ in range(GAMES):
            if adversary is not None:
                adversary.new_game()
            people = dict.fromkeys(PEOPLE[: players - 1], found)
            # play_game refuses (ArenaError) any move the engine does not offer the seat
            played = play_game(preset, people, stats, dice, minds, exploiter=exploiter)
            assert played.finished and played.game.phase == "over", (preset, name)
            assert len(played.rounds) > 0 and len(played.game.seats) <= players
            if played.game.options.lives is None:  # no end of its own: the round limit
                assert played.game.round_no == ai_arena.ROUNDS + 1
            ai_arena.measure(tally, played)
        assert tally.games == GAMES and sum(tally.even) > 0
    if preset in ai_arena.BLUFFING:
        assert "threshold-20" in opponents(preset) and "exploiter" in opponents(preset)
        assert {"responder", "baiter", "creeper", "drifter"} <= set(opponents(preset))


@pytest.mark.parametrize("preset", ai_arena.BLUFFING)
def test_a_persons_rounds_against_the_expert_are_counted_heads_up_only(preset: str) -> None:
    """The duel counters her bank is read from: every heads-up round against her, who
    started it and who lost it; nothing at a table of three."""
    truthful = ai_arena.BASELINES["truthful"][0]
    assert truthful is not None
    stats = Statistics()
    started: list[str | None] = []
    record = stats.record

    def spy(events: list[Event], game: Game, cup: Roll | None) -> None:
        started.extend(e.player for e in events if isinstance(e, RoundStarted))
        record(events, game, cup)

    stats.record = spy  # type: ignore[method-assign]
    played = play_game(preset, {PEOPLE[0]: truthful}, stats, random.Random(3), random.Random(4))
    row = stats.totals[int(PEOPLE[0])]
    losers = [loser for _, loser in played.rounds]
    assert row["duel_rounds"] == len(started) == len(played.rounds) > 3
    assert row["duel_led"] == started.count(PEOPLE[0]) > 0
    assert row["duel_lost"] == losers.count(PEOPLE[0]) > 0
    assert row["duel_won"] == losers.count(EXPERT) > 0
    three = Statistics()
    people = dict.fromkeys(PEOPLE[:2], truthful)
    play_game(preset, people, three, random.Random(3), random.Random(4))
    assert not any(three.totals[int(p)]["duel_rounds"] for p in PEOPLE[:2])
    bold = Game.create(preset, PEOPLE[0], ai_arena.TABLE_OPTIONS[preset])
    bold.add_computer(PEOPLE[0], "cpu_bold_1")  # a computer that reads nobody
    stats.record(bold.start(PEOPLE[0], random.Random(1)), bold, None)
    assert stats.totals[int(PEOPLE[0])]["duel_rounds"] == row["duel_rounds"]


@pytest.mark.parametrize("preset", ai_arena.BLUFFING)
def test_the_responder_answers_her_strategy_as_her_code_plays_it(preset: str) -> None:
    """Without a record she plays the solved policy; with one she has banked against, the
    tables move toward her best answer by exactly the share her code affords each part."""
    plain, share = her_strategy(preset, None)
    assert share == 0.0 and plain is solved(preset)
    lost = 1500
    profile = Record.from_totals(
        {
            "free_claims": 600,
            "forced_claims": 300,
            "duel_rounds": 2000,
            "duel_led": 1000,
            "duel_won": 2000 - lost,
            "duel_lost": lost,
            **{f"faced_{r}": 40 for r in range(21)},
        },
        900,
    ).profile
    mixed, share = her_strategy(preset, profile)
    expert = PERSONAS["expert"]
    parts = {p: bluff.exploit_share(profile, expert, preset, 2, p) for p in ("claim", "answer")}
    assert share == max(parts.values()) > 0
    moved = abs(mixed["claim_seen"] - plain["claim_seen"]).sum(axis=-1).max()
    assert 0 < moved <= 2 * parts["claim"] + 1e-9
    for name, table in mixed.items():  # still a strategy: every row sums to 1 or 0
        sums = table.sum(axis=-1)
        assert ((abs(sums - 1) < 1e-9) | (sums == 0)).all(), name


def test_a_stranger_is_handed_no_records_and_the_responder_knows_it() -> None:
    """``--stranger``: she decides on no records at all (the solved policy alone), the
    responder works out exactly that, and the statistics are kept as ever."""
    decided: list[Inputs] = []
    stranger = Statistics(stranger=True)
    adversary = ai_arena.adversary_for("responder", "dollar", stranger)
    assert isinstance(adversary, ai_arena.Responder)
    for seed in range(3):
        adversary.new_game()
        play_game(
            "dollar",
            {PEOPLE[0]: adversary.play},
            stranger,
            random.Random(seed),
            random.Random(seed),
            spy=lambda game, seat, inputs: decided.append(inputs),
        )
    assert len(decided) > 20 and all(i.records == {} for i in decided)
    assert stranger.totals[int(PEOPLE[0])]["duel_rounds"] > 3, "the record still grows"
    assert adversary.records() == (None, False, None) and adversary.share == 0.0
    known = Statistics()
    known.totals = stranger.totals
    assert ai_arena.adversary_for("responder", "dollar", known).records()[0] is not None
    jobs = ai_arena.jobs_for(["dollar"], ["responder"], {2: 10}, 1, stranger=True)
    assert [job[-1] for job in jobs] == [True]
    tally = ai_arena.pairing(jobs[0])
    assert tally.games == 10 and "her last share on the best answer 0.00" in tally.learned


def test_a_seat_that_chooses_an_illegal_move_stops_the_arena() -> None:
    def cheat(view: ai_arena.View, rng: random.Random) -> Move | None:
        return Move(Act.BULLSHIT)  # before any claim: never legal

    with pytest.raises(ai_arena.ArenaError):
        for seed in range(10):  # until the cheat is to move at some point
            people = {PEOPLE[0]: cheat}
            play_game("dollar", people, Statistics(), random.Random(seed), random.Random(seed))


@pytest.mark.parametrize("preset", ["mexican", "dollar"])
def test_the_expert_decides_on_knowledge_inputs_from_the_arenas_statistics(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What reaches the brain is ``knowledge.inputs(game, seat, records)``, the records
    ``Record.from_totals`` of the arena's stored counters and claims: nothing else."""
    expected: list[Inputs] = []
    decided: list[Inputs] = []
    stats = Statistics()

    def spy(game: Game, seat: str, inputs: Inputs) -> None:
        assert seat == EXPERT
        # As the computer players read them (bot/game/computers.py): the people's stored
        # rows, at a bluffing table.
        records = {
            p: Record.from_totals(dict(stats.totals[int(p)]), stats.claims.get(int(p), 0))
            for p in game.players
            if p.isdigit() and int(p) in stats.totals
        }
        expected.append(knowledge.inputs(game, seat, records))
        # What her memory adds (doubt, the running bank) is tests/test_recent_play.py's.
        memory = {p: replace(r, doubted=False, bank=None) for p, r in inputs.records.items()}
        assert replace(inputs, records=memory) == expected[-1]
        assert all(FLOOR <= r.bank <= CAP for r in inputs.records.values() if r.bank is not None)
        if len(game.players) == 2:
            assert all(r.bank is not None for r in inputs.records.values())

    real = ai_arena.brain.decide

    def decide(inputs: Inputs, rng: random.Random) -> Move | None:
        decided.append(inputs)
        return real(inputs, rng)

    monkeypatch.setattr(ai_arena.brain, "decide", decide)
    truthful = ai_arena.BASELINES["truthful"][0]
    assert truthful is not None
    dice, minds = random.Random(5), random.Random(6)
    for players in (2, 3, 2):  # across games, as on one server
        people = dict.fromkeys(PEOPLE[: players - 1], truthful)
        play_game(preset, people, stats, dice, minds, spy=spy)
    assert len(decided) == len(expected) > 20
    # The records are about the others at the table, and they grow as the games go on.
    assert all(EXPERT not in i.records and set(i.records) <= set(PEOPLE) for i in decided)
    assert ai_arena.Statistics().records(Game.create("mexen", PEOPLE[0])) == {}
    mine = [i.records.get(PEOPLE[0]) for i in decided]
    # A new player on a new server: nothing stored yet but the heads-up round just begun.
    assert mine[0] is not None and mine[0].claims == 0 and mine[0].profile.duel_rounds == 1
    claims = [r.claims if r else 0 for r in mine]
    assert claims == sorted(claims) and claims[-1] > 10
    assert stats.claims[stored_id(PEOPLE[0])] >= claims[-1]  # type: ignore[index]


async def replay(tmp_path: Path, preset: str, played: ai_arena.Played, seed: int) -> dict:
    """The same game through the bot's table service and a real database: what the bot
    stores, per stored player id (its totals and its number of claims)."""
    storage = await open_storage(tmp_path / f"{preset}-{seed}.db")
    try:
        service = TableService(storage, random.Random(seed))
        guild, channel, now = 1, 2, 1_000_000.0
        host = played.host
        options = ai_arena.TABLE_OPTIONS[preset]
        await service.open_table(guild, channel, host, preset, options, now)
        for player in played.joiners:
            move = Move(Act.ADD_COMPUTER, to=EXPERT) if player == EXPERT else Move(Act.JOIN)
            await service.act(channel, host if player == EXPERT else player, move, now)
        await service.act(channel, host, Move(Act.START), now)
        for player, move in played.moves:
            await service.act(channel, player, move, now)
        assert service.get(channel) is None, "the replayed game is over"
        ids = [who for p in played.game.players if (who := stored_id(p)) is not None]
        found = await storage.player_records(guild, ids)
        return {who: ({c: n for c, n in row.items() if n}, n) for who, (row, n) in found.items()}
    finally:
        await storage.close()


@pytest.mark.parametrize(("preset", "players"), [("mexican", 2), ("dollar", 3), ("mexen", 2)])
async def test_the_arenas_statistics_are_what_the_bot_stores(
    tmp_path: Path, preset: str, players: int
) -> None:
    seed = 11
    exploiter = ai_arena.Exploiter() if preset in ai_arena.BLUFFING else None
    found = exploiter.play if exploiter else ai_arena.BASELINES["truthful"][1]
    assert found is not None
    stats = Statistics()
    people = dict.fromkeys(PEOPLE[: players - 1], found)
    played = play_game(
        preset, people, stats, random.Random(seed), random.Random(1), exploiter=exploiter
    )
    assert played.game.phase == "over"
    arena = {who: (dict(+row), stats.claims.get(who, 0)) for who, row in stats.totals.items()}
    arena = {who: v for who, v in arena.items() if v[0]}
    stored = await replay(tmp_path, preset, played, seed)
    assert {w: v for w, v in stored.items() if v[0]} == arena
    # Once the game is over nothing is held back: the stored counters add up to every
    # move's whole truth (bot.league.stats.move_deltas), claims to every claim made.
    truth: dict[int, Counter[str]] = {}
    claims: Counter[int] = Counter()
    game = Game.create(preset, played.host, ai_arena.TABLE_OPTIONS[preset])
    dice = random.Random(seed)
    for player in played.joiners:
        game.add_computer(game.host, EXPERT) if player == EXPERT else game.join(player)
    moves: list[tuple[str | None, Move | None]] = [(None, None), *played.moves]
    for player, move in moves:  # the start first: it begins the first round
        cup = game.cup
        if player is None or move is None:
            events = game.start(game.host, dice)
        else:
            events = game.apply(player, move, dice)
        for p, deltas in move_deltas(events, game, cup).items():
            truth.setdefault(stored_id(p), Counter()).update(deltas)  # type: ignore[arg-type]
        claims.update(who for who, _ in move_records(events, game).claims)
    assert {w: dict(+c) for w, c in truth.items() if +c} == {w: v[0] for w, v in arena.items()}
    assert dict(claims) == {w: v[1] for w, v in arena.items() if v[1]}
    assert any(row.get("bluffs_made") for row, _ in arena.values()) or preset == "mexen"


def test_the_creeper_leans_while_her_test_is_quiet_and_answers_her_doubt() -> None:
    """After its bait it mixes in the best response to her answer, more each quiet game
    and less when her test comes near its level; while she doubts it (or reads no record
    of it) it plays the best response to the solved strategy she then plays."""
    truthful = ai_arena.BASELINES["truthful"][0]
    assert truthful is not None
    record = Profile(free_claims=40, faced=(2,) * 21, called=(1,) * 21)
    said: dict[str, Any] = {"doubted": False, "strain": 0.0, "profile": record}

    def records() -> tuple[Profile | None, bool, float | None]:
        return said["profile"], said["doubted"], 8.0

    creeper = Creeper("dollar", PEOPLE[0], records, lambda: said["strain"], truthful, 2, 0.1)
    for _ in range(2):
        creeper.new_game()
    assert creeper.share == 0.0 and not creeper._best, "the bait"
    for _ in range(3):
        creeper.new_game()
    assert creeper.share == pytest.approx(0.3) and creeper._best
    said["strain"] = 0.8
    creeper.new_game()
    assert creeper.share == pytest.approx(0.3), "near the level: held"
    said["strain"] = 0.95
    creeper.new_game()
    assert creeper.share == pytest.approx(0.2), "at it: backed off"
    said["doubted"] = True
    creeper.new_game()
    assert creeper.doubted and creeper.share == pytest.approx(0.1) and creeper.restarts == 1
    view = Game.create("dollar", PEOPLE[0], ai_arena.TABLE_OPTIONS["dollar"])
    view.add_computer(PEOPLE[0], EXPERT)
    view.start(PEOPLE[0], random.Random(1))
    seat = view.to_move
    assert seat is not None
    if seat == PEOPLE[0]:
        moves = {creeper.play(view.view(seat), random.Random(s)) for s in range(20)}
        starter = 0 if view.round_starter == PEOPLE[0] else 1
        assert moves == {play_profile(against_solved("dollar")[starter], view.view(seat))}
    said.update(doubted=False, strain=0.0, profile=None)
    creeper.new_game()
    assert creeper.doubted, "no record read: the solved strategy's best response"
