"""The turn timer on simcord's clock: the deadline as a Discord relative timestamp, a
reminder at half time that pings the player, and the bot's move at expiry."""

from __future__ import annotations

from tests.conftest import SimTable
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    RELATIVE_TIME,
    message_text,
    open_game,
    pid,
    public_text,
    table_of,
    turn_message,
)


def deadline_shown(sim: SimTable) -> int:
    """The deadline in the live turn message's Time field."""
    fields = {f.name: f.value for f in turn_message(sim).embeds[0].fields}
    match = RELATIVE_TIME.fullmatch(fields["Time"])
    assert match is not None, fields
    return int(match.group(1))


def clock(sim: SimTable) -> float:
    return sim.env.now().timestamp()


async def test_bluffing_reminder_then_the_player_loses_the_round(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 2])
    table = await open_game(sim, "mexican", 3, turn_timer=60)
    started = clock(sim)
    assert deadline_shown(sim) == int(started + 60)
    assert table.meta.deadline == started + 60

    await sim.env.advance_time(29)
    assert "half your time" not in public_text(sim)
    await sim.env.advance_time(1)
    reminder = sim.channel.last_message
    assert reminder is not None
    assert reminder.content == (
        f"⏰ <@{a.id}>, half your time is gone: move <t:{int(started + 60)}:R>."
    )
    assert [u.id for u in reminder.mentions] == [a.id]  # it pings the player
    old_turn = turn_message(sim)

    await sim.env.advance_time(30)
    expired = sim.channel.last_message
    assert expired is not None and expired.id != reminder.id
    text = message_text(expired)
    assert f"⏰ <@{a.id}>'s time ran out." in text
    assert f"→ <@{a.id}> takes **1 sip**: turn timer ran out." in text
    assert f"**Round 2**: <@{b.id}> starts." in text
    assert table.game.to_move == pid(b) and table.game.players[pid(a)].timeouts == 1
    assert not next(m for m in sim.channel.history() if m.id == old_turn.id).components
    assert "Roll" in [c.label for row in expired.components for c in row.children]
    assert deadline_shown(sim) == int(clock(sim) + 60)
    record = await sim.bot.storage.get_game(table.game_id)
    assert record is not None and '"timeouts":1' in record.state_json

    # Bob moves in time: his reminder never comes, and the clock restarts for carol.
    await sim.env.advance_time(20)
    await b.slash(sim.channel, "roll")
    await b.slash(sim.channel, "claim", value="65")
    moved = clock(sim)
    await sim.env.advance_time(20)
    assert "half your time" not in (sim.channel.last_message.content or "")
    await sim.env.advance_time(10)
    assert sim.channel.last_message.content.startswith(f"⏰ <@{c.id}>, half your time")
    assert deadline_shown(sim) == int(moved + 60)

    # Carol lets it run out too; then alice, a second time in a row, and she is removed.
    await sim.env.advance_time(30)
    assert f"<@{c.id}>'s time ran out" in message_text(sim.channel.last_message)
    assert table.game.to_move == pid(a)
    await sim.env.advance_time(60)
    text = message_text(sim.channel.last_message)
    assert f"<@{a.id}> left (two turn timers in a row)" in text
    assert pid(a) not in table.game.seats and table.game.phase == "playing"


async def test_open_rolls_last_roll_stands_or_the_bot_rolls(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 4, 5, 2])
    table = await open_game(sim, "mexen", 2, turn_timer=60)
    rolled = await a.slash(sim.channel, "roll")
    assert not rolled.ephemeral
    deadline = clock(sim) + 60
    assert deadline_shown(sim) == int(deadline)

    await sim.env.advance_time(30)
    assert f"⏰ <@{a.id}>, half your time is gone: move <t:{int(deadline)}:R>." == (
        sim.channel.last_message.content
    )
    await sim.env.advance_time(30)
    text = message_text(sim.channel.last_message)
    assert f"⏰ <@{a.id}>'s time ran out." in text
    assert "Roll limit this round: **1**" in text  # alice's roll stands
    assert table.game.results[pid(a)] == (6, 4) and table.game.to_move == pid(b)

    # Bob never rolls: the bot rolls once for him, and the round is decided.
    await sim.env.advance_time(60)
    text = message_text(sim.channel.last_message)
    assert f"⏰ <@{b.id}>'s time ran out." in text
    assert f"<@{b.id}> rolled **52**." in text
    assert f"<@{b.id}> takes **1 sip**: lowest roll 52" in text
    assert table_of(sim).game.round_no == 2
    assert sim.bot.tables.rng.dice == []


async def test_no_timer_when_switched_off(sim: SimTable) -> None:
    table = await open_game(sim, "mexican", 2, turn_timer=0)
    assert table.meta.deadline is None
    assert "Time" not in [f.name for f in turn_message(sim).embeds[0].fields]
    before = len(sim.channel.history())
    await sim.env.advance_time(600)
    assert len(sim.channel.history()) == before
    assert table.game.move_no == 2  # a join and the start, nothing since
