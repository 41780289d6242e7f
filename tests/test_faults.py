"""A stored move always reaches the players, even when Discord fails the answer; a click
on a fresh turn message is never taken for a stray one; a retry is refused, never made
twice (README, Playing: Nothing lost and Races)."""

from __future__ import annotations

import pytest

from bot.engine import Act, IllegalMove, Move
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    assert_private_to,
    custom_ids,
    message_text,
    open_game,
    public_text,
    refused,
    table_of,
    turn_message,
)
from tests.support.sim import SimTable

#: Every answer to an interaction fails the way a missed 3 s deadline does.
CALLBACK = "/interactions/*/*/callback"


def fail_answers(sim: SimTable, times: int = 1) -> None:
    sim.env.inject_error(
        "POST", CALLBACK, status=404, code=10062, message="Unknown interaction", times=times
    )


async def test_a_stored_roll_whose_answer_fails_is_posted_and_a_retry_is_refused(
    sim: SimTable,
) -> None:
    a = sim.users[0]
    sim.bot.tables.rng = ScriptedDice([6, 4, 5, 2])
    table = await open_game(sim, "mexen", 2, buttons=True)
    before = table.game.move_no
    old = turn_message(sim)
    fail_answers(sim)
    # Taking the buttons off the old message fails too, so a's second tap can happen.
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/{old.id}", status=500)
    await a.click(old, label="Roll")
    assert table.game.move_no == before + 1 and table.game.last == (6, 4)  # stored
    posted = turn_message(sim)
    assert posted.id != old.id, "the table was not posted after the failed answer"
    assert "rolls **64**" in message_text(posted)
    assert "nothing was changed" not in public_text(sim).lower()
    # a saw nothing and taps Roll again on the old message: refused, no second roll.
    old_again = next(m for m in sim.channel.history() if m.id == old.id)
    assert old_again.components, "the old message should still show its (stale) button"
    await refused(sim, a.click(old_again, label="Roll"), says="earlier turn")
    assert table.game.last == (6, 4) and sim.bot.tables.rng.dice == [5, 2]
    sim.env.raise_errors()


async def test_a_slash_move_whose_answer_fails_never_says_nothing_changed(sim: SimTable) -> None:
    a, _, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([5, 5])
    table = await open_game(sim, "mexen", 2)
    fail_answers(sim)
    result = await a.slash(sim.channel, "roll")
    assert result.response is None  # Discord never got the answer
    assert table.game.last == (5, 5)
    assert "rolls **500**" in message_text(turn_message(sim))
    for message in sim.channel.history(viewer=a):
        assert "nothing was changed" not in message_text(message).lower()
    sim.env.raise_errors()


async def test_private_dice_lost_with_a_failed_answer_are_one_click_away(sim: SimTable) -> None:
    """A bluffing roll whose private answer failed: the public table is posted with
    its Cup button, which gives the roller the dice and the Claim menu."""
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([5, 3])
    table = await open_game(sim, "mexican", 2, buttons=True)
    fail_answers(sim)
    await a.click(turn_message(sim), label="Roll")
    assert table.game.cup == (5, 3) and table.game.stage == "rolled"
    posted = turn_message(sim)
    assert "rolls under the cup" in message_text(posted)
    assert "fifty-three" not in public_text(sim)
    shown = await a.click(posted, label="Cup")
    assert "fifty-three" in assert_private_to(sim, shown, a)
    assert any(i.startswith("mxs:") and i.endswith(":claim") for i in custom_ids(shown.response))
    nosy = assert_private_to(sim, await b.click(posted, label="Cup"), b)
    assert "fifty-three" not in nosy and "sealed" in nosy  # the seal, not the dice


async def test_a_long_claim_is_refused_in_one_fitting_message(sim: SimTable) -> None:
    a, _, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([4, 2])
    await open_game(sim, "mexican", 2)
    await a.slash(sim.channel, "roll")
    claim = "**" + "6" * 1990 + "** <@123456789012345678>"
    text = await refused(sim, a.slash(sim.channel, "claim", value=claim), says="is not a roll")
    assert len(text) <= 2000 and "**" not in text.split(" is not a roll")[0]
    assert "<@123456789012345678>" not in text


async def test_the_timers_move_is_never_a_players(sim: SimTable) -> None:
    a, _, _, _ = sim.users
    table = await open_game(sim, "mexen", 2)
    before = table.game.to_dict()
    with pytest.raises(IllegalMove, match="button-not-ours"):
        await sim.bot.tables.act(sim.channel.id, str(a.id), Move(Act.TIMEOUT), 0.0)
    assert table_of(sim).game.to_dict() == before
