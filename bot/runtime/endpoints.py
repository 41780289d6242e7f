"""Point discord.py at another REST base or gateway (a proxy or a local Discord stand-in).

discord.py 2.7 keeps both addresses as class attributes: every REST call, interaction
responses included, builds its URL from `discord.http.Route.BASE`, and a non-sharded
client opens its websocket at `DiscordWebSocket.DEFAULT_GATEWAY`. They are process-wide,
so this is called once from `main()`, before the bot is built.
"""

from __future__ import annotations

import logging

import discord.http
import yarl
from discord.gateway import DiscordWebSocket

log = logging.getLogger(__name__)


def apply_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    if api_base is not None:
        discord.http.Route.BASE = api_base
        log.info("using Discord REST API at %s", api_base)
    if gateway_url is not None:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        log.info("using Discord gateway at %s", gateway_url)
