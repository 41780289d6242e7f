"""Addresses of the web companion's pages (README, Web companion), written once: `/web`
prints a server's, the final standing and `/history` link a game's replay."""

from __future__ import annotations


def server_link(base_url: str, token: str) -> str:
    """A server's pages: what /web prints."""
    return f"{base_url.rstrip('/')}/s/{token}/"


def replay_link(base_url: str, token: str, game_id: int) -> str:
    """One finished game, move by move."""
    return f"{server_link(base_url, token)}g/{game_id}"
