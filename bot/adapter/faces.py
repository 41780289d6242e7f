"""The die faces as the application's own emojis (README, How the table talks).

`python -m bot sync` uploads the six faces the application does not own yet (Discord lets
an application own emojis, usable in every server it is in), and each process, once
ready, looks them up and shows them; until then, or if the lookup fails, messages show
the Unicode die faces (bot/present/faces.py).
"""

from __future__ import annotations

import logging

import discord

from bot.present import faces
from bot.present.faces import EMOJI_NAMES, Faces, face_png

log = logging.getLogger(__name__)


async def _owned(client: discord.Client) -> dict[str, discord.Emoji]:
    return {emoji.name: emoji for emoji in await client.fetch_application_emojis()}


async def upload_faces(client: discord.Client) -> int:
    """Uploads the faces the application lacks and shows them from now on; returns how
    many were uploaded (0 once they all are, so `sync` may run again at no cost)."""
    owned = await _owned(client)
    uploaded = 0
    for face, name in enumerate(EMOJI_NAMES, start=1):
        if name not in owned:
            owned[name] = await client.create_application_emoji(name=name, image=face_png(face))
            uploaded += 1
    faces.use(Faces(tuple(str(owned[name]) for name in EMOJI_NAMES)))
    return uploaded


async def load_faces(client: discord.Client) -> bool:
    """Shows the application's die faces if all six are uploaded; else keeps the Unicode
    ones and says how to upload them, once."""
    try:
        owned = await _owned(client)
    except discord.HTTPException as exc:
        log.info("die faces: Unicode, the application's emojis could not be read (%s)", exc.status)
        return False
    if not all(name in owned for name in EMOJI_NAMES):
        log.info("die faces: Unicode; `python -m bot sync` uploads the bot's own")
        return False
    faces.use(Faces(tuple(str(owned[name]) for name in EMOJI_NAMES)))
    return True
