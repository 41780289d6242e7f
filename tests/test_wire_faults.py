"""The real bot process against the local Discord stand-in (README, Tests): no private dice
in a DEBUG log, a fast click on a fresh turn message, and forged requests (values and ids
Discord's own client never sends), each answered with a private refusal that changes
nothing.

One bot serves the whole module: the stand-in and the process run on an event loop of
their own, so Hypothesis can drive forged requests from an ordinary test function.
"""

from __future__ import annotations

import asyncio
import copy
import json
import sqlite3
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.present.i18n import talk
from bot.runtime.logs import PAYLOAD_HIDDEN
from tests.support.driver import Driver, Table
from tests.support.procs import BotProcess, bot_env
from tests.support.standin import (
    EPHEMERAL,
    Interaction,
    StandIn,
    as_dm,
    controls,
    player_to_act,
)

pytestmark = pytest.mark.slow  # starts bot processes

T = TypeVar("T")
LIMIT = 2000


class Rig:
    """A stand-in and a bot process on a loop in a thread of their own."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.db = work / "bot.db"
        self.log = work / "bot.log"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.private: list[str] = []  # every ephemeral text the bot sent
        self.standin = self.call(self._standin())
        self.bot = BotProcess(
            "bot", bot_env(self.standin, self.db, LOG_LEVEL="DEBUG"), work, self.log
        )
        self.call(self._start())

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _standin(self) -> StandIn:
        standin = StandIn(channels=7, members=6)
        await standin.start()
        return standin

    async def _start(self) -> None:
        await self.bot.start()
        await asyncio.wait_for(self.standin.ready.wait(), 30)

    def watch(self, hook: Callable[..., None] | None) -> None:
        """Note every private message, and pass every message on to ``hook``."""

        def seen(channel_id: int, message: dict[str, Any], how: str, inter: Any) -> None:
            if message.get("flags", 0) & EPHEMERAL:
                self.private.append(message.get("content") or "")
            if hook is not None:
                hook(channel_id, message, how, inter)

        self.standin.on_message = seen

    async def send(self, inter: Interaction, timeout: float = 10) -> Interaction:
        await self.standin.dispatch(inter)
        assert inter.done is not None
        return await asyncio.wait_for(asyncio.shield(inter.done), timeout)

    def state(self, channel_id: int) -> str | None:
        with sqlite3.connect(self.db, timeout=5) as conn:
            row = conn.execute(
                "SELECT state_json FROM games WHERE channel_id = ? AND status != 'over'",
                (channel_id,),
            ).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        try:
            self.call(self.bot.stop())
            self.call(self.standin.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    rig = Rig(tmp_path_factory.mktemp("wire"))
    try:
        yield rig
    finally:
        rig.close()


async def lobby(rig: Rig, channel: int, preset: str, players: list[int]) -> None:
    standin = rig.standin
    steps = [standin.slash(channel, players[0], "newgame", {"ruleset": preset, "turn_timer": 0})]
    steps += [standin.slash(channel, p, "join") for p in players[1:]]
    steps.append(standin.slash(channel, players[0], "start"))
    for inter in steps:
        await rig.send(inter)


def test_a_debug_log_holds_no_private_dice(rig: Rig) -> None:
    """A bluffing game at LOG_LEVEL=DEBUG: every private "Your dice" text the players got
    is nowhere in the log, though discord.py logged every gateway event and REST call."""
    channel = rig.standin.channels[0]
    players = rig.standin.members[:3]

    async def play() -> None:
        import random

        driver = Driver(rig.standin, random.Random(5), slash_share=0.3)
        rig.watch(driver._on_message)
        table = driver.add_table(channel, players, "mexican", {"turn_timer": 0})
        await driver.open_game(table)
        for _ in range(60):
            inter = driver.next_move(table)
            if inter is None:
                break
            await driver.send(inter)

    rig.call(play(), timeout=120)
    dice = [text for text in rig.private if text.startswith("🎲 Your dice")]
    assert len(dice) >= 5, rig.private
    log = rig.log.read_text(encoding="utf-8", errors="replace")
    assert "INTERACTION_CREATE" in log or PAYLOAD_HIDDEN in log, "no DEBUG lines logged"
    assert PAYLOAD_HIDDEN in log
    # The private texts travel JSON-encoded in the payloads discord.py logs: look for
    # their plain-ASCII parts, which any encoding keeps.
    for marker in ("Your dice", "only you see this", "Claim below"):
        assert marker not in log, marker


#: Rolls a table gets to reach a turn whose player may stand; CI once ran out at 5.
MAX_ROLLS_TO_STAND = 60


def test_a_click_on_a_fresh_turn_message_is_never_taken_for_a_stray_one(rig: Rig) -> None:
    """Discord is slow to take the buttons off the old turn message; the next player
    clicks the fresh one before that is done. The click waits for the move to be shown
    and plays on the message the table knows as live: it keeps its buttons, and no
    older message gets live ones back."""
    channel = rig.standin.channels[1]
    players = rig.standin.members[:3]
    seen: dict[int, dict[str, Any]] = {}

    def note(cid: int, message: dict[str, Any], how: str, inter: Any) -> None:
        if cid == channel and not message.get("flags", 0) & EPHEMERAL and how == "callback":
            seen[int(message["id"])] = message

    async def race() -> None:
        rig.watch(note)
        # mexicanen: a 3-1 is a plain roll there (mexen's asks for a hand-out, privately).
        # Whoever is to move rolls until they may stand. The dice are the bot's own, so
        # that can take a while: a Mex ends a turn at once, after a starter's Mex the others'
        # single rolls end theirs, and a tie for lowest adds extra-round rolls.
        await lobby(rig, channel, "mexicanen", players)
        for _ in range(MAX_ROLLS_TO_STAND):
            live = max(seen.items())[1]
            a = player_to_act(live)
            assert a is not None
            stand = next((c for c in controls(live) if c.move == "stand"), None)
            if stand is not None:
                break
            roll = next(c for c in controls(live) if c.move == "roll")
            await rig.send(rig.standin.click(live, a, roll.custom_id))
        assert stand is not None, f"nobody could stand in {MAX_ROLLS_TO_STAND} rolls"
        rig.standin.edit_delay = 0.5
        try:
            before = set(seen)
            first = asyncio.ensure_future(rig.send(rig.standin.click(live, a, stand.custom_id)))
            for _ in range(200):  # until the fresh turn message exists
                if set(seen) - before:
                    break
                await asyncio.sleep(0.01)
            fresh_id = max(set(seen) - before)
            fresh = seen[fresh_id]
            b = player_to_act(fresh)
            assert b is not None and b != a
            again = next(c for c in controls(fresh) if c.move == "roll")
            second = await rig.send(rig.standin.click(fresh, b, again.custom_id), timeout=15)
            await first
        finally:
            rig.standin.edit_delay = 0.0
        assert not second.ephemeral, second.message
        live_id = fresh_id
        if second.response_type == 4 and second.message is not None:
            live_id = int(second.message["id"])  # b rolled a Mex: the turn moved on again
        else:
            assert second.response_type == 7, "b's click did not update the message it was on"
        await asyncio.sleep(0.2)
        messages = [m for m in rig.standin.messages.values() if int(m["channel_id"]) == channel]
        live_ones = [int(m["id"]) for m in messages if controls(m)]
        assert live_ones == [live_id], live_ones

    rig.call(race(), timeout=60)


# --- forged requests ------------------------------------------------------------------------

#: Channel 2 has a running game whose stored state a forged request must leave alone;
#: channel 3 has none, and must get none.
GAME, EMPTY = 2, 3

BAD_INT = st.one_of(
    st.integers(min_value=10_000, max_value=2**63 - 1),
    st.integers(min_value=-(2**63), max_value=-1),
    st.text(max_size=20),
    st.booleans(),
)


def slash(name: str, **options: Any) -> dict[str, Any]:
    return {"kind": "slash", "name": name, "options": options}


forged = st.one_of(
    st.builds(lambda v: slash("newgame", ruleset="mexen", turn_timer=v), BAD_INT),
    st.builds(
        lambda v: slash("newgame", ruleset="mexen", lives=v),
        st.one_of(st.integers(100, 2**63 - 1), st.integers(-(2**63), -1), st.text(max_size=5)),
    ),
    st.builds(
        lambda v: slash("newgame", ruleset=v),
        st.text(max_size=30).filter(
            lambda t: t not in ("mexican", "dollar", "mexen", "mexicanen", "mexico")
        ),
    ),
    st.builds(
        lambda v: slash("newgame", ruleset="dollar", units=v),
        st.text(max_size=12).filter(lambda t: t not in ("sips", "points")),
    ),
    st.builds(lambda v: slash("history", count=v), BAD_INT),
    st.builds(
        lambda s, p: slash("leaderboard", scope=s, period=p),
        st.text(max_size=10).filter(lambda t: t not in ("server", "channel")),
        st.sampled_from(["all", "month", "week", "year", ""]),
    ),
    st.builds(lambda v: slash("leaderboard", stat=v), st.text(min_size=1, max_size=15)),
    st.builds(lambda v: slash("claim", value=v), st.text(min_size=1700, max_size=2500)),
    st.builds(lambda v: slash("roll", keep=v), BAD_INT),
    st.builds(
        lambda p, t: {"kind": "click", "custom_id": p + t},
        st.sampled_from(["mx:", "mxs:", "mxt:", "lb:"]),
        st.text(max_size=90),
    ),
    st.builds(
        lambda page: {"kind": "click", "custom_id": f"lb:wins:server:all:{page}"},
        st.integers(10**6, 10**23),
    ),
    st.builds(
        lambda move: {"kind": "click", "custom_id": f"mx:{{game}}:{{n}}:{move}"},
        st.sampled_from(["timeout", "end", "dance", "claim.99", "keep.7", "handout.x-y"]),
    ),
    st.builds(
        lambda name: {"kind": "dm", "name": name},
        st.sampled_from(["newgame", "stats", "leaderboard", "history", "resetleaderboard"]),
    ),
)


@pytest.fixture(scope="module")
def game_channels(rig: Rig) -> tuple[int, int]:
    game, empty = rig.standin.channels[GAME], rig.standin.channels[EMPTY]
    rig.watch(None)
    rig.call(lobby(rig, game, "mexen", rig.standin.members[:2]))
    assert rig.state(game) is not None and rig.state(empty) is None
    return game, empty


def build(rig: Rig, spec: dict[str, Any], channel: int) -> Interaction:
    """A forged request by a player who is at no table (so a forged button that names a
    real move, such as the host's End, cannot be a move of theirs)."""
    standin, user = rig.standin, rig.standin.members[-1]
    if spec["kind"] == "slash":
        return standin.slash(channel, user, spec["name"], spec["options"])
    if spec["kind"] == "dm":
        options = {"ruleset": "mexen"} if spec["name"] == "newgame" else {}
        return as_dm(standin.slash(channel, user, spec["name"], options), user)
    state = json.loads(rig.state(channel) or "{}")
    custom_id = spec["custom_id"]
    if "{game}" in custom_id:
        engine = state.get("engine", {})
        custom_id = custom_id.format(game=_game_id(rig, channel), n=engine.get("move_no", 0))
    # A forged click comes on a message that carries the forged button.
    button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    message = standin.message_like(channel, components=[{"type": 1, "components": [button]}])
    return standin.click(message, user, custom_id)


def _game_id(rig: Rig, channel: int) -> int:
    with sqlite3.connect(rig.db, timeout=5) as conn:
        row = conn.execute(
            "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel,)
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_page_id_on_the_turn_message_changes_nothing(
    rig: Rig, game_channels: tuple[int, int]
) -> None:
    """A leaderboard page's id clicked on the live turn message, the payload showing it
    there (issue 40: the turn message became a public Wins board, its buttons gone). It is
    refused privately; the stored game stays as it was and no message is posted or
    edited. The click comes as soon as /start is answered, before the bot may have noted
    the new turn message's id: the page waits for that."""
    channel = game_channels[0]
    before = rig.state(channel)
    turn = next(  # the newest message with the game's buttons
        m
        for m in reversed(rig.standin.messages.values())
        if int(m["channel_id"]) == channel and controls(m) and not m.get("flags", 0)
    )
    as_it_was = copy.deepcopy(turn)
    custom_id = "lb:wins:server:all:0"
    button = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    forged = {**turn, "components": [{"type": 1, "components": [button]}]}
    seen: list[tuple[str, str, bool]] = []  # (how, message id, public)
    rig.watch(lambda _c, m, how, _i: seen.append((how, m["id"], not m.get("flags", 0))))
    inter = rig.call(rig.send(rig.standin.click(forged, rig.standin.members[0], custom_id)))
    assert inter.response_type == 4 and inter.ephemeral, inter.message
    assert (inter.message or {}).get("content") == talk()("button-not-here")
    assert rig.state(channel) == before
    # The private answer; and the turn message neither edited nor posted anew.
    assert [(how, public) for how, _, public in seen if how == "callback"] == [("callback", False)]
    assert all(message != turn["id"] for _, message, _ in seen)
    assert rig.standin.messages[int(turn["id"])] == as_it_was


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=forged, where=st.sampled_from(["game", "empty"]))
def test_forged_requests_get_a_private_refusal_and_change_nothing(
    rig: Rig, game_channels: tuple[int, int], spec: dict[str, Any], where: str
) -> None:
    channel = game_channels[0] if where == "game" else game_channels[1]
    before = rig.state(channel)
    inter = rig.call(rig.send(build(rig, spec, channel)))
    assert inter.response_type == 4, f"no answer to {spec}"
    assert inter.ephemeral, (spec, inter.message)
    text = (inter.message or {}).get("content") or ""
    assert text and len(text) <= LIMIT, (spec, text[:200])
    assert "Something went wrong" not in text, (spec, text)
    assert rig.state(channel) == before, spec


async def test_sigterm_lets_the_moves_under_way_finish_quietly(tmp_path: Path) -> None:
    """SIGTERM while moves are being answered (Discord slow to edit): every one of them
    is answered, and the bot stops with no "Session is closed" traceback."""
    import random
    import signal

    standin = StandIn(channels=4, members=8)
    await standin.start()
    log = tmp_path / "bot.log"
    bot = BotProcess("bot", bot_env(standin, tmp_path / "bot.db", LOG_LEVEL="INFO"), tmp_path, log)
    try:
        await bot.start()
        await asyncio.wait_for(standin.ready.wait(), 30)
        driver = Driver(standin, random.Random(3), slash_share=0.0)
        tables: list[Table] = []
        for i, channel in enumerate(standin.channels):
            players = standin.members[2 * i : 2 * i + 2]
            tables.append(driver.add_table(channel, players, "mexen", {"turn_timer": 0}))
        for table in tables:
            await driver.open_game(table)
        standin.edit_delay = 0.4  # every move now waits on a slow edit while holding on
        moves = [driver.next_move(t) for t in tables]
        sent = [asyncio.ensure_future(driver.send(m)) for m in moves if m is not None]
        assert len(sent) == len(tables)
        await asyncio.sleep(0.1)
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGTERM)
        answered = await asyncio.gather(*sent, return_exceptions=True)
        assert all(isinstance(a, Interaction) and a.answered for a in answered), answered
        assert await asyncio.wait_for(bot.wait(), 30) == 0
    finally:
        await bot.kill()
        await standin.stop()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Session is closed" not in text and "Traceback" not in text, text[-2000:]
    assert "received SIGTERM" in text


@pytest.mark.parametrize("failure", ["404", "drop"])
def test_a_move_whose_answer_is_lost_is_posted_to_the_channel(rig: Rig, failure: str) -> None:
    """Discord answers the move's answer with 404, or the connection drops: the move is
    stored, and the bot posts the table to the channel with the next move's buttons."""
    channel = rig.standin.channels[4 if failure == "404" else 5]
    a, b = rig.standin.members[2:4]
    posted: list[dict[str, Any]] = []

    def note(cid: int, message: dict[str, Any], how: str, inter: Any) -> None:
        if cid == channel and how == "create":
            posted.append(message)

    async def play() -> None:
        rig.watch(None)
        await lobby(rig, channel, "mexicanen", [a, b])  # no 3-1 hand-out: every roll "rolls"
        rig.watch(note)
        before = json.loads(rig.state(channel) or "{}")["engine"]["move_no"]
        rig.standin.fail_answers.append(failure)
        await rig.standin.dispatch(rig.standin.slash(channel, a, "roll"))
        for _ in range(300):
            if posted:
                break
            await asyncio.sleep(0.01)
        assert posted, "the table was not posted after the answer was lost"
        stored = json.loads(rig.state(channel) or "{}")["engine"]
        assert stored["move_no"] == before + 1  # the roll is stored (whatever it showed)
        assert "rolls **" in posted[-1]["content"] and controls(posted[-1])
        assert "nothing was changed" not in posted[-1]["content"].lower()

    rig.call(play(), timeout=30)


#: Button ids naming a game past the largest id storage holds (2**63 - 1).
BIG_IDS = [
    "mxt:9999999999999999999:0:rematch",
    "mxt:9999999999999999999:0:cup.ab",
    "mxt:9223372036854775808:0:dice",
    "mx:9999999999999999999:0:roll",
    "mxs:9999999999999999999:0:claim",
]


@pytest.mark.parametrize("custom_id", BIG_IDS)
def test_forged_ids_past_the_largest_game_id_get_a_private_answer(
    rig: Rig, game_channels: tuple[int, int], custom_id: str
) -> None:
    channel = game_channels[0]
    before = rig.state(channel)
    inter = rig.call(rig.send(build(rig, {"kind": "click", "custom_id": custom_id}, channel)))
    assert inter.response_type == 4 and inter.ephemeral, custom_id
    assert "older version of the bot" in (inter.message or {}).get("content", "")
    assert rig.state(channel) == before
    assert "OverflowError" not in rig.log.read_text(encoding="utf-8", errors="replace")


def test_an_unknown_command_gets_a_private_answer_and_no_error(rig: Rig) -> None:
    """A renamed command, or a removed global one still in someone's client."""
    channel, user = rig.standin.channels[EMPTY], rig.standin.members[-1]
    inter = rig.call(rig.send(rig.standin.slash(channel, user, "rollthedice")))
    assert inter.response_type == 4 and inter.ephemeral
    text = (inter.message or {}).get("content", "")
    assert "renamed or removed" in text and "Something went wrong" not in text
    log = rig.log.read_text(encoding="utf-8", errors="replace")
    assert "unknown command /rollthedice" in log
    assert "command rollthedice failed" not in log


def test_a_refused_rematch_seats_nothing_in_someone_elses_lobby(rig: Rig) -> None:
    """Player 1 plays mexen with two computers and ends it; player 3 opens a dollar
    lobby; player 4 clicks Rematch on the old final message. Player 4 is told a game is
    running, and player 3's lobby stays as player 3 left it: no computers."""
    channel = rig.standin.channels[6]
    p1, p2, p3, p4 = rig.standin.members[:4]
    standin = rig.standin

    async def play() -> None:
        rig.watch(None)
        steps = [
            standin.slash(channel, p1, "newgame", {"ruleset": "mexen", "turn_timer": 0}),
            standin.slash(channel, p2, "join"),
            standin.slash(channel, p1, "addbot"),
            standin.slash(channel, p1, "addbot"),
            standin.slash(channel, p1, "start"),
            standin.slash(channel, p1, "endgame"),
        ]
        for inter in steps:
            await rig.send(inter)

        def rematch_id(message: dict[str, Any]) -> str | None:
            ids = [
                item.get("custom_id") or ""
                for row in message.get("components") or []
                for item in row.get("components", [row])
            ]
            return next((i for i in ids if i.startswith("mxt:") and i.endswith(":rematch")), None)

        final = next(
            m
            for m in reversed(list(standin.messages.values()))
            if int(m["channel_id"]) == channel and rematch_id(m)
        )
        rematch = rematch_id(final)
        assert rematch is not None
        await rig.send(standin.slash(channel, p3, "newgame", {"ruleset": "dollar"}))
        lobby = rig.state(channel)
        assert lobby is not None and '"cpu_' not in lobby
        refused = await rig.send(standin.click(final, p4, rematch))
        assert refused.ephemeral and "already running" in refused.message["content"]
        assert rig.state(channel) == lobby

    rig.call(play(), timeout=60)
