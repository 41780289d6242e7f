"""The web companion in a real browser (README, Web companion; Tests): the
distribution's headless Chromium, driven by Playwright, loads every kind of page over HTTP
from a running `python -m bot web`, at a phone's width and a desktop's, and clicks a
replay through a whole game.

Screenshots go to the test's folder; with ``WEB_SCREENSHOTS=<folder>`` the phone's go
there too (``WEB_SCREENSHOTS=docs/screenshots`` rewrites the ones the docs show,
README, Web companion).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.game.tables import TableService
from bot.league.service import League
from bot.present.names import plain_name
from bot.storage import open_storage
from tests.web_helpers import GUILD, PEOPLE, play, played, rename

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOKEN = "T" * 43
#: Ordinary names, for the pages as the docs show them.
ORDINARY = ["Ana", "Bram", "Chloé", "Dirk"]
#: A second server whose people chose the worst names: 300 letters without a space,
#: another player's mention with Markdown, a right-to-left override with zalgo marks, a
#: masked link and 40 emoji.
HOSTILE_GUILD, HOSTILE_TOKEN = GUILD + 1, "H" * 43
HOSTILE = [
    "W" * 300,
    f"<@{PEOPLE[0]}> **bold** `code` @everyone",
    "Evil\u202e1239 Z\u0337\u0321\u031b\u0353\u0344a\u0338l\u0334g\u0336o\u0335" * 3,
    "[click](https://evil.example) " + "🎲" * 40,
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ROOT = Path(__file__).resolve().parents[1]
#: Where the site's process serves /metrics (METRICS_PORT).
METRICS: dict[str, int] = {}


def chromium_or_skip() -> None:
    """Like PostgreSQL (README, Tests): skipped without the browser, failed in CI."""
    if Path(CHROMIUM).is_file():
        return
    if os.environ.get("CI"):
        pytest.fail(f"no Chromium at {CHROMIUM}: .ci/run installs the 'chromium' package")
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[int]]]:
    """A database of finished games whose server opted in, and `python -m bot web` on it."""
    chromium_or_skip()
    folder = tmp_path_factory.mktemp("web")
    database = folder / "mexican.db"

    async def prepare() -> list[int]:
        store = await open_storage(f"sqlite:///{database}")
        try:
            # Played in the last hours, so the season page shows this month's season.
            games = await played(store, 8, start=time.time() - 9 * 3600)
            await store.open_web_link(GUILD, TOKEN, 1.0)
            service = TableService(store, random.Random(4), league=League(store))
            long = await play(
                service,
                77,
                PEOPLE[:3],
                now=time.time() - 10 * 3600,
                preset="mexican",
                seed=4,
                lives=15,
            )
            await rename(store, GUILD, ORDINARY)
            hostile = await played(store, 3, seed=5, guild=HOSTILE_GUILD)
            await rename(store, HOSTILE_GUILD, HOSTILE)
            await store.open_web_link(HOSTILE_GUILD, HOSTILE_TOKEN, 1.0)
            return [*games, *hostile, long]
        finally:
            await store.close()

    games = asyncio.run(prepare())
    port = free_port()
    METRICS["port"] = free_port()
    env = {
        **os.environ,
        "DATABASE_PATH": str(database),
        "DATABASE_URL": "",
        "WEB_PORT": str(port),
        "METRICS_PORT": str(METRICS["port"]),
        "DISCORD_TOKEN": "",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web"], cwd=folder, env=env, stderr=subprocess.PIPE
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError as err:
                if process.poll() is not None or time.monotonic() > deadline:
                    said = process.stderr.read().decode() if process.stderr else ""
                    raise AssertionError(said) from err
                time.sleep(0.2)
        yield base, games
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0, "python -m bot web stops cleanly on SIGTERM"


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


def keep(shot: Path) -> None:
    """A phone screenshot, also where WEB_SCREENSHOTS asks."""
    wanted = os.environ.get("WEB_SCREENSHOTS")
    if wanted:
        target = ROOT / wanted
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, target / shot.name)


PAGES = [
    ("server", "", "Rating (bluffing games)"),
    ("board", "board/wins?period=all", "Wins"),
    ("season", "season", "Season"),
    ("profile", f"p/{PEOPLE[0]}", ORDINARY[0]),
]


@pytest.mark.parametrize(("name", "path", "expected"), PAGES)
async def test_each_page_loads_and_reads_on_a_phone_and_a_desktop(
    site: tuple[str, list[int]],
    browser: object,
    tmp_path: Path,
    name: str,
    path: str,
    expected: str,
) -> None:
    base, _ = site
    for width, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = await browser.new_page(viewport=size, locale="en-US")  # type: ignore[attr-defined]
        errors: list[object] = []

        def failed(err: object, errors: list[object] = errors) -> None:
            errors.append(err)

        page.on("pageerror", failed)
        response = await page.goto(f"{base}/s/{TOKEN}/{path}")
        assert response is not None and response.status == 200
        text = await page.inner_text("main")
        assert expected in text
        # Nothing wider than the screen: a phone never scrolls sideways.
        overflow = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name} is {overflow}px too wide at {width}"
        shot = tmp_path / f"{name}-{width}.png"
        await page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 5000
        if width == "phone":
            keep(shot)
        assert errors == []
        await page.close()


async def test_a_page_speaks_the_browsers_language(
    site: tuple[str, list[int]], browser: object
) -> None:
    base, _ = site
    for locale, word in (("nl-NL", "Ranglijsten"), ("de-DE", "Ranglisten")):
        context = await browser.new_context(locale=locale)  # type: ignore[attr-defined]
        page = await context.new_page()
        await page.goto(f"{base}/s/{TOKEN}/")
        assert word in await page.inner_text("body")
        await context.close()


async def test_the_replay_is_clicked_through_a_whole_game(
    site: tuple[str, list[int]], browser: object, tmp_path: Path
) -> None:
    """Next through every step to the end, the scrubber back to the start, play until
    it moves on and pause; a lifted cup's seal checked by the page's own sha256."""
    base, games = site
    page = await browser.new_page(viewport=PHONE, locale="en-US")  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    await page.goto(f"{base}/s/{TOKEN}/g/{games[0]}")
    total = int(await page.get_attribute("#scrub", "max") or 0)
    assert total > 5
    assert (await page.inner_text("#where")) == f"Move 1 of {total}"
    shots = 0
    sealed = False
    for n in range(2, total + 1):
        await page.click("#next")
        assert (await page.inner_text("#where")) == f"Move {n} of {total}"
        if not sealed and await page.is_visible("#check"):
            await page.click("#check")
            await page.wait_for_selector("#verdict.ok")
            assert "seal matches" in await page.inner_text("#verdict")
            sealed = True
            shot = tmp_path / "replay-phone.png"
            await page.screenshot(path=str(shot), full_page=True)
            keep(shot)
            shots += 1
    assert sealed, "this game lifted a cup, and its seal checks out"
    assert "Final standing" in await page.inner_text("#lines")
    await page.click("#next")  # past the end: stays on the last step
    assert (await page.inner_text("#where")) == f"Move {total} of {total}"
    await page.fill("#scrub", "1")
    assert (await page.inner_text("#where")) == f"Move 1 of {total}"
    await page.click("#play")
    # Polled from here: the pages' CSP allows no script a test would inject.
    for _ in range(100):
        if (await page.inner_text("#where")).startswith("Move 3 "):
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("play did not move on")
    await page.click("#play")  # pause
    paused = await page.inner_text("#where")
    await asyncio.sleep(2)
    assert await page.inner_text("#where") == paused
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=str(tmp_path / "replay-desktop.png"), full_page=True)
    assert errors == [] and shots == 1
    await page.close()


async def test_a_wrong_link_is_a_404_page(site: tuple[str, list[int]], browser: object) -> None:
    base, _ = site
    page = await browser.new_page()  # type: ignore[attr-defined]
    response = await page.goto(f"{base}/s/{'x' * 43}/")
    assert response is not None and response.status == 404
    assert "Nothing here" in await page.inner_text("body")
    await page.close()


WIDER = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


async def test_the_worst_names_neither_widen_nor_spoof_a_page(
    site: tuple[str, list[int]], browser: object
) -> None:
    """Every page of the server whose people chose the worst names, at a phone's width
    in English and German: nothing scrolls sideways, no name links anywhere but its own
    profile, no name turns bold, and no right-to-left override reaches the page."""
    base, games = site
    server = f"{base}/s/{HOSTILE_TOKEN}/"
    paths = [
        "",
        "board/wins",
        "season",
        *(f"p/{p}" for p in PEOPLE),
        *(f"g/{g}" for g in games[8:11]),
    ]
    for locale in ("en-US", "de-DE"):
        context = await browser.new_context(viewport=PHONE, locale=locale)  # type: ignore[attr-defined]
        page = await context.new_page()
        for path in paths:
            response = await page.goto(server + path)
            assert response is not None and response.status == 200, path
            steps = [0]
            if "/g/" in path or path.startswith("g/"):
                steps = [0, int(await page.get_attribute("#scrub", "max") or 1) - 1]
            for step in steps:
                if step:
                    await page.fill("#scrub", str(step + 1))
                assert await page.evaluate(WIDER) <= 0, f"{path} step {step} scrolls sideways"
                html = await page.content()
                assert "\u202e" not in html, path
                # A link to a profile says that profile's own name, never another's.
                for href, said in await page.eval_on_selector_all(
                    "main a[href*='/p/']",
                    "els => els.map(e => [e.getAttribute('href'), e.innerText])",
                ):
                    if href.endswith(PEOPLE[0]):
                        assert said.strip().startswith("W"), (path, said)
                    if "<@" in said:
                        assert href.endswith(PEOPLE[1]), (path, href, said)
                # The name's Markdown shows as typed: no element holds "bold" or "code" alone.
                marked = (
                    "[...document.querySelectorAll('main b, main code')].map(e => e.textContent)"
                )
                assert not {"bold", "code"} & set(await page.evaluate(marked)), path
                text = await page.inner_text("main")
                assert "bold" not in text or "**bold**" in text, path
                assert await page.locator("main a[href^='https://evil']").count() == 0, path
        await context.close()
    page = await browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    await page.goto(f"{server}p/{PEOPLE[1]}")
    assert await page.inner_text("h1") == f"🎲 {plain_name(HOSTILE[1])}"
    # The achievements' heading names them as typed too (it once showed PEOPLE[0]).
    assert f"<@{PEOPLE[0]}> **bold**" in await page.inner_text(".embed h2")
    await page.close()


async def shows(page: object, where: str) -> None:
    """Polled (the pages' CSP lets no test script run in them): the replay's position."""
    for _ in range(100):
        if await page.inner_text("#where") == where:  # type: ignore[attr-defined]
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the replay never showed {where!r}")


async def test_a_long_replay_loads_its_later_parts(
    site: tuple[str, list[int]], browser: object
) -> None:
    """A game longer than one part: the scrubber to its last move, the page asks for
    that part and shows it; and the standalone process serves /metrics."""
    base, games = site
    page = await browser.new_page(viewport=PHONE, locale="en-US")  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    await page.goto(f"{base}/s/{TOKEN}/g/{games[-1]}")
    total = int(await page.get_attribute("#scrub", "max") or 0)
    assert total > 200, "longer than two parts"
    for n in (total, 150):
        await page.fill("#scrub", str(n))
        await shows(page, f"Move {n} of {total}")
        if n == total:
            assert "Final standing" in await page.inner_text("#lines")
    assert await page.evaluate(WIDER) <= 0 and errors == []
    await page.close()
    with urllib.request.urlopen(f"http://127.0.0.1:{METRICS['port']}/metrics", timeout=5) as got:
        text = got.read().decode()
    assert 'mexican_database_seconds_count{operation="web_game"}' in text
