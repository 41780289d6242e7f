"""Dice on the web pages as SVG faces (README, Web companion): the same pictures as at the
table, drawn by the page itself, so they look alike in every browser and font."""

from __future__ import annotations

import re
from functools import cache

from bot.present.faces import PIPS, UNICODE

#: A Unicode die face in text already escaped for HTML.
FACE = re.compile("[" + "".join(UNICODE) + "]")


@cache
def die_svg(face: int) -> str:
    """One face: a rounded square with its pips on a 3×3 grid, named for screen readers."""
    pips = "".join(f'<circle cx="{6 + 6 * c}" cy="{6 + 6 * r}" r="2.2"/>' for c, r in PIPS[face])
    return (
        f'<svg class="die" viewBox="0 0 24 24" role="img" aria-label="{face}">'
        f'<rect x="1" y="1" width="22" height="22" rx="5"/>{pips}</svg>'
    )


def svg_faces(html: str) -> str:
    """HTML with each Unicode die face drawn as an SVG face."""
    return FACE.sub(lambda m: die_svg(UNICODE.index(m.group(0)) + 1), html)
