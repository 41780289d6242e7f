"""Dice as pictures (README, How the table talks): the faces beside a roll's words, the
application's own emojis once uploaded, the Unicode faces otherwise."""

from __future__ import annotations

import io
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image

from bot.adapter.faces import load_faces, upload_faces
from bot.present import faces
from bot.present.faces import EMOJI_NAMES, PIPS, UNICODE, Faces, face_png
from bot.present.words import Words


@pytest.fixture(autouse=True)
def unicode_faces() -> Iterator[None]:
    """Every test starts and ends with the Unicode faces: other tests' words expect them."""
    faces.use(Faces())
    yield
    faces.use(Faces())


class FakeApplication:
    """The application's emojis as discord.py's client reads and makes them."""

    def __init__(self, names: list[str], fail: bool = False) -> None:
        self.emojis = [SimpleNamespace(name=n, id=100 + i) for i, n in enumerate(names)]
        self.fail = fail
        self.created: list[tuple[str, bytes]] = []

    async def fetch_application_emojis(self) -> list[Any]:
        if self.fail:
            raise discord.HTTPException(SimpleNamespace(status=403, reason="Forbidden"), "no")
        return [_Emoji(e.name, e.id) for e in self.emojis]

    async def create_application_emoji(self, *, name: str, image: bytes) -> Any:
        self.created.append((name, image))
        self.emojis.append(SimpleNamespace(name=name, id=200 + len(self.created)))
        return _Emoji(name, 200 + len(self.created))


class _Emoji:
    def __init__(self, name: str, id_: int) -> None:
        self.name, self.id = name, id_

    def __str__(self) -> str:
        return f"<:{self.name}:{self.id}>"


def test_a_roll_reads_high_die_first_beside_its_words() -> None:
    words = Words.of_preset("mexican")
    assert words.dice("54") == "⚄⚃ fifty-four"
    assert words.dice((2, 1)) == "⚁⚀ Mexican"
    assert Words.of_preset("mexen").dice("66") == "⚅⚅ 600"


async def test_uploaded_faces_are_used_and_sync_uploads_only_the_missing() -> None:
    app = FakeApplication(["die_1", "die_2", "other"])
    assert await upload_faces(app) == 4  # type: ignore[arg-type]
    assert [name for name, _ in app.created] == list(EMOJI_NAMES[2:])
    assert Words.of_preset("dollar").dice("31") == "<:die_3:201><:die_1:100> thirty-one"
    assert await upload_faces(app) == 0  # type: ignore[arg-type]


async def test_the_bot_shows_its_emojis_only_when_all_six_are_there() -> None:
    assert not await load_faces(FakeApplication(list(EMOJI_NAMES[:5])))  # type: ignore[arg-type]
    assert faces.faces().marks == UNICODE
    assert not await load_faces(FakeApplication([], fail=True))  # type: ignore[arg-type]
    assert faces.faces().marks == UNICODE
    assert await load_faces(FakeApplication(list(EMOJI_NAMES)))  # type: ignore[arg-type]
    assert faces.faces().of((6, 5)) == "<:die_6:105><:die_5:104>"


@pytest.mark.parametrize("face", range(1, 7))
def test_each_uploaded_face_shows_its_pips(face: int) -> None:
    """The drawn image is a PNG Discord takes (128 px) with as many dark pips as the face."""
    image = Image.open(io.BytesIO(face_png(face)))
    assert image.format == "PNG" and image.size == (128, 128)
    grey = image.convert("L")
    dark = {
        (col, row)
        for col in range(3)
        for row in range(3)
        if grey.getpixel((int(32 + col * 32), int(32 + row * 32))) < 100
    }
    assert dark == set(PIPS[face])
