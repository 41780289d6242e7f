"""Every refusal is private, says what is wrong, and changes nothing: neither the table
(engine state and the bot's own bookkeeping) nor anything in the channel."""

from __future__ import annotations

from collections.abc import Sequence

import discord
import pytest
import simcord

from bot.engine import Act, Move, StaleAction
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import custom_ids, open_game, pid, refused, state, table_of, turn_message
from tests.support.sim import SimTable

#: What the bot answers to an id no button of its games carries.
NOT_OURS = "That button does not belong to this bot's game."


def hold_buttons(sim: SimTable, message: discord.Message) -> None:
    """The next edit of ``message`` fails, so it keeps the buttons it shows: what a player
    sees when the edit that retires them has not landed yet (a double click), or did not
    land at all (the bot could not edit its message)."""
    sim.env.inject_error(
        "PATCH",
        f"/channels/{sim.channel.id}/messages/{message.id}",
        status=403,
        code=50013,
        message="Missing Permissions",
    )


def now_showing(sim: SimTable, message: discord.Message) -> discord.Message:
    """``message`` as the channel shows it now."""
    return next(m for m in sim.channel.history() if m.id == message.id)


async def posted_by_the_bot(
    sim: SimTable, buttons: Sequence[str] = (), menus: Sequence[tuple[str, Sequence[str]]] = ()
) -> discord.Message:
    """A message of the bot's carrying buttons (by custom id) and menus (custom id, option
    values) the presenter never draws: a click on them reaches the bot with exactly these
    ids, like one from a tampered client or a message left by another version of the bot."""
    view = discord.ui.View(timeout=None)
    for n, custom_id in enumerate(buttons):
        view.add_item(discord.ui.Button(label=f"button {n}", custom_id=custom_id))
    for custom_id, values in menus:
        options = [discord.SelectOption(label=value, value=value) for value in values]
        view.add_item(discord.ui.Select(custom_id=custom_id, options=options))
    view.stop()  # routed by custom id only, as the bot's own views are
    channel = sim.bot.get_channel(sim.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return await channel.send("forged", view=view)


async def test_not_your_turn_names_whose_move_it_is(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 5])
    await open_game(sim, "mexican", 3)
    text = await refused(sim, b.slash(sim.channel, "roll"), says="It's not your turn")
    assert f"<@{a.id}>" in text  # a mention, not a raw user id
    await refused(sim, c.click(turn_message(sim), label="Roll"), says="It's not your turn")
    await a.slash(sim.channel, "roll")
    # Only the roller, who saw the dice, may look at them again.
    says = "You haven't seen the dice under the cup."
    await refused(sim, c.slash(sim.channel, "peek"), says=says)
    await a.slash(sim.channel, "claim", value="65")
    text = await refused(sim, c.slash(sim.channel, "bullshit"), says="It's not your turn")
    assert f"the claim was passed to <@{b.id}>" in text
    text = await refused(
        sim, a.click(turn_message(sim), label="Accept & roll"), says="It's not your turn"
    )
    assert f"it's <@{b.id}>'s move" in text


async def test_the_refusal_check_reads_what_is_stored(sim: SimTable) -> None:
    """`refused` compares the database too: a refusal whose handler wrote a move behind
    the table's back (the table in memory and the channel unchanged) does not pass."""
    b = sim.users[1]
    table = await open_game(sim, "mexican", 2)
    record = await sim.bot.storage.get_game_for_channel(sim.channel.id)
    assert record is not None

    async def refusal_that_writes() -> simcord.InteractionResult:
        result = await b.slash(sim.channel, "roll")
        await sim.bot.storage.save_move(table.game_id, record.state_json, record.status)
        return result

    with pytest.raises(AssertionError, match="a refusal changed what is stored"):
        await refused(sim, refusal_that_writes(), says="It's not your turn")


async def test_not_in_this_game(sim: SimTable) -> None:
    d = sim.users[3]
    await open_game(sim, "mexen", 2)
    await refused(sim, d.slash(sim.channel, "roll"), says="You're not in this game.")
    await refused(sim, d.click(turn_message(sim), label="Roll"), says="You're not in this game.")
    await refused(sim, d.slash(sim.channel, "leave"), says="You're not in this game.")


async def test_no_game_here(sim: SimTable) -> None:
    a = sim.users[0]
    for command, options in [
        ("roll", {}),
        ("claim", {"value": "65"}),
        ("join", {}),
        ("endgame", {}),
        ("table", {}),
        ("peek", {}),
    ]:
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
        sim,
        a.slash(sim.channel, "claim", value="77"),
        says=["'77' is not a roll", "65 or 56", "double five", "mia"],
    )
    await a.slash(sim.channel, "claim", value="double six")
    await b.slash(sim.channel, "roll")
    await refused(
        sim,
        b.slash(sim.channel, "claim", value="55"),
        says=["double five does not beat the standing claim of double six", "Valid now: Mexican"],
    )
    await refused(
        sim, b.slash(sim.channel, "claim", value="66"), says="Valid now: Mexican."
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
    # The old turn message lost its buttons; the claim menu of the private dice did not.
    assert not now_showing(sim, old_turn).components
    claimed_at = table.game.move_no - 1
    assert custom_ids(first.response) == [f"mxs:{table.game_id}:{claimed_at}:claim"]
    await refused(sim, a.select(first.response, ["claim.66"]), says="from an earlier turn")

    # A double click: the second click arrives before the edit that took the button off.
    message = turn_message(sim)
    accept = f"mx:{table.game_id}:{table.game.move_no}:roll"
    assert accept in custom_ids(message)
    hold_buttons(sim, message)
    rolled = await b.click(message, label="Accept & roll")
    assert rolled.ephemeral and "double four" in rolled.response.content
    assert table.game.stage == "rolled" and table.game.cup == (4, 4)
    message = now_showing(sim, message)
    assert accept in custom_ids(message)  # still shown, because the edit did not land
    await refused(sim, b.click(message, custom_id=accept), says="from an earlier turn")
    await refused(sim, a.select(first.response, ["claim.21"]), says="from an earlier turn")

    # One layer down, every checked move refuses an old move number (claim and fold would
    # be b's to make now).
    before = state(sim)
    for move in (Move(Act.CLAIM, roll=(6, 5)), Move(Act.FOLD), Move(Act.ROLL)):
        with pytest.raises(StaleAction, match="stale-button"):
            await sim.bot.tables.act(
                sim.channel.id, pid(b), move, 0.0, expect_move=table.game.move_no - 1
            )
    assert state(sim) == before


async def test_a_button_of_the_previous_game_is_refused(sim: SimTable) -> None:
    """Game 1's buttons are still shown (the edits that would take them off failed) when
    game 2 is at the same move number in the same channel: they are from an earlier game,
    even Join, whose button carries no move number."""
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 5])
    await a.slash(ch, "newgame", ruleset="mexican", turn_timer=0)
    await b.click(turn_message(sim), label="Join")
    first = table_of(sim)
    lobby = turn_message(sim)
    old_join = f"mx:{first.game_id}:{first.game.move_no}:join"
    assert old_join in custom_ids(lobby)
    hold_buttons(sim, lobby)
    await a.slash(ch, "start")
    move_no = first.game.move_no
    old_turn = turn_message(sim)
    old_roll = f"mx:{first.game_id}:{move_no}:roll"
    assert old_roll in custom_ids(old_turn)
    hold_buttons(sim, old_turn)
    await a.slash(ch, "endgame")
    assert sim.bot.tables.get(ch.id) is None
    lobby, old_turn = now_showing(sim, lobby), now_showing(sim, old_turn)
    assert old_join in custom_ids(lobby) and old_roll in custom_ids(old_turn)
    earlier = "That button is from an earlier game."
    await refused(sim, a.click(old_turn, custom_id=old_roll), says=earlier)  # no game now

    await a.slash(ch, "newgame", ruleset="mexican", turn_timer=0)
    second = table_of(sim)
    assert second.game_id != first.game_id
    await refused(sim, c.click(lobby, custom_id=old_join), says=earlier)
    assert pid(c) not in second.game.seats
    await b.slash(ch, "join")
    await a.slash(ch, "start")
    assert second.game.move_no == move_no and second.game.to_move == pid(a)
    roll = f"mx:{second.game_id}:{move_no}:roll"
    assert roll in custom_ids(turn_message(sim))
    await refused(sim, a.click(old_turn, custom_id=old_roll), says=earlier)
    with pytest.raises(StaleAction) as refusal:
        await sim.bot.tables.act(
            ch.id, pid(a), Move(Act.ROLL), 0.0, expect_move=move_no, expect_game=first.game_id
        )
    assert refusal.value.key == "earlier-game"
    assert second.game.cup is None and sim.bot.tables.rng.dice == [6, 5]
    # The same move on this game's button is a's to make.
    rolled = await a.click(turn_message(sim), custom_id=roll)
    assert rolled.ephemeral and "sixty-five" in rolled.response.content


async def test_a_forged_button_is_refused_privately(sim: SimTable) -> None:
    """Ids of this game and move that no button carries: an unknown move, the timer's own
    move, a garbled value. The mover clicks them; each is refused and nothing moves."""
    a = sim.users[0]
    sim.bot.tables.rng = ScriptedDice([6, 5])
    table = await open_game(sim, "mexican", 2)
    g, n = table.game_id, table.game.move_no
    roll = f"mx:{g}:{n}:roll"
    assert roll in custom_ids(turn_message(sim))  # these ids are of the move that is due
    buttons = {
        f"mx:{g}:{n}:dance": NOT_OURS,
        f"mx:{g}:{n}:timeout": NOT_OURS,  # only the turn timer makes this move
        f"mx:{g}:{n}:claim.99": "That claim is not a roll.",
        f"mx:{g}:{n}:claim.abc": "That claim is not a roll.",
        f"mx:{g}:{n}:keep.7": "Only a lone 1 or 2 can be kept.",
        f"mx:{g}:{n}:handout.1a": "That choice names no player.",
        f"mx:{g}:{n}:roll.6": "That move takes no value.",
        f"mxt:{g}:{n}:nuke": NOT_OURS,
        f"mxt:{g}:{n}:cup": NOT_OURS,  # a cup check that names no cup
    }
    claim_menu = f"mxs:{g}:{n}:claim"
    menu_values = {
        "claim.99": "That claim is not a roll.",
        "bullshit": "That choice does not belong to this menu.",
        "timeout": "That choice does not belong to this menu.",
    }
    forged = await posted_by_the_bot(sim, list(buttons), [(claim_menu, list(menu_values))])
    for custom_id, says in buttons.items():
        text = await refused(sim, a.click(forged, custom_id=custom_id), says=says)
        assert text == says
    for value, says in menu_values.items():
        text = await refused(sim, a.select(forged, [value], custom_id=claim_menu), says=says)
        assert text == says
    assert sim.bot.tables.rng.dice == [6, 5]
    rolled = await a.click(turn_message(sim), custom_id=roll)
    assert rolled.ephemeral and "sixty-five" in rolled.response.content


async def test_a_forged_menu_cannot_make_the_timers_move(sim: SimTable) -> None:
    a = sim.users[0]
    table = await open_game(sim, "mexican", 2)
    menu = f"mxs:{table.game_id}:{table.game.move_no}:timeout"
    forged = await posted_by_the_bot(sim, menus=[(menu, ["timeout"])])
    await refused(sim, a.select(forged, ["timeout"]), says=NOT_OURS)


async def test_an_id_of_no_known_shape_is_still_answered(sim: SimTable) -> None:
    a = sim.users[0]
    table = await open_game(sim, "mexican", 2)
    n = table.game.move_no
    old_style = f"mx:roll:{sim.channel.id}:{n}"  # the button id before the rewrite
    forged = await posted_by_the_bot(sim, [old_style, f"mx:{table.game_id}:{n}:Roll!"])
    for custom_id in custom_ids(forged):
        await refused(sim, a.click(forged, custom_id=custom_id), says="")


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
