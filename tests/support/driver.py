"""Plays random legal games against a bot through the stand-in, learning from its answers.

The driver knows no rules. What is legal comes from what the bot posted: the turn message's
live components (buttons, and selects whose option values are claim codes or user ids, read
by ``standin.controls``; their custom ids by ``standin.parse_custom_id`` only), the player
it mentions, and the ephemeral reply a roller gets (with a Claim select). A share of moves
goes as slash commands instead of clicks (``/roll``, ``/claim value:65``, ``/accept``...),
as players do (README, sections Playing and Rule sets).

Used by ``benchmarks.wire_bench`` and ``tests/test_crash_kill9.py``; ``engine_move`` also
by ``benchmarks.table_bench``.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Act, Move

from .standin import EPHEMERAL, Interaction, StandIn, controls, is_game_over, player_to_act

PRESETS = ("mexican", "dollar", "mexen", "mexicanen", "mexico")
#: Buttons the driver never presses as a move: Peek only shows dice, lobby buttons are
#: handled by the lobby flow, Leave would shrink the table, TAP needs a bystander.
SKIP = {"peek", "leave", "join", "start", "tap"}
#: Button moves with a slash-command twin (move -> command name, options).
SLASH = {
    "roll": ("roll", {}),
    "blind": ("roll", {"blind": True}),
    "accept": ("accept", {}),
    "bullshit": ("bullshit", {}),
    "fold": ("fold", {}),
    "stand": ("stand", {}),
    "endround": ("endround", {}),
}


@dataclass
class Table:
    channel_id: int
    players: list[int]
    preset: str
    options: dict[str, Any] = field(default_factory=dict)
    phase: str = "new"  # new, lobby, playing, over
    live: dict[str, Any] | None = None
    live_no: int = -1
    #: Latest ephemeral message with controls per user (the roller's Claim select).
    private: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    refusals: int = 0
    games: int = 0


def accepted(inter: Interaction) -> bool:
    """Whether the bot took the move: refusals are ephemeral text without components;
    a roller's private dice come ephemeral too, but with a select (or the dice line)."""
    if inter.response_type is None:
        return False
    if not inter.ephemeral:
        return True
    message = inter.message or {}
    content = message.get("content") or ""
    return bool(controls(message)) or content.startswith(TAKEN)


#: How the bot's private answers to a move that it took begin (the rest are refusals).
TAKEN = ("🎲 Your dice", "🙈 You rolled blind", "You're in.", "You left the table.")


class Driver:
    def __init__(
        self,
        standin: StandIn,
        rng: random.Random,
        *,
        slash_share: float = 0.25,
        timeout: float = 15.0,
    ) -> None:
        self.standin = standin
        self.rng = rng
        self.slash_share = slash_share
        self.timeout = timeout
        self.tables: dict[int, Table] = {}
        standin.on_message = self._on_message

    def add_table(
        self,
        channel_id: int,
        players: list[int],
        preset: str,
        options: dict[str, Any] | None = None,
    ) -> Table:
        table = Table(channel_id, players, preset, dict(options or {}))
        self.tables[channel_id] = table
        return table

    # ------------------------------------------------------------ learning state

    def _on_message(
        self, channel_id: int, message: dict[str, Any], how: str, inter: Interaction | None
    ) -> None:
        table = self.tables.get(channel_id)
        if table is None:
            return
        if is_game_over(message) and not (message.get("flags", 0) & EPHEMERAL):
            table.phase = "over"
            table.live, table.live_no = None, -1
            table.private.clear()
            return
        found = controls(message)
        if not found:
            return
        move_no = max(c.move_no for c in found)
        if message.get("flags", 0) & EPHEMERAL:
            user = message.get("_for_user")
            if user is not None:
                table.private[int(user)] = (move_no, message)
            return
        if move_no >= table.live_no:
            table.live, table.live_no = message, move_no
            lobby = any(c.move in ("join", "start") for c in found)
            table.phase = "lobby" if lobby else "playing"

    # ------------------------------------------------------------------ moves

    async def send(self, inter: Interaction) -> Interaction:
        """Dispatch and wait for the callback (raises TimeoutError / ConnectionError)."""
        await self.standin.dispatch(inter)
        assert inter.done is not None
        try:
            return await asyncio.wait_for(asyncio.shield(inter.done), self.timeout)
        finally:
            self.standin.forget(inter)

    def lobby_steps(self, table: Table) -> list[Interaction]:
        """/newgame by the host, /join by the others, /start by the host."""
        host, *others = table.players
        cid = table.channel_id
        steps = [
            self.standin.slash(cid, host, "newgame", {"ruleset": table.preset, **table.options})
        ]
        steps += [self.standin.slash(cid, p, "join") for p in others]
        steps.append(self.standin.slash(cid, host, "start"))
        return steps

    async def open_game(self, table: Table) -> list[Interaction]:
        """Run the lobby; returns the interactions (all answered) or raises."""
        table.phase, table.live, table.live_no = "lobby", None, -1
        table.private.clear()
        done = []
        for inter in self.lobby_steps(table):
            done.append(await self.send(inter))
        table.games += 1
        return done

    def next_move(self, table: Table) -> Interaction | None:
        """A random legal move read off the bot's last messages, or None if none is known."""
        live = table.live
        if live is None or table.phase != "playing":
            return None
        found = [c for c in controls(live) if c.move not in SKIP and c.move_no == table.live_no]
        source, mover = live, player_to_act(live)
        # A roller's private reply (dice and a Claim select) can arrive before the public
        # turn message is refreshed; then it is the newest state there is.
        newest = max(table.private.items(), key=lambda kv: kv[1][0], default=None)
        if newest is not None and newest[1][0] >= table.live_no:
            mine = [c for c in controls(newest[1][1]) if c.move not in SKIP]
            if mine and (newest[1][0] > table.live_no or self.rng.random() < 0.5):
                found, source, mover = mine, newest[1][1], newest[0]
        if mover is None:
            return None
        if not found:
            return None
        choice = self.rng.choice(found)
        value = self.rng.choice(choice.values) if choice.select and choice.values else None
        if self.rng.random() < self.slash_share:
            slash = self._as_slash(table, mover, choice.move, value)
            if slash is not None:
                return slash
        return self.standin.click(
            source, mover, choice.custom_id, [value] if choice.select and value else None
        )

    def _as_slash(
        self, table: Table, user: int, move: str, value: str | None
    ) -> Interaction | None:
        cid = table.channel_id
        if move in SLASH:
            name, options = SLASH[move]
            return self.standin.slash(cid, user, name, options)
        if move in ("claim", "pass") and value:
            roll = Move.decode(value).roll
            assert roll is not None
            return self.standin.slash(cid, user, "claim", {"value": f"{roll[0]}{roll[1]}"})
        return None

    def end_game(self, table: Table) -> Interaction:
        return self.standin.slash(table.channel_id, table.players[0], "endgame")


def engine_move(game: Any, rng: random.Random) -> tuple[str, Move] | None:
    """A random legal move straight from the engine (for pre-filling a database, or for
    the first move after a restart): (player, move)."""
    mover = game.to_move
    if game.phase != "playing" or mover is None:
        return None
    moves = [m for m in game.legal_actions(mover) if m.act is not Act.TAP]
    if not moves:
        return None
    act = rng.choice(list(dict.fromkeys(m.act for m in moves)))
    return mover, rng.choice([m for m in moves if m.act is act])


def slash_for(standin: StandIn, channel_id: int, player: str, move: Move) -> Interaction | None:
    """The slash command that makes an engine move (None for moves without one)."""
    user = int(player)
    if move.act.value in SLASH:
        name, options = SLASH[move.act.value]
        return standin.slash(channel_id, user, name, options)
    if move.act is Act.KEEP:
        return standin.slash(channel_id, user, "roll", {"keep": move.die})
    if move.roll is not None:
        return standin.slash(channel_id, user, "claim", {"value": f"{move.roll[0]}{move.roll[1]}"})
    if move.to is not None:
        return standin.slash(channel_id, user, move.act.value, {"player": move.to})
    return None
