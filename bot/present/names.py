"""One way to show a name a player chose (docs/web.md, Names), for the web pages and the
Discord replies alike: names come from outside and are hostile input.

A name is shown without the characters that reorder or hide text (right-to-left
overrides, isolates, controls), with at most `MARKS` combining marks on a letter (no
"zalgo" towers over the next line), cut to `MAX_LENGTH` characters, and set apart from
the text around it (a bidi isolate), so no name can turn "1,239" into "932.1" beside it.
In a chat message its Markdown and mention syntax are escaped, so it reads as the
letters typed, never bold text, a link or another player's mention.
"""

from __future__ import annotations

import re
import unicodedata

#: The longest name shown, in characters; longer ones end in "…".
MAX_LENGTH = 32
#: Combining marks kept on one character.
MARKS = 2
#: First strong isolate and pop directional isolate (Unicode's bidi algorithm).
FSI, PDI = "\u2068", "\u2069"
#: Characters a name loses: C0/C1 controls, bidi embeddings, overrides, isolates and
#: marks, the Arabic letter mark, zero-width and line separators.
HIDDEN = re.compile(
    "[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]"
)
#: What Discord's Markdown reads (bold, italics, code, strike, spoiler, quotes, headers,
#: lists, masked links) and the start of a mention, emoji or channel (``<``, ``@``).
MARKUP = re.compile(r"([\\*_`~|>#\[\]()<@:-])")


def plain_name(name: str) -> str:
    """A name as letters only: no hidden characters, marks capped, length capped."""
    text = HIDDEN.sub("", unicodedata.normalize("NFC", name))
    kept: list[str] = []
    marks = 0
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me"):
            marks += 1
            if marks > MARKS:
                continue
        else:
            marks = 0
        kept.append(char)
    text = " ".join("".join(kept).split())
    if len(text) > MAX_LENGTH:
        text = text[: MAX_LENGTH - 1].rstrip() + "…"
    return text or "?"


def chat_name(name: str) -> str:
    """A name for a chat message or an embed: `plain_name`, its Markdown and mention
    syntax escaped, isolated from the text around it."""
    return FSI + MARKUP.sub(r"\\\1", plain_name(name)) + PDI


#: A backslash escape as `chat_name` writes one, for a page that shows the text as
#: Discord would (the backslash itself not shown).
ESCAPED = re.compile(r"\\([\\*_`~|>#\[\]()<@:-])")


def unescape_chat(text: str) -> str:
    """Text with `chat_name`'s escapes as Discord renders it: the characters alone."""
    return ESCAPED.sub(r"\1", text)
