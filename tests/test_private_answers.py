"""Hidden stays hidden in every private answer (README, How the table talks): whole seeded
games through the real bot, and at each move every reader's `/table`, `/peek`, Cup button
and a refusal, asked twice: with the dice under the cup as rolled, and with other dice
swapped in. Whoever did not see the cup must get the same bytes both times; whoever saw
it gets other words, which shows the swap reached what the bot reads.

The last test plants the leak a deliberate-bug check once slipped past 17 test files
(`/table`'s Claim field showing the cup) and shows this check catches it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import simcord

from bot.engine.presets import PRESET_NAMES
from bot.engine.rolls import ORDER, THREE_ONE, Roll
from bot.game.tables import Table
from bot.present import screens
from bot.present.message import Reply
from tests.play_helpers import open_game, table_of, turn_message
from tests.support.sim import SimTable
from tests.support.transcript import Driver, Transcript

pytestmark = pytest.mark.slow  # whole games, each move asked about four times over

#: Moves played per game, and how many moments with a cup down are checked in it (the
#: first ones: each asks every reader four things, twice).
MOVES, CHECKS = 40, 8


def answer_text(result: simcord.InteractionResult) -> str:
    """What the reader is shown: the private reply's words, embeds and control labels."""
    if result.response is None:
        return "<no answer>"
    response: Any = result.response
    parts = [response.content or ""]
    for embed in response.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{field.name}: {field.value}" for field in embed.fields]
    for row in response.components or []:
        for item in getattr(row, "children", [row]):
            parts.append(str(getattr(item, "label", "") or ""))
            parts += [str(option.label) for option in getattr(item, "options", [])]
    return "\n".join(parts)


async def private_answers(sim: SimTable, reader: simcord.MemberActor) -> dict[str, str]:
    """Every private look a reader has at the table right now, none of which moves it."""
    asked = {
        "/table": await reader.slash(sim.channel, "table"),
        "/peek": await reader.slash(sim.channel, "peek"),
        # Refused for everyone: not a claim, or not their turn (a refusal names the claim).
        "/claim": await reader.slash(sim.channel, "claim", value="zz"),
    }
    live = turn_message(sim)
    if any(getattr(c, "label", None) == "Cup" for row in live.components for c in row.children):
        asked["Cup"] = await reader.click(live, label="Cup")
    for name, result in asked.items():
        assert result.ephemeral, f"{name} answered in public"
    return {name: answer_text(result) for name, result in asked.items()}


def other_dice(cup: Roll) -> Roll:
    """Dice that may lie under a cup, other than these: the highest such roll, or the next."""
    under = [r for r in reversed(ORDER) if r not in (THREE_ONE, cup)]
    return under[0]


@contextmanager
def swapped(table: Table, dice: Roll) -> Iterator[None]:
    """Other dice under the live cup, in the engine and in its sealed commitment alike
    (its digest and salt kept, as the published seal cannot change), put back after."""
    game, meta = table.game, table.meta
    cup, commit = game.cup, meta.commit
    assert cup is not None and commit is not None
    game.cup = dice
    meta.commit = dataclasses.replace(commit, dice=dice)
    try:
        yield
    finally:
        game.cup, meta.commit = cup, commit


async def check_cup_stays_hidden(sim: SimTable) -> int:
    """At this moment: readers who did not see the cup get the same answers whatever lies
    under it. Returns how many readers were checked blind."""
    table = table_of(sim)
    game = table.game
    if not game.bluffing or game.cup is None or table.meta.commit is None:
        return 0
    readers = sim.users  # the seated players and one person not in the game
    before = {u.id: await private_answers(sim, u) for u in readers}
    with swapped(table, other_dice(game.cup)):
        after = {u.id: await private_answers(sim, u) for u in readers}
    blind = 0
    for user in readers:
        if str(user.id) in game.seen_by:
            # The swap is visible to a reader who saw the dice: /peek names them.
            assert before[user.id]["/peek"] != after[user.id]["/peek"], user.name
            continue
        blind += 1
        for name, text in before[user.id].items():
            assert after[user.id][name] == text, (
                f"{user.name}'s {name} depends on the dice under the cup:\n"
                f"as rolled: {text!r}\nswapped:   {after[user.id][name]!r}"
            )
    return blind


async def play_and_check(sim: SimTable, preset: str, seed: int) -> tuple[int, int]:
    """A seeded game in ``preset`` with three players (the fourth watches), checked at
    every move; returns (moves played, moments a cup was down)."""
    sim.bot.tables.rng = random.Random(seed)
    await open_game(sim, preset, 3)
    driver = Driver(Transcript(sim), seed)
    moves = checked = 0
    for moves in range(MOVES):  # noqa: B007 - the count is the result
        table = sim.bot.tables.get(sim.channel.id)
        if table is None or table.game.phase != "playing":
            break
        if checked < CHECKS:
            checked += bool(await check_cup_stays_hidden(sim))
        await driver.step()
    sim.env.raise_errors()
    return moves, checked


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_no_private_answer_shows_a_cup_its_reader_did_not_see(
    sim: SimTable, preset: str
) -> None:
    moves, checked = await play_and_check(sim, preset, seed=PRESET_NAMES.index(preset) + 3)
    assert moves >= 20, "the game ended before it tested anything"
    if preset in ("mexican", "dollar"):
        assert checked == CHECKS, f"only {checked} moments with a cup down"
    else:
        assert checked == 0  # open rolls: every die is on the table


async def test_the_check_catches_the_cup_shown_in_tables_claim_field(
    sim: SimTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The planted leak: `/table`'s Claim field made to show the cup instead of the claim.
    Every other check of private answers (who sees them) still passes with it."""
    shown = screens.table_view

    def leaky(table: Table, viewer: str, t: Any) -> Reply:
        reply = shown(table, viewer, t)
        game = table.game
        if reply.embed is None or game.cup is None:
            return reply
        cup = screens.Words.of(game, t).roll(game.cup)
        claim = t("field-claim")
        fields = tuple((n, cup if n == claim else v) for n, v in reply.embed.fields)
        return dataclasses.replace(reply, embed=dataclasses.replace(reply.embed, fields=fields))

    monkeypatch.setattr(screens, "table_view", leaky)
    with pytest.raises(AssertionError, match="/table depends on the dice under the cup"):
        await play_and_check(sim, "mexican", seed=3)
