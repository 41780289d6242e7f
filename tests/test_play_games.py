"""Whole games of all five rule sets in a Discord channel, lobby to game over.

Dice are scripted, so every test knows what is under the cup. In the bluffing games the
true dice reach the roller alone, as an ephemeral answer, and appear in no public message
until a call of bullshit lifts the cup; in the open-roll games every roll is public.
`mexican`, `mexen` and `mexicanen` are played with slash commands only, `dollar` and
`mexico` with the buttons and selects only (bar the host's /endgame).

Every move goes through `Moves`, which checks who the new public messages it left ping:
only the player who must act next, only when the turn has just passed to them, and never
the player who made the move.
"""

from __future__ import annotations

from collections.abc import Awaitable

import discord
import simcord

from bot.game.fairness import verify
from bot.present.faces import Faces
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import (
    OPENED,
    SEALED_FULL,
    assert_private_to,
    assert_public,
    check_reveal,
    custom_ids,
    message_text,
    open_game,
    pid,
    public_text,
    seals_of,
    turn_message,
)
from tests.support.sim import SimTable


def pinged(sim: SimTable, message_id: int) -> list[int]:
    return list(sim.env.backend.get_message(sim.channel.id, message_id).ping_user_ids)


class Moves:
    """Makes each move and records whom the public messages it posted pinged (an edit
    notifies nobody). Nobody is ever pinged by their own move."""

    def __init__(self, sim: SimTable) -> None:
        self.sim = sim
        self.seen = {m.id for m in sim.channel.history()}
        self.pinged: list[int] = []

    async def __call__(
        self, user: simcord.MemberActor, action: Awaitable[simcord.InteractionResult]
    ) -> simcord.InteractionResult:
        result = await action
        new = [m.id for m in self.sim.channel.history() if m.id not in self.seen]
        self.seen.update(new)
        self.pinged = [u for message_id in new for u in pinged(self.sim, message_id)]
        assert user.id not in self.pinged, f"{user.name} was pinged by their own move"
        return result


def labels(shown: discord.Message) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [
        x.label or ""
        for row in shown.components
        for x in row.children
        if isinstance(x, discord.Button)
    ]


def message(sim: SimTable, message_id: int) -> discord.Message:
    """A channel message as it reads now (its buttons may have changed since)."""
    (found,) = [m for m in sim.channel.history() if m.id == message_id]
    return found


async def check_sealed(
    sim: SimTable, shown: discord.Message, user: simcord.MemberActor, hidden: str
) -> str:
    """The Cup button before the reveal: privately, the full digest that starts with the
    short seal its id published in the channel, and no dice for one who has not seen them."""
    short = seals_of(shown)
    assert short, custom_ids(shown)
    answer = assert_private_to(sim, await user.click(shown, label="Cup"), user)
    text = answer.split("\n\n🔓", 1)[0]  # a cup lifted on the same message comes after
    full = SEALED_FULL.search(text)
    assert full is not None, text
    assert full.group(1).startswith(short[0])  # the live cup first, a lifted one after
    assert hidden not in text and "sealed as" not in text
    return full.group(1)


async def check_opened(
    sim: SimTable,
    shown: discord.Message,
    user: simcord.MemberActor,
    digest: str,
    dice: tuple[int, int],
    said: str,
) -> None:
    """The same Cup button after the reveal: the dice, and a salt that hashes with them to
    the digest it showed while the cup was sealed."""
    text = assert_private_to(sim, await user.click(shown, label="Cup"), user)
    assert f"The cup held **{Faces().of(dice)} {said}**, sealed as `{digest}`" in text, text
    opened = OPENED.search(text)
    assert opened is not None, text
    shown_digest, high, low, salt = opened.groups()
    assert shown_digest == digest and (int(high), int(low)) == dice
    assert verify(dice, salt, digest)


def no_moves_left(sim: SimTable) -> None:
    """After the game, the channel's buttons can only show something or open a new
    table: a reveal's Cup and the final "Rematch"."""
    for m in sim.channel.history():
        for custom_id in custom_ids(m):
            assert custom_id.startswith("mxt:"), custom_id


def final_standing(over: discord.Message, *lines: str, legend: str | None = None) -> None:
    """The final message lists every player, best first, the winners marked; a rated game
    adds their new rating and its change, then the achievements earned, with the
    ``legend`` in the footer saying what the numbers are (every rated game here is its
    players' first: each rating is provisional). It offers a Rematch."""
    assert over.embeds and over.embeds[0].title == "Final standing"
    assert (over.embeds[0].description or "").splitlines() == list(lines)
    assert (over.embeds[0].footer.text or None) == legend
    assert "Rematch" in labels(over)


BLUFF_LEGEND = "Bluffing rating: all start at 1,000 · ? = provisional (under 10 games)"
OPEN_LEGEND = "Open-roll rating: all start at 1,000 · ? = provisional (under 10 games)"
#: What a game ended by its leader says: nobody wins it (docs/league.md, Ratings).
IN_THE_LEAD = "ended the game in the lead: no winner."


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
    move = Moves(sim)

    # Round 1: alice rolls 5-3 under the cup and bluffs sixty-four; bob calls it.
    mine = assert_private_to(sim, await move(a, a.slash(ch, "roll")), a)
    assert "Your dice: **⚄⚂ fifty-three**" in mine and move.pinged == []
    assert f"<@{a.id}> rolls under the cup." in public_text(sim)
    assert seals_of(turn_message(sim)), "the Cup button names the sealed cup"
    assert "🔒" not in message_text(turn_message(sim)), "the seal is behind the Cup button"
    peek = await b.slash(ch, "peek")
    assert peek.ephemeral and "haven't seen" in peek.response.content
    again = assert_private_to(sim, await a.slash(ch, "peek"), a)
    assert "fifty-three" in again
    claim = assert_public(await move(a, a.slash(ch, "claim", value="sixty-four")))
    assert f"<@{a.id}> claims **sixty-four**." in claim
    assert f"<@{b.id}>: roll to accept, or call bullshit?" in claim
    assert move.pinged == [b.id]
    assert "fifty-three" not in public_text(sim) and "5-3" not in public_text(sim)
    claimed = turn_message(sim)
    digest = await check_sealed(sim, claimed, c, "fifty-three")
    answering = assert_private_to(sim, await b.click(claimed, label="Cup"), b)
    assert answering.startswith(f"🔒 <@{a.id}>'s cup is sealed: `{digest}`"), answering
    assert "rolled blind" not in answering
    result = await move(b, b.slash(ch, "bullshit"))
    reveal = assert_public(result)
    assert "**⚄⚂ fifty-three** under the cup. Bluff caught!" in reveal
    assert f"→ <@{a.id}> takes **1 sip**." in reveal
    await check_reveal(sim, result.response.message, (5, 3), c)
    # The button that showed the seal now opens that very cup.
    await check_opened(sim, message(sim, claimed.id), a, digest, (5, 3), "fifty-three")

    # Round 2, started by the caller: a Social, then a fold.
    social = assert_public(await move(b, b.slash(ch, "roll")))
    assert "**Social**" in social and move.pinged == []
    assert table.game.players[pid(c)].totals == {"sip": 1}
    mine = assert_private_to(sim, await move(b, b.slash(ch, "roll")), b)
    assert "double four" in mine
    assert_public(await move(b, b.slash(ch, "claim", value="55")))
    assert move.pinged == [c.id]
    accepted = assert_public(await move(c, c.slash(ch, "accept")))
    assert f"<@{c.id}> accepts **double five**." in accepted and move.pinged == []
    mine = assert_private_to(sim, await move(c, c.slash(ch, "roll")), c)
    assert "sixty-five" in mine
    folded = assert_public(await move(c, c.slash(ch, "fold")))
    assert f"<@{c.id}> folds against **double five**." in folded
    assert f"→ <@{c.id}> takes **1 sip**." in folded
    assert "**Round 3**" in folded and f"<@{a.id}>, roll under the cup." in folded
    assert move.pinged == [a.id]

    # Round 3: a true Mexican, tied by a bluff (ties are allowed), caught.
    assert "Mexican" in assert_private_to(sim, await move(a, a.slash(ch, "roll")), a)
    assert_public(await move(a, a.slash(ch, "claim", value="mex")))
    assert move.pinged == [b.id]
    assert "double six" in assert_private_to(sim, await move(b, b.slash(ch, "roll")), b)
    assert f"<@{b.id}> rolls under the cup." in public_text(sim) and move.pinged == []
    assert_public(await move(b, b.slash(ch, "claim", value="21")))
    assert move.pinged == [c.id]
    for hidden in ("double four", "sixty-five", "double six", "6-6"):
        assert hidden not in public_text(sim), hidden
    result = await move(c, c.slash(ch, "bullshit"))
    reveal = assert_public(result)
    assert "**⚅⚅ double six** under the cup. Bluff caught!" in reveal
    assert f"→ <@{b.id}> takes **1 chug**." in reveal
    await check_reveal(sim, result.response.message, (6, 6), b)
    # Dice that were folded away are never shown.
    assert "double four" not in public_text(sim) and "sixty-five" not in public_text(sim)

    result = await move(a, a.slash(ch, "endgame"))
    over = assert_public(result)
    assert f"🏁 <@{a.id}> {IN_THE_LEAD}" in over and move.pinged == []
    final_standing(  # alice ends it tied in the lead: the table shares first, no win
        result.response.message,
        f"1. <@{a.id}> · 2 sips · 1,008? (+8)",
        f"1. <@{c.id}> · 2 sips · 1,008? (+8)",
        f"1. <@{b.id}> · 1 sip, 1 chug · 1,008? (+8)",
        f"🏅 <@{c.id}>: Fake 21 busted",
        f"🏅 <@{b.id}>: Social!",
        legend=BLUFF_LEGEND,
    )
    no_moves_left(sim)
    await check_stored_over(
        sim,
        table.game_id,
        {
            0: {"sips": 2, "chugs": 0, "games_played": 1, "games_won": 0, "calls_made": 0},
            1: {"sips": 1, "chugs": 1, "calls_made": 1, "calls_right": 1, "bluffs_caught": 1},
            2: {"sips": 2, "calls_made": 1, "calls_right": 1, "games_played": 1},
        },
    )


async def test_dollar_with_buttons_and_selects(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 6])
    table = await open_game(sim, "dollar", 3, buttons=True, lives=1)
    assert [p.lives for p in table.game.players.values()] == [1, 1, 1]
    move = Moves(sim)

    rolled = await move(a, a.click(turn_message(sim), label="Roll"))
    assert "Your dice: **⚄⚁ fifty-two**" in assert_private_to(sim, rolled, a)
    assert move.pinged == []
    # The Cup button on the public turn message shows the dice to the roller alone (with
    # the seal and the Claim menu); anyone else reads the seal only.
    again = assert_private_to(sim, await a.click(turn_message(sim), label="Cup"), a)
    assert "Your dice: **⚄⚁ fifty-two**" in again and SEALED_FULL.search(again)
    assert "Claim below" in again
    peek = assert_private_to(sim, await b.click(turn_message(sim), label="Cup"), b)
    assert "fifty-two" not in peek and SEALED_FULL.search(peek)
    # Claim from the menu that came with the private dice.
    claimed = await move(a, a.select(rolled.response, ["claim.61"]))
    text = assert_public(claimed)
    assert f"<@{a.id}> claims **sixty-one**." in text and move.pinged == [b.id]
    assert "fifty-two" not in public_text(sim)
    answers = ["Accept & roll", "Accept & roll blind", "Accept & pass on", "Bullshit!"]
    assert labels(turn_message(sim)) == [*answers, "Cup"]
    # The answerer is to move but never rolled: the Cup names the claimer's cup.
    answering = assert_private_to(sim, await b.click(turn_message(sim), label="Cup"), b)
    assert answering.startswith(f"🔒 <@{a.id}>'s cup is sealed: "), answering
    assert "rolled blind" not in answering and "fifty-two" not in answering

    accepted = await move(b, b.click(turn_message(sim), label="Accept & pass on"))
    assert f"<@{b.id}> accepts **sixty-one**." in assert_public(accepted)
    assert accepted.response.id == claimed.response.id  # the same turn: edited in place
    assert move.pinged == []
    pass_menu = f"mxs:{table.game_id}:{table.game.move_no}:pass"
    passed = await move(b, b.select(turn_message(sim), ["pass.62"], custom_id=pass_menu))
    text = assert_public(passed)
    assert f"<@{b.id}> passes the cup on unseen, claiming **sixty-two**." in text
    assert move.pinged == [c.id]
    assert "fifty-two" not in public_text(sim)
    passed_on = turn_message(sim)
    digest = await check_sealed(sim, passed_on, b, "fifty-two")

    result = await move(c, c.click(turn_message(sim), label="Bullshit!"))
    reveal = assert_public(result)
    assert "**⚄⚁ fifty-two** under the cup. Bluff caught!" in reveal
    assert f"→ <@{b.id}> loses **1 life**." in reveal and f"💀 <@{b.id}> is out" in reveal
    assert move.pinged == []  # carol called, and carol starts the next round
    await check_reveal(sim, result.response.message, (5, 2), a)
    await check_opened(sim, message(sim, passed_on.id), b, digest, (5, 2), "fifty-two")

    # Round 2: carol rolls blind; nobody, not even carol, sees the dice.
    # A blind roll has nothing private to say: the turn message, updated in place, says
    # it and carries the Claim menu (one Discord call).
    blind = await move(c, c.click(turn_message(sim), label="Roll blind"))
    shown = assert_public(blind)
    assert blind.response.id == turn_message(sim).id and move.pinged == []
    assert f"<@{c.id}> rolls blind under the cup: nobody saw the dice." in shown
    assert "double six" not in public_text(sim)
    assert labels(turn_message(sim)).count("Cup") == 1
    await check_sealed(sim, turn_message(sim), c, "double six")
    claimed = await move(c, c.select(turn_message(sim), ["claim.43"]))
    assert f"<@{c.id}> claims **forty-three**." in assert_public(claimed)
    assert move.pinged == [a.id]
    assert "double six" not in public_text(sim)
    result = await move(a, a.click(turn_message(sim), label="Bullshit!"))
    reveal = assert_public(result)
    assert "**⚅⚅ double six** under the cup. It was true!" in reveal
    assert move.pinged == []  # the winner is marked in the standing (final_standing)
    await check_reveal(sim, result.response.message, (6, 6), c)
    final_standing(
        result.response.message,
        f"🏆 1. <@{c.id}> · ❤️ 1 · 1,065? (+65)",
        f"2. <@{a.id}> · out · 1,031? (+31)",
        f"3. <@{b.id}> · out · 945? (−55)",
        f"🏅 <@{c.id}>: First blood, Flawless and Blind faith",
        legend=BLUFF_LEGEND,
    )
    assert table.game.winner == pid(c)
    no_moves_left(sim)
    await check_stored_over(
        sim,
        table.game_id,
        {
            0: {"lives_lost": 1, "games_played": 1, "games_won": 0, "calls_made": 1},
            1: {"lives_lost": 1, "games_played": 1, "bluffs_caught": 1},
            2: {"lives_lost": 0, "games_played": 1, "games_won": 1, "calls_right": 1},
        },
    )

    # Rematch: a new lobby with the same rules, pinging the other players of the game.
    rematch = await move(b, b.click(result.response.message, label="Rematch"))
    lobby = assert_public(rematch)
    assert f"Rematch! <@{a.id}> <@{c.id}>: tap **Join**." in lobby
    assert sorted(move.pinged) == sorted([a.id, c.id])  # not bob, who tapped, nor dave
    new = sim.bot.tables.get(ch.id)
    assert new is not None and new.game_id != table.game_id and new.game.phase == "lobby"
    assert new.game.preset == "dollar" and new.game.host == pid(b)
    joined = await move(a, a.click(rematch.response.message, label="Join"))
    assert joined.response.id == rematch.response.id and move.pinged == []
    assert new.game.seats == [pid(b), pid(a)]


async def test_mexen_with_slash_commands(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 4, 3, 1, 5, 5, 4, 2, 2, 1, 3, 2, 4, 1, 6, 1])
    table = await open_game(sim, "mexen", 3)
    move = Moves(sim)

    rolled = assert_public(await move(a, a.slash(ch, "roll")))
    assert f"<@{a.id}> rolls **64**." in rolled and move.pinged == []
    # A 3-1: the table sees it; the choice of whom to hand the sip to is alice's alone.
    choose = await move(a, a.slash(ch, "roll"))
    assert f"<@{a.id}>, hand out your sip." in assert_private_to(sim, choose, a)
    assert f"<@{a.id}> rolled 3-1: a sip to hand out, then a free roll." in public_text(sim)
    options = choose.response.components[0]["components"][0]["options"]
    assert {o["label"] for o in options} == {"bob", "carol"}
    assert {o["value"] for o in options} == {f"handout.{b.id}", f"handout.{c.id}"}
    handed = assert_public(await move(a, a.slash(ch, "handout", player=b)))
    assert f"<@{a.id}> hands **a sip** to <@{b.id}>." in handed and move.pinged == []
    assert "**500**" in assert_public(await move(a, a.slash(ch, "roll")))
    stood = assert_public(await move(a, a.slash(ch, "stand")))
    assert f"<@{a.id}> stands on **500**." in stood and "Roll limit this round: **2**." in stood
    assert move.pinged == [b.id]

    assert f"<@{b.id}> rolls **42**." in assert_public(await move(b, b.slash(ch, "roll")))
    mex = assert_public(await move(b, b.slash(ch, "roll")))
    assert f"<@{b.id}> rolls **Mex** (roll 2)." in mex and move.pinged == [c.id]
    assert f"<@{c.id}> rolls **32**." in assert_public(await move(c, c.slash(ch, "roll")))
    lost = assert_public(await move(c, c.slash(ch, "roll")))
    assert f"<@{c.id}> rolls **41** (roll 2)." in lost
    assert f"→ <@{c.id}> takes **2 sips**: lowest roll (41), 1× Mex." in lost
    assert move.pinged == []  # carol lost, and carol starts the next round

    # Round 2: carol ends it early and takes the single sip herself.
    assert f"<@{c.id}> rolls **61**." in assert_public(await move(c, c.slash(ch, "roll")))
    ended = assert_public(await move(c, c.slash(ch, "endround")))
    assert f"<@{c.id}> ends the round early on **61**." in ended
    assert f"→ <@{c.id}> takes **1 sip**." in ended
    assert "**Round 3**" in ended and f"<@{c.id}>, your roll." in ended
    assert move.pinged == []

    result = await move(a, a.slash(ch, "endgame"))
    assert f"🏁 <@{a.id}> {IN_THE_LEAD}" in assert_public(result)
    final_standing(
        result.response.message,
        f"1. <@{a.id}> · 0 sips · 1,008? (+8)",
        f"1. <@{b.id}> · 1 sip · 1,008? (+8)",
        f"1. <@{c.id}> · 3 sips · 1,008? (+8)",
        legend=OPEN_LEGEND,
    )
    no_moves_left(sim)
    await check_stored_over(
        sim,
        table.game_id,
        {
            0: {"sips": 0, "rolls_made": 3, "games_played": 1, "games_won": 0},
            1: {"sips": 1, "mex_rolled": 1, "rounds_lost": 0},
            2: {"sips": 3, "rounds_lost": 2, "games_won": 0},
        },
    )


async def test_mexicanen_to_zero_lives_with_slash_commands(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([6, 6, 4, 3, 2, 1, 3, 1])
    table = await open_game(sim, "mexicanen", 2, lives=2)
    move = Moves(sim)

    assert f"<@{a.id}> rolls **600**." in assert_public(await move(a, a.slash(ch, "roll")))
    assert_public(await move(a, a.slash(ch, "stand")))
    assert move.pinged == [b.id]
    assert f"<@{b.id}> rolls **43**." in assert_public(await move(b, b.slash(ch, "roll")))
    lost = assert_public(await move(b, b.slash(ch, "stand")))
    assert f"→ <@{b.id}> loses **1 life**: lowest roll (43)." in lost
    assert table.game.players[pid(b)].lives == 1
    assert move.pinged == []  # bob lost, and bob starts the next round

    mex = assert_public(await move(b, b.slash(ch, "roll")))
    assert f"<@{b.id}> rolls **Mex**." in mex and move.pinged == [a.id]
    result = await move(a, a.slash(ch, "roll"))
    over = assert_public(result)
    assert f"<@{a.id}> rolls **31**." in over
    assert f"→ <@{a.id}> loses **2 lives**: lowest roll (31), 1× Mex." in over
    assert f"→ <@{a.id}> loses **2 lives**" in over
    assert move.pinged == []
    final_standing(
        result.response.message,
        f"🏆 1. <@{b.id}> · ❤️ 1 · 1,069? (+69)",
        f"2. <@{a.id}> · out · 963? (−37)",
        f"🏅 <@{b.id}>: First blood and Hanging by a thread",
        legend=OPEN_LEGEND,
    )
    assert table.game.loser == pid(a) and table.game.winner is None
    no_moves_left(sim)
    await check_stored_over(
        sim,
        table.game_id,
        {
            0: {"lives_lost": 2, "rounds_lost": 1, "games_played": 1, "games_won": 0},
            1: {
                "lives_lost": 1,
                "rounds_lost": 1,
                "games_played": 1,
                "games_won": 1,
                "mex_rolled": 1,
            },
        },
    )


async def test_mexico_with_buttons(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 3, 2, 1, 1, 4, 4])
    table = await open_game(sim, "mexico", 3, buttons=True)
    move = Moves(sim)

    first = await move(a, a.click(turn_message(sim), label="Roll"))
    assert f"<@{a.id}> rolls **52**." in assert_public(first) and move.pinged == []
    kept = await move(a, a.click(turn_message(sim), label="Keep the 2"))
    assert f"<@{a.id}> keeps the 2 and rolls **62** (roll 2)." in assert_public(kept)
    assert kept.response.id == first.response.id and move.pinged == []  # edited in place
    stood = assert_public(await move(a, a.click(turn_message(sim), label="Stand")))
    assert "Roll limit this round: **2**." in stood and move.pinged == [b.id]
    stuck = assert_public(await move(b, b.click(turn_message(sim), label="Roll")))
    assert f"**STUCK!** <@{b.id}> has a 3-2: anyone else may TAP to lock it in." in stuck
    tapped = assert_public(await move(c, c.click(turn_message(sim), label="TAP! (anyone else)")))
    assert f"<@{c.id}> hits **TAP**: <@{b.id}>'s 3-2 is locked in." in tapped
    assert f"<@{c.id}>, your roll." in tapped and move.pinged == []  # carol tapped: her move
    knight = assert_public(await move(c, c.click(turn_message(sim), label="Roll")))
    assert f"<@{c.id}> rolls **100**." in knight and f"<@{c.id}> is the **Knight**." in knight
    lost = assert_public(await move(c, c.click(turn_message(sim), label="Roll")))
    assert f"<@{c.id}> rolls **400** (roll 2)." in lost and "The pot is **6**." in lost
    assert f"→ <@{c.id}> takes **4 sips**: Knight, on a double 4." in lost
    assert f"→ <@{b.id}> takes **6 sips**: the pot, lowest roll (32)." in lost
    assert move.pinged == [b.id]
    assert table.game.knight == pid(c)

    result = await move(a, a.slash(sim.channel, "endgame"))
    assert f"🏁 <@{a.id}> {IN_THE_LEAD}" in assert_public(result)
    final_standing(
        result.response.message,
        f"1. <@{a.id}> · 0 sips · 1,008? (+8)",
        f"1. <@{c.id}> · 4 sips · 1,008? (+8)",
        f"1. <@{b.id}> · 6 sips · 1,008? (+8)",
        f"🏅 <@{c.id}>: Knock knock",
        legend=OPEN_LEGEND,
    )
    no_moves_left(sim)
    await check_stored_over(
        sim,
        table.game_id,
        {
            0: {"sips": 0, "rolls_made": 2, "games_played": 1, "games_won": 0},
            1: {"sips": 6, "rounds_lost": 1, "games_played": 1},
            2: {"sips": 4, "rolls_made": 2, "games_played": 1},
        },
    )


async def test_claim_autocomplete_offers_only_valid_claims(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([4, 2, 5, 5])
    await open_game(sim, "mexican", 3)
    await a.slash(ch, "roll")
    first = await a.autocomplete(ch, "claim", "value", "")
    # Lowest valid claim first: the usual claims sit on top, not 20 entries down.
    assert first[0] == {"name": "thirty-two (32)", "value": "32"}
    assert first[-1] == {"name": "Mexican (21)", "value": "21"}
    assert {"name": "double five (55)", "value": "55"} in first
    assert all(choice["value"] != "31" for choice in first)  # a Social is no claim
    assert len(first) == 20
    sixes = await a.autocomplete(ch, "claim", "value", "six")
    assert [x["value"] for x in sixes] == ["61", "62", "63", "64", "65", "66"]
    await a.slash(ch, "claim", value="55")
    await b.slash(ch, "roll")
    tie_or_beat = await b.autocomplete(ch, "claim", "value", "")
    assert [x["value"] for x in tie_or_beat] == ["55", "66", "21"]  # mexican allows ties


async def test_dollar_autocomplete_and_passing_unrolled_with_slash(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    ch = sim.channel
    sim.bot.tables.rng = ScriptedDice([4, 2])
    table = await open_game(sim, "dollar", 3)
    await a.slash(ch, "roll")
    first = await a.autocomplete(ch, "claim", "value", "")
    assert first[0] == {"name": "thirty-one (31)", "value": "31"}  # lowest real roll here
    assert len(first) == 21
    await a.slash(ch, "claim", value="5-5")
    accepted = await b.slash(ch, "accept")
    assert not accepted.ephemeral
    higher = await b.autocomplete(ch, "claim", "value", "")
    assert [x["value"] for x in higher] == ["66", "21"]  # strictly higher in dollar
    passed = assert_public(await b.slash(ch, "claim", value="66"))
    assert "passes the cup on unseen, claiming **double six**" in passed
    assert table.game.cup == (4, 2) and table.game.seen_by == [pid(a)]
    assert table.game.to_move == pid(c) and table.game.claimer == pid(b)
    only_top = [{"name": "Mexican (21)", "value": "21"}]
    assert await c.autocomplete(ch, "claim", "value", "") == only_top


async def test_lobby_join_button_updates_the_lobby_without_pinging(sim: SimTable) -> None:
    a, b, c, d = sim.users
    ch = sim.channel
    opened = await a.slash(ch, "newgame", ruleset="mexico", turn_timer=0)
    lobby = opened.response.message
    assert pinged(sim, lobby.id) == []  # the host is named, not pinged
    for user in (b, c):
        joined = await user.click(turn_message(sim), label="Join")
        assert joined.response is not None and joined.response.id == lobby.id
    # A slash command is answered privately; the one lobby message is edited.
    in_ = assert_private_to(sim, await d.slash(ch, "join"), d)
    assert in_ == "You're in."
    assert f"<@{d.id}>" in message_text(turn_message(sim))
    left = await d.click(turn_message(sim), label="Leave")
    assert left.response is not None and left.response.id == lobby.id
    assert [m.id for m in ch.history()] == [lobby.id]
    assert [pinged(sim, m.id) for m in ch.history()] == [[]]
    description = turn_message(sim).embeds[0].description or ""
    assert f"Host: <@{a.id}>" in description
    assert f"In: <@{a.id}>, <@{b.id}>, <@{c.id}> (3/8)" in description
    assert f"<@{d.id}>" not in description
    move = Moves(sim)
    started = await move(a, a.click(turn_message(sim), label="Start"))
    assert f"<@{a.id}>, your roll." in assert_public(started)
    assert move.pinged == []  # the host started it: their own move pings nobody
    # Open-roll games have no claims to complete.
    assert await a.autocomplete(ch, "claim", "value", "6") == []


async def test_mexico_knight_names_the_next_knight_from_a_select(sim: SimTable) -> None:
    a, _, c, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([1, 1, 1, 1])
    table = await open_game(sim, "mexico", 3, buttons=True)
    move = Moves(sim)
    first = await move(a, a.click(turn_message(sim), label="Roll"))
    assert f"<@{a.id}> is the **Knight**." in assert_public(first)
    choose = await move(a, a.click(turn_message(sim), label="Roll"))
    assert f"<@{a.id}>, name the next Knight." in assert_private_to(sim, choose, a)
    (row,) = choose.response.components
    options = row["components"][0]["options"]
    assert [o["label"] for o in options] == ["bob", "carol"]
    assert f"<@{a.id}> rolled 1-1 as Knight and names the next Knight." in public_text(sim)
    named = await move(a, a.select(choose.response, [f"knight.{c.id}"]))
    # The private menu becomes what it did; the turn message says it to everyone.
    assert named.response is not None and named.response.id == choose.response.id
    assert named.response.ephemeral
    assert named.response.content == f"<@{c.id}> is the **Knight**."
    assert f"<@{c.id}> is the **Knight**." in message_text(turn_message(sim))
    assert move.pinged == []
    assert table.game.knight == pid(c) and table.game.pot == 3
    assert table.game.players[pid(a)].totals == {"sip": 1}  # the Knight sips on a 1-1
    assert f"<@{a.id}> takes **1 sip**: Knight, on a 1-1." in public_text(sim)


# --- regressions: bugs found while rewriting these tests, now fixed ---------------------


async def test_a_rematch_lobby_keeps_naming_who_has_not_joined(sim: SimTable) -> None:
    a, b, c, _ = sim.users
    await open_game(sim, "mexico", 3, buttons=True)
    over = await a.slash(sim.channel, "endgame")
    rematch = await b.click(over.response.message, label="Rematch")
    assert f"Rematch! <@{a.id}> <@{c.id}>: tap **Join**." in assert_public(rematch)
    await a.click(rematch.response.message, label="Join")
    lobby = message_text(message(sim, rematch.response.id))
    assert f"In: <@{b.id}>, <@{a.id}> (2/8)" in lobby
    assert f"Rematch! <@{c.id}>: tap **Join**." in lobby


async def test_ending_a_rematch_lobby_that_never_started_posts_no_standing(sim: SimTable) -> None:
    """Nobody played the rematch: a final standing with everyone "out" and another
    Rematch button would be noise. One line says who ended it."""
    a, b, _, _ = sim.users
    await open_game(sim, "dollar", 2, buttons=True)
    over = await a.slash(sim.channel, "endgame")
    rematch = await b.click(over.response.message, label="Rematch")
    assert_public(rematch)
    ended = await b.slash(sim.channel, "endgame")
    assert sim.bot.tables.get(sim.channel.id) is None
    assert f"🏁 <@{b.id}> ended the game." in assert_public(ended)
    assert "Final standing" not in public_text(sim).split("Rematch!", 1)[1]
    assert "Rematch" not in labels(sim.channel.last_message)


async def test_a_reveal_stays_checkable_while_its_message_shows_it(sim: SimTable) -> None:
    a, b, _, _ = sim.users
    sim.bot.tables.rng = ScriptedDice([5, 2, 6, 6])
    await open_game(sim, "dollar", 3, buttons=True, lives=2)
    rolled = await a.click(turn_message(sim), label="Roll")
    await a.select(rolled.response, ["claim.61"])
    short = seals_of(turn_message(sim))[-1]
    revealed = await b.click(turn_message(sim), label="Bullshit!")
    assert "**⚄⚁ fifty-two** under the cup" in assert_public(revealed)
    await b.click(turn_message(sim), label="Roll")  # bob starts round 2 on that message
    shown = message(sim, revealed.response.id)
    assert "**⚄⚁ fifty-two** under the cup" in message_text(shown)
    check = [i for i in custom_ids(shown) if ":cup." in i and short in i]
    assert check, custom_ids(shown)
    text = assert_private_to(sim, await a.click(shown, custom_id=check[0]), a)
    assert "The cup held **⚄⚁ fifty-two**" in text
