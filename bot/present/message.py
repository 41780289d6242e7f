"""A complete message as plain data: what the presenter builds and the cog sends.

No discord.py here, so every message the bot can send is built and checked (lengths,
pings, hidden dice) in plain tests and approval transcripts; ``bot/adapter/send.py`` turns a
``Reply`` into discord.py objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Style = Literal["primary", "secondary", "success", "danger"]

#: Discord's limits that a message must respect, or the whole answer fails.
CONTENT_LIMIT = 2000
EMBED_DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
LABEL_LIMIT = 80
OPTION_LIMIT = 100
MENU_OPTIONS = 25


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    custom_id: str
    style: Style = "secondary"
    #: Buttons with the same row number sit together; TAP gets a row of its own.
    row: int = 0


@dataclass(frozen=True, slots=True)
class Menu:
    custom_id: str
    placeholder: str
    #: (label, value) pairs; a value is an encoded move or a player id.
    options: tuple[tuple[str, str], ...]


Component = Button | Menu


@dataclass(frozen=True, slots=True)
class Embed:
    title: str = ""
    description: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    footer: str = ""
    #: An attached image shown in the embed (the /stats card), by file name.
    image: str | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    content: str = ""
    embed: Embed | None = None
    components: tuple[Component, ...] = ()
    #: Player ids this message may ping; everyone else it names is shown, not pinged.
    ping: tuple[str, ...] = ()
    #: Only the person who clicked sees it (an ephemeral answer).
    private: bool = False

    def text(self) -> str:
        """Everything a person reads in it, in reading order (for lengths and tests)."""
        parts = [self.content]
        if self.embed is not None:
            e = self.embed
            parts += [e.title, e.description]
            parts += [f"{name}: {value}" for name, value in e.fields]
            parts.append(e.footer)
        return "\n".join(p for p in parts if p)


def clip(text: str, limit: int) -> str:
    """Cut text to a Discord limit, marking the cut, so an answer never fails on length."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
