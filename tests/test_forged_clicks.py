"""A click acts only on its own message (README, Playing): a modified client can
send any custom id on any message, and an option value Discord's own client never sends.
Each such click or command gets a private refusal from the catalog, and nothing changes:
not the table, not a message of the channel, not a row of the database.

simcord's ``click`` only clicks what a message shows, so the forged ones are sent as
Discord would pass them on: the interaction names the message clicked, and its payload
carries that message as Discord stores it (``carried=False``), or, as the stand-in lets a
test do, with the forged id among its components (``carried=True``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord import actors
from simcord.backend import serializers

from bot.present.i18n import talk
from bot.runtime.settings import Settings
from tests.engine_helpers import ScriptedDice
from tests.play_helpers import custom_ids, message_text, open_game, state, turn_message
from tests.support.sim import SimTable
from tests.test_play_refusals import posted_by_the_bot
from tests.test_transcripts import client_locales as client_locales  # the readers' languages

NOT_HERE = talk()("button-not-here")
PAGE_GONE = talk()("leaderboard-page-gone")
OUTDATED = talk()("button-outdated")
BAD_VALUE = talk()("command-bad-value")


async def forged_click(
    user: simcord.MemberActor,
    message: discord.Message,
    custom_id: str,
    *,
    carried: bool = False,
    values: list[str] | None = None,
) -> simcord.InteractionResult:
    """``user`` clicks ``custom_id`` on ``message``, whether it shows it or not."""
    stored = actors._visible_message(user, message)
    payload = dict(serializers.message_payload(user._env.backend, stored))
    kind = 2 if values is None else 3
    if carried:
        forged: dict[str, Any] = {"type": kind, "custom_id": custom_id}
        forged |= {"style": 2, "label": "x"} if values is None else {"options": []}
        payload["components"] = [{"type": 1, "components": [forged]}]
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    channel = simcord.ChannelHandle(
        user._env, user.guild, user._env.backend.get_channel(stored.channel_id)
    )
    return await actors._dispatch_actor_interaction(
        user, 3, channel, data, extra={"message": payload}, source_message_id=stored.id
    )


async def forged_slash(
    user: simcord.MemberActor, sim: SimTable, name: str, options: list[dict[str, Any]]
) -> simcord.InteractionResult:
    """``/name`` with ``options`` as given (values no client would send)."""
    root = actors._resolve_visible_command(user, sim.channel.id, name, 1)
    data = {"id": root["id"], "name": name, "type": 1, "options": options}
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return await actors._dispatch_actor_interaction(user, 2, sim.channel, data)


def database(settings: Settings) -> list[str]:
    """Every row the bot stored, as SQL."""
    path: Path | None = settings.database_path
    assert path is not None
    with sqlite3.connect(path) as conn:
        return list(conn.iterdump())


def channel_shows(sim: SimTable) -> list[tuple[int, str, list[str]]]:
    """Every public message: its text and the ids of its components."""
    return [(m.id, message_text(m), custom_ids(m)) for m in sim.channel.history()]


async def nothing_changes(
    sim: SimTable,
    settings: Settings,
    action: Coroutine[Any, Any, simcord.InteractionResult],
    says: str,
) -> None:
    """``action`` (one interaction, not yet sent) is answered privately, in exactly these
    words, and changes nothing."""
    before = (state(sim), channel_shows(sim), database(settings))
    result = await action
    assert result.ephemeral and result.response is not None, result
    assert result.response.content == says
    assert (state(sim), channel_shows(sim), database(settings)) == before


async def a_leaderboard(sim: SimTable) -> discord.Message:
    await sim.users[2].slash(sim.channel, "leaderboard")
    return next(m for m in sim.channel.history() if "lb:wins:server:all:1" in custom_ids(m))


@pytest.mark.parametrize("carried", [False, True])
async def test_a_page_id_on_the_turn_message_changes_nothing(
    sim: SimTable, settings: Settings, carried: bool
) -> None:
    """Before: the turn message became a Wins board (carried), its buttons gone with it;
    or the click went unanswered."""
    a = sim.users[0]
    sim.bot.tables.rng = ScriptedDice([6, 5])
    table = await open_game(sim, "mexican", 2)
    turn = turn_message(sim)
    for page in ("0", "1"):
        await nothing_changes(
            sim,
            settings,
            forged_click(a, turn, f"lb:wins:server:all:{page}", carried=carried),
            NOT_HERE,
        )
    assert custom_ids(turn_message(sim)) == [f"mx:{table.game_id}:{table.game.move_no}:roll"]
    rolled = await a.click(turn_message(sim), label="Roll")
    assert rolled.ephemeral and "sixty-five" in rolled.response.content


async def test_a_move_id_on_a_leaderboard_page_changes_nothing(
    sim: SimTable, settings: Settings
) -> None:
    """Before: no answer at all. The roll is the mover's to make, on the turn message."""
    a = sim.users[0]
    sim.bot.tables.rng = ScriptedDice([6, 5])
    table = await open_game(sim, "mexican", 2)
    board = await a_leaderboard(sim)
    g, n = table.game_id, table.game.move_no
    for custom_id in (f"mx:{g}:{n}:roll", f"mxt:{g}:{n}:cup.ab12", f"mx:{g}:{n}:end"):
        await nothing_changes(sim, settings, forged_click(a, board, custom_id), NOT_HERE)
    await nothing_changes(
        sim, settings, forged_click(a, board, f"mxs:{g}:{n}:claim", values=["claim.65"]), NOT_HERE
    )
    assert sim.bot.tables.rng.dice == [6, 5]


async def test_a_page_id_on_a_game_message_changes_nothing(
    sim: SimTable, settings: Settings
) -> None:
    """A page button beside a game's buttons (on a message of the bot's that carries both)
    is no leaderboard page: the message is the game's."""
    a = sim.users[0]
    table = await open_game(sim, "mexican", 2)
    mixed = await posted_by_the_bot(
        sim, [f"mx:{table.game_id}:{table.game.move_no}:roll", "lb:wins:server:all:0"]
    )
    for custom_id in ("lb:wins:server:all:0", f"mx:{table.game_id}:{table.game.move_no}:roll"):
        await nothing_changes(sim, settings, a.click(mixed, custom_id=custom_id), NOT_HERE)


@pytest.mark.parametrize(
    "page",
    [
        "99999",  # before: a public "page 100000/1" Wins board
        "1",  # a page past the last, which the ▶ button shows disabled
        "٣",  # other scripts' digits; before: a public "page 4/1"
        "0" * 81,  # 100 characters in all; before: no answer
        "-1",  # the ◀ button of page 1, shown disabled
    ],
)
async def test_a_page_past_the_board_changes_nothing(
    sim: SimTable, settings: Settings, page: str
) -> None:
    a = sim.users[0]
    custom_id = f"lb:wins:server:all:{page}"
    assert len(custom_id) <= 100  # Discord's limit
    board = await a_leaderboard(sim)
    await nothing_changes(sim, settings, forged_click(a, board, custom_id, carried=True), PAGE_GONE)
    forged = await posted_by_the_bot(sim, [custom_id])
    await nothing_changes(sim, settings, a.click(forged, custom_id=custom_id), PAGE_GONE)


async def test_an_id_longer_than_discord_allows_is_answered(
    sim: SimTable, settings: Settings
) -> None:
    """Before: no answer (no route takes it)."""
    a = sim.users[0]
    table = await open_game(sim, "mexican", 2)
    turn = turn_message(sim)
    board = await a_leaderboard(sim)
    for message, custom_id in (
        (board, "lb:wins:server:all:" + "0" * 100),
        (turn, f"mx:{table.game_id}:{table.game.move_no}:roll" + "." * 100),
    ):
        await nothing_changes(
            sim, settings, forged_click(a, message, custom_id, carried=True), OUTDATED
        )


async def test_a_real_move_plays_from_the_turn_message_s_button_and_menu(sim: SimTable) -> None:
    """The checks refuse nothing a player's own client sends (tests/test_league_ui.py
    turns real pages)."""
    a, b = sim.users[:2]
    sim.bot.tables.rng = ScriptedDice([6, 5])
    await open_game(sim, "mexican", 2)
    rolled = await a.click(turn_message(sim), label="Roll")
    assert rolled.ephemeral and "sixty-five" in rolled.response.content
    claimed = await a.select(turn_message(sim), ["claim.65"])
    assert not claimed.ephemeral, claimed.response and claimed.response.content
    assert f"<@{b.id}>" in message_text(turn_message(sim))


@pytest.mark.parametrize(
    "command, option",
    [
        ("stats", {"name": "user", "type": 6, "value": "not a user id"}),
        ("stats", {"name": "user", "type": 6, "value": "1" * 30}),  # refused before too
        ("handout", {"name": "player", "type": 6, "value": "x"}),
    ],
)
async def test_an_option_discord_py_cannot_read_gets_a_private_answer(
    sim: SimTable,
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    command: str,
    option: dict[str, Any],
) -> None:
    """Before: a traceback inside discord.py, and no answer but the public "thinking…"
    the bot shows for a slow command, left hanging."""
    a = sim.users[0]
    await open_game(sim, "mexen", 2)
    await nothing_changes(sim, settings, forged_slash(a, sim, command, [option]), BAD_VALUE)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.parametrize("language", ["nl", "de"])
async def test_the_refusals_speak_the_clicker_s_language(
    sim: SimTable, settings: Settings, client_locales: dict[int, str], language: str
) -> None:
    a = sim.users[0]
    client_locales[a.id] = language
    t = talk(language)
    table = await open_game(sim, "mexican", 2)
    board = await a_leaderboard(sim)
    turn = turn_message(sim)
    g, n = table.game_id, table.game.move_no
    for message, custom_id, key in (
        (turn, "lb:wins:server:all:0", "button-not-here"),
        (board, f"mx:{g}:{n}:roll", "button-not-here"),
        (board, "lb:wins:server:all:5", "leaderboard-page-gone"),
    ):
        carried = custom_id.endswith(":5")
        await nothing_changes(
            sim, settings, forged_click(a, message, custom_id, carried=carried), t(key)
        )
    option = {"name": "user", "type": 6, "value": "abc"}
    await nothing_changes(
        sim, settings, forged_slash(a, sim, "stats", [option]), t("command-bad-value")
    )
