"""A tiny local Discord stand-in (REST + gateway) for tests that run the real `python -m bot`.

simcord covers behaviour inside one process; this covers what only a real process shows:
exit codes, signals, stderr, and the DISCORD_API_BASE / DISCORD_GATEWAY_URL overrides.
It answers only the handful of calls start-up makes.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

# The same application and bot user as the benchmarks' bigger stand-in.
from benchmarks.standin import APP_ID, APPLICATION, BOT_USER


@dataclass
class FakeDiscord:
    accept_token: bool = True
    requests: list[tuple[str, str, str]] = field(default_factory=list)
    """(method, path, Authorization header) of every REST call."""
    synced: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Command payloads per sync path."""
    identify_tokens: list[str] = field(default_factory=list)
    gateway_closed: asyncio.Event = field(default_factory=asyncio.Event)
    _runner: web.AppRunner | None = None
    port: int = 0

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self.requests.append((request.method, path, request.headers.get("Authorization", "")))
        if not self.accept_token:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.method == "GET" and path == "/users/@me":
            return _json(BOT_USER)
        if request.method == "GET" and path == "/oauth2/applications/@me":
            return _json(APPLICATION)
        if request.method == "PUT" and path.endswith("/commands"):
            payload = await request.json()
            self.synced[path] = payload
            return _json(
                [
                    {**cmd, "id": str(1000 + i), "application_id": str(APP_ID), "version": "1"}
                    for i, cmd in enumerate(payload)
                ]
            )
        return _json({"message": "Unknown route", "code": 0}, status=404)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 2:  # IDENTIFY
                self.identify_tokens.append(data["d"]["token"])
                await ws.send_json({"op": 0, "t": "READY", "s": 1, "d": self._ready()})
            elif data["op"] == 1:  # HEARTBEAT
                await ws.send_json({"op": 11})
        self.gateway_closed.set()
        return ws

    def _ready(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": BOT_USER,
            "guilds": [],
            "session_id": "fake-session",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0},
        }


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses bodies whose content type is exactly "application/json",
    # as Discord sends it; aiohttp's json_response would add "; charset=utf-8".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )
