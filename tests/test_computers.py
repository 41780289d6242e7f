"""Computer players at real tables (README, Playing against the computer): seated from the
lobby, moving after a short pause through the same path as people, never pinged, never
timed out, never on a leaderboard, and deciding from their own seat's view alone."""

from __future__ import annotations

import random

import pytest

from bot.ai import brain, knowledge
from bot.ai.personas import PERSONAS, STATS_IDS
from bot.engine import PRESET_NAMES, Act, Game, Move
from bot.game.tables import TableService
from bot.runtime.settings import Settings
from bot.storage import Storage, open_storage
from tests.play_helpers import (
    assert_public,
    message_text,
    public_text,
    refused,
    table_of,
    turn_message,
)
from tests.support.sim import SimTable
from tests.support.transcript import Driver, Transcript

#: Longer than any computer's pause (1-3 s).
PAUSE = 3.1
#: simcord waits for bot work due within its settle timeout in real time; with a timeout
#: below the computers' pause, the pause is left to the virtual clock (advance_time).
pytestmark = pytest.mark.simcord(settle_timeout=0.5)


async def lobby_with_computers(
    sim: SimTable, preset: str, computers: list[str], people: int = 1, **options: object
) -> None:
    host = sim.users[0]
    options.setdefault("turn_timer", 0)
    await host.slash(sim.channel, "newgame", ruleset=preset, **options)
    for user in sim.users[1:people]:
        await user.slash(sim.channel, "join")
    for persona in computers:
        result = await host.slash(sim.channel, "addbot", persona=persona)
        assert result.ephemeral and "sits down" in result.response.content


async def until_a_computer_moves_next(sim: SimTable) -> None:
    """The person plays (random legal taps) until a computer is to move."""
    driver = Driver(Transcript(sim), 1)
    for _ in range(20):
        game = table_of(sim).game
        if game.to_move in game.computers:
            return
        await driver.step()
    raise AssertionError("no computer got a turn")


async def play_out(sim: SimTable, seed: int, rounds: int | None = None, moves: int = 300) -> None:
    """People move by random legal taps; computers after their pause."""
    t = Transcript(sim)
    driver = Driver(t, seed)
    for _ in range(moves):
        table = sim.bot.tables.get(sim.channel.id)
        if table is None or table.game.phase != "playing":
            return
        if rounds is not None and table.game.round_no > rounds:
            return
        game = table.game
        if game.to_move in game.computers:
            before = game.move_no
            await sim.env.advance_time(PAUSE)
            assert game.move_no > before or game.phase != "playing", "the computer did not move"
        else:
            await driver.step()
    raise AssertionError("the game did not finish in time")


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_a_person_plays_computers_in_every_rule_set(sim: SimTable, preset: str) -> None:
    a = sim.users[0]
    sim.bot.tables.rng = random.Random(7)
    await lobby_with_computers(sim, preset, ["expert", "cautious"])
    lobby = turn_message(sim)
    text = message_text(lobby)
    assert "🤖 Expert Ada" in text and PERSONAS["cautious"].blurb in text
    await a.click(lobby, label="Start")
    table = table_of(sim)
    assert table.game.computers == ["cpu_expert_1", "cpu_cautious_1"]
    await play_out(sim, seed=3, rounds=3)
    events = await sim.bot.storage.events(table.game_id)
    movers = {e.payload["player"] for e in events if e.kind == "move"}
    assert {"cpu_expert_1", "cpu_cautious_1"} <= movers, movers
    for message in sim.channel.history():
        assert "<@cpu" not in message_text(message)  # never a mention
        assert table.meta.deadline is None or table.game.to_move not in table.game.computers
    if sim.bot.tables.get(sim.channel.id) is not None:
        await a.slash(sim.channel, "endgame")
    assert "Final standing" in public_text(sim) and "🤖 Cautious Carla" in public_text(sim)
    sim.env.raise_errors()


async def test_one_person_against_two_computers_plays_to_the_end(sim: SimTable) -> None:
    a = sim.users[0]
    sim.bot.tables.rng = random.Random(11)
    await lobby_with_computers(sim, "dollar", ["expert", "bold"], lives=1)
    start = await a.slash(sim.channel, "start")
    assert not start.ephemeral
    await play_out(sim, seed=5)
    assert sim.bot.tables.get(sim.channel.id) is None  # the game ended by itself
    final = public_text(sim).split("Final standing")[-1]
    for name in (f"<@{a.id}>", "🤖 Expert Ada", "🤖 Bold Bruno"):
        assert name in final
    sim.env.raise_errors()


async def test_a_computers_turn_shows_no_buttons_pings_nobody_and_has_no_timer(
    sim: SimTable,
) -> None:
    a = sim.users[0]
    sim.bot.tables.rng = random.Random(2)
    await lobby_with_computers(sim, "mexen", ["caller"], turn_timer=60)
    await a.slash(sim.channel, "start")
    table = table_of(sim)
    await until_a_computer_moves_next(sim)
    assert table.game.to_move == "cpu_caller_1"
    message = turn_message(sim)
    assert "🤖 Calling Kees is thinking…" in message_text(message)
    assert not [
        c
        for row in message.components
        for c in row.children
        if (c.custom_id or "").startswith("mx:")
    ]
    assert table.meta.deadline is None  # computers never time out
    before = table.game.move_no
    await sim.env.advance_time(0.5)
    assert table.game.move_no == before  # it takes a human-looking pause
    await sim.env.advance_time(PAUSE)
    assert table.game.move_no > before


@pytest.mark.slow
async def test_a_pending_computer_move_survives_a_restart(
    sim: SimTable, settings: object, storage: Storage
) -> None:
    from tests.test_play_restart import restart

    a = sim.users[0]
    sim.bot.tables.rng = random.Random(4)
    await lobby_with_computers(sim, "mexen", ["expert"])
    await a.slash(sim.channel, "start")
    table = table_of(sim)
    await until_a_computer_moves_next(sim)
    move_no = table.game.move_no
    await sim.env.advance_time(0.5)  # mid-pause: the move is not made yet
    assert table.game.move_no == move_no
    record = await storage.get_game(table.game_id)
    assert record is not None
    # The new process finds the computer to move, and it moves after its pause.
    await restart(sim, settings, storage, [6, 4, 5, 2, 4, 1, 6, 6])  # type: ignore[arg-type]
    resumed = table_of(sim)
    await sim.env.advance_time(PAUSE)
    assert resumed.game.move_no > move_no, "the computer's move was lost in the restart"
    log = [e.payload for e in await storage.events(table.game_id) if e.kind == "move"]
    assert log[-1]["player"] == "cpu_expert_1" or resumed.game.to_move == str(a.id)
    made = [e for e in log if e["player"] == "cpu_expert_1"]
    assert made, "no move by the computer after the restart"
    sim.env.raise_errors()


async def test_seating_computers_is_for_the_host_in_the_lobby(sim: SimTable) -> None:
    a, b = sim.users[:2]
    await refused(sim, a.slash(sim.channel, "addbot"), says="no game in this channel")
    await a.slash(sim.channel, "newgame", ruleset="mexico", turn_timer=0)
    await b.slash(sim.channel, "join")
    await refused(sim, b.slash(sim.channel, "addbot"), says="Only the host")
    for _ in range(6):
        await a.slash(sim.channel, "addbot")
    assert len(table_of(sim).game.seats) == 8
    await refused(sim, a.slash(sim.channel, "addbot"), says="full (8 players at most)")
    await refused(sim, a.click(turn_message(sim), label="Join"), says="already in this game")
    removed = await a.slash(sim.channel, "removebot", persona="bold")
    assert removed.ephemeral and "Bold Bruno" in removed.response.content
    await a.slash(sim.channel, "start")
    await refused(sim, a.slash(sim.channel, "addbot"), says="in the lobby")
    await refused(sim, a.slash(sim.channel, "removebot"), says="in the lobby")


async def test_no_game_of_computers_alone(sim: SimTable) -> None:
    a = sim.users[0]
    await lobby_with_computers(sim, "mexen", ["expert", "bold"])
    left = await a.slash(sim.channel, "leave")  # the host was the only person
    assert "Game over" in assert_public(left)
    assert sim.bot.tables.get(sim.channel.id) is None  # the lobby closed
    await lobby_with_computers(sim, "mexen", ["expert"])
    await a.slash(sim.channel, "start")
    assert_public(await a.slash(sim.channel, "leave"))
    assert sim.bot.tables.get(sim.channel.id) is None  # the last person left: it ended


async def test_computers_are_never_on_the_leaderboard_but_have_a_card(sim: SimTable) -> None:
    a = sim.users[0]
    sim.bot.tables.rng = random.Random(9)
    await lobby_with_computers(sim, "dollar", ["bold"], lives=1)
    await a.slash(sim.channel, "start")
    await play_out(sim, seed=2)
    totals = await sim.bot.storage.player_totals(sim.guild.id, STATS_IDS["bold"])
    assert totals.games_played == 1
    for stat in ("wins", "lives_lost", "calls"):
        board = await a.slash(sim.channel, "leaderboard", stat=stat)
        assert "Bruno" not in board.response.embeds[0].description
        assert "-" not in board.response.embeds[0].description.split("·")[0]
    card = await a.slash(sim.channel, "stats", computer="bold", text=True)
    embed = card.response.embeds[0]
    assert embed.title == "🎲 🤖 Bold Bruno" and embed.description.startswith("1 game")


# --- no cheating, by construction -------------------------------------------------------------


@pytest.mark.parametrize("preset", ["mexican", "dollar"])
def test_changing_dice_a_computer_has_not_seen_never_changes_its_decision(preset: str) -> None:
    """Random games: wherever a computer decides, put other dice under the cup it did not
    see; with the same random draws it makes the same move."""
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = Game.create(preset, "p1", {"lives": 3} if preset == "mexican" else {})
        game.add_computer("p1", "cpu_expert_1")
        game.add_computer("p1", "cpu_caller_1")
        game.start("p1", rng)
        for _ in range(60):
            if game.phase != "playing":
                break
            mover = game.to_move
            assert mover is not None
            if mover in game.computers and game.cup is not None and mover not in game.seen_by:
                first = brain.decide(knowledge.inputs(game, mover), random.Random(seed))
                truth = game.cup
                for other in ((6, 6), (2, 1), (3, 2), (5, 4)):
                    game.cup = other
                    again = brain.decide(knowledge.inputs(game, mover), random.Random(seed))
                    assert again == first, (seed, truth, other)
                game.cup = truth
                checked += 1
            move = (
                brain.decide(knowledge.inputs(game, mover), rng)
                if mover in game.computers
                else rng.choice(game.legal_actions(mover))
            )
            game.apply(mover, move or game.legal_actions(mover)[0], rng)
    assert checked > 20, checked


def test_a_computer_only_ever_plays_legal_moves() -> None:
    for preset in PRESET_NAMES:
        for seed in range(15):
            rng = random.Random(seed)
            game = Game.create(preset, "p1", {"lives": 2} if preset != "dollar" else {})
            for persona in ("expert", "bold", "cautious"):
                game.add_computer("p1", f"cpu_{persona}_1")
            game.start("p1", rng)
            for _ in range(200):
                if game.phase != "playing":
                    break
                mover = game.to_move
                assert mover is not None
                if mover not in game.computers:
                    game.apply(mover, rng.choice(game.legal_actions(mover)), rng)
                    continue
                move = brain.decide(knowledge.inputs(game, mover), rng)
                assert move is not None and move in game.legal_actions(mover), (preset, move)
                game.apply(mover, move, rng)
                assert Move(Act.TIMEOUT) != move


async def test_the_seat_an_addbot_takes_is_chosen_from_the_stored_lobby(
    sim: SimTable, settings: Settings
) -> None:
    """The seat is chosen under the channel's lock from the lobby as stored, not from a
    copy another process has moved past (README, Running at scale): the second Expert
    seated through another process makes this /addbot seat the third, not refuse."""
    a = sim.users[0]
    await a.slash(sim.channel, "newgame", ruleset="mexen", turn_timer=0)
    await a.slash(sim.channel, "addbot", persona="expert")
    async with await open_storage(settings.database) as storage:
        other = TableService(storage, random.Random(1))
        await other.restore()
        await other.act(sim.channel.id, str(a.id), Move(Act.ADD_COMPUTER, to="cpu_expert_2"), 1.0)
    result = await a.slash(sim.channel, "addbot", persona="expert")
    assert result.ephemeral and "sits down" in result.response.content
    assert sorted(table_of(sim).game.computers) == ["cpu_expert_1", "cpu_expert_2", "cpu_expert_3"]
