"""The turn timer on simcord's clock: the deadline as a Discord relative timestamp on the
turn message, one reminder at half time that pings the player to move (and is deleted
once the turn moves on), and the bot's move at expiry, posted as a new turn message."""

from __future__ import annotations

import re

import discord
import pytest

from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    assert_private_to,
    message_text,
    open_game,
    pid,
    public_text,
    refused,
    table_of,
    turn_message,
)
from tests.support.sim import SimTable

#: The turn message's last line ends with the deadline.
DEADLINE = re.compile(r"(?:^|· )⏱ <t:(\d+):R>$")


def deadline_shown(sim: SimTable) -> int:
    """The deadline on the last line of the live turn message, shown there once."""
    content = turn_message(sim).content
    assert content.count("⏱") == 1, content
    match = DEADLINE.search(content.splitlines()[-1])
    assert match is not None, content
    return int(match.group(1))


def clock(sim: SimTable) -> float:
    return sim.env.now().timestamp()


def pinged(sim: SimTable, message: discord.Message) -> list[int]:
    """Whom a channel message notified (its mentions that its allowed mentions let through)."""
    return list(sim.env.backend.get_message(sim.channel.id, message.id).ping_user_ids)


def reminders(sim: SimTable) -> list[discord.Message]:
    """The reminders the channel shows now."""
    return [
        m
        for m in sim.channel.history()
        if (m.content or "").startswith("⏰ <@") and ", your move: time runs out" in m.content
    ]


def reminder_text(user_id: int, deadline: float) -> str:
    return f"⏰ <@{user_id}>, your move: time runs out <t:{int(deadline)}:R>."


def shown(sim: SimTable, message_id: int) -> discord.Message | None:
    return next((m for m in sim.channel.history() if m.id == message_id), None)


def labels(message: discord.Message) -> list[str]:
    return [c.label or "" for row in message.components for c in row.children]


async def test_bluffing_reminder_then_the_player_loses_the_round(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 2, 5, 3])
    table = await open_game(sim, "mexican", 3, turn_timer=60)
    started = clock(sim)
    assert deadline_shown(sim) == int(started + 60)
    assert table.meta.deadline == started + 60

    await sim.env.advance_time(29)
    assert reminders(sim) == [] and "⏰" not in public_text(sim)
    await sim.env.advance_time(1)
    reminder = sim.channel.last_message
    assert reminder is not None
    assert reminder.content == reminder_text(a.id, started + 60)
    assert pinged(sim, reminder) == [a.id]  # it pings the player, and only them
    assert not reminder.components
    old_turn = turn_message(sim)
    assert old_turn.id != reminder.id

    # One reminder a turn: nothing more until the time runs out.
    await sim.env.advance_time(29)
    assert [m.id for m in reminders(sim)] == [reminder.id]
    await sim.env.advance_time(1)
    expired = sim.channel.last_message
    assert expired is not None and expired.id not in (reminder.id, old_turn.id)
    assert shown(sim, reminder.id) is None and reminders(sim) == []  # deleted: no clutter
    text = message_text(expired)
    assert f"⏰ <@{a.id}>'s time ran out." in text
    assert f"→ <@{a.id}> takes **1 sip**." in text.splitlines()
    assert "**Round 2**" in text and f"<@{b.id}>, roll under the cup." in text
    assert pinged(sim, expired) == [b.id]  # the outcome pings the next player
    assert table.game.to_move == pid(b) and table.game.players[pid(a)].timeouts == 1
    assert not shown(sim, old_turn.id).components  # type: ignore[union-attr]
    assert turn_message(sim).id == expired.id and "Roll" in labels(expired)
    assert deadline_shown(sim) == int(clock(sim) + 60)
    record = await sim.bot.storage.get_game(table.game_id)
    assert record is not None and '"timeouts":1' in record.state_json

    # Bob moves in time: his reminder never comes, and the clock restarts for carol.
    await sim.env.advance_time(20)
    await b.slash(sim.channel, "roll")
    await b.slash(sim.channel, "claim", value="65")
    moved = clock(sim)
    assert deadline_shown(sim) == int(moved + 60)
    await sim.env.advance_time(29)
    assert reminders(sim) == []
    await sim.env.advance_time(1)
    (reminder,) = reminders(sim)
    assert reminder.content == reminder_text(c.id, moved + 60)
    assert pinged(sim, reminder) == [c.id]
    assert f"⏰ <@{b.id}>, your move" not in public_text(sim)

    # Carol moves (on the turn message): her reminder is deleted at once.
    rolled = await c.click(turn_message(sim), label="Accept & roll")
    assert "fifty-three" in assert_private_to(sim, rolled, c)
    assert shown(sim, reminder.id) is None and reminders(sim) == []
    await c.slash(sim.channel, "claim", value="66")
    assert table.game.to_move == pid(a)

    # Alice lets it run out a second time in a row: reminded, then removed.
    await sim.env.advance_time(30)
    (reminder,) = reminders(sim)
    assert pinged(sim, reminder) == [a.id]
    await sim.env.advance_time(30)
    assert reminders(sim) == []
    text = message_text(sim.channel.last_message)
    assert f"⏰ <@{a.id}>'s time ran out." in text
    assert f"<@{a.id}> missed two turns and leaves the table." in text
    assert pid(a) not in table.game.seats and table.game.phase == "playing"


@pytest.mark.parametrize("look", ["/table", "/peek", "Cup", "a refused move", None])
async def test_a_player_who_has_looked_is_not_pinged(sim: SimTable, look: str | None) -> None:
    """Having looked at their turn (or been refused a move), the player knows it is
    theirs: half time passes without a reminder. Someone else looking changes nothing."""
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 5])
    table = await open_game(sim, "mexican", 2, turn_timer=60)
    await a.click(turn_message(sim), label="Roll")  # the move starts a fresh 60 s
    rolled = clock(sim)
    await sim.env.advance_time(10)
    if look == "/table":
        assert_private_to(sim, await a.slash(ch, "table"), a)
    elif look == "/peek":
        assert "sixty-five" in assert_private_to(sim, await a.slash(ch, "peek"), a)
    elif look == "Cup":
        shown_dice = await a.click(turn_message(sim), label="Cup")
        assert "sixty-five" in assert_private_to(sim, shown_dice, a)
    elif look == "a refused move":
        nothing_to_call = "There is no claim waiting for an answer."
        await refused(sim, a.slash(ch, "bullshit"), says=nothing_to_call)
    else:
        assert_private_to(sim, await b.slash(ch, "table"), b)  # not the player to move
    before = [m.id for m in ch.history()]

    await sim.env.advance_time(20)
    if look is None:
        (reminder,) = reminders(sim)
        assert reminder.content == reminder_text(a.id, rolled + 60)
        assert pinged(sim, reminder) == [a.id]
    else:
        assert [m.id for m in ch.history()] == before  # no reminder, no ping
    await sim.env.advance_time(30)
    assert reminders(sim) == []
    assert f"⏰ <@{a.id}>'s time ran out." in message_text(ch.last_message)
    assert table.game.to_move == pid(b) and table.game.round_no == 2


async def test_open_rolls_last_roll_stands_or_the_bot_rolls(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 4, 5, 2])
    table = await open_game(sim, "mexen", 2, turn_timer=60)
    rolled = await a.slash(sim.channel, "roll")
    assert not rolled.ephemeral
    deadline = clock(sim) + 60
    assert deadline_shown(sim) == int(deadline)

    await sim.env.advance_time(30)
    (reminder,) = reminders(sim)
    assert reminder.id == sim.channel.last_message.id
    assert reminder.content == reminder_text(a.id, deadline)
    assert pinged(sim, reminder) == [a.id]
    await sim.env.advance_time(30)
    assert reminders(sim) == []
    expired = sim.channel.last_message
    text = message_text(expired)
    assert f"⏰ <@{a.id}>'s time ran out." in text
    assert "Roll limit this round: **1**." in text  # alice's roll stands
    assert table.game.results[pid(a)] == (6, 4) and table.game.to_move == pid(b)
    assert pinged(sim, expired) == [b.id]
    assert sim.bot.tables.rng.dice == [5, 2]  # the bot rolled nothing for alice

    # Bob never rolls: reminded once, then the bot rolls once for him and the round ends.
    await sim.env.advance_time(30)
    (reminder,) = reminders(sim)
    assert pinged(sim, reminder) == [b.id]
    await sim.env.advance_time(30)
    assert reminders(sim) == []
    text = message_text(sim.channel.last_message)
    assert f"⏰ <@{b.id}>'s time ran out." in text
    assert f"<@{b.id}> rolls **52**." in text
    assert f"→ <@{b.id}> takes **1 sip**: lowest roll (52)." in text
    assert table_of(sim).game.round_no == 2
    assert sim.bot.tables.rng.dice == []


async def test_no_timer_when_switched_off(sim: SimTable) -> None:
    table = await open_game(sim, "mexican", 2, turn_timer=0)
    assert table.meta.deadline is None
    assert "⏱" not in turn_message(sim).content
    assert "no timer" in public_text(sim)  # the lobby said so
    before = [(m.id, message_text(m)) for m in sim.channel.history()]
    await sim.env.advance_time(600)
    assert [(m.id, message_text(m)) for m in sim.channel.history()] == before
    assert table.game.move_no == 2  # a join and the start, nothing since
