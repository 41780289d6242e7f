"""Every refusal is private, says what is wrong, and changes nothing: neither the table
(engine state and the bot's own bookkeeping) nor anything in the channel."""

from __future__ import annotations

import pytest

from bot.engine import StaleAction
from tests.conftest import SimTable
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import custom_ids, open_game, pid, refused, state, table_of, turn_message


async def test_not_your_turn_names_whose_move_it_is(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 5])
    await open_game(sim, "mexican", 3)
    text = await refused(sim, b.slash(sim.channel, "roll"), says="It's not your turn")
    assert f"<@{a.id}>" in text  # a mention, not a raw user id
    await refused(sim, c.click(turn_message(sim), label="Roll"), says="It's not your turn")
    await a.slash(sim.channel, "roll")
    await a.slash(sim.channel, "claim", value="65")
    text = await refused(sim, c.slash(sim.channel, "bullshit"), says="It's not your turn")
    assert f"the claim was passed to <@{b.id}>" in text
    await refused(sim, a.click(turn_message(sim), label="Accept"), says="It's not your turn")


async def test_not_in_this_game(sim: SimTable) -> None:
    d = sim.users[3]
    await open_game(sim, "mexen", 2)
    await refused(sim, d.slash(sim.channel, "roll"), says="You're not in this game.")
    await refused(sim, d.click(turn_message(sim), label="Roll"), says="You're not in this game.")
    await refused(sim, d.slash(sim.channel, "leave"), says="You're not in this game.")


async def test_no_game_here(sim: SimTable) -> None:
    a = sim.users[0]
    for command, options in [("roll", {}), ("claim", {"value": "65"}), ("join", {}),
                             ("endgame", {}), ("table", {}), ("peek", {})]:  # fmt: skip
        await refused(sim, a.slash(sim.channel, command, **options), says="There's no game")
    assert sim.channel.history() == []


async def test_a_game_is_already_running_here(sim: SimTable) -> None:
    a, b, *_ = sim.users
    await sim.users[0].slash(sim.channel, "newgame", ruleset="mexico")
    await refused(sim, b.slash(sim.channel, "newgame", ruleset="dollar"), says="already running")
    await open_game_after_lobby(sim)
    await refused(sim, a.slash(sim.channel, "newgame", ruleset="mexico"), says="already running")


async def open_game_after_lobby(sim: SimTable) -> None:
    await sim.users[1].slash(sim.channel, "join")
    await sim.users[0].slash(sim.channel, "start")
    assert table_of(sim).game.phase == "playing"


async def test_invalid_claims_say_what_is_valid(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([4, 2, 5, 1])
    await open_game(sim, "dollar", 2)
    await refused(sim, a.slash(sim.channel, "claim", value="65"), says="Roll first.")
    await a.slash(sim.channel, "roll")
    await refused(
        sim, a.slash(sim.channel, "claim", value="77"),
        says=["'77' is not a roll", "65, 56", "double five", "mia"],
    )  # fmt: skip
    await a.slash(sim.channel, "claim", value="double six")
    await b.slash(sim.channel, "roll")
    await refused(
        sim, b.slash(sim.channel, "claim", value="55"),
        says=["double five does not beat the standing claim of double six", "Valid now: 21"],
    )  # fmt: skip
    await refused(
        sim, b.slash(sim.channel, "claim", value="66"), says="Valid now: 21."
    )  # no ties in dollar


async def test_moves_that_do_not_fit_the_moment(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 4])
    await open_game(sim, "mexen", 2)
    await refused(sim, a.slash(sim.channel, "stand"), says="Roll first")
    await refused(sim, a.slash(sim.channel, "roll", blind=True), says="Every roll is open")
    await refused(sim, a.slash(sim.channel, "claim", value="65"), says="no cup to bluff")
    await refused(sim, a.slash(sim.channel, "fold"), says="no cup to bluff")
    await refused(sim, b.slash(sim.channel, "tap"), says="no 3-2 to lock")
    await refused(sim, a.slash(sim.channel, "start"), says="already started")
    await refused(sim, b.slash(sim.channel, "endgame"), says="Only the host can end the game.")
    await refused(sim, a.slash(sim.channel, "peek"), says="Every roll is open")
    await a.slash(sim.channel, "roll")
    await refused(sim, a.slash(sim.channel, "roll", keep=1), says="Keeping a die is off")
    await refused(sim, a.slash(sim.channel, "handout", player=b), says="no sip to hand out")


async def test_a_stale_button_is_refused(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 5, 4, 4])
    table = await open_game(sim, "mexican", 3)
    first = await a.slash(sim.channel, "roll")
    old_turn = turn_message(sim)
    await a.slash(sim.channel, "claim", value="65")
    # The old turn message lost its buttons; the claim select of the private dice did not.
    assert not next(m for m in sim.channel.history() if m.id == old_turn.id).components
    assert custom_ids(first.response) == [f"mxs:claim:{sim.channel.id}:{table.game.move_no - 1}"]
    await refused(sim, a.select(first.response, ["66"]), says="from an earlier turn")
    # A double click: the same button pressed again after it did its move.
    accept = f"mx:accept:{sim.channel.id}:{table.game.move_no}"
    message = turn_message(sim)
    assert accept in custom_ids(message)
    await b.click(message, custom_id=accept)
    assert table.game.stage == "accepted"
    # The click edited the message in place: the Accept button is gone with the old move.
    assert accept not in custom_ids(turn_message(sim))
    rolled = await b.slash(sim.channel, "roll")
    assert rolled.ephemeral and "double four" in rolled.response.content
    await refused(sim, a.select(first.response, ["21"]), says="from an earlier turn")

    # One layer down, every checked move refuses an old move number.
    before = state(sim)
    for move in ("claim", "fold", "roll"):
        with pytest.raises(StaleAction, match="earlier turn"):
            await sim.bot.tables.act(
                sim.channel.id, pid(b), move, 0.0, value="65", expect_move=table.game.move_no - 1
            )
    assert state(sim) == before


async def test_too_few_players(sim: SimTable) -> None:
    a = sim.users[0]
    await a.slash(sim.channel, "newgame", ruleset="mexicanen")
    await refused(sim, a.slash(sim.channel, "start"), says="at least 2 players")
    await refused(sim, a.click(turn_message(sim), label="Start"), says="at least 2 players")
    await refused(sim, sim.users[1].slash(sim.channel, "start"), says="Only the host")


async def test_too_many_players_in_mexico(sim: SimTable) -> None:
    players = list(sim.users)
    for n in range(5):
        players.append(sim.guild.add_member(sim.env.create_user(f"guest{n}")))
    await players[0].slash(sim.channel, "newgame", ruleset="mexico")
    for user in players[1:8]:
        await user.click(turn_message(sim), label="Join")
    assert len(table_of(sim).game.seats) == 8
    await refused(sim, players[8].slash(sim.channel, "join"), says="full (8 players at most)")
    await refused(
        sim, players[8].click(turn_message(sim), label="Join"), says="full (8 players at most)"
    )
    await refused(sim, players[1].slash(sim.channel, "join"), says="already in this game")


async def test_joining_a_running_lives_game_is_refused(sim: SimTable) -> None:
    await open_game(sim, "dollar", 2)
    await refused(sim, sim.users[2].slash(sim.channel, "join"), says="takes no new players")


async def test_a_move_that_cannot_be_stored_is_refused_privately_and_undone(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = sim.users[0], sim.users[1]
    await alice.slash(sim.channel, "newgame", ruleset="mexen")
    await bob.slash(sim.channel, "join")
    await alice.slash(sim.channel, "start")
    table = sim.bot.tables.get(sim.channel.id)
    assert table is not None
    before = table.game.to_dict()

    async def broken(*args: object, **kwargs: object) -> list[int]:
        raise OSError("disk full")

    monkeypatch.setattr(sim.bot.storage, "save_move", broken)
    result = await alice.slash(sim.channel, "roll")
    assert result.ephemeral and "could not be saved" in result.response.content
    table = sim.bot.tables.get(sim.channel.id)
    assert table is not None and table.game.to_dict() == before
    sim.env.errors.clear()  # the failure was logged on purpose


async def test_a_failing_command_gets_one_private_answer(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(sim.bot.storage, "player_totals", broken)
    result = await sim.users[0].slash(sim.channel, "stats", text=True)
    assert result.ephemeral and "Something went wrong" in result.response.content
    sim.env.errors.clear()
