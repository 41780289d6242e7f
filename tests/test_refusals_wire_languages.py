"""Refusals in the reader's language over the wire (README, Languages): the same refused
actions sent by a Dutch, a German and an English client (the interaction's locale) get
three different answers, and the Dutch and German ones hold no sentence of the English.

The actions are the ones players meet most: every move command in a channel without a
game, /newgame where a game runs, a move out of turn, a button of an earlier turn,
forged option values, a server command from a DM, and the host's command from a guest.
A refusal changes nothing, so each action can be sent once per language."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.procs import BotProcess, bot_env
from tests.support.standin import Interaction, StandIn, as_dm

pytestmark = pytest.mark.slow  # starts bot processes

MOVES = [
    "roll",
    "accept",
    "bullshit",
    "fold",
    "endround",
    "tap",
    "peek",
    "table",
    "join",
    "leave",
    "start",
    "endgame",
    "removebot",
]
LOCALES = {"en": "en-US", "nl": "nl", "de": "de"}
MEXEN = {"ruleset": "mexen"}


def _state(db: Path, channel: int) -> dict[str, Any]:
    with sqlite3.connect(db, timeout=5) as conn:
        row = conn.execute(
            "SELECT id, state_json FROM games WHERE channel_id = ? AND status != 'over'",
            (channel,),
        ).fetchone()
    assert row is not None
    return {"id": int(row[0]), **json.loads(row[1])}


def _sentences(text: str) -> list[str]:
    """The English answer's sentences long enough to be words, not a name or a code."""
    parts = re.split(r"(?<=[.:!?])\s+", text)
    return [p.strip() for p in parts if len(p.strip()) >= 12]


async def test_refusals_come_in_the_readers_language(tmp_path: Path) -> None:
    standin = StandIn(channels=2, members=4)
    await standin.start()
    db = tmp_path / "bot.db"
    bot = BotProcess("bot", bot_env(standin, db), tmp_path, tmp_path / "bot.log")
    game, empty = standin.channels
    host, guest, outsider = standin.members[0], standin.members[1], standin.members[3]

    async def send(inter: Interaction) -> str:
        await standin.dispatch(inter)
        assert inter.done is not None
        await asyncio.wait_for(asyncio.shield(inter.done), 10)
        return str((inter.message or {}).get("content") or "")

    try:
        await bot.start()
        await asyncio.wait_for(standin.ready.wait(), 30)
        await send(standin.slash(game, host, "newgame", {"ruleset": "mexican", "turn_timer": 0}))
        await send(standin.slash(game, guest, "join"))
        await send(standin.slash(game, host, "start"))
        started = _state(db, game)
        to_act = int(started["engine"]["to_move"])
        waiting = host if host != to_act else guest
        old_turn = f"mx:{started['id']}:{started['engine']['move_no']}:roll"
        await send(standin.slash(game, to_act, "roll"))  # that button is now of an earlier turn
        slash = standin.slash

        def click(custom_id: str) -> Interaction:
            button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
            message = standin.message_like(game, components=[{"type": 1, "components": [button]}])
            return standin.click(message, outsider, custom_id)

        actions: dict[str, Callable[[], Interaction]] = {
            f"/{name} without a game": (lambda name=name: slash(empty, outsider, name))
            for name in MOVES
        }
        actions |= {
            "/claim without a game": lambda: slash(empty, outsider, "claim", {"value": "65"}),
            "/newgame where one runs": lambda: slash(game, outsider, "newgame", MEXEN),
            "a move out of turn": lambda: slash(game, waiting, "roll"),
            "a button of an earlier turn": lambda: click(old_turn),
            "forged lives": lambda: slash(empty, outsider, "newgame", {**MEXEN, "lives": 500}),
            "forged keep": lambda: slash(game, waiting, "roll", {"keep": 7}),
            "forged rule set": lambda: slash(empty, outsider, "newgame", {"ruleset": "yahtzee"}),
            "/newgame from a DM": lambda: as_dm(slash(empty, outsider, "newgame", MEXEN), outsider),
            "/history from a DM": lambda: as_dm(slash(empty, outsider, "history"), outsider),
            "/endgame by a guest": lambda: slash(game, guest, "endgame"),
        }
        before = (_state(db, game), standin.rest_counts.copy())
        english: list[str] = []
        for what, make in actions.items():
            answers = {}
            for language, locale in LOCALES.items():
                inter = make()
                inter.payload["locale"] = locale
                answers[language] = await send(inter)
                assert inter.ephemeral, (what, language, answers[language])
            en = answers["en"]
            assert en, what
            for language in ("nl", "de"):
                text = answers[language]
                assert text and text != en, (what, language, text)
                for sentence in _sentences(en):
                    if sentence in text:
                        english.append(f"{what} ({language}): {sentence!r} in {text!r}")
        assert english == []
        assert _state(db, game) == before[0], "a refusal changed the table"
    finally:
        await bot.stop()
        await standin.stop()
