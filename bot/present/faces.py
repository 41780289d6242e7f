"""Dice as pictures (README, How the table talks): two die faces beside a roll's words.

A picture needs no translation and reads faster at a bar than "fifty-four". On Discord the
faces are the application's own emojis when `python -m bot sync` has uploaded them
(bot/adapter/faces.py), else the Unicode die faces, which every client shows; the words
stay beside them for screen readers and the claim menus. This module holds which faces
are in use (one set per process, like the catalogs) and draws the six images to upload.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.rolls import Roll

#: U+2680 to U+2685, die faces one to six.
UNICODE: tuple[str, ...] = ("⚀", "⚁", "⚂", "⚃", "⚄", "⚅")
#: The application emojis' names, face one to six.
EMOJI_NAMES: tuple[str, ...] = tuple(f"die_{n}" for n in range(1, 7))


@dataclass(frozen=True, slots=True)
class Faces:
    """One picture per die face, one to six."""

    marks: tuple[str, ...] = UNICODE

    def of(self, roll: Roll) -> str:
        """The two dice of a roll, high die first, as the roll is read."""
        high, low = roll
        return self.marks[high - 1] + self.marks[low - 1]


_in_use = Faces()


#: The bot's emojis as Discord markup (`<:die_5:123…>`), face by face.
EMOJI_MARKUP = re.compile(r"<:die_([1-6]):\d+>")


def unicode_faces(text: str) -> str:
    """Text for a reader that is not Discord (the web pages): the bot's emojis as the
    Unicode faces, which anything shows."""
    return EMOJI_MARKUP.sub(lambda m: UNICODE[int(m.group(1)) - 1], text)


def faces() -> Faces:
    return _in_use


def use(chosen: Faces) -> None:
    """Set the faces every message shows from now on (the bot's emojis once found)."""
    global _in_use
    if len(chosen.marks) != 6:
        raise ValueError("a die has six faces")
    _in_use = chosen


#: Pips of each face on a 3×3 grid (column, row).
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def face_png(face: int, size: int = 128) -> bytes:
    """One die face as a PNG: a white rounded square with dark pips (Discord's emoji size
    is 128 px; it is drawn, so the repository ships no image of its own)."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = size // 16
    draw.rounded_rectangle(
        (edge, edge, size - edge, size - edge),
        radius=size // 6,
        fill=(250, 250, 250, 255),
        outline=(40, 40, 40, 255),
        width=max(2, size // 32),
    )
    step, radius = size * 0.25, size * 0.09
    for col, row in PIPS[face]:
        x, y = size * 0.25 + col * step, size * 0.25 + row * step
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=(30, 30, 30, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
