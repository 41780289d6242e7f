"""A restart in the middle of a game: a second bot on the same database takes over the
simcord world, puts the table back in the channel, and the game plays on to the end."""

from __future__ import annotations

import re

import discord
import pytest

from bot.engine import Act, Move, StaleAction
from bot.runtime.client import MexicanBot, create_bot
from bot.runtime.settings import Settings
from bot.storage import Storage
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    RELATIVE_TIME,
    assert_private_to,
    assert_public,
    check_reveal,
    custom_ids,
    message_text,
    open_game,
    pid,
    public_text,
    refused,
    seals_of,
    turn_message,
)
from tests.support.sim import SimTable

RESTARTED = "♻️ The bot restarted; the game goes on."
#: The turn message's last line ends with the deadline.
DEADLINE = re.compile(r"(?:^|· )⏱ <t:(\d+):R>$")


async def restart(sim: SimTable, settings: Settings, storage: Storage, dice: list[int]) -> None:
    """Swap in a freshly built bot (nothing kept in memory) on the same database file."""
    bot: MexicanBot = create_bot(settings, storage)
    bot.tables.rng = ScriptedDice(dice)
    await sim.env.restart_bot(bot)
    await sim.env.settle()
    sim.bot = bot


def pinged(sim: SimTable, message: discord.Message) -> list[int]:
    """Whom a channel message notified (its mentions that its allowed mentions let through)."""
    return list(sim.env.backend.get_message(sim.channel.id, message.id).ping_user_ids)


def live_messages(sim: SimTable) -> list[int]:
    return [m.id for m in sim.channel.history() if m.components]


def clock(sim: SimTable) -> float:
    return sim.env.now().timestamp()


def deadline_shown(sim: SimTable) -> int:
    """The deadline on the last line of the live turn message, shown there once."""
    content = turn_message(sim).content
    assert content.count("⏱") == 1, content
    match = DEADLINE.search(content.splitlines()[-1])
    assert match is not None, content
    return int(match.group(1))


def reminders(sim: SimTable) -> list[discord.Message]:
    """The turn-timer reminders the channel shows now."""
    return [
        m
        for m in sim.channel.history()
        if (m.content or "").startswith("⏰ <@") and ", your move: time runs out" in m.content
    ]


async def test_restart_mid_game_resumes_and_plays_to_the_end(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 6])
    table = await open_game(sim, "dollar", 2, lives=1)
    first = await a.slash(ch, "roll")
    assert "fifty-two" in assert_private_to(sim, first, a)
    await a.slash(ch, "claim", value="52")
    second = await b.slash(ch, "roll")  # takes the cup and rolls
    assert "double six" in assert_private_to(sim, second, b)
    move_no = table.game.move_no
    sealed = seals_of(turn_message(sim))[0]
    before = table.game.to_dict()
    commit = table.meta.commit
    assert commit is not None and commit.digest.startswith(sealed)
    old_bot = sim.bot

    await restart(sim, settings, storage, [])
    assert sim.bot is not old_bot
    resumed = sim.bot.tables.get(ch.id)
    assert resumed is not None and resumed is not table
    assert resumed.game.to_dict() == before  # hidden dice and all
    assert resumed.meta.commit is not None
    assert resumed.meta.commit.to_dict() == commit.to_dict()  # the same seal and salt

    # The table is back in the channel, with buttons for the move that is due.
    back = turn_message(sim)
    assert back.id == ch.last_message.id
    lines = back.content.splitlines()
    assert lines[0] == RESTARTED
    assert f"<@{b.id}>, claim (you may bluff)." in lines
    assert lines[-1] == f"<@{b.id}>, claim (you may bluff)."
    assert seals_of(back) == [sealed], "the Cup button still names the same cup"
    assert pinged(sim, back) == []  # the turn did not pass: nobody is pinged again
    assert f"mxs:{table.game_id}:{move_no}:claim" in custom_ids(back)
    assert live_messages(sim) == [back.id]
    peek = assert_private_to(sim, await b.click(back, label="Cup"), b)
    assert "double six" in peek and commit.digest in peek

    # A menu from before the restart: stale for alice's old move, live for bob's.
    await refused(sim, a.select(first.response, ["claim.61"]), says="from an earlier turn")
    claimed = await b.select(second.response, ["claim.65"])
    text = assert_public(claimed)
    assert f"<@{b.id}> claims **sixty-five**." in text
    assert f"<@{a.id}>: roll to accept, or call bullshit?" in text
    assert pinged(sim, claimed.response.message) == [a.id]
    assert "double six" not in public_text(sim)
    assert live_messages(sim) == [claimed.response.id]  # the re-posted table retired

    result = await a.click(turn_message(sim), label="Bullshit!")
    reveal = assert_public(result)
    assert f"<@{a.id}> calls **bullshit** on <@{b.id}>'s **sixty-five**" in reveal
    assert "**⚅⚅ double six** under the cup. It was true!" in reveal
    assert f"→ <@{a.id}> loses **1 life**." in reveal
    assert f"🏆 1. <@{b.id}>" in reveal
    await check_reveal(sim, result.response.message, (6, 6), a)
    record = await storage.get_game(table.game_id)
    assert record is not None and record.status == "over"
    totals = await storage.player_totals(sim.guild.id, b.id)
    assert (totals.games_won, totals.games_played) == (1, 1)
    assert sim.bot.tables.get(ch.id) is None


async def test_restart_in_the_lobby_and_in_an_open_game(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    await a.slash(ch, "newgame", ruleset="mexen", turn_timer=0)
    await b.slash(ch, "join")
    old_lobby = turn_message(sim)
    await restart(sim, settings, storage, [6, 4])
    lobby = turn_message(sim)
    assert lobby.id != old_lobby.id and lobby.id == ch.last_message.id
    text = message_text(lobby)
    assert "🎲 Mexen · new table" in text and f"In: <@{a.id}>, <@{b.id}> (2/" in text
    assert live_messages(sim) == [lobby.id]  # the lobby from before lost its buttons
    await c.click(lobby, label="Join")
    assert f"In: <@{a.id}>, <@{b.id}>, <@{c.id}> (3/" in message_text(turn_message(sim))
    await a.click(turn_message(sim), label="Start")
    assert "rolls **64**" in assert_public(await a.slash(ch, "roll"))
    before = turn_message(sim)

    await restart(sim, settings, storage, [5, 5, 4, 3])
    table = sim.bot.tables.get(ch.id)
    assert table is not None and table.game.last == (6, 4)
    resumed = turn_message(sim)
    assert resumed.id != before.id and live_messages(sim) == [resumed.id]
    assert resumed.content.splitlines()[0] == RESTARTED
    assert f"<@{a.id}>, roll again, stand or end the round early." in resumed.content
    stood = await a.click(resumed, label="Stand")
    assert f"<@{a.id}> stands on **64**." in assert_public(stood)
    assert f"<@{b.id}> rolls **500**." in assert_public(await b.slash(ch, "roll"))
    assert f"<@{b.id}> stands on **500**." in assert_public(await b.slash(ch, "stand"))
    assert f"<@{c.id}> rolls **43**." in assert_public(await c.slash(ch, "roll"))
    lost = assert_public(await c.click(turn_message(sim), label="Stand"))
    assert f"→ <@{c.id}> takes **1 sip**: lowest roll (43)." in lost
    over = assert_public(await a.slash(ch, "endgame"))
    assert f"🏁 <@{a.id}> ended the game in the lead: no winner." in over
    assert f". <@{c.id}> · 1 sip" in over.split("Final standing", 1)[1]
    record = await storage.get_game(table.game_id)
    assert record is not None and record.status == "over"


async def test_old_turn_message_still_works_when_history_cannot_be_read(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    """Without the channel history the bot cannot find the last turn message (its id
    was not stored yet): that message keeps its buttons, they work while their move is
    current, and the click retires them; an older button answers that it is stale."""
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 4])
    table = await open_game(sim, "mexen", 2)
    await a.slash(ch, "roll")
    old = turn_message(sim)
    old_move = table.game.move_no
    old_stand = f"mx:{table.game_id}:{old_move}:stand"
    assert old_stand in custom_ids(old)
    sim.env.inject_error(
        "GET", f"/channels/{ch.id}/messages", status=403, code=50001, message="Missing Access"
    )
    await restart(sim, settings, storage, [5, 2])
    resumed = turn_message(sim)
    assert resumed.content.splitlines()[0] == RESTARTED
    assert live_messages(sim) == [old.id, resumed.id]

    stood = await a.click(old, custom_id=old_stand)
    assert f"<@{a.id}> stands on **64**." in assert_public(stood)
    assert live_messages(sim) == [turn_message(sim).id]  # both older messages retired
    # The same button, if a client still showed it, is stale now.
    before = sim.bot.tables.get(ch.id).game.to_dict()  # type: ignore[union-attr]
    with pytest.raises(StaleAction):
        await sim.bot.tables.act(ch.id, pid(a), Move(Act.STAND), 0.0, expect_move=old_move)
    assert sim.bot.tables.get(ch.id).game.to_dict() == before  # type: ignore[union-attr]
    rolled = await b.click(turn_message(sim), label="Roll")
    assert f"<@{b.id}> rolls **52**." in assert_public(rolled)


async def test_turn_timer_survives_a_restart(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    a, b, _, _ = sim.users
    table = await open_game(sim, "mexican", 2, turn_timer=60)
    deadline = table.meta.deadline
    assert deadline is not None
    await sim.env.advance_time(20)
    await restart(sim, settings, storage, [])
    resumed = sim.bot.tables.get(sim.channel.id)
    assert resumed is not None and resumed.meta.deadline == deadline  # 40 s left: no grace
    assert turn_message(sim).content.splitlines()[0] == RESTARTED
    assert deadline_shown(sim) == int(deadline)
    await sim.env.advance_time(9)
    assert reminders(sim) == []
    await sim.env.advance_time(1)
    (reminder,) = reminders(sim)
    assert reminder.content == f"⏰ <@{a.id}>, your move: time runs out <t:{int(deadline)}:R>."
    assert pinged(sim, reminder) == [a.id]
    await sim.env.advance_time(30)
    assert reminders(sim) == []  # the new bot deletes the reminder it posted
    expired = sim.channel.last_message
    assert f"⏰ <@{a.id}>'s time ran out." in message_text(expired)
    assert pinged(sim, expired) == [b.id]
    assert resumed.game.to_move == pid(b) and resumed.game.round_no == 2


async def test_a_timer_that_ran_out_while_the_bot_was_down_gets_grace(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    """A player whose time (nearly) ran out during the restart gets 30 s more, shown on
    the re-posted table; the half time of that grace has passed, so no new reminder."""
    a, b, _, _ = sim.users
    table = await open_game(sim, "mexican", 2, turn_timer=60)
    deadline = table.meta.deadline
    assert deadline is not None
    await sim.env.advance_time(50)
    assert len(reminders(sim)) == 1  # the old bot reminded alice at half time
    await restart(sim, settings, storage, [])
    # Its deadline is out of date: the restart deletes it; the table shows the new one.
    assert reminders(sim) == []
    resumed = sim.bot.tables.get(sim.channel.id)
    assert resumed is not None and resumed.meta.deadline == clock(sim) + 30
    assert deadline_shown(sim) == int(clock(sim) + 30)
    await sim.env.advance_time(29)  # past the stored deadline: the grace holds
    assert resumed.game.to_move == pid(a) and resumed.game.round_no == 1
    assert reminders(sim) == []  # and no second reminder
    await sim.env.advance_time(1)
    assert f"⏰ <@{a.id}>'s time ran out." in message_text(sim.channel.last_message)
    assert resumed.game.to_move == pid(b) and resumed.game.round_no == 2


async def test_a_reminder_from_before_a_restart_leaves_no_clutter(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    """The new process has no note of the old one's reminder: it finds it in the channel
    and deletes it (its deadline may be out of date); the re-posted table shows the time."""
    a, _, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([6, 5])
    await open_game(sim, "mexican", 2, turn_timer=60)
    await sim.env.advance_time(35)
    assert len(reminders(sim)) == 1
    await restart(sim, settings, storage, [6, 5])
    assert reminders(sim) == []
    assert RELATIVE_TIME.search(message_text(turn_message(sim)))
    await a.click(turn_message(sim), label="Roll")
    assert reminders(sim) == []


async def test_a_reveal_stays_checkable_after_a_restart(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([5, 2])
    await open_game(sim, "dollar", 2, lives=2)
    rolled = await a.click(turn_message(sim), label="Roll")
    await a.select(rolled.response, ["claim.61"])
    revealed = await b.click(turn_message(sim), label="Bullshit!")
    assert "**⚄⚁ fifty-two** under the cup" in assert_public(revealed)
    reveal_id = revealed.response.id
    assert any(":cup." in i for i in custom_ids(revealed.response.message))

    await restart(sim, settings, storage, [])
    assert turn_message(sim).id != reveal_id  # the table was posted again below it
    (shown,) = [m for m in sim.channel.history() if m.id == reveal_id]
    assert "**⚄⚁ fifty-two** under the cup" in message_text(shown)
    assert not any(i.startswith(("mx:", "mxs:")) for i in custom_ids(shown))
    await check_reveal(sim, shown, (5, 2), a)


async def test_leftover_buttons_of_a_game_that_just_ended_are_retired_after_a_restart(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    """The final move was stored and shown, but taking the buttons off the old turn
    message failed before the stop: the next process finds them and takes them off,
    keeping the final message's Rematch."""
    a, b, _, _ = sim.users
    await open_game(sim, "mexen", 2)
    old = turn_message(sim)
    sim.env.inject_error("PATCH", f"/channels/{sim.channel.id}/messages/{old.id}", status=500)
    over = await a.slash(sim.channel, "endgame")
    assert over.response is not None
    assert old.id in live_messages(sim)  # the leftover: live buttons of a finished game
    await restart(sim, settings, storage, [])
    assert live_messages(sim) == [over.response.id]
    final = next(m for m in sim.channel.history() if m.id == over.response.id)
    assert [i.split(":")[3] for i in custom_ids(final)] == ["rematch"]
    await refused(sim, b.slash(sim.channel, "roll"), says="no game in this channel")


async def test_a_move_made_before_the_bot_is_ready_is_not_reposted_over(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    """Players often move before a restarted bot reports ready. The re-post is decided on
    the move number as restored, so it never lands after their move: no second turn
    message for the same move, and the buttons stay on the message they play on."""
    import asyncio

    a, b, _, _ = sim.users
    ch = sim.channel
    await a.slash(ch, "newgame", ruleset="mexen", turn_timer=0)
    await b.slash(ch, "join")
    await a.slash(ch, "start")

    bot: MexicanBot = create_bot(settings, storage)
    bot.tables.rng = ScriptedDice([6, 4, 5, 2])
    ready = asyncio.Event()

    async def held_back() -> None:  # "ready" comes when the test says so
        await sim.env.external_wait(ready.wait(), reason="the gateway's READY, held back")

    bot.wait_until_ready = held_back  # type: ignore[method-assign]
    await sim.env.restart_bot(bot)
    await sim.env.settle()
    sim.bot = bot
    assert bot.dealer is not None and bot.dealer._resume_task is not None
    assert not bot.dealer._resume_task.done()  # the re-post waits for "ready"

    rolled = await a.slash(ch, "roll")
    assert "rolls **64**" in assert_public(rolled)
    after_move = turn_message(sim)
    ready.set()
    await bot.dealer._resume_task
    await sim.env.settle()
    assert not any((m.content or "").startswith(RESTARTED) for m in sim.channel.history()), (
        "re-posted after a newer move"
    )
    assert turn_message(sim).id == after_move.id
    assert after_move.id in live_messages(sim)


def standings(sim: SimTable) -> list[discord.Message]:
    return [m for m in sim.channel.history() if m.embeds and m.embeds[0].title == "Final standing"]


async def test_a_standing_a_stop_cut_off_is_posted_after_the_restart_once(
    sim: SimTable, settings: Settings, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after a game's last move is stored and before its answer: the
    restart posts the final standing, with the ratings and the achievements the game
    earned, exactly once; a second restart posts nothing more (README, Ratings)."""
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 6])
    table = await open_game(sim, "dollar", 2, lives=1)
    await a.slash(ch, "roll")
    await a.slash(ch, "claim", value="52")
    await b.slash(ch, "roll")
    await b.slash(ch, "claim", value="65")
    assert sim.bot.dealer is not None

    async def dies_before_answering(*args: object, **kwargs: object) -> None:
        return None  # the move is stored; the process is gone before it shows anything

    monkeypatch.setattr(sim.bot.dealer.showing, "deliver", dies_before_answering)
    await a.slash(ch, "bullshit")  # true: alice loses her only life, the game is over
    record = await storage.get_game(table.game_id)
    assert record is not None and record.status == "over"
    assert standings(sim) == []

    await restart(sim, settings, storage, [])
    (shown,) = standings(sim)
    assert shown.content.startswith("♻️ The bot restarted: this is how the last game ended.")
    rows = (shown.embeds[0].description or "").splitlines()
    assert rows[0].startswith(f"🏆 1. <@{b.id}> · ❤️ 1 · 1,0") and rows[0].endswith(")")
    assert rows[1].startswith(f"2. <@{a.id}> · out · ")
    assert any(r.startswith(f"🏅 <@{b.id}>: First blood") for r in rows), rows
    assert shown.embeds[0].footer.text.startswith("Bluffing rating: all start at 1,000")
    achievements = await storage._fetchall(
        "SELECT key FROM achievements WHERE user_id = ?", (b.id,)
    )
    assert ("first_win",) in [tuple(row) for row in achievements]

    await restart(sim, settings, storage, [])
    assert len(standings(sim)) == 1
