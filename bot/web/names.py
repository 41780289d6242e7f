"""Who is who on a server's pages: the display names players were last seen with.

The bot keeps no member list (it asks Discord for no privileged intent); each table
keeps the names of the people who moved at it (bot/game/tables.py, ``TableMeta.names``).
The pages read them from the server's last finished games, newest name first; someone
not among them is shown by the end of their id, and a computer by its persona's name.
"""

from __future__ import annotations

import hashlib
import html
import re
import time
from collections.abc import Iterable, Mapping

import orjson
from markupsafe import Markup, escape

from bot.ai.personas import display_name, persona_of_stats_id
from bot.present.faces import unicode_faces
from bot.present.i18n import Talk
from bot.present.names import chat_name, plain_name
from bot.web.dice import svg_faces

#: How many finished games' names a server's pages read, and for how long they keep them.
GAMES_READ = 200
KEEP_SECONDS = 60.0
#: A mention as the catalogs' lines hold one (bot/present/words.py, ``who``).
MENTION = re.compile(r"&lt;@(\d+)&gt;")
#: A character `chat_name` escaped, once the line is HTML (bot/present/names.py).
ESCAPED = re.compile(r"\\(&lt;|&gt;|[\\*_`~|#\[\]()@:-])")


def names_in(states: Iterable[str]) -> dict[str, str]:
    """Player id -> display name from stored states, the first (newest) one winning.
    Only the names are read of each state: it holds the last cups too."""
    found: dict[str, str] = {}
    for text in states:
        try:
            meta = orjson.loads(text).get("meta") or {}
        except orjson.JSONDecodeError:
            continue
        for player, name in (meta.get("names") or {}).items():
            if isinstance(name, str) and name:
                found.setdefault(str(player), name)
    return found


class Names:
    """One server's names, in one reader's language."""

    def __init__(self, known: Mapping[str, str], t: Talk, stamp: str = "") -> None:
        self.known = known
        self.t = t
        #: A digest of ``known``: what a replay built with these names is kept under.
        self.stamp = stamp

    def __call__(self, player: str | int | None) -> str:
        """A player's name as plain text."""
        if player is None:
            return self.t("nobody")
        key = str(player)
        if key in self.known:
            return self.known[key]
        if key.startswith("-") and key[1:].isdigit():  # a computer's stats id
            persona = persona_of_stats_id(int(key))
            return persona.display() if persona else self.t("a-computer")
        if key.isdigit():
            return self.t("web-player", tag=key[-4:])
        return display_name(key) or key

    def shown(self, player: str | int | None) -> str:
        """A player's name as the pages show it (bot/present/names.py)."""
        return plain_name(self(player))

    def tag(self, player: str | int | None) -> Markup:
        """A player's name as HTML, set apart from the text around it."""
        return Markup('<bdi class="name">{}</bdi>').format(self.shown(player))

    def chat(self, player: str | int | None) -> str:
        """A player's name as a catalog line takes it (escaped as in Discord)."""
        return chat_name(self(player))

    def html(self, text: str, link: str | None = None) -> Markup:
        """A catalog line as HTML: escaped, its mentions as names (linked to their
        profiles under ``link`` when given), and Discord's **bold** and `code` kept."""
        safe = str(escape(unicode_faces(text)))
        # A name's escaped characters become entities first: no rule below reads them,
        # so a name of "**x**" or "<@id>" shows as typed, never bold or someone else.
        safe = ESCAPED.sub(lambda m: f"&#{ord(html.unescape(m.group(1)))};", safe)
        safe = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", safe)
        safe = re.sub(r"`([^`]+)`", r"<code>\1</code>", safe)

        def named(match: re.Match[str]) -> str:
            name = self.tag(match.group(1))
            if link is None:
                return f"<b>{name}</b>"
            return f'<a href="{link}{match.group(1)}"><b>{name}</b></a>'

        return Markup(svg_faces(MENTION.sub(named, safe)))


class NameCache:
    """Each server's names and their digest, read again at most once a `KEEP_SECONDS`."""

    def __init__(self) -> None:
        self._held: dict[int, tuple[float, dict[str, str], str]] = {}

    def get(self, guild_id: int) -> tuple[dict[str, str], str] | None:
        held = self._held.get(guild_id)
        if held is None or time.monotonic() - held[0] > KEEP_SECONDS:
            return None
        return held[1], held[2]

    def put(self, guild_id: int, names: dict[str, str]) -> str:
        if len(self._held) > 10_000:
            self._held.clear()
        stamp = hashlib.blake2b(orjson.dumps(names, option=orjson.OPT_SORT_KEYS)).hexdigest()
        self._held[guild_id] = (time.monotonic(), names, stamp)
        return stamp
