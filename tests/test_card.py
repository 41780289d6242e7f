"""The /stats card lays its text out from measured sizes: nothing overlaps, nothing leaves the
panel, nothing is cut, however long the name or big the numbers.

The checks run on `layout_card`'s boxes, so a failure names the texts involved; one test
proves the boxes hold all the ink `render_card` draws, which is what lets the box checks
stand for the picture. Another feeds the checks broken layouts, so each can really fail.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import io
import os
import tomllib
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageChops, ImageDraw

from bot.present.card import (
    BACKGROUND,
    FONT_FILE,
    PANEL,
    RADIUS,
    WIDTH,
    Box,
    CardData,
    CardLayout,
    TextItem,
    for_the_font,
    layout_card,
    render_card,
)
from bot.present.i18n import talk
from bot.storage import PlayerTotals
from cogs.stats import card_data

FOOTER = "luck: 21s rolled against the 2-in-36 you'd expect from your rolls"

#: 32 characters is Discord's longest display name; every figure is as wide as it gets.
LONG = CardData(
    name="Maximilian the Magnificent Gamer",
    headline="123,456 games · 98,765 wins · 80% win rate · 12,345 rounds lost",
    figures=[
        ("taken", "123,456 sips, 654,321 shots, 99,999 chugs"),
        ("caused", "234,567 sips, 345,678 shots, 88,888 chugs, 77,777 points, 66,666 lives"),
        ("lives lost", "999,999"),
        ("rounds lost", "123,456"),
        ("bluffs made / caught", "123,456 / 654,321"),
        ("calls made / right", "222,222 / 111,111"),
        ("21s rolled", "123,456 (6,858.7 expected)"),
        ("favourite claim", "Mexican 21 (123,456x)"),
        ("nemesis", "Bartholomew Fitzgerald Jr. III (99,999x)"),
        ("rolls", "987,654"),
        ("rounds won while drunk and bluffing", "100,000"),
        ("longest streak", "12,345 rounds"),
    ],
    footer=FOOTER,
)
#: What most players see: the figures that used to be cut ("7 sips, 6 live").
TYPICAL = CardData(
    name="alice",
    headline="12 games · 5 wins · 42% win rate",
    figures=[
        ("taken", "7 sips, 6 lives"),
        ("caused", "9 sips, 1 shot"),
        ("lives lost", "6"),
        ("rounds lost", "8"),
        ("bluffs made / caught", "4 / 2"),
        ("calls made / right", "5 / 3"),
        ("21s rolled", "1 (2.4 expected)"),
        ("favourite claim", "65 (7x)"),
        ("nemesis", "bob (3x)"),
        ("rolls", "43"),
    ],
    footer=FOOTER,
)
#: A name with no space to wrap at, in the widest letter, and unbroken long values.
WORST = CardData(
    name="W" * 32,
    headline="W" * 80,
    figures=[("M" * 30, "9" * 40), ("x", "W" * 25 + " " + "W" * 25)] * 6,
    footer="M" * 150,
)
#: The card the bot really builds, from six-digit counters.
REAL = card_data(
    "Maximilian the Magnificent Gamer",
    PlayerTotals(1, 2, *([123_456] * 19)),
    ("21", 99_999),
    (5, 88_888),
    "Bartholomew Fitzgerald Jr. III",
)

#: Letters beyond ASCII, capitals with marks above (the tallest ink) and stacked marks.
ACCENTS = CardData(
    name="ÅÉØ Ǻngström Zoë̈̈̈",
    headline="Spiele · Glück · Straße · Søren · Chloé",
    figures=[("Wertung", "Ö̈̈ Ü̧̧ 123"), ("Mäxchen gewürfelt", "É Ǻ Ṩ ẞ")] * 2,
    footer="Glück: Mäxchen gewürfelt gegen die erwarteten 2 von 36",
)
CARDS = {"long": LONG, "typical": TYPICAL, "worst": WORST, "real": REAL, "accents": ACCENTS}
LONG_CARDS = ("long", "worst", "real")


def inputs(data: CardData) -> list[tuple[str, str]]:
    """Every text the card must show, with its role, in the order the layout places them."""
    texts = [("name", data.name), ("headline", data.headline)]
    for label, value in data.figures:
        texts += [("label", label), ("value", value)]
    return texts + ([("footer", data.footer)] if data.footer else [])


def inside(inner: Box, outer: Box) -> bool:
    return (
        outer[0] <= inner[0] <= inner[2] <= outer[2]
        and outer[1] <= inner[1] <= inner[3] <= outer[3]
    )


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def outside_problems(layout: CardLayout) -> list[str]:
    problems = []
    if not inside(layout.panel, (0, 0, layout.width, layout.height)):
        problems.append(f"panel {layout.panel} leaves the image {layout.size}")
    if not inside(layout.content, layout.panel):
        problems.append(f"content {layout.content} leaves the panel {layout.panel}")
    for item in layout.items:
        if not inside(item.box, layout.content):
            problems.append(f"{item.role} {item.text!r} at {item.box} leaves {layout.content}")
    return problems


def overlap_problems(layout: CardLayout) -> list[str]:
    boxes = [("avatar", layout.avatar)] + [(f"{i.role} {i.text!r}", i.box) for i in layout.items]
    return [
        f"{a} {ab} overlaps {b} {bb}"
        for (a, ab), (b, bb) in combinations(boxes, 2)
        if overlap(ab, bb)
    ]


def cut_problems(layout: CardLayout, data: CardData) -> list[str]:
    placed = [(item.role, item.text) for item in layout.items]
    problems = [] if placed == inputs(data) else [f"placed {placed}, asked {inputs(data)}"]
    for item in layout.items:
        if item.joined != item.text:
            problems.append(f"{item.role} drawn as {item.lines}, asked {item.text!r}")
        if any(gap not in ("", " ") for gap in item.breaks) or item.breaks[-1] != "":
            problems.append(f"{item.role} {item.text!r} dropped {item.breaks} at its wraps")
    return problems


@pytest.mark.parametrize("card", LONG_CARDS)
def test_long_card_keeps_every_text_inside_the_panel(card: str) -> None:
    data = CARDS[card]
    assert len(data.name) == 32 and len(data.figures) >= 10
    assert outside_problems(layout_card(data)) == []


@pytest.mark.parametrize("card", LONG_CARDS)
def test_long_card_has_no_overlapping_texts(card: str) -> None:
    assert overlap_problems(layout_card(CARDS[card])) == []


def test_typical_card_keeps_every_text_inside_the_panel_without_overlaps() -> None:
    layout = layout_card(TYPICAL)
    assert outside_problems(layout) == []
    assert overlap_problems(layout) == []


def test_footer_sits_below_the_last_row_with_a_gap() -> None:
    for data in CARDS.values():
        items = layout_card(data).items
        footer, rows = items[-1], items[2:-1]
        assert footer.role == "footer"
        assert footer.box[1] >= max(item.box[3] for item in rows) + 16


@pytest.mark.parametrize("card", list(CARDS))
def test_png_decodes_with_the_size_of_its_layout(card: str) -> None:
    data = CARDS[card]
    layout = layout_card(data)
    png = render_card(data)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == layout.size
    assert layout.width == WIDTH == 900
    image.load()  # decodes every row, not just the header


def test_card_grows_to_fit_its_figures() -> None:
    typical, long = layout_card(TYPICAL), layout_card(LONG)
    assert typical.height > 360  # the old fixed height drew the footer over the last row
    assert long.height > typical.height


@pytest.mark.parametrize("card", list(CARDS))
def test_no_text_is_cut(card: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What `render_card` hands to Pillow, line by line, joins back to the input texts."""
    data = CARDS[card]
    layout = layout_card(data)
    assert cut_problems(layout, data) == []
    drawn: list[tuple[tuple[float, float], str, int]] = []
    real_text = ImageDraw.ImageDraw.text

    def record(
        self: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *args: Any, **kwargs: Any
    ) -> None:
        drawn.append((tuple(xy), text, kwargs["font"].size))
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    render_card(data)
    planned = [
        (origin, line, item.size)
        for item in layout.items
        for origin, line in zip(item.origins, item.lines, strict=True)
    ]
    assert drawn == planned
    assert "".join(text for _, text, _ in drawn) == "".join(
        line for item in layout.items for line in item.lines
    )


@pytest.mark.parametrize("card", list(CARDS))
def test_all_ink_lies_inside_the_layout_boxes(card: str) -> None:
    """Cover every text box and the avatar with panel colour: what is left is a bare panel.

    So the boxes the other tests check are where the ink really is.
    """
    data = CARDS[card]
    layout = layout_card(data)
    image = Image.open(io.BytesIO(render_card(data))).convert("RGB")
    cover = ImageDraw.Draw(image)
    for box in [layout.avatar, *(item.box for item in layout.items)]:
        cover.rectangle((box[0], box[1], box[2], box[3]), fill=PANEL)
    bare = Image.new("RGB", layout.size, BACKGROUND)
    ImageDraw.Draw(bare).rounded_rectangle(layout.panel, radius=RADIUS, fill=PANEL)
    assert ImageChops.difference(image, bare).getbbox() is None


def test_values_shrink_then_wrap_between_parts() -> None:
    items = {(i.role, i.text): i for i in layout_card(LONG).items}
    taken = items["value", "123,456 sips, 654,321 shots, 99,999 chugs"]
    assert taken.lines == ("123,456 sips,", "654,321 shots,", "99,999 chugs")
    short = items["value", "999,999"]
    assert short.lines == ("999,999",) and taken.size == short.size  # wrapped, not shrunk
    name = next(i for i in layout_card(WORST).items if i.role == "name")
    assert len(name.lines) == 2 and name.size >= 30  # no space: wrapped between letters


def swap(layout: CardLayout, old: TextItem, new: TextItem) -> CardLayout:
    return dataclasses.replace(layout, items=tuple(new if i is old else i for i in layout.items))


def test_the_checks_catch_broken_layouts() -> None:
    """Each check above fails on a layout broken the way the old fixed-size card was."""
    layout = layout_card(TYPICAL)
    last_value, footer = layout.items[-2:]
    taken = next(item for item in layout.items if item.text == "7 sips, 6 lives")
    on_last_row = dataclasses.replace(footer, box=last_value.box)
    assert overlap_problems(swap(layout, footer, on_last_row))
    below_card = dataclasses.replace(footer, box=(40, layout.height - 30, 600, layout.height + 5))
    assert outside_problems(swap(layout, footer, below_card))
    fixed = dataclasses.replace(
        layout, height=360, panel=(16, 16, 884, 344), content=(40, 40, 860, 320)
    )
    assert outside_problems(fixed)
    sliced = dataclasses.replace(taken, lines=("7 sips, 6 live",), breaks=("",))
    assert cut_problems(swap(layout, taken, sliced), TYPICAL)
    assert cut_problems(dataclasses.replace(layout, items=layout.items[:-1]), TYPICAL)
    odd_gap = dataclasses.replace(taken, lines=("7 sips", "6 lives"), breaks=(", ", ""))
    assert cut_problems(swap(layout, taken, odd_gap), TYPICAL)


#: Players' names with the letters the old built-in font spelled around (ä as ae...).
NAME, NEMESIS = "Jürgen Größe-Søren", "Zoë Chloé Hämäläinen"


@pytest.mark.parametrize("language", ["de", "nl"])
def test_the_card_draws_every_letter_as_written(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card as /stats draws it (`render_card(for_the_font(...))`) in German and Dutch,
    with names holding ä ö ü ß ë é ø: Pillow is handed the shipped font and exactly the
    letters of the card's texts, none replaced, and the font has a glyph for each."""
    data = card_data(NAME, PlayerTotals(*range(21)), ("21", 3), (5, 2), NEMESIS, talk(language))
    drawn: list[str] = []
    real_text = ImageDraw.ImageDraw.text

    def record(
        self: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *args: Any, **kwargs: Any
    ) -> None:
        assert os.fspath(kwargs["font"].path) == os.fspath(FONT_FILE)
        drawn.append(text)
        real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    png = render_card(for_the_font(data))
    assert Image.open(io.BytesIO(png)).size[0] == WIDTH
    written = "".join(text for _, text in inputs(data))
    letters = Counter(c for c in "".join(drawn) if not c.isspace())
    assert letters == Counter(c for c in written if not c.isspace())
    assert set("äöüßëéø") <= set(letters)
    assert NAME in drawn  # the name fits on one line, as written
    cmap = TTFont(FONT_FILE).getBestCmap()
    assert [c for c in letters if ord(c) not in cmap] == []
    if language == "de":  # the catalog's own words too: no more "Maexchen gewuerfelt"
        assert "⚁⚀ Mäxchen gewürfelt" in drawn  # with the dice, which the font draws
        assert "⚁⚀ Mäxchen (3x)" in drawn  # the favourite claim too


def test_the_font_and_its_licence_are_installed_with_the_package() -> None:
    """A fresh install draws the card in the shipped font, and carries its licence."""
    root = FONT_FILE.parents[3]
    with open(root / "pyproject.toml", "rb") as f:
        patterns = tomllib.load(f)["tool"]["setuptools"]["package-data"]["bot.present"]
    present = FONT_FILE.parents[1]
    shipped = sorted(p.relative_to(present).as_posix() for p in (present / "fonts").iterdir())
    assert shipped == ["fonts/DejaVuSans.ttf", "fonts/LICENSE"]
    for path in shipped:
        assert any(fnmatch.fnmatch(path, pattern) for pattern in patterns), path
    assert "Bitstream Vera" in (present / "fonts" / "LICENSE").read_text(encoding="utf-8")
