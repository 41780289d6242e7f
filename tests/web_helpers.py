"""Finished games for the web companion's tests and benchmark (README, Web companion):
whole games through `TableService` with seeded dice and choices, people moving under
display names (one of them full of HTML), every move stored as the bot stores it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine import Act, Move
from bot.game.tables import TableService
from bot.league.service import League
from bot.storage import Storage

GUILD = 4242
#: Display names as Discord would send them: one tries to be HTML.
NAMES = ["Ana", "Bo <script>alert(1)</script>", "Cé & Dé", "Dirk"]
PEOPLE = [str(900_000_000_000_000_000 + n) for n in range(len(NAMES))]
NAME_OF = dict(zip(PEOPLE, NAMES, strict=True))
START = 1_796_000_000.0
#: A bluffing game each of both rule sets, and an open-roll one.
PRESETS = ("mexican", "dollar", "mexican", "mexen")


async def play(
    service: TableService,
    channel_id: int,
    players: Sequence[str],
    *,
    now: float,
    preset: str,
    seed: int,
    lives: int = 2,
    guild: int = GUILD,
) -> int:
    """One table opened, filled, started and played to its end; its game id."""
    host = players[0]
    await service.open_table(
        guild, channel_id, host, preset, {"turn_timer": 0, "lives": lives}, now
    )
    for player in players[1:]:
        if player.startswith("cpu_"):
            await service.act(channel_id, host, Move(Act.ADD_COMPUTER, to=player), now)
        else:
            await service.act(channel_id, player, Move(Act.JOIN), now, name=NAME_OF.get(player))
    outcome = await service.act(channel_id, host, Move(Act.START), now, name=NAME_OF.get(host))
    game_id = outcome.table.game_id
    rng = random.Random(seed)
    for step in range(5_000):
        table = service.get(channel_id)
        if table is None:
            return game_id
        mover = table.game.to_move
        assert mover is not None
        moves = [m for m in table.game.legal_actions(mover) if m.act not in (Act.END, Act.LEAVE)]
        await service.act(channel_id, mover, rng.choice(moves), now + step, name=NAME_OF.get(mover))
    raise AssertionError("the game did not end")


async def played(
    storage: Storage,
    games: int = len(PRESETS),
    seed: int = 1,
    *,
    start: float = START,
    apart: float = 3600.0,
    guild: int = GUILD,
) -> list[int]:
    """``games`` finished games of this module's people on ``guild``, rated by the league,
    ``apart`` seconds from each other's start; their ids, in order."""
    now = start
    league = League(storage, clock=lambda: now)
    service = TableService(storage, random.Random(seed), league=league)
    ids = []
    for n in range(games):
        preset = PRESETS[n % len(PRESETS)]
        seats = PEOPLE[: 2 + n % 3]
        if n % 4 == 2:
            seats = [*seats[:2], "cpu_expert_1"]
        ids.append(
            await play(service, 100 + n, seats, now=now, preset=preset, seed=seed + n, guild=guild)
        )
        now += apart
    return ids


async def rename(storage: Storage, guild: int, names: Sequence[str]) -> None:
    """The names this module's people played under on ``guild``, changed in every stored
    state (where the pages read names from) to ``names``."""
    import orjson

    new = dict(zip(PEOPLE, names, strict=True))
    rows = await storage._fetchall("SELECT id, state_json FROM games WHERE guild_id = ?", (guild,))
    for game_id, text in rows:
        state = orjson.loads(text)
        known = state.get("meta", {}).get("names") or {}
        state["meta"]["names"] = {player: new.get(player, name) for player, name in known.items()}
        await storage._write(
            [
                (
                    "UPDATE games SET state_json = ? WHERE id = ?",
                    (orjson.dumps(state).decode(), game_id),
                )
            ]
        )
