"""The reader's language from the browser's Accept-Language header (README, Web
companion): the best of the bot's catalogs, English when none fits. Babel, which the
catalogs' number formatting brings already, matches the tags; the header's q-values are
read here, since Babel takes the wishes already ordered."""

from __future__ import annotations

from babel import Locale

from bot.present.i18n import DEFAULT, languages

#: A header longer than this is cut: nobody's browser sends that many languages.
MAX_HEADER = 500


def wishes(header: str | None) -> list[str]:
    """The header's language tags, most wanted first ('*' and q=0 dropped)."""
    ranked: list[tuple[float, int, str]] = []
    for n, part in enumerate((header or "")[:MAX_HEADER].split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        tag = tag.strip()
        if tag and tag != "*" and quality > 0:
            ranked.append((-quality, n, tag))
    return [tag for _, _, tag in sorted(ranked)]


def language_for(header: str | None) -> str:
    """One of the bot's languages for this reader."""
    found = Locale.negotiate(wishes(header), list(languages()), sep="-")
    return found.language if found is not None else DEFAULT
