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
from dataclasses import dataclass
from typing import Any

import pytest
import simcord.interactions
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

import bot.game.fairness
from bot.engine import Act, Move
from bot.present.i18n import LOCALES, Talk, languages, talk
from bot.present.screens import table_talk
from bot.present.words import Words
from tests.support.sim import SimTable
from tests.support.transcript import Driver, Sent, Transcript

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
    monkeypatch.setattr(bot.game.fairness, "new_salt", lambda: f"{salts.getrandbits(128):032x}")


@dataclass
class Watch:
    """Hidden dice per action: the cup and whether someone may not see it yet."""

    marks: list[tuple[int, str | None]]


async def open_table(
    t: Transcript, preset: str, players: int, language: str = "en", **options: object
) -> None:
    """A lobby of ``players``, joined by slash command and by button, started by the host.
    Buttons are found by their label in the table's ``language``."""
    sim = t.sim
    host = sim.users[0]
    said = talk(language)
    options.setdefault("turn_timer", 0)
    if language != "en":
        options["language"] = language
    shown = " ".join(f"{k}:{v}" for k, v in options.items())
    await t.act(
        host,
        f"/newgame ruleset:{preset} {shown}",
        host.slash(sim.channel, "newgame", ruleset=preset, **options),
    )
    lobby = sim.bot.tables.get(sim.channel.id)
    assert lobby is not None
    for n, user in enumerate(sim.users[1:players]):
        if n % 2:
            await t.act(user, "/join", user.slash(sim.channel, "join"))
        else:
            message = next(m for m in sim.channel.history() if m.id == lobby.meta.message_id)
            join = said("button-join")
            await t.act(user, f"taps [{join}]", user.click(message, label=join))
    message = next(m for m in sim.channel.history() if m.id == lobby.meta.message_id)
    start = said("button-start")
    await t.act(host, f"taps [{start}]", host.click(message, label=start))


def hidden_cup(sim: SimTable) -> str | None:
    """The name of the dice under the cup while some player has not seen them."""
    table = sim.bot.tables.get(sim.channel.id)
    if table is None or not table.game.bluffing or table.game.cup is None:
        return None
    game = table.game
    if set(game.seats) <= set(game.seen_by):
        return None
    return Words.of(game, table_talk(table)).roll(game.cup)


async def play(
    t: Transcript,
    driver: Driver,
    *,
    rounds: int | None = None,
    moves: int = 400,
    watch: Watch | None = None,
) -> None:
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


def shown(t: Transcript) -> list[Sent]:
    """What the channel shows: new messages, and messages updated in place (the edit
    that retires a message only takes its buttons off and says nothing)."""
    return [s for s in t.sent if s.kind == "public" or (s.kind == "edit" and s.text)]


def check_talk(
    t: Transcript, players: int, watch: Watch | None = None, said: Talk | None = None
) -> dict[str, float]:
    said = said or talk()
    public = shown(t)
    assert public, "no public message at all"
    for sent in public:
        assert sent.actor not in sent.pinged, f"pinged by their own move: {sent.text!r}"
        lines = [line for line in sent.text.splitlines() if line.strip()]
        assert len(lines) == len(set(lines)), f"a line said twice: {sent.text!r}"
    # The size rule counts new messages, as it always has; an edit in place (the turn
    # growing line by line, a round ending on the same message) must stay under the max.
    sizes = sorted(len(s.text) for s in t.public())
    p95 = sizes[min(len(sizes) - 1, round(0.95 * (len(sizes) - 1)))]
    assert p95 <= P95_LIMIT, f"p95 {p95} > {P95_LIMIT}"
    longest = max(public, key=lambda s: len(s.text))
    assert len(longest.text) <= MAX_LIMIT, longest.text
    title = said("final-title")
    final = next(s for s in reversed(public) if title in s.text)
    for user in t.sim.users[:players]:
        assert f"<@{user.id}>" in final.text.split(title, 1)[1], user.name
    if watch is not None:
        start = 0
        for end, cup in watch.marks:
            for sent in t.sent[start:end]:
                if cup is not None and sent.kind in ("public", "edit"):
                    assert_no_dice(sent.text, cup, said)
            start = end
    return {
        "p50": statistics.median(sizes),
        "p95": p95,
        "max": len(longest.text),
        "pings": sum(len(s.pinged) for s in public),
    }


def claim_lines(said: Talk) -> re.Pattern[str]:
    """Lines that name a value because a player claimed it, in the table's language."""
    verbs = []
    for key in ("claimed", "passed", "accepted"):
        text = said(key, p="\x00", claim="\x01")
        verbs.append(re.escape(text.split("\x00", 1)[1].split("\x01", 1)[0]))
    return re.compile("|".join(verbs))


def assert_no_dice(text: str, cup: str, said: Talk | None = None) -> None:
    """The hidden roll's name appears only where a player claimed that value."""
    said = said or talk()
    claimed, private = claim_lines(said), said("your-dice", dice="\x00").split("\x00")[0]
    for line in text.splitlines():
        if claimed.search(line):
            continue
        assert f"**{cup}**" not in line and private not in line, line


# --- the games ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """One seeded game: how the table is opened and how long it is played."""

    seed: int
    options: dict[str, object]
    rounds: int | None  # None: to the end; else the host ends it after these rounds


GAMES: dict[str, Scenario] = {
    "mexican": Scenario(11, {}, 5),
    "dollar": Scenario(12, {"lives": 2}, None),
    "mexen": Scenario(13, {}, 5),
    "mexicanen": Scenario(14, {"lives": 3}, None),
    "mexico": Scenario(15, {}, 5),
}
PLAYERS = 3


async def whole_game(sim: SimTable, preset: str, language: str = "en") -> Transcript:
    game = GAMES[preset]
    sim.bot.tables.rng = random.Random(game.seed)
    t = Transcript(sim)
    await open_table(t, preset, PLAYERS, language, **game.options)
    watch = Watch([])
    await play(t, Driver(t, game.seed), rounds=game.rounds, watch=watch)
    if game.rounds is not None:
        await end_by_host(t)
    t.watch = watch  # type: ignore[attr-defined]
    return t


@pytest.mark.parametrize("preset", list(GAMES))
async def test_a_whole_game_reads_well(sim: SimTable, preset: str, transcript_snapshot) -> None:  # type: ignore[no-untyped-def]
    t = await whole_game(sim, preset)
    sim.env.raise_errors()
    check_talk(t, PLAYERS, t.watch)  # type: ignore[attr-defined]
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


# --- other languages (README, Languages) --------------------------------------------------


@pytest.fixture
def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each user's Discord client language. simcord sends every interaction as en-US, so
    its payload builder is wrapped to send the language a test gives a user."""
    chosen: dict[int, str] = {}
    build = simcord.interactions.base_payload

    def localized(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        payload["locale"] = chosen.get(fields["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", localized)
    return chosen


#: Words a catalog uses that no other catalog does, per language, names aside.
NAMES = {
    "alice",
    "bob",
    "carol",
    "dave",
    "mexican",
    "dollar",
    "mexen",
    "mexicanen",
    "mexico",
    "ada",
    "bruno",
    "carla",
    "kees",
    "social",
    "elbow",
    "bullshit",
    "expert",
}


def own_words(language: str) -> set[str]:
    def words(code: str) -> set[str]:
        text = (LOCALES / f"{code}.ftl").read_text("utf-8")
        values = [
            line.split("=", 1)[-1]
            for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
        return {w.lower() for w in re.findall(r"[^\W\d_]{4,}", " ".join(values))}

    others = set().union(*(words(code) for code in languages() if code != language))
    return words(language) - others - NAMES


def foreign_words(text: str, language: str) -> set[str]:
    """Words of ``text`` that belong to another language's catalog only."""
    seen = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", text)}
    return seen & set().union(*(own_words(c) for c in languages() if c != language))


@pytest.mark.slow
@pytest.mark.parametrize("language", ["nl", "de"])
@pytest.mark.parametrize("preset", list(GAMES))
async def test_a_whole_game_in_another_language(  # type: ignore[no-untyped-def]
    sim: SimTable,
    client_locales: dict[int, str],
    preset: str,
    language: str,
    transcript_snapshot,
) -> None:
    for user in sim.users:
        client_locales[user.id] = language
    t = await whole_game(sim, preset, language)
    sim.env.raise_errors()
    check_talk(t, PLAYERS, t.watch, talk(language))  # type: ignore[attr-defined]
    for sent in t.sent:
        assert not foreign_words(sent.text, language), (sent.text, language)
    assert t.text() == transcript_snapshot


async def test_each_player_reads_their_own_language_at_a_dutch_table(  # type: ignore[no-untyped-def]
    sim: SimTable, client_locales: dict[int, str], transcript_snapshot
) -> None:
    """alice (Dutch client) opens a Dutch table; bob's client is German, carol's English:
    their dice and refusals come in their own language, the table speaks Dutch."""
    a, b, c, _ = sim.users
    client_locales.update({a.id: "nl", b.id: "de", c.id: "en-GB"})
    sim.bot.tables.rng = random.Random(51)
    t = Transcript(sim)
    await open_table(t, "mexican", 3, "nl")
    await play(t, Driver(t, 51), rounds=2)
    table = sim.bot.tables.get(sim.channel.id)
    assert table is not None
    somebody_else = next(u for u in (a, b, c) if str(u.id) != table.game.to_move)
    await t.act(somebody_else, "/bullshit", somebody_else.slash(sim.channel, "bullshit"))
    await end_by_host(t)
    sim.env.raise_errors()
    spoken = {a.id: "nl", b.id: "de", c.id: "en"}
    private = [s for s in t.sent if s.kind == "private"]
    assert {s.to for s in private} >= {a.id, b.id, c.id}, "everyone got a private reply"
    for sent in private:
        assert sent.to is not None
        assert not foreign_words(sent.text, spoken[sent.to]), (sent.text, sent.to)
        seen = {w.lower() for w in re.findall(r"[^\W\d_]{4,}", sent.text)}
        # A reply of short words only ("You're in.") names no language; any other has one.
        assert not seen or own_words(spoken[sent.to]) & seen, sent.text
    for sent in shown(t):
        assert not foreign_words(sent.text, "nl"), sent.text
    assert t.text() == transcript_snapshot


# --- every drink and call, told in Dutch and German ----------------------------------------


class ScriptedDice(random.Random):
    """Dice that come up as a scene needs them: each ``randint(1, 6)`` takes the next die
    of the script, then falls back to the seeded generator (the starter is drawn as usual)."""

    def __init__(self, seed: int, dice: list[int]) -> None:
        super().__init__(seed)
        self.dice = list(dice)

    def randint(self, a: int, b: int) -> int:
        if self.dice and (a, b) == (1, 6):
            return self.dice.pop(0)
        return super().randint(a, b)


#: One step of a scripted game: the act and its argument (the claimed roll, "next" for a
#: hand-out to the next player, or None). The player to move makes it; a TAP is made by
#: the player after them.
Step = tuple[Act, object]


async def scripted(t: Transcript, driver: Driver, steps: list[Step]) -> None:
    """Play ``steps`` through the bot: each picks the legal move of that act (and roll,
    or hand-out/Knight target: the next player in the seats)."""
    for act, arg in steps:
        game = driver.table.game
        mover = game.to_move
        assert mover is not None
        seats = game.seats
        after = seats[(seats.index(mover) + 1) % len(seats)]
        if act is Act.TAP:
            await driver.make(after, Move(Act.TAP))
            continue
        moves = [m for m in game.legal_actions(mover) if m.act is act]
        if isinstance(arg, tuple):
            moves = [m for m in moves if m.roll == arg]
        elif arg == "next":
            moves = [m for m in moves if m.to == after]
        assert moves, (act, arg, game.legal_actions(mover))
        await driver.make(mover, moves[0])


@dataclass(frozen=True)
class Scene:
    """A scripted game: the dice in the order they fall and the moves made."""

    seed: int
    dice: list[int]
    steps: list[Step]
    shows: tuple[str, ...]  # what the table must have said (keys of ``told``)


SCENES: dict[str, Scene] = {
    # a Social, a true double called (a shot), a bluffed Mexican called (the chug)
    "mexican": Scene(
        61,
        [3, 1, 6, 6, 5, 3],
        [
            (Act.ROLL, None),
            (Act.ROLL, None),
            (Act.CLAIM, (6, 6)),
            (Act.BULLSHIT, None),
            (Act.ROLL, None),
            (Act.CLAIM, (2, 1)),
            (Act.BULLSHIT, None),
        ],
        ("social", "shot", "chug"),
    ),
    # a 3-1 handed out, a Mex, the lowest roll drinks double
    "mexen": Scene(
        62,
        [3, 1, 5, 4, 2, 1, 6, 2],
        [
            (Act.ROLL, None),
            (Act.HANDOUT, "next"),
            (Act.ROLL, None),
            (Act.STAND, None),
            (Act.ROLL, None),
            (Act.ROLL, None),
        ],
        ("handout", "handed"),
    ),
    # a 1-1 makes the Knight, a 3-2 is TAPped, a double makes the Knight drink
    "mexico": Scene(
        63,
        [1, 1, 6, 4, 3, 2, 4, 4],
        [
            (Act.ROLL, None),
            (Act.ROLL, None),
            (Act.STAND, None),
            (Act.ROLL, None),
            (Act.TAP, None),
            (Act.ROLL, None),
            (Act.STAND, None),
        ],
        ("knight", "tap", "knight-drinks"),
    ),
}


def told(said: Talk) -> dict[str, str]:
    """A piece of each line a scene must show, in the table's language."""

    def between(key: str, **names: str) -> str:
        marked = said(key, **{k: "\x00" for k in names})
        return max(marked.split("\x00"), key=len)

    return {
        "social": f"**{said('three-one-social')}**",
        "shot": said("amount-drunk", n=1, unit="shot"),
        "chug": said("amount-drunk", n=1, unit="chug"),
        "handout": between("handout", p="p"),
        "handed": between("penalty-handed", by="b", p="p", drunk="d"),
        "knight": between("knight", p="p"),
        "tap": between("tapped", p="p", roller="r"),
        "knight-drinks": said("cause-knight-double", die=4),
    }


@pytest.mark.parametrize("language", ["nl", "de"])
@pytest.mark.parametrize("preset", list(SCENES))
async def test_every_drink_and_call_reads_well_in_another_language(  # type: ignore[no-untyped-def]
    sim: SimTable,
    client_locales: dict[int, str],
    preset: str,
    language: str,
    transcript_snapshot,
) -> None:
    """The shot, the chug, the Social, the hand-out, the Knight and the TAP, which random
    games rarely reach, each in a short scripted game at a Dutch and a German table."""
    scene = SCENES[preset]
    for user in sim.users:
        client_locales[user.id] = language
    sim.bot.tables.rng = ScriptedDice(scene.seed, scene.dice)
    t = Transcript(sim)
    await open_table(t, preset, PLAYERS, language)
    await scripted(t, Driver(t, scene.seed, slash_share=0.3), scene.steps)
    await end_by_host(t)
    sim.env.raise_errors()
    said = talk(language)
    check_talk(t, PLAYERS, said=said)
    text = t.text()
    for piece in scene.shows:
        assert told(said)[piece] in text, (piece, told(said)[piece])
    for sent in t.sent:
        assert not foreign_words(sent.text, language), (sent.text, language)
    assert text == transcript_snapshot
