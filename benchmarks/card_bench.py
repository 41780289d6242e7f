"""How long the /stats image takes to draw, in each language (README, Benchmarks).

Builds the card as the Stats cog does (`card_data`, then `render_card(for_the_font(...))`,
which the cog runs on a worker thread) for a player with every figure filled and names
with letters beyond ASCII, and prints the median and 95th percentile per language. Each
card has a new name, so the layout's caches of measured widths start cold for the name as
they do for a player's first card; the catalog words are measured once per process, as in
the bot.

    .venv/bin/python -m benchmarks.card_bench [--cards N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.present.card import for_the_font, render_card
from bot.present.i18n import talk
from bot.storage import PlayerTotals
from cogs.stats import card_data

LANGUAGES = ("en", "nl", "de")
#: Every counter non-zero and six digits wide: the longest values, the most wrapping.
TOTALS = PlayerTotals(12, 5, *([123_456] * 19))


def draw(language: str, n: int) -> float:
    """One card's drawing time in milliseconds."""
    data = card_data(
        f"Jürgen Größe-Søren {n}",
        TOTALS,
        ("21", 99),
        (5, 42),
        f"Zoë Chloé Hämäläinen {n}",
        talk(language),
    )
    start = time.perf_counter()
    render_card(for_the_font(data))
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=50, help="cards per language")
    args = parser.parse_args()
    for language in LANGUAGES:
        draw(language, -1)  # the catalog's words, measured once per process as in the bot
        times = sorted(draw(language, n) for n in range(args.cards))
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(
            f"{language}: {args.cards} cards, median {statistics.median(times):.1f} ms, "
            f"p95 {p95:.1f} ms"
        )


if __name__ == "__main__":
    main()
