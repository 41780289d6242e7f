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
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.storage import open_storage
from tests.web_helpers import GUILD, NAMES, PEOPLE, played

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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ROOT = Path(__file__).resolve().parents[1]


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
            games = await played(store, 8)
            await store.open_web_link(GUILD, TOKEN, 1.0)
            return games
        finally:
            await store.close()

    games = asyncio.run(prepare())
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_PATH": str(database),
        "DATABASE_URL": "",
        "WEB_PORT": str(port),
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
    ("profile", f"p/{PEOPLE[0]}", NAMES[0]),
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
