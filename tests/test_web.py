"""The web companion (README, Web companion), over HTTP from its aiohttp application:
hidden dice are never served, a server's pages exist only while it opts in, the numbers
are `/leaderboard`'s and `/stats`'s, and the reader's language is the browser's."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import orjson
import pytest
import simcord
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape

from bot import __version__
from bot.league.service import League
from bot.present.i18n import talk
from bot.storage import STATS, Storage, open_storage
from bot.web.app import make_app
from bot.web.lang import language_for
from bot.web.replay import PUBLIC_KINDS
from bot.web.serve import new_token
from cogs.stats import leaderboard_page
from tests.db_helpers import storage_fixture
from tests.support.sim import SimTable
from tests.web_helpers import GUILD, NAME_OF, NAMES, PEOPLE, played

TOKEN = new_token()
LINK = re.compile(r'(?:href|src)="(/(?:s|static)/[^"#]*)"')
BOARD_LINE = re.compile(
    r'<span class="rank">#(\d+)</span>\s*<a href="[^"]*/p/(\d+)">'
    r'<bdi class="name">[^<]*</bdi></a>\s*'
    r'<span class="value">([^<]*)</span>'
)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await open_storage(f"sqlite:///{tmp_path / 'web.db'}")
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture
async def client(store: Storage) -> AsyncIterator[TestClient[Any, Any]]:
    async with TestClient(TestServer(make_app(store))) as http:
        yield http


async def crawl(client: TestClient[Any, Any], start: str, language: str = "en") -> dict[str, bytes]:
    """Every page and file reachable from ``start`` by the pages' own links, and their
    bytes: what anyone holding the link can fetch."""
    seen: dict[str, bytes] = {}
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        response = await client.get(path, headers={"Accept-Language": language})
        assert response.status == 200, path
        body = await response.read()
        seen[path] = body
        if response.content_type == "text/html":
            text = body.decode()
            for found in LINK.findall(text):
                todo.append(found.replace("&amp;", "&"))
            # A replay's later parts, which its script asks for.
            parts = re.search(
                r'data-total="(\d+)" data-size="(\d+)".*?data-parts="([^"]+)"', text, re.S
            )
            if parts:
                total, size, where = int(parts[1]), int(parts[2]), parts[3]
                todo += [f"{where}{n}" for n in range(-(-total // size))]
    return seen


# --- nothing hidden is served ----------------------------------------------------------


async def hide_differently(store: Storage) -> int:
    """Every die the log and the stored states hold that the table never showed, changed:
    each roller's private dice, and each game's last cup and its seal. How many
    entries were changed."""
    changed = 0
    for game_id, seq, payload in await store._fetchall(
        "SELECT game_id, seq, payload FROM game_events WHERE kind = 'dice'", ()
    ):
        data = orjson.loads(payload)
        data["data"]["dice"] = "21" if data["data"]["dice"] != "21" else "65"
        await store._write(
            [
                (
                    "UPDATE game_events SET payload = ? WHERE game_id = ? AND seq = ?",
                    (orjson.dumps(data).decode(), game_id, seq),
                )
            ]
        )
        changed += 1
    for game_id, text in await store._fetchall("SELECT id, state_json FROM games", ()):
        state = orjson.loads(text)
        state["engine"]["cup"] = [4, 4]
        if state["meta"].get("commit"):
            state["meta"]["commit"] = {"dice": [4, 4], "salt": "0" * 32, "digest": "f" * 64}
        await store._write(
            [
                (
                    "UPDATE games SET state_json = ? WHERE id = ?",
                    (orjson.dumps(state).decode(), game_id),
                )
            ]
        )
    return changed


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_no_served_byte_depends_on_a_cup_nobody_lifted(
    store: Storage, client: TestClient[Any, Any], seed: int
) -> None:
    """Bluffing games played to their end with seeded dice; every page and file a link
    reaches, fetched in each language; then every die the table never showed is changed
    in the database, and every byte is fetched again: the same bytes."""
    games = await played(store, 8, seed=seed)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    start = f"/s/{TOKEN}/"
    before = {lang: await crawl(client, start, lang) for lang in ("en", "nl", "de")}
    replays = [p for p in before["en"] if "/g/" in p and "/part/" not in p]
    assert len(replays) == len(games), "every finished game is listed and replayed"
    sealed = re.compile(rb'\\?"sealed\\?":\\?"[1-6]-[1-6]:[0-9a-f]{32}')
    assert any(sealed.search(page) for page in before["en"].values()), "a lifted cup's seal"
    assert await hide_differently(store) > 20
    # Names are cached for a minute; a fresh application reads the changed states.
    async with TestClient(TestServer(make_app(store))) as fresh:
        after = {lang: await crawl(fresh, start, lang) for lang in ("en", "nl", "de")}
    assert after.keys() == before.keys()
    for lang in before:
        assert after[lang].keys() == before[lang].keys()
        for path, body in before[lang].items():
            assert after[lang][path] == body, f"{lang} {path} shows hidden dice"


async def test_the_secrecy_check_sees_a_change_in_what_was_shown(
    store: Storage, client: TestClient[Any, Any]
) -> None:
    """Not a check of nothing: a lifted cup's dice (public) changed in the same way do
    change the replay, so the comparison above would see hidden dice if they showed."""
    await played(store, 4)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    rows = await store._fetchall(
        "SELECT game_id, seq, payload FROM game_events WHERE kind = 'reveal' LIMIT 1", ()
    )
    assert rows, "a bluffing game of these lifts a cup"
    game_id, seq, payload = rows[0]
    path = f"/s/{TOKEN}/g/{game_id}"
    before = await (await client.get(path)).read()
    data = orjson.loads(payload)
    data["data"]["dice"] = "21" if data["data"]["dice"] != "21" else "65"
    await store._write(
        [
            (
                "UPDATE game_events SET payload = ? WHERE game_id = ? AND seq = ?",
                (orjson.dumps(data).decode(), game_id, seq),
            )
        ]
    )
    # A built replay is kept (a finished game never changes): a fresh application.
    async with TestClient(TestServer(make_app(store))) as fresh:
        assert await (await fresh.get(path)).read() != before


async def test_a_lifted_cup_shows_under_its_own_rounds_number(store: Storage) -> None:
    """The move that lifts a cup also begins the next round; the step keeps the lifted
    cup on show, and so the number of the round it was lifted in, not the next one's."""
    from bot.web.replay import replay

    lifted = 0
    for game_id in await played(store, 4):
        found = await store.web_game(GUILD, game_id)
        assert found is not None
        record, entries = found
        steps = replay(record.state_json, entries, talk("en"))
        for before, step in pairwise(steps):
            if step.cup == "lifted" and before.cup != "lifted":
                lifted += 1
                assert step.round == before.round, (game_id, step.lines)
        rounds = [step.round for step in steps]
        assert rounds == sorted(rounds), "rounds only count up"
    assert lifted > 0, "these games lift cups"


def test_the_replay_reads_no_private_kind() -> None:
    assert "dice" not in PUBLIC_KINDS and "move" not in PUBLIC_KINDS
    assert {"reveal", "claimed", "penalty", "rolled"} <= PUBLIC_KINDS


async def test_a_running_game_is_not_served(store: Storage, client: TestClient[Any, Any]) -> None:
    """Only finished games are replayed: a table still playing gets the 404 of a game
    that is not there."""
    finished = await played(store, 1)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    running = await store.create_game(GUILD, 999, "mexican", '{"engine": {}}', status="running")
    assert (await client.get(f"/s/{TOKEN}/g/{finished[0]}")).status == 200
    assert (await client.get(f"/s/{TOKEN}/g/{running.id}")).status == 404


# --- opting in and out -------------------------------------------------------------------


async def test_nothing_is_served_before_a_server_opts_in_or_after_it_opts_out(
    store: Storage, client: TestClient[Any, Any]
) -> None:
    games = await played(store, 2)
    pages = ["", "season", "board/wins", f"p/{PEOPLE[0]}", f"g/{games[0]}"]
    for page in pages:
        assert (await client.get(f"/s/{TOKEN}/{page}")).status == 404, page
    token = await store.open_web_link(GUILD, TOKEN, 1.0)
    assert token == TOKEN
    assert await store.open_web_link(GUILD, new_token(), 2.0) == TOKEN, "on twice: one link"
    for page in pages:
        response = await client.get(f"/s/{TOKEN}/{page}")
        assert response.status == 200, page
        assert response.headers["Referrer-Policy"] == "no-referrer"
    other = await store.open_web_link(GUILD + 1, new_token(), 1.0)
    assert (await client.get(f"/s/{other}/g/{games[0]}")).status == 404, "another server's game"
    assert await store.close_web_link(GUILD)
    for page in pages:
        assert (await client.get(f"/s/{TOKEN}/{page}")).status == 404, page
    assert not await store.close_web_link(GUILD)


def test_tokens_are_long_random_and_fit_the_route() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", token) for token in tokens)


async def test_an_admin_turns_the_pages_on_and_off_with_web(sim: SimTable) -> None:
    """/web: hidden from someone without Manage Server; an admin's
    `on` prints the link privately, the same link again, `off` takes the pages down."""
    sim.bot.web_url = "https://dice.example.org"
    store = sim.bot.storage
    player = sim.users[0]
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await player.slash(sim.channel, "web", pages="on")  # not even visible to them
    assert await store.web_link(sim.guild.id) is None
    admins = sim.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = sim.guild.add_member(sim.env.create_user("admin"), roles=[admins])
    shown = await admin.slash(sim.channel, "web")
    assert shown.response is not None and "off" in shown.response.content
    turned = await admin.slash(sim.channel, "web", pages="on")
    assert turned.response is not None and turned.response.ephemeral
    token = await store.web_link(sim.guild.id)
    assert token is not None
    assert f"https://dice.example.org/s/{token}/" in turned.response.content
    again = await admin.slash(sim.channel, "web")
    assert again.response is not None and f"/s/{token}/" in again.response.content
    off = await admin.slash(sim.channel, "web", pages="off")
    assert off.response is not None and off.response.ephemeral
    assert await store.web_link(sim.guild.id) is None
    sim.bot.web_url = None
    unset = await admin.slash(sim.channel, "web", pages="on")
    assert unset.response is not None and "WEB_URL" in unset.response.content
    assert await store.web_link(sim.guild.id) is None


# --- the same numbers as the bot ----------------------------------------------------------


@pytest.mark.parametrize("period", ["all", "month", "week"])
async def test_every_board_shows_the_numbers_of_leaderboard(
    store: Storage, client: TestClient[Any, Any], period: str
) -> None:
    # Played in the last few minutes, so this month's and week's boards hold them too.
    await played(store, 12, start=time.time() - 900, apart=1.0)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    bot = SimpleNamespace(storage=store)
    compared = 0
    for stat in STATS:
        page = await client.get(f"/s/{TOKEN}/board/{stat}?period={period}")
        shown = BOARD_LINE.findall(await page.text())
        embed, _ = await leaderboard_page(bot, GUILD, 0, 1, stat, "server", period, 0)  # type: ignore[arg-type]
        said = re.findall(r"\*\*#(\d+)\*\* <@(\d+)> · (.+)", embed.description or "")
        assert shown == said, stat
        compared += len(said)
    assert compared > 20


async def test_a_profile_shows_the_figures_of_stats(
    store: Storage, client: TestClient[Any, Any]
) -> None:
    from bot.present.figures import card_data

    await played(store, 8)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    person = int(PEOPLE[1])
    page = (await client.get(f"/s/{TOKEN}/p/{person}")).text
    html = await page()
    league = League(store)
    nemesis = await store.nemesis(GUILD, person)
    assert nemesis is not None, "someone caught them bluffing in these games"
    data = card_data(
        NAMES[1],
        await store.player_totals(GUILD, person),
        await store.favourite_claim(GUILD, person),
        nemesis,
        NAME_OF[str(nemesis[0])],
        talk(),
        skills=await league.skills_of(GUILD, person),
        achievements=await league.card_achievements(GUILD, person),
    )
    figures = re.findall(r"<dt>([^<]*)</dt><dd>([^<]*)</dd>", html)
    assert figures == [(label, str(escape(value))) for label, value in data.figures]
    assert figures[0][0].startswith("rating"), "the ratings come first, as on the card"
    assert "<svg" in html, "a rating history chart"
    # Each chart is headed by the rating as the card writes it ('973?' while provisional).
    headed = re.findall(r"<h3>[^<]* · ([^<]*)</h3>", html)
    assert headed and headed == [value for label, value in data.figures[: len(headed)]]
    assert "Bo &lt;script&gt;" in html or "Bo <script>" not in html


# --- words and names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("nl-BE", "nl"),
        ("fr-FR, en;q=0.5", "en"),
        ("en-US;q=0.1, de;q=0.9", "de"),
        ("", "en"),
        ("*", "en"),
    ],
)
def test_the_language_is_the_best_of_the_browsers(header: str, language: str) -> None:
    assert language_for(header) == language


async def test_pages_speak_the_readers_language_and_escape_names(
    store: Storage, client: TestClient[Any, Any]
) -> None:
    games = await played(store, 4)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    for language, word in (("en", "Replay"), ("nl", "Herhaling"), ("de", "Wiederholung")):
        page = await client.get(f"/s/{TOKEN}/g/{games[0]}", headers={"Accept-Language": language})
        html = await page.text()
        assert f'<html lang="{language}">' in html
        assert word in html
        assert "<script>alert" not in html
    server = await (await client.get(f"/s/{TOKEN}/")).text()
    assert "Bo &lt;script&gt;alert(1)&lt;/script&gt;" in server or "Ana" in server


storage = storage_fixture()


async def test_the_web_reads_and_the_switch_on_each_database(storage: Storage) -> None:
    """Schema step 12 and the companion's queries on SQLite and PostgreSQL alike."""
    store = storage
    games = await played(store, 4)
    assert await store.web_link(GUILD) is None
    assert await store.open_web_link(GUILD, TOKEN, 1.0) == TOKEN
    assert await store.open_web_link(GUILD, new_token(), 2.0) == TOKEN
    assert await store.web_guild(TOKEN) == GUILD
    listed = await store.web_games(GUILD, 20)
    assert [g.game_id for g in listed] == sorted(games, reverse=True)
    found = await store.web_game(GUILD, games[0])
    assert found is not None and found[1][0].kind == "move"
    assert await store.web_game(GUILD + 1, games[0]) is None
    history = await store.rating_history(GUILD, "bluff", int(PEOPLE[0]), 50)
    results = await store._fetchall(
        "SELECT ended_at, result FROM rated_games WHERE guild_id = ? AND family = 'bluff'"
        " ORDER BY ended_at",
        (GUILD,),
    )
    expected = [
        (float(at), orjson.loads(text)["changes"][PEOPLE[0]][1])
        for at, text in results
        if PEOPLE[0] in orjson.loads(text)["changes"]
    ]
    assert history and history == expected[-50:]
    assert await store.close_web_link(GUILD)
    assert await store.web_guild(TOKEN) is None


async def test_the_final_standing_and_history_link_the_replay_once_opted_in(
    sim: SimTable,
) -> None:
    """A server that shows its games gets the replay's link under each final standing and
    in /history; one that does not gets neither (README, Web companion)."""
    a, b = sim.users[:2]
    store = sim.bot.storage

    async def one_game() -> tuple[int, discord.Message]:
        await a.slash(sim.channel, "newgame", ruleset="dollar", lives=1, turn_timer=0)
        await b.slash(sim.channel, "join")
        await a.slash(sim.channel, "start")
        table = sim.bot.tables.get(sim.channel.id)
        assert table is not None
        await a.slash(sim.channel, "roll")
        await a.slash(sim.channel, "claim", value="65")
        await b.slash(sim.channel, "bullshit")
        assert sim.bot.tables.get(sim.channel.id) is None
        return table.game_id, sim.channel.last_message

    sim.bot.web_url = "https://dice.example.org"
    _, plain = await one_game()
    assert "replay" not in (plain.embeds[0].description or "").lower()
    token = new_token()
    await store.open_web_link(sim.guild.id, token, time.time())
    game_id, shown = await one_game()
    url = f"https://dice.example.org/s/{token}/g/{game_id}"
    assert (shown.embeds[0].description or "").splitlines()[-1] == f"▶️ [Watch the replay]({url})"
    history = await a.slash(sim.channel, "history")
    text = history.response.embeds[0].description
    assert text.splitlines()[-1].startswith(f"▶️ Replays: [game {game_id}]({url})"), text


# --- no 500s, the same headers everywhere, no token in a log ------------------------------


async def test_odd_addresses_get_a_404_or_405_never_a_500_and_always_the_headers(
    store: Storage, client: TestClient[Any, Any]
) -> None:
    """Ids and pages are ASCII digits and fit a 64-bit integer; anything else is a 404
    (a superscript two passes ``str.isdigit``; 20 nines overflow SQLite's integer). Every
    status carries the pages' security headers."""
    from bot.web.app import HEADERS

    await played(store, 1)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    base = f"/s/{TOKEN}/"
    odd = [
        "p/99999999999999999999",
        "p/-99999999999999999999",
        "p/9223372036854775808",
        "board/wins?page=²",
        "board/wins?page=１",
        "board/wins?page=0",
        "board/wins?page=1000000",
        "board/wins?period=year",
        "board/nothing",
        "g/999999999999999999",
        "g/١٢",
    ]
    for path in odd:
        response = await client.get(base + path)
        assert response.status == 404, path
        for header, value in HEADERS.items():
            assert response.headers.get(header) == value, (path, header)
    posted = await client.post(base)
    assert posted.status == 405
    assert posted.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
    assert posted.headers["Referrer-Policy"] == "no-referrer"


async def test_a_failing_page_is_a_500_with_the_headers_and_logs_no_token(
    store: Storage, client: TestClient[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    from bot.web.app import HEADERS

    await played(store, 1)
    await store.open_web_link(GUILD, TOKEN, 1.0)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError(f"a bug reading /s/{TOKEN}/season")

    store.web_games = broken  # type: ignore[method-assign]
    response = await client.get(f"/s/{TOKEN}/")
    assert response.status == 500
    assert response.headers["X-Robots-Tag"] == HEADERS["X-Robots-Tag"]
    assert response.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
    assert "a web page failed" in caplog.text
    assert TOKEN not in caplog.text
    for record in caplog.records:
        assert TOKEN not in logging.Formatter().format(record)


async def test_a_request_line_too_long_logs_no_token(
    store: Storage, client: TestClient[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """aiohttp answers a request line over 8,190 bytes itself and logs its start: the
    token is taken out of that line too."""
    caplog.set_level(logging.DEBUG)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    reader, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(f"GET /s/{TOKEN}/board/wins?x={'a' * 9000} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read(200)
    writer.close()
    assert answer.split(b"\r\n")[0].endswith(b" 400 Bad Request")
    assert any("Error handling request" in r.getMessage() for r in caplog.records)
    for record in caplog.records:
        assert TOKEN not in logging.Formatter().format(record)


def test_a_name_shows_as_typed_set_apart_and_short() -> None:
    """bot/present/names.py: the worst names lose what reorders or hides text, keep at
    most two marks a letter and 32 characters, and a chat line escapes their Markdown."""
    from bot.present.names import MAX_LENGTH, chat_name, plain_name, unescape_chat

    assert plain_name("W" * 300) == "W" * (MAX_LENGTH - 1) + "…"
    assert plain_name("Ana\u202e1239\u2066") == "Ana1239"
    assert plain_name("q\u0301\u0302\u0303\u0304o") == "q\u0301\u0302o"
    assert plain_name("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧", "a family emoji stays whole"
    assert plain_name("\u202e") == "?"
    said = chat_name("<@1234> **x** `y`")
    assert said.startswith("\u2068") and said.endswith("\u2069")
    assert "<@" not in said and "**" not in said and "`y`" not in said
    assert unescape_chat(said) == "\u2068<@1234> **x** `y`\u2069"


def test_a_name_in_a_line_is_shown_as_typed_on_a_page() -> None:
    """A catalog line naming someone whose name looks like a mention and Markdown: the
    page shows the letters, links only the real mention, and names an unknown player by
    the end of their id, never as a raw mention."""
    from bot.present.names import chat_name
    from bot.web.names import Names

    names = Names({"1111": "**Ana**"}, talk("en"))
    line = f"{chat_name('<@1111> `x`')} beat <@1111> and <@9876543210>"
    html = str(names.html(line, "/p/"))
    assert html.count("<a ") == 2 and "<code>" not in html
    assert '<a href="/p/1111"><b><bdi class="name">**Ana**</bdi></b></a>' in html
    assert "&#60;&#64;1111&#62;" in html and "&#96;x&#96;" in html
    assert "Player …3210" in html and "&lt;@" not in html


@pytest.mark.slow
async def test_a_long_replay_comes_in_parts_built_once(store: Storage) -> None:
    """A long game's page holds its first `PART` steps and the script asks for the
    others; the parts together are the whole game, each step once, in order; a built
    replay is kept, so reading it again reads nothing from the database."""
    from bot.game.tables import TableService
    from bot.web.build import PART
    from tests.web_helpers import play

    service = TableService(store, __import__("random").Random(4), league=League(store))
    game = await play(service, 77, PEOPLE[:3], now=1.0, preset="mexican", seed=4, lives=15)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    async with TestClient(TestServer(make_app(store))) as http:
        page = await (await http.get(f"/s/{TOKEN}/g/{game}")).text()
        total = int(re.search(r'data-total="(\d+)"', page).group(1))  # type: ignore[union-attr]
        assert total > 2 * PART, "a long game"
        first = orjson.loads(re.search(r'id="steps">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
        assert len(first["steps"]) == PART
        steps = list(first["steps"])
        for part in range(1, -(-total // PART)):
            answer = await http.get(f"/s/{TOKEN}/g/{game}/part/{part}")
            assert answer.status == 200 and answer.content_type == "application/json"
            steps += (await answer.json())["steps"]
        assert [s["where"] for s in steps] == [f"Move {n} of {total}" for n in range(1, total + 1)]
        assert (await http.get(f"/s/{TOKEN}/g/{game}/part/{-(-total // PART)}")).status == 404
        assert (await http.get(f"/s/{TOKEN}/g/{game}?part=²")).status == 404
        second = await (await http.get(f"/s/{TOKEN}/g/{game}?part=2")).text()
        assert 'data-start="100"' in second and "?part=3" in second and "?part=1" in second
        reads = 0
        real = store.web_game

        async def counted(*args: Any) -> Any:
            nonlocal reads
            reads += 1
            return await real(*args)

        store.web_game = counted  # type: ignore[method-assign]
        again = await (await http.get(f"/s/{TOKEN}/g/{game}")).text()
        assert again == page and reads == 0, "kept, not built again"
        german = await http.get(f"/s/{TOKEN}/g/{game}", headers={"Accept-Language": "de"})
        assert "Zug 1 von" in await german.text() and reads == 1, "each language its own"


async def test_pages_worth_sharing(store: Storage, client: TestClient[Any, Any]) -> None:
    """The root says what the site is and links nowhere; the rule set goes by its own
    name in each language; the games list names the players and the winner; a sealed
    cup says what its digest is; a computer's profile is `/stats computer:`'s card."""
    from bot.engine import Game
    from bot.engine.result import winners

    games = await played(store, 4)
    await store.open_web_link(GUILD, TOKEN, 1.0)
    root = await client.get("/", headers={"Accept-Language": "de"})
    html = await root.text()
    assert root.status == 200 and "Mäxchen" in html and "<a " not in html
    assert f"Version {__version__}</footer>" in html  # the version that serves (CHANGELOG.md)
    assert root.headers["Referrer-Policy"] == "no-referrer"
    for language, name in (("en", "Mexican"), ("nl", "Blufmexen"), ("de", "Mäxchen")):
        page = await client.get(f"/s/{TOKEN}/g/{games[0]}", headers={"Accept-Language": language})
        text = await page.text()
        assert re.search(rf"<h1>🎬 [^<]* · {name}</h1>", text), language
        assert talk(language)("web-seal-down") in text
    server = await (await client.get(f"/s/{TOKEN}/")).text()
    assert ">🎬 Mexican #" in server and ">🎬 Dollar #" in server and "mexican ·" not in server
    record = await store.web_game(GUILD, games[0])
    assert record is not None
    final = Game.from_dict(orjson.loads(record[0].state_json)["engine"])
    item = server[server.index(f"/g/{games[0]}") :].split("</li>")[0]
    for player in final.players:
        assert (
            NAME_OF.get(player, "?")
            in item.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            or not player.isdigit()
        )
    assert item.count("🏆") == (1 if winners(final) else 0)
    computer = await (await client.get(f"/s/{TOKEN}/p/-1")).text()
    assert "Achievements" not in computer and " of 2" not in computer


def test_web_has_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import main

    with pytest.raises(SystemExit) as stopped:
        main(["web", "--help"])
    assert stopped.value.code == 0
    said = capsys.readouterr().out
    assert said.startswith("usage: ") and " web " in said and "WEB_PORT" in said
    assert "migrate-db" not in said, "not the bot's general help"


async def test_a_replay_draws_the_dice_of_a_lifted_cup_as_faces(store: Storage) -> None:
    """Dice as pictures on the web too: each lifted cup's two dice as SVG faces beside the
    words, in the reveal line and the cup field; a cup still down shows none; the bot's
    emojis (a process whose sync uploaded them) reach a page as faces, never as markup."""
    from bot.game.tables import TableService
    from bot.present import faces
    from bot.present.faces import EMOJI_NAMES, Faces
    from bot.web.dice import die_svg
    from tests.web_helpers import play

    faces.use(Faces(tuple(f"<:{name}:{900 + n}>" for n, name in enumerate(EMOJI_NAMES))))
    try:
        service = TableService(store, __import__("random").Random(4), league=League(store))
        game = await play(service, 78, PEOPLE[:3], now=1.0, preset="mexican", seed=4, lives=2)
        await store.open_web_link(GUILD, TOKEN, 1.0)
        async with TestClient(TestServer(make_app(store))) as http:
            page = await (await http.get(f"/s/{TOKEN}/g/{game}")).text()
    finally:
        faces.use(Faces())
    data = orjson.loads(re.search(r'id="steps">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    lifted = [s for s in data["steps"] if "svg" in s["cup"]]
    assert lifted, "no cup lifted in the game"
    reveals = 0
    for step in data["steps"]:
        reveal = [line for line in step["lines"] if "bullshit" in line and "under the cup" in line]
        reveals += len(reveal)
        for line in reveal:
            assert line.count('<svg class="die"') == 2, line
        if step["cup"] and "svg" not in step["cup"]:
            assert "<svg" not in step["cup"]  # a cup still down draws no dice
    assert reveals >= len(lifted) > 0
    assert "&lt;:die_" not in page and "<:die_" not in page
    shown = re.findall(r'aria-label=\\?"(\d)\\?"', page)
    assert shown and set(shown) <= set("123456")
    assert die_svg(5).count("<circle") == 5
