"""Approval transcripts: whole seeded games through the real bot, written down as every
player sees them (README, Tests). The snapshot files under ``__snapshots__/`` are read by
a person before a change of wording lands; ``pytest --snapshot-update`` rewrites them.

Besides the wording, every transcript is checked for what players on phones need: nobody
is pinged by their own move, messages are short, no line is said twice in a message, the
final standing names everyone, and no public message shows dice still under the cup.
"""

from __future__ import annotations

import random
import re
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

import bot.fairness
from bot.engine import Act, Move
from cogs.present.words import Words
from tests.conftest import SimTable
from tests.support.transcript import Driver, Transcript

#: Public message sizes the table-talk rules allow (README, Playing).
P95_LIMIT, MAX_LIMIT = 400, 1000


class TranscriptText(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "txt"


@pytest.fixture
def transcript_snapshot(snapshot):  # type: ignore[no-untyped-def]
    return snapshot.use_extension(TranscriptText)


@pytest.fixture(autouse=True)
def seeded_salts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sealed cups use a random salt; seed it so the transcript reads the same each run."""
    salts = random.Random(7)
    monkeypatch.setattr(bot.fairness, "new_salt", lambda: f"{salts.getrandbits(128):032x}")


@dataclass
class Watch:
    """Hidden dice per action: the cup and whether someone may not see it yet."""

    marks: list[tuple[int, str | None]]


async def open_table(t: Transcript, preset: str, players: int, **options: object) -> None:
    sim = t.sim
    host = sim.users[0]
    options.setdefault("turn_timer", 0)
    shown = " ".join(f"{k}:{v}" for k, v in options.items())
    await t.act(host, f"/newgame ruleset:{preset} {shown}",
                host.slash(sim.channel, "newgame", ruleset=preset, **options))  # fmt: skip
    lobby = sim.bot.tables.get(sim.channel.id)
    assert lobby is not None
    for n, user in enumerate(sim.users[1:players]):
        if n % 2:
            await t.act(user, "/join", user.slash(sim.channel, "join"))
        else:
            message = next(m for m in sim.channel.history() if m.id == lobby.meta.message_id)
            await t.act(user, "taps [Join]", user.click(message, label="Join"))
    message = next(m for m in sim.channel.history() if m.id == lobby.meta.message_id)
    await t.act(host, "taps [Start]", host.click(message, label="Start"))


def hidden_cup(sim: SimTable) -> str | None:
    """The name of the dice under the cup while some player has not seen them."""
    table = sim.bot.tables.get(sim.channel.id)
    if table is None or not table.game.bluffing or table.game.cup is None:
        return None
    game = table.game
    if set(game.seats) <= set(game.seen_by):
        return None
    return Words.of(game).roll(game.cup)


async def play(
    t: Transcript, driver: Driver, *, rounds: int | None = None, moves: int = 400,
    watch: Watch | None = None,
) -> None:  # fmt: skip
    """Random legal moves until the game ends, or until ``rounds`` rounds are over."""
    sim = t.sim
    for _ in range(moves):
        table = sim.bot.tables.get(sim.channel.id)
        if table is None or table.game.phase != "playing":
            return
        if rounds is not None and table.game.round_no > rounds:
            return
        await driver.step()
        if watch is not None:
            watch.marks.append((len(t.sent), hidden_cup(sim)))
    raise AssertionError("the game did not finish in time")


async def end_by_host(t: Transcript) -> None:
    host = t.sim.users[0]
    if t.sim.bot.tables.get(t.sim.channel.id) is not None:
        await t.act(host, "/endgame", host.slash(t.sim.channel, "endgame"))


# --- the checks every transcript must pass ----------------------------------------------


def check_talk(t: Transcript, players: int, watch: Watch | None = None) -> dict[str, float]:
    public = t.public()
    assert public, "no public message at all"
    for sent in public:
        assert sent.actor not in sent.pinged, f"pinged by their own move: {sent.text!r}"
        lines = [line for line in sent.text.splitlines() if line.strip()]
        assert len(lines) == len(set(lines)), f"a line said twice: {sent.text!r}"
    sizes = sorted(len(s.text) for s in public)
    p95 = sizes[min(len(sizes) - 1, round(0.95 * (len(sizes) - 1)))]
    assert p95 <= P95_LIMIT, f"p95 {p95} > {P95_LIMIT}"
    assert sizes[-1] <= MAX_LIMIT, max(public, key=lambda s: len(s.text)).text
    final = next(s for s in reversed(public) if "Final standing" in s.text)
    for user in t.sim.users[:players]:
        assert f"<@{user.id}>" in final.text.split("Final standing", 1)[1], user.name
    if watch is not None:
        start = 0
        for end, cup in watch.marks:
            for sent in t.sent[start:end]:
                if cup is not None and sent.kind in ("public", "edit"):
                    assert_no_dice(sent.text, cup)
            start = end
    return {"p50": statistics.median(sizes), "p95": p95, "max": sizes[-1],
            "pings": sum(len(s.pinged) for s in public)}  # fmt: skip


CLAIM_LINE = re.compile(r"(claims|claiming|accepts) \*\*")


def assert_no_dice(text: str, cup: str) -> None:
    """The hidden roll's name appears only where a player claimed that value."""
    for line in text.splitlines():
        if CLAIM_LINE.search(line):
            continue
        assert f"**{cup}**" not in line and "Your dice" not in line, line


# --- the games ------------------------------------------------------------------------------


Scenario = Callable[[SimTable], Awaitable[Transcript]]


async def mexican(sim: SimTable) -> Transcript:
    sim.bot.tables.rng = random.Random(11)
    t = Transcript(sim)
    await open_table(t, "mexican", 3)
    watch = Watch([])
    await play(t, Driver(t, 11), rounds=4, watch=watch)
    await end_by_host(t)
    t.watch = watch  # type: ignore[attr-defined]
    return t


async def dollar(sim: SimTable) -> Transcript:
    sim.bot.tables.rng = random.Random(12)
    t = Transcript(sim)
    await open_table(t, "dollar", 3, lives=2)
    watch = Watch([])
    await play(t, Driver(t, 12), watch=watch)
    t.watch = watch  # type: ignore[attr-defined]
    return t


async def mexen(sim: SimTable) -> Transcript:
    sim.bot.tables.rng = random.Random(13)
    t = Transcript(sim)
    await open_table(t, "mexen", 3)
    await play(t, Driver(t, 13), rounds=3)
    await end_by_host(t)
    return t


async def mexicanen(sim: SimTable) -> Transcript:
    sim.bot.tables.rng = random.Random(14)
    t = Transcript(sim)
    await open_table(t, "mexicanen", 3, lives=3)
    await play(t, Driver(t, 14))
    return t


async def mexico(sim: SimTable) -> Transcript:
    sim.bot.tables.rng = random.Random(15)
    t = Transcript(sim)
    await open_table(t, "mexico", 3)
    await play(t, Driver(t, 15), rounds=3)
    await end_by_host(t)
    return t


GAMES: dict[str, tuple[Scenario, int]] = {
    "mexican": (mexican, 3), "dollar": (dollar, 3), "mexen": (mexen, 3),
    "mexicanen": (mexicanen, 3), "mexico": (mexico, 3),
}  # fmt: skip


@pytest.mark.parametrize("preset", list(GAMES))
async def test_a_whole_game_reads_well(sim: SimTable, preset: str, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    scenario, players = GAMES[preset]
    t = await scenario(sim)
    sim.env.raise_errors()
    check_talk(t, players, getattr(t, "watch", None))
    assert t.text() == transcript_snapshot


async def test_a_turn_timer_runs_out(sim: SimTable, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    """A reminder pings once and is gone when the player moves; a player who already
    looked at their turn is not pinged again; at expiry the bot moves for them."""
    sim.bot.tables.rng = random.Random(21)
    t = Transcript(sim)
    a, b, _, _ = sim.users
    await open_table(t, "mexican", 3, turn_timer=60)
    await t.wait(30)
    reminders = [s for s in t.public() if "⏰" in s.text]
    assert len(reminders) == 1 and reminders[0].pinged == [a.id]
    await t.wait(30)
    assert "time ran out" in t.public()[-1].text
    assert any(s.kind == "delete" for s in t.sent), "the reminder was left behind"
    # bob starts the next round; he looks at the table, so the reminder does not ping him.
    await t.act(b, "/table", b.slash(sim.channel, "table"))
    before = len(t.public())
    await t.wait(30)
    assert not any(s.pinged for s in t.public()[before:])
    driver = Driver(t, 21)
    await driver.make(str(b.id), Move(Act.ROLL))
    await end_by_host(t)
    sim.env.raise_errors()
    check_talk(t, 3)
    assert t.text() == transcript_snapshot


async def test_a_player_leaves_mid_game(sim: SimTable, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    sim.bot.tables.rng = random.Random(31)
    t = Transcript(sim)
    c = sim.users[2]
    await open_table(t, "mexen", 4)
    driver = Driver(t, 31)
    for _ in range(3):
        await driver.step()
    await t.act(c, "/leave", c.slash(sim.channel, "leave"))
    await play(t, driver, rounds=2)
    await end_by_host(t)
    sim.env.raise_errors()
    check_talk(t, 4)
    assert t.text() == transcript_snapshot


async def test_a_rematch_after_the_game(sim: SimTable, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    sim.bot.tables.rng = random.Random(41)
    t = Transcript(sim)
    a, b, _, _ = sim.users
    await open_table(t, "dollar", 2, lives=1)
    await play(t, Driver(t, 41))
    final = sim.channel.history()[-1]
    first_game = [s.text for s in t.public()]
    await t.act(b, "taps [Rematch]", b.click(final, label="Rematch"))
    lobby = t.public()[-1]
    assert lobby.pinged == [a.id], "the rematch pings only the players it invites"
    table = sim.bot.tables.get(sim.channel.id)
    assert table is not None and table.game.phase == "lobby" and table.game.host == str(b.id)
    assert table.game.options.lives == 1
    message = next(m for m in sim.channel.history() if m.id == table.meta.message_id)
    await t.act(a, "taps [Join]", a.click(message, label="Join"))
    await t.act(b, "taps [Start]", b.click(message, label="Start"))
    assert sim.bot.tables.get(sim.channel.id) is not None
    sim.env.raise_errors()
    assert first_game
    assert t.text() == transcript_snapshot
