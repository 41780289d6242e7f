"""Buttons and menus that keep working across restarts, routed by their custom ids.

Each is a ``DynamicItem`` whose template takes any id with its prefix; the id is then read
strictly (``bot/present/ids.py``), so an id that does not parse (an older version's, or a
forged one) gets a clear private refusal instead of no answer. An id counts only on a
game's message that carries it (``checks.placed``), never on a leaderboard page, say. A
click decodes the move and hands it, with the game and move number it was drawn for, to
the dealer, which refuses stale ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter import checks
from bot.adapter.send import answer
from bot.engine import BOT_ONLY, GameError, Move
from bot.present import ids
from bot.present import screens as present
from bot.present.i18n import language_of, talk

if TYPE_CHECKING:
    from bot.adapter.dealer import Dealer

NOT_OURS = GameError("button-not-ours")


def _dealer(interaction: discord.Interaction) -> Dealer:
    dealer: Dealer | None = getattr(interaction.client, "dealer", None)
    assert dealer is not None, "the Play cog is not loaded"
    return dealer


async def _refuse(interaction: discord.Interaction, why: str | GameError) -> None:
    """A key of the catalog, or an engine refusal, said in the clicker's language."""
    if isinstance(why, GameError):
        text = _dealer(interaction).refusal_of(interaction, why)
    else:
        text = talk(language_of(interaction.locale))(why)
    await answer(interaction, present.refusal(text))


async def _placed(interaction: discord.Interaction) -> bool:
    """Whether the click's id counts on the message it came on; if not, it is refused.
    Compares what the click brings (a game's id counts on any game message that shows
    it: the dealer then checks its game and move number)."""
    problem = checks.misplaced(interaction)
    if problem is not None:
        await _refuse(interaction, problem)
    return problem is None


async def refuse_unrouted(interaction: discord.Interaction) -> None:
    """An ``on_interaction`` listener: a click with a game's id that no item below takes
    (its message does not carry it, or it is too long) is refused, not left unanswered."""
    problem = checks.not_taken(interaction, (ids.GAME,))
    if problem is not None:
        await _refuse(interaction, problem)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.MOVE_ROUTE):
    def __init__(self, rest: str) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"{ids.MOVE_PREFIX}:{rest}"))
        self.parsed = ids.read_move(rest)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if not await _placed(interaction):
            return
        if self.parsed is None:
            await _refuse(interaction, ids.OUTDATED)
            return
        game_id, move_no, text = self.parsed
        try:
            move = Move.decode(text)
        except GameError as err:
            await _refuse(interaction, err)
            return
        if move.act in BOT_ONLY:
            await _refuse(interaction, NOT_OURS)
            return
        expect = None if move.act in ids.UNCHECKED else move_no
        await _dealer(interaction).play(interaction, move, game_id=game_id, move_no=expect)


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.MENU_ROUTE):
    def __init__(self, rest: str) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"{ids.MENU_PREFIX}:{rest}",
            options=[discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.parsed = ids.read_menu(rest)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveMenu:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if not await _placed(interaction):
            return
        if self.parsed is None:
            await _refuse(interaction, ids.OUTDATED)
            return
        game_id, move_no, act = self.parsed
        if act not in ids.MENU_ACTS:
            await _refuse(interaction, NOT_OURS)
            return
        data: Mapping[str, Any] = interaction.data or {}
        values = data.get("values") or []
        try:
            if len(values) != 1 or not isinstance(values[0], str):
                raise GameError("menu-pick-one")
            move = Move.decode(values[0])
            if move.act.value != act:
                raise GameError("menu-wrong-choice")
        except GameError as err:
            await _refuse(interaction, err)
            return
        await _dealer(interaction).play(interaction, move, game_id=game_id, move_no=move_no)


class ToolButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.TOOL_ROUTE):
    """The Cup (and an older bot's Show my dice) and Rematch: they show something or open
    a table, and never move a game."""

    def __init__(self, rest: str) -> None:
        super().__init__(discord.ui.Button(label="·", custom_id=f"{ids.TOOL_PREFIX}:{rest}"))
        self.parsed = ids.read_tool(rest)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ToolButton:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if not await _placed(interaction):
            return
        if self.parsed is None:
            await _refuse(interaction, ids.OUTDATED)
            return
        game_id, _, tool, arg = self.parsed
        dealer = _dealer(interaction)
        async with dealer.outage_answered(interaction):
            if tool == ids.SHOW_DICE:
                await dealer.show_dice(interaction, game_id)
            elif tool == ids.CHECK_CUP and arg:
                await dealer.check_cup(interaction, game_id, arg)
            elif tool == ids.REMATCH:
                await dealer.rematch(interaction, game_id)
            else:
                await _refuse(interaction, NOT_OURS)


ITEMS = (MoveButton, MoveMenu, ToolButton)
