"""The /stats card: a player's figures drawn as a PNG, the kind of rank card servers share.

Pure drawing: it takes the figures, not Discord objects, so it is tested by opening the
PNG it returns.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 900, 360
BACKGROUND = (32, 34, 37)
PANEL = (47, 49, 54)
GOLD = (230, 185, 60)
WHITE = (235, 235, 235)
GREY = (160, 163, 168)


@dataclass(frozen=True, slots=True)
class CardData:
    name: str
    headline: str  # e.g. "12 games · 5 wins · 42% win rate"
    #: (label, value) pairs shown in a grid, most interesting first.
    figures: list[tuple[str, str]]
    footer: str = ""


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def render_card(data: CardData) -> bytes:
    """Draw the card and return PNG bytes (900 x 360)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((16, 16, WIDTH - 16, HEIGHT - 16), radius=24, fill=PANEL)
    # A die face as the avatar: no network fetch, and it reads as "dice game" at a glance.
    draw.rounded_rectangle((40, 40, 140, 140), radius=18, fill=WHITE)
    for x, y in ((65, 65), (115, 65), (90, 90), (65, 115), (115, 115)):
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=BACKGROUND)
    draw.text((165, 44), data.name[:28], font=_font(40), fill=WHITE)
    draw.text((165, 100), data.headline[:60], font=_font(24), fill=GOLD)
    columns, cell_w, cell_h = 4, 205, 62
    for i, (label, value) in enumerate(data.figures[:12]):
        col, row = i % columns, i // columns
        x, y = 40 + col * cell_w, 160 + row * cell_h
        draw.text((x, y), value[:14], font=_font(26), fill=WHITE)
        draw.text((x, y + 32), label[:22], font=_font(16), fill=GREY)
    if data.footer:
        draw.text((40, HEIGHT - 44), data.footer[:90], font=_font(16), fill=GREY)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
