"""A restart in the middle of a game: a second bot on the same database takes over the
simcord world, puts the table back in the channel, and the game plays on to the end."""

from __future__ import annotations

import pytest

from bot.client import MexicanBot, create_bot
from bot.engine import StaleAction
from bot.settings import Settings
from bot.storage import Storage
from tests.conftest import SimTable
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    SEALED,
    assert_private_to,
    assert_public,
    check_reveal,
    custom_ids,
    open_game,
    pid,
    public_text,
    refused,
    turn_message,
)


async def restart(sim: SimTable, settings: Settings, storage: Storage, dice: list[int]) -> None:
    """Swap in a freshly built bot (nothing kept in memory) on the same database file."""
    bot: MexicanBot = create_bot(settings, storage)
    bot.tables.rng = ScriptedDice(dice)
    await sim.env.restart_bot(bot)
    await sim.env.settle()
    sim.bot = bot


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
    sealed = SEALED.findall(public_text(sim))[-1]
    before = table.game.to_dict()
    old_bot = sim.bot

    await restart(sim, settings, storage, [])
    assert sim.bot is not old_bot
    resumed = sim.bot.tables.get(ch.id)
    assert resumed is not None and resumed is not table
    assert resumed.game.to_dict() == before  # hidden dice and all
    assert resumed.meta.commit is not None and resumed.meta.commit.digest == sealed

    # The table is back in the channel, with buttons for the move that is due.
    back = turn_message(sim)
    assert back.content.startswith(f"<@{b.id}>")
    assert "♻️ The bot restarted; the game goes on." in back.embeds[0].description
    assert f"mxs:claim:{ch.id}:{move_no}" in custom_ids(back)
    assert sum(1 for m in ch.history() if m.components) == 1
    peek = await b.click(back, label="Peek")
    assert "double six" in assert_private_to(sim, peek, b)

    # A select from before the restart: stale for alice's old move, live for bob's.
    await refused(sim, a.select(first.response, ["61"]), says="from an earlier turn")
    claimed = await b.select(second.response, ["65"])
    assert f"<@{b.id}> claims **sixty-five** → <@{a.id}>" in assert_public(claimed)
    assert "double six" not in public_text(sim)

    reveal = assert_public(await a.click(turn_message(sim), label="Bullshit!"))
    assert "The cup shows **double six**" in reveal and "it was true!" in reveal
    assert f"🏆 **Game over!** <@{b.id}> wins." in reveal
    check_reveal(sim, reveal, (6, 6))
    record = await storage.get_game(table.game_id)
    assert record is not None and record.status == "over"
    totals = await storage.player_totals(sim.guild.id, b.id)
    assert (totals.games_won, totals.games_played) == (1, 1)
    assert sim.bot.tables.get(ch.id) is None


def live_messages(sim: SimTable) -> list[int]:
    return [m.id for m in sim.channel.history() if m.components]


async def test_restart_in_the_lobby_and_in_an_open_game(
    sim: SimTable, settings: Settings, storage: Storage
) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    await a.slash(ch, "newgame", ruleset="mexen", turn_timer=0)
    await b.slash(ch, "join")
    await restart(sim, settings, storage, [6, 4])
    lobby = turn_message(sim)
    assert "♻️" in lobby.embeds[0].description
    assert live_messages(sim) == [lobby.id]  # the lobby from before lost its buttons
    await c.click(lobby, label="Join")
    await a.click(turn_message(sim), label="Start")
    await a.slash(ch, "roll")
    before = turn_message(sim)

    await restart(sim, settings, storage, [5, 5, 4, 3])
    table = sim.bot.tables.get(ch.id)
    assert table is not None and table.game.last == (6, 4)
    resumed = turn_message(sim)
    assert resumed.id != before.id and live_messages(sim) == [resumed.id]
    stood = await a.click(resumed, label="Stand")
    assert "stands on **64**" in assert_public(stood)
    assert "rolled **500**" in assert_public(await b.slash(ch, "roll"))
    assert_public(await b.slash(ch, "stand"))
    assert "rolled **43**" in assert_public(await c.slash(ch, "roll"))
    lost = assert_public(await c.click(turn_message(sim), label="Stand"))
    assert f"<@{c.id}> takes **1 sip**: lowest roll 43" in lost
    over = assert_public(await a.slash(ch, "endgame"))
    assert "**Game over.**" in over and pid(c) in over
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
    await open_game(sim, "mexen", 2)
    await a.slash(ch, "roll")
    old = turn_message(sim)
    old_move = sim.bot.tables.get(ch.id).game.move_no
    old_stand = f"mx:stand:{ch.id}:{old_move}"
    assert old_stand in custom_ids(old)
    sim.env.inject_error("GET", f"/channels/{ch.id}/messages", status=403, code=50001,
                         message="Missing Access")  # fmt: skip
    await restart(sim, settings, storage, [5, 2])
    resumed = turn_message(sim)
    assert live_messages(sim) == [old.id, resumed.id]

    stood = await a.click(old, custom_id=old_stand)
    assert "stands on **64**" in assert_public(stood)
    assert live_messages(sim) == [turn_message(sim).id]  # both older messages retired
    # The same button, if a client still showed it, is stale now.
    before = sim.bot.tables.get(ch.id).game.to_dict()
    with pytest.raises(StaleAction):
        await sim.bot.tables.act(ch.id, pid(a), "stand", 0.0, expect_move=old_move)
    assert sim.bot.tables.get(ch.id).game.to_dict() == before
    assert "rolled **52**" in assert_public(await b.click(turn_message(sim), label="Roll"))


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
    assert resumed is not None and resumed.meta.deadline == deadline
    assert f"<t:{int(deadline)}:R>" in [f.value for f in turn_message(sim).embeds[0].fields]
    await sim.env.advance_time(10)
    assert sim.channel.last_message.content.startswith(f"⏰ <@{a.id}>, half your time")
    await sim.env.advance_time(30)
    assert f"⏰ <@{a.id}>'s time ran out." in public_text(sim)
    assert resumed.game.to_move == pid(b) and resumed.game.round_no == 2
