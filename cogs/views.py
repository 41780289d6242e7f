"""Buttons and selects that keep working across restarts.

Every component is a ``DynamicItem`` whose custom id carries the channel and the move
number it was drawn for. A click after a restart is routed by the id alone, and a click on
a message from an earlier move is refused by the engine as stale, so an old button can
never act on a newer state.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.engine import Game, code

from .render import claim_label

if TYPE_CHECKING:
    from .play import Play

#: Moves without a move-number check: lobby buttons and Peek are safe to press any time.
UNCHECKED = {"join", "leave", "start", "peek"}

BUTTONS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "roll": ("Roll", discord.ButtonStyle.primary),
    "roll_blind": ("Roll blind", discord.ButtonStyle.secondary),
    "accept": ("Accept", discord.ButtonStyle.success),
    "bullshit": ("Bullshit!", discord.ButtonStyle.danger),
    "fold": ("Fold", discord.ButtonStyle.secondary),
    "stand": ("Stand", discord.ButtonStyle.success),
    "keep": ("Keep", discord.ButtonStyle.secondary),
    "endround": ("End round", discord.ButtonStyle.danger),
    "tap": ("TAP!", discord.ButtonStyle.danger),
    "peek": ("Peek", discord.ButtonStyle.secondary),
}
SELECTS = {"claim": "Claim…", "pass": "Pass unrolled, claiming…", "handout": "Hand a sip to…",
           "knight": "Name the next Knight…"}  # fmt: skip


def _play(interaction: discord.Interaction) -> Play:
    cog = interaction.client.get_cog("Play")  # type: ignore[attr-defined]
    assert cog is not None, "the Play cog is not loaded"
    return cog  # type: ignore[no-any-return]


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mx:(?P<move>[a-z_]+):(?P<channel>\d+):(?P<move_no>\d+)(?::(?P<die>\d))?",
):
    def __init__(self, move: str, channel_id: int, move_no: int, die: int | None = None,
                 label: str | None = None) -> None:  # fmt: skip
        default_label, style = BUTTONS[move]
        custom_id = f"mx:{move}:{channel_id}:{move_no}" + (f":{die}" if die else "")
        super().__init__(
            discord.ui.Button(label=label or default_label, style=style, custom_id=custom_id)
        )
        self.move, self.channel_id, self.move_no, self.die = move, channel_id, move_no, die

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> MoveButton:
        die = int(match["die"]) if match["die"] else None
        return cls(match["move"], int(match["channel"]), int(match["move_no"]), die, item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        play = _play(interaction)
        if self.move == "peek":
            await play.peek(interaction)
            return
        expect = None if self.move in UNCHECKED else self.move_no
        await play.play(interaction, self.move, die=self.die, expect_move=expect)


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"mxs:(?P<move>claim|pass|handout|knight):(?P<channel>\d+):(?P<move_no>\d+)",
):
    def __init__(self, move: str, channel_id: int, move_no: int,
                 options: list[discord.SelectOption] | None = None) -> None:  # fmt: skip
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"mxs:{move}:{channel_id}:{move_no}",
            placeholder=SELECTS[move],
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.move, self.channel_id, self.move_no = move, channel_id, move_no

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(match["move"], int(match["channel"]), int(match["move_no"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values or (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
        if not values:
            return
        choice = values[0]
        kwargs = {"to": choice} if self.move in ("handout", "knight") else {"value": choice}
        await _play(interaction).play(interaction, self.move, expect_move=self.move_no, **kwargs)


def claim_options(game: Game) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=claim_label(game, roll), value=code(roll))
        for roll in reversed(game.valid_claims())
    ][:25]


def player_options(game: Game, names: dict[str, str], chooser: str) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=names.get(p, p)[:100], value=p)
        for p in game.seats
        if p != chooser
    ][:25]


def routed_view() -> discord.ui.View:
    """A view of DynamicItems only, already stopped: clicks are routed by the custom id
    (``bot.add_dynamic_items``), so discord.py need not track one view per message."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def turn_view(game: Game, channel_id: int, names: dict[str, str]) -> discord.ui.View | None:
    """Buttons for the move that is due, drawn for this move number only."""
    view = routed_view()
    n = game.move_no
    if game.phase == "lobby":
        for move in ("join", "leave", "start"):
            view.add_item(MoveButton(move, channel_id, n))
        return view
    if game.phase != "playing" or game.to_move is None:
        return None
    mover = game.to_move
    moves = game.legal_moves(mover)
    for move in moves:
        if move in BUTTONS and move != "keep":
            view.add_item(MoveButton(move, channel_id, n))
        elif move == "keep":
            die = game.keepable_die()
            view.add_item(MoveButton("keep", channel_id, n, die, f"Keep the {die}"))
    if game.stuck:
        view.add_item(MoveButton("tap", channel_id, n))
    if game.bluffing:
        view.add_item(MoveButton("peek", channel_id, n))
    add_choice_selects(view, game, channel_id, names, mover, moves)
    return view


def add_choice_selects(
    view: discord.ui.View, game: Game, channel_id: int, names: dict[str, str], mover: str,
    moves: list[str],
) -> None:  # fmt: skip
    """The menus for the choices due: a claim or pass value, a hand-out, the next Knight.
    Shared by the public turn message and the mover's private reply."""
    n = game.move_no
    for move in ("claim", "pass"):
        if move in moves:
            view.add_item(MoveSelect(move, channel_id, n, claim_options(game)))
    for move in ("handout", "knight"):
        if move in moves:
            view.add_item(MoveSelect(move, channel_id, n, player_options(game, names, mover)))
