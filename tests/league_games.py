"""Whole games through `TableService` for the league's tests and benchmark: seeded dice,
random legal moves, every move stored as the bot stores it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Act, Move
from bot.game.tables import Outcome, TableService

#: Discord-like ids of people (computers are "cpu_<persona>_<n>").
PEOPLE = [str(800_000_000_000_000_000 + n) for n in range(100)]


async def play_game(
    service: TableService,
    guild_id: int,
    channel_id: int,
    players: Sequence[str],
    *,
    now: float,
    preset: str = "mexican",
    seed: int = 1,
    leaver: str | None = None,
    options: dict | None = None,
) -> Outcome:
    """Open, fill, start and play a table to its end, every move at ``now``; people and
    computers alike move by a seeded choice among their legal moves. ``leaver`` leaves
    after the first round, once they have moved (docs/league.md: so they take part).
    The last move's outcome (its ``result`` is the league's)."""
    host, rest = players[0], list(players[1:])
    opts = {"turn_timer": 0, **(options or {})}
    await service.open_table(guild_id, channel_id, host, preset, opts, now)
    for player in rest:
        if player.startswith("cpu_"):
            await service.act(channel_id, host, Move(Act.ADD_COMPUTER, to=player), now)
        else:
            await service.act(channel_id, player, Move(Act.JOIN), now)
    outcome = await service.act(channel_id, host, Move(Act.START), now)
    rng = random.Random(seed)
    for _ in range(20_000):
        table = service.get(channel_id)
        if table is None:
            return outcome
        game = table.game
        if (
            leaver is not None
            and game.round_no >= 2
            and leaver in game.seats
            and game.players[leaver].moved
            and game.players[leaver].status != "out"
        ):
            outcome = await service.act(channel_id, leaver, Move(Act.LEAVE), now)
            leaver = None
            continue
        mover = game.to_move
        assert mover is not None, "a running game always has someone to move"
        moves = [m for m in game.legal_actions(mover) if m.act not in (Act.END, Act.TAP, Act.LEAVE)]
        acts = list(dict.fromkeys(m.act for m in moves))
        act = rng.choice(acts)
        outcome = await service.act(
            channel_id, mover, rng.choice([m for m in moves if m.act is act]), now
        )
    raise AssertionError("the game did not end")
