"""The /stats card: a player's figures drawn as a PNG, the kind of rank card servers share.

Pure drawing: it takes the figures, not Discord objects, so it is tested by opening the
PNG it returns. Layout and drawing are split: `layout_card` measures every text with the
font it will be drawn in and places it, `render_card` only paints that layout. Tests can
then check the boxes (inside the card, never overlapping, never cut) without reading pixels,
and a 32-character name or six-digit counts cannot spill over a neighbour or the footer.
"""

from __future__ import annotations

import dataclasses
import io
import re
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

WIDTH = 900
#: The shortest card: a new player's card with few figures still looks like a card, not a
#: strip. Taller content makes the card taller.
MIN_HEIGHT = 360

BACKGROUND: RGB = (32, 34, 37)
PANEL: RGB = (47, 49, 54)
GOLD: RGB = (230, 185, 60)
WHITE: RGB = (235, 235, 235)
GREY: RGB = (160, 163, 168)

MARGIN = 16  # background visible around the panel
PADDING = 24  # panel edge to text
RADIUS = 24
CONTENT_LEFT = MARGIN + PADDING
CONTENT_RIGHT = WIDTH - MARGIN - PADDING
AVATAR: Box = (CONTENT_LEFT, CONTENT_LEFT, CONTENT_LEFT + 100, CONTENT_LEFT + 100)
HEADER_LEFT = AVATAR[2] + 28
#: Three columns: a Discord image is shown about 400 px wide on a phone, and four columns
#: left values so small there that six-digit counts had to be cut to fit.
COLUMNS = 3
GUTTER = 32
CELL_WIDTH = (CONTENT_RIGHT - CONTENT_LEFT - GUTTER * (COLUMNS - 1)) // COLUMNS
HEADER_GAP = 32  # header to the first row
ROW_GAP = 28  # a row's values to the next row's labels
LABEL_GAP = 4  # a label to its value
FOOTER_GAP = 34  # last row to the footer, so the footer never reads as a row's label
LINE_GAP = 4  # between wrapped lines of one text

#: DejaVu Sans (its licence beside it, fonts/LICENSE), shipped with the package: Pillow's
#: built-in font has no ä, ö, ü, ß, ë, é or ø, so German and Dutch words and many players'
#: names came out spelled around them (README, Leaderboard and stats).
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"

#: ASCII, the Latin letters of the card's languages and of most names (Latin-1 and
#: Latin Extended-A: accented capitals reach highest), and the box drawn for a missing
#: glyph, so a line's reserved height covers whatever a player's name contains.
_REFERENCE = (
    "".join(c for c in string.printable if not c.isspace())
    + "·’"
    + "".join(chr(c) for c in range(0xC0, 0x180))
    + "\uffff"
)


@dataclass(frozen=True, slots=True)
class CardData:
    name: str
    headline: str  # e.g. "12 games · 5 wins · 42% win rate"
    #: (label, value) pairs shown in a grid, most interesting first.
    figures: list[tuple[str, str]]
    footer: str = ""


@dataclass(frozen=True, slots=True)
class Style:
    """How big a kind of text may be, and how far it may shrink before it wraps instead.

    The minimum keeps text readable when Discord scales the card down on a phone.
    """

    size: int
    min_size: int
    fill: RGB


NAME = Style(size=44, min_size=30, fill=WHITE)
HEADLINE = Style(size=26, min_size=20, fill=GOLD)
VALUE = Style(size=30, min_size=22, fill=WHITE)
LABEL = Style(size=20, min_size=16, fill=GREY)
FOOTER = Style(size=18, min_size=16, fill=GREY)
SIZE_STEP = 2


@dataclass(frozen=True, slots=True)
class TextItem:
    """One text as drawn: its lines, where each goes, and the ink box they cover."""

    role: str  # "name", "headline", "value", "label" or "footer"
    text: str  # the text asked for, before wrapping
    size: int
    fill: RGB
    lines: tuple[str, ...]
    #: What a wrap dropped after each line (a space, or "" inside a word; "" after the last),
    #: so `joined` proves no character was lost.
    breaks: tuple[str, ...]
    origins: tuple[tuple[int, int], ...]  # top-left ("la" anchor) of each line
    box: Box  # union of the lines' measured ink boxes

    @property
    def joined(self) -> str:
        return "".join(line + gap for line, gap in zip(self.lines, self.breaks, strict=True))


@dataclass(frozen=True, slots=True)
class CardLayout:
    width: int
    height: int
    panel: Box
    content: Box  # where text may go: the panel less its padding
    avatar: Box
    items: tuple[TextItem, ...]

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height


@lru_cache(maxsize=64)
def _font(size: int) -> Font:
    return ImageFont.truetype(FONT_FILE, size=size)


@lru_cache(maxsize=64)
def _band(size: int) -> tuple[int, int]:
    """Top and bottom of any glyph below a line's origin.

    Lines are stacked on this band, not on each line's own ink, so a line of lowercase and a
    line of capitals line up and a later glyph can never poke into the next text.
    """
    boxes = [_font(size).getbbox(c) for c in _REFERENCE]
    return int(min(b[1] for b in boxes)), int(max(b[3] for b in boxes))


@lru_cache(maxsize=4096)
def _width(text: str, size: int) -> int:
    """Ink width from the origin, counting a glyph that overhangs to the left.

    Cached because wrapping measures the same prefixes at every size it tries.
    """
    left, _, right, _ = _font(size).getbbox(text)
    return int(right - min(left, 0))


#: Where a text may break, best first: after ", " or " · " between parts of a value, then
#: at any space; a word still too wide (a name with no spaces) splits between characters.
_BREAKS = (re.compile(r"(?<=[,·]) "), re.compile(" "))


def _units(text: str, level: int) -> list[tuple[str, str]]:
    parts = _BREAKS[level].split(text)
    return [(p, " ") for p in parts[:-1]] + [(parts[-1], "")]


def _split_word(word: str, fits: Callable[[str], bool]) -> list[tuple[str, str]]:
    """Chop a word into the longest pieces that fit, found by bisection: a 32-letter name
    would otherwise be measured letter by letter at every size."""
    pieces: list[tuple[str, str]] = []
    while word:
        low, high = 1, len(word)  # a piece keeps at least one character, so this ends
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if fits(word[:mid]) else (low, mid - 1)
        pieces.append((word[:low], ""))
        word = word[low:]
    return pieces


def _wrap(text: str, fits: Callable[[str], bool], level: int = 0) -> list[tuple[str, str]]:
    """Greedy wrap into (line, dropped separator) pairs; a part too wide for a line on its
    own is wrapped at the next, finer kind of break. Nothing is ever left out."""
    if fits(text) or not text:
        return [(text, "")]
    if level >= len(_BREAKS):
        return _split_word(text, fits)
    lines: list[tuple[str, str]] = []
    current: str | None = None
    gap = ""
    for unit, sep in _units(text, level):
        if current is not None and fits(current + gap + unit):
            current, gap = current + gap + unit, sep
            continue
        if current is not None:
            lines.append((current, gap))
        *done, (current, _) = _wrap(unit, fits, level + 1)
        lines.extend(done)
        gap = sep
    assert current is not None
    lines.append((current, gap))
    return lines


def _fit(text: str, style: Style, width: int) -> tuple[int, list[tuple[str, str]]]:
    """The biggest size at which the text fits the width in as few lines as possible.

    One line at any size down to the minimum beats two lines, so a value only wraps when
    shrinking alone would make it unreadable; and a value that needs three lines even at the
    minimum gets them at the biggest size that still needs only three, so it stays as
    legible as its neighbours.
    """
    wraps: list[tuple[int, list[tuple[str, str]]]] = []
    for size in range(style.size, style.min_size - 1, -SIZE_STEP):

        def fits(s: str, size: int = size) -> bool:
            return _width(s, size) <= width

        lines = _wrap(text, fits)
        if len(lines) == 1:
            return size, lines
        wraps.append((size, lines))
    fewest = min(len(lines) for _, lines in wraps)
    return next((size, lines) for size, lines in wraps if len(lines) == fewest)


def _place(role: str, text: str, style: Style, left: int, top: int, width: int) -> TextItem:
    """Fit the text into `width` and stack its lines from `top` (where ink may start)."""
    size, wrapped = _fit(text, style, width)
    font = _font(size)
    band_top, band_bottom = _band(size)
    pitch = band_bottom - band_top + LINE_GAP
    origins: list[tuple[int, int]] = []
    boxes: list[Box] = []
    for i, (line, _) in enumerate(wrapped):
        x0, y0, x1, y1 = (int(v) for v in font.getbbox(line))
        origin = (left - min(x0, 0), top - band_top + i * pitch)
        origins.append(origin)
        if x1 > x0 and y1 > y0:  # a blank line has no ink
            boxes.append((origin[0] + x0, origin[1] + y0, origin[0] + x1, origin[1] + y1))
    # Report the reserved band rather than nothing for text without ink, so it still has a
    # place and a box.
    bottom = top + (len(wrapped) - 1) * pitch + band_bottom - band_top
    box = (
        (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        if boxes
        else (left, top, left, bottom)
    )
    return TextItem(
        role=role,
        text=text,
        size=size,
        fill=style.fill,
        lines=tuple(line for line, _ in wrapped),
        breaks=tuple(gap for _, gap in wrapped),
        origins=tuple(origins),
        box=box,
    )


def _reserved_bottom(item: TextItem) -> int:
    """Where the item's band ends, which is at or below its ink: the next text starts here."""
    return max(item.box[3], item.origins[-1][1] + _band(item.size)[1])


def layout_card(data: CardData) -> CardLayout:
    """Place every text of the card from its measured size; the card grows to fit."""
    items: list[TextItem] = []
    header_width = CONTENT_RIGHT - HEADER_LEFT
    name = _place("name", data.name, NAME, HEADER_LEFT, AVATAR[1] + 4, header_width)
    headline = _place(
        "headline",
        data.headline,
        HEADLINE,
        HEADER_LEFT,
        _reserved_bottom(name) + 12,
        header_width,
    )
    items += [name, headline]
    last = max(AVATAR[3], _reserved_bottom(headline))
    y = last + HEADER_GAP
    for start in range(0, len(data.figures), COLUMNS):
        row = data.figures[start : start + COLUMNS]
        lefts = [CONTENT_LEFT + col * (CELL_WIDTH + GUTTER) for col in range(len(row))]
        # Label above value, each value right under its own label: labels share a top, and a
        # value wrapped onto several lines only makes its row taller, never detaches a label.
        labels = [
            _place("label", label, LABEL, x, y, CELL_WIDTH)
            for x, (label, _) in zip(lefts, row, strict=True)
        ]
        values = [
            _place("value", value, VALUE, x, _reserved_bottom(label) + LABEL_GAP, CELL_WIDTH)
            for x, label, (_, value) in zip(lefts, labels, row, strict=True)
        ]
        items += [item for pair in zip(labels, values, strict=True) for item in pair]
        last = max(_reserved_bottom(value) for value in values)
        y = last + ROW_GAP
    if data.footer:
        footer = _place(
            "footer",
            data.footer,
            FOOTER,
            CONTENT_LEFT,
            last + FOOTER_GAP,
            CONTENT_RIGHT - CONTENT_LEFT,
        )
        items.append(footer)
        last = _reserved_bottom(footer)
    height = max(MIN_HEIGHT, last + PADDING + MARGIN)
    return CardLayout(
        width=WIDTH,
        height=height,
        panel=(MARGIN, MARGIN, WIDTH - MARGIN, height - MARGIN),
        content=(CONTENT_LEFT, CONTENT_LEFT, CONTENT_RIGHT, height - MARGIN - PADDING),
        avatar=AVATAR,
        items=tuple(items),
    )


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    """What the font draws for a character it has no glyph for (a box)."""
    return bytes(_font(VALUE.size).getmask("\uffff"))


@lru_cache(maxsize=1024)
def _drawable(char: str) -> bool:
    return char.isspace() or bytes(_font(VALUE.size).getmask(char)) != _missing_glyph()


def _plain(char: str) -> str:
    """The character; or, for one the font has no glyph for, its compatibility form
    without accents if the font can draw that (the mathematical letters names are often
    written in: 𝐁𝐨𝐛 is Bob); itself if there is none (an emoji stays a box rather than
    vanish)."""
    if _drawable(char):
        return char
    decomposed = unicodedata.normalize("NFKD", char)
    spelled = "".join(c for c in decomposed if not unicodedata.combining(c))
    return spelled if spelled and all(_drawable(c) for c in spelled) else char


def plain_text(text: str) -> str:
    return "".join(_plain(c) for c in text)


def for_the_font(data: CardData) -> CardData:
    """The card with every character the font lacks drawn as a plain one it has (𝐁𝐨𝐛 as
    Bob) instead of as a box.

    The font has the letters of every language of the bot (README, Languages) and of most
    names, so this leaves them alone: Glück stays Glück, Zoë stays Zoë. A separate step,
    not part of the layout, so `layout_card` still places exactly the texts it is given and
    the text version of the card keeps the letters as written.
    """
    return dataclasses.replace(
        data,
        name=plain_text(data.name),
        headline=plain_text(data.headline),
        figures=[(plain_text(label), plain_text(value)) for label, value in data.figures],
        footer=plain_text(data.footer),
    )


def render_card(data: CardData) -> bytes:
    """Draw the card and return PNG bytes, sized as `layout_card(data)` says (900 wide)."""
    layout = layout_card(data)
    image = Image.new("RGB", layout.size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(layout.panel, radius=RADIUS, fill=PANEL)
    # A die face as the avatar: no network fetch, and it reads as "dice game" at a glance.
    x0, y0, x1, y1 = layout.avatar
    draw.rounded_rectangle(layout.avatar, radius=18, fill=WHITE)
    for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        draw.ellipse((cx - 9, cy - 9, cx + 9, cy + 9), fill=BACKGROUND)
    for item in layout.items:
        font = _font(item.size)
        for origin, line in zip(item.origins, item.lines, strict=True):
            draw.text(origin, line, font=font, fill=item.fill, anchor="la")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
