"""Whole games of all five rule sets in a Discord channel, lobby to game over.

Dice are scripted, so every test knows what is under the cup. In the bluffing games the
true dice reach the roller alone, as an ephemeral answer, and appear in no public message
until a call of bullshit lifts the cup; in the open-roll games every roll is public.
`mexican`, `mexen` and `mexicanen` are played with slash commands only, `dollar` and
`mexico` with the buttons and selects only (bar the host's /endgame).
"""

from __future__ import annotations

from tests.conftest import SimTable
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    SEALED,
    assert_private_to,
    assert_public,
    check_reveal,
    open_game,
    pid,
    public_text,
    turn_message,
)


async def check_stored_over(sim: SimTable, game_id: int, totals: dict[int, dict[str, int]]) -> None:
    record = await sim.bot.storage.get_game(game_id)
    assert record is not None and record.status == "over"
    assert sim.bot.tables.get(sim.channel.id) is None
    for n, expected in totals.items():
        got = await sim.bot.storage.player_totals(sim.guild.id, sim.users[n].id)
        assert {k: got.as_dict()[k] for k in expected} == expected, sim.users[n].name


async def test_mexican_with_slash_commands(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([5, 3, 3, 1, 4, 4, 6, 5, 2, 1, 6, 6])
    table = await open_game(sim, "mexican", 3)

    # Round 1: alice rolls 5-3 under the cup and bluffs sixty-four; bob calls it.
    mine = assert_private_to(sim, await a.slash(ch, "roll"), a)
    assert "fifty-three" in mine
    assert "rolled under the cup" in public_text(sim)
    assert SEALED.search(public_text(sim))
    peek = await b.slash(ch, "peek")
    assert peek.ephemeral and "haven't seen" in peek.response.content
    again = assert_private_to(sim, await a.slash(ch, "peek"), a)
    assert "fifty-three" in again
    claim = assert_public(await a.slash(ch, "claim", value="sixty-four"))
    assert f"claims **sixty-four** → <@{b.id}>" in claim
    assert "fifty-three" not in public_text(sim) and "5-3:" not in public_text(sim)
    reveal = assert_public(await b.slash(ch, "bullshit"))
    assert "The cup shows **fifty-three**" in reveal and "caught bluffing!" in reveal
    assert f"<@{a.id}> takes **1 sip**" in reveal
    check_reveal(sim, reveal, (5, 3))

    # Round 2, started by the caller: a Social, then a fold.
    social = assert_public(await b.slash(ch, "roll"))
    assert "**Social**" in social
    assert table.game.players[pid(c)].totals == {"sip": 1}
    mine = assert_private_to(sim, await b.slash(ch, "roll"), b)
    assert "double four" in mine
    assert_public(await b.slash(ch, "claim", value="55"))
    assert "accepts" in assert_public(await c.slash(ch, "accept"))
    mine = assert_private_to(sim, await c.slash(ch, "roll"), c)
    assert "sixty-five" in mine
    folded = assert_public(await c.slash(ch, "fold"))
    assert "folds" in folded and f"**Round 3**: <@{a.id}> starts" in folded

    # Round 3: a true Mexican, tied by a bluff (ties are allowed), caught.
    assert "Mexican" in assert_private_to(sim, await a.slash(ch, "roll"), a)
    assert_public(await a.slash(ch, "claim", value="mex"))
    assert "double six" in assert_private_to(sim, await b.slash(ch, "roll"), b)
    assert "takes the cup" in public_text(sim)
    assert_public(await b.slash(ch, "claim", value="21"))
    for hidden in ("double four", "sixty-five", "double six", "6-6:"):
        assert hidden not in public_text(sim), hidden
    reveal = assert_public(await c.slash(ch, "bullshit"))
    assert f"<@{b.id}> takes **1 chug**" in reveal
    check_reveal(sim, reveal, (6, 6))
    # Dice that were folded away are never shown.
    assert "double four" not in public_text(sim) and "sixty-five" not in public_text(sim)

    over = assert_public(await a.slash(ch, "endgame"))
    assert "**Game over.**" in over and "**Totals**" in over
    assert not any(m.components for m in ch.history())  # no live buttons are left
    await check_stored_over(sim, table.game_id, {
        0: {"sips": 2, "chugs": 0, "games_played": 1, "games_won": 0, "calls_made": 0},
        1: {"sips": 1, "chugs": 1, "calls_made": 1, "calls_right": 1, "bluffs_caught": 1},
        2: {"sips": 2, "calls_made": 1, "calls_right": 1, "games_played": 1},
    })  # fmt: skip


async def test_dollar_with_buttons_and_selects(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 6])
    table = await open_game(sim, "dollar", 3, buttons=True, lives=1)
    assert [p.lives for p in table.game.players.values()] == [1, 1, 1]

    rolled = await a.click(turn_message(sim), label="Roll")
    assert "fifty-two" in assert_private_to(sim, rolled, a)
    # Claim from the select that came with the private dice.
    claimed = await a.select(rolled.response, ["61"])
    assert f"claims **sixty-one** → <@{b.id}>" in assert_public(claimed)
    assert "fifty-two" not in public_text(sim)

    accepted = await b.click(turn_message(sim), label="Accept")
    assert "accepts" in assert_public(accepted)
    pass_select = f"mxs:pass:{ch.id}:{table.game.move_no}"
    passed = await b.select(turn_message(sim), ["62"], custom_id=pass_select)
    assert "passes the cup on unseen, claiming **sixty-two**" in assert_public(passed)
    assert "fifty-two" not in public_text(sim)

    reveal = assert_public(await c.click(turn_message(sim), label="Bullshit!"))
    assert "The cup shows **fifty-two**" in reveal and "caught bluffing!" in reveal
    assert f"<@{b.id}> is out" in reveal
    check_reveal(sim, reveal, (5, 2))

    # Round 2: carol rolls blind; nobody, not even carol, sees the dice.
    blind = await c.click(turn_message(sim), label="Roll blind")
    assert "rolled blind under the cup" in assert_public(blind)
    assert "double six" not in public_text(sim)
    peek = await c.click(turn_message(sim), label="Peek")
    assert peek.ephemeral and "haven't seen" in peek.response.content
    claimed = await c.select(turn_message(sim), ["43"])
    assert f"claims **forty-three** → <@{a.id}>" in assert_public(claimed)
    assert "double six" not in public_text(sim)
    reveal = assert_public(await a.click(turn_message(sim), label="Bullshit!"))
    assert "The cup shows **double six**" in reveal and "it was true!" in reveal
    assert f"🏆 **Game over!** <@{c.id}> wins." in reveal
    check_reveal(sim, reveal, (6, 6))
    assert table.game.winner == pid(c)
    await check_stored_over(sim, table.game_id, {
        0: {"lives_lost": 1, "games_played": 1, "games_won": 0, "calls_made": 1},
        1: {"lives_lost": 1, "games_played": 1, "bluffs_caught": 1},
        2: {"lives_lost": 0, "games_played": 1, "games_won": 1, "calls_right": 1},
    })  # fmt: skip


async def test_mexen_with_slash_commands(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 4, 3, 1, 5, 5, 4, 2, 2, 1, 3, 2, 4, 1, 6, 1])
    table = await open_game(sim, "mexen", 3)

    assert "rolled **64**" in assert_public(await a.slash(ch, "roll"))
    # A 3-1: the table sees it; the choice of whom to hand the sip to is alice's alone.
    choose = await a.slash(ch, "roll")
    assert "hand out your sip" in assert_private_to(sim, choose, a)
    assert "rolled 3-1: hands out a sip" in public_text(sim)
    options = choose.response.components[0]["components"][0]["options"]
    assert {o["label"] for o in options} == {"bob", "carol"}
    handed = assert_public(await a.slash(ch, "handout", player=b))
    assert f"<@{b.id}> takes **1 sip**: handed out after a 3-1" in handed
    assert "rolled **500**" in assert_public(await a.slash(ch, "roll"))
    stood = assert_public(await a.slash(ch, "stand"))
    assert "stands on **500**" in stood and "Roll limit this round: **2**" in stood

    assert "rolled **42**" in assert_public(await b.slash(ch, "roll"))
    assert "rolled **Mex**" in assert_public(await b.slash(ch, "roll"))
    assert "rolled **32**" in assert_public(await c.slash(ch, "roll"))
    lost = assert_public(await c.slash(ch, "roll"))
    assert "rolled **41**" in lost
    assert f"<@{c.id}> takes **2 sips**: lowest roll 41, 1x Mex" in lost

    # Round 2: carol ends it early and takes the single sip herself.
    assert_public(await c.slash(ch, "roll"))
    ended = assert_public(await c.slash(ch, "endround"))
    assert "ends the round early" in ended and f"**Round 3**: <@{c.id}> starts" in ended

    over = assert_public(await a.slash(ch, "endgame"))
    assert "**Game over.**" in over
    await check_stored_over(sim, table.game_id, {
        0: {"sips": 0, "rolls_made": 3, "games_played": 1},
        1: {"sips": 1, "mex_rolled": 1, "rounds_lost": 0},
        2: {"sips": 3, "rounds_lost": 2, "games_won": 0},
    })  # fmt: skip


async def test_mexicanen_to_zero_lives_with_slash_commands(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 6, 4, 3, 2, 1, 3, 1])
    table = await open_game(sim, "mexicanen", 2, lives=2)

    assert "rolled **600**" in assert_public(await a.slash(ch, "roll"))
    assert_public(await a.slash(ch, "stand"))
    assert "rolled **43**" in assert_public(await b.slash(ch, "roll"))
    lost = assert_public(await b.slash(ch, "stand"))
    assert f"<@{b.id}> takes **1 life**" in lost
    assert table.game.players[pid(b)].lives == 1

    assert "rolled **Mex**" in assert_public(await b.slash(ch, "roll"))
    over = assert_public(await a.slash(ch, "roll"))
    assert "rolled **31**" in over and f"<@{a.id}> takes **2 lives**" in over
    assert f"**Game over!** <@{a.id}> hit zero lives and loses the game." in over
    assert table.game.loser == pid(a) and table.game.winner is None
    await check_stored_over(sim, table.game_id, {
        0: {"lives_lost": 2, "rounds_lost": 1, "games_played": 1, "games_won": 0},
        1: {"lives_lost": 1, "rounds_lost": 1, "games_played": 1, "mex_rolled": 1},
    })  # fmt: skip


async def test_mexico_with_buttons(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 3, 2, 1, 1, 4, 4])
    table = await open_game(sim, "mexico", 3, buttons=True)

    assert "rolled **52**" in assert_public(await a.click(turn_message(sim), label="Roll"))
    kept = assert_public(await a.click(turn_message(sim), label="Keep the 2"))
    assert "rolled **62** (kept the 2)" in kept
    assert "Roll limit this round: **2**" in assert_public(
        await a.click(turn_message(sim), label="Stand")
    )
    stuck = assert_public(await b.click(turn_message(sim), label="Roll"))
    assert "**STUCK!**" in stuck
    tapped = assert_public(await c.click(turn_message(sim), label="TAP!"))
    assert f"<@{c.id}> hits **TAP**! <@{b.id}>'s 3-2 is locked." in tapped
    knight = assert_public(await c.click(turn_message(sim), label="Roll"))
    assert "rolled **100**" in knight and f"<@{c.id}> is the **Knight**" in knight
    lost = assert_public(await c.click(turn_message(sim), label="Roll"))
    assert "rolled **400**" in lost and "The pot is now **6**" in lost
    assert f"<@{c.id}> takes **4 sips**: Knight's double 4" in lost
    assert f"<@{b.id}> takes **6 sips**: lowest roll 32: took the pot" in lost
    assert table.game.knight == pid(c)

    over = assert_public(await a.slash(sim.channel, "endgame"))
    assert "**Game over.**" in over
    await check_stored_over(sim, table.game_id, {
        0: {"sips": 0, "rolls_made": 2, "games_played": 1},
        1: {"sips": 6, "rounds_lost": 1, "games_played": 1},
        2: {"sips": 4, "rolls_made": 2, "games_played": 1},
    })  # fmt: skip


async def test_claim_autocomplete_offers_only_valid_claims(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([4, 2, 5, 5])
    await open_game(sim, "mexican", 3)
    await a.slash(ch, "roll")
    first = await a.autocomplete(ch, "claim", "value", "")
    assert first[0] == {"name": "Mexican (21)", "value": "21"}
    assert {"name": "double five (55)", "value": "55"} in first
    assert all(choice["value"] != "31" for choice in first)  # a Social is no claim
    assert len(first) == 20
    sixes = await a.autocomplete(ch, "claim", "value", "six")
    assert [x["value"] for x in sixes] == ["66", "65", "64", "63", "62", "61"]
    await a.slash(ch, "claim", value="55")
    await b.slash(ch, "roll")
    tie_or_beat = await b.autocomplete(ch, "claim", "value", "")
    assert [x["value"] for x in tie_or_beat] == ["21", "66", "55"]  # mexican allows ties


async def test_dollar_autocomplete_and_passing_unrolled_with_slash(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([4, 2])
    table = await open_game(sim, "dollar", 3)
    await a.slash(ch, "roll")
    first = await a.autocomplete(ch, "claim", "value", "")
    assert first[-1] == {"name": "thirty-one (31)", "value": "31"}  # lowest real roll here
    assert len(first) == 21
    await a.slash(ch, "claim", value="5-5")
    accepted = await b.slash(ch, "accept")
    assert not accepted.ephemeral
    higher = await b.autocomplete(ch, "claim", "value", "")
    assert [x["value"] for x in higher] == ["21", "66"]  # strictly higher in dollar
    passed = assert_public(await b.slash(ch, "claim", value="66"))
    assert "passes the cup on unseen, claiming **double six**" in passed
    assert table.game.cup == (4, 2) and table.game.seen_by == [pid(a)]
    assert table.game.to_move == pid(c) and table.game.claimer == pid(b)
    only_top = [{"name": "Mexican (21)", "value": "21"}]
    assert await c.autocomplete(ch, "claim", "value", "") == only_top


def pinged(sim: SimTable, message_id: int) -> list[int]:
    return list(sim.env.backend.get_message(sim.channel.id, message_id).ping_user_ids)


async def test_lobby_join_button_updates_the_lobby_without_pinging(sim: SimTable) -> None:
    a, b, c, d = sim.users
    ch = sim.channel
    opened = await a.slash(ch, "newgame", ruleset="mexico", turn_timer=0)
    lobby = opened.response.message
    assert pinged(sim, lobby.id) == []  # the host is named, not pinged
    for user in (b, c):
        joined = await user.click(turn_message(sim), label="Join")
        assert joined.response is not None and joined.response.id == lobby.id
    await d.slash(ch, "join")  # a slash command needs an answer of its own
    await d.click(turn_message(sim), label="Leave")
    assert [m.id for m in ch.history() if m.components] == [turn_message(sim).id]
    assert [pinged(sim, m.id) for m in ch.history()] == [[]] * len(ch.history())
    seats = turn_message(sim).embeds[0].fields[0].value.splitlines()
    assert seats == [f"<@{a.id}> host", f"<@{b.id}>", f"<@{c.id}>"]
    started = await a.click(turn_message(sim), label="Start")
    assert pinged(sim, started.response.id) == [a.id]  # "your move" pings
    # Open-roll games have no claims to complete.
    assert await a.autocomplete(ch, "claim", "value", "6") == []


async def test_mexico_knight_names_the_next_knight_from_a_select(sim: SimTable) -> None:
    a, _, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([1, 1, 1, 1])
    table = await open_game(sim, "mexico", 3, buttons=True)
    assert f"<@{a.id}> is the **Knight**" in assert_public(
        await a.click(turn_message(sim), label="Roll")
    )
    choose = await a.click(turn_message(sim), label="Roll")
    assert "name the next Knight" in assert_private_to(sim, choose, a)
    (row,) = choose.response.components
    assert [o["label"] for o in row["components"][0]["options"]] == ["bob", "carol"]
    assert "names the next Knight" in public_text(sim)
    named = await a.select(choose.response, [pid(c)])
    assert f"<@{c.id}> is the **Knight**" in assert_public(named)
    assert table.game.knight == pid(c) and table.game.pot == 3
    assert table.game.players[pid(a)].totals == {"sip": 1}  # the Knight sips on a 1-1
