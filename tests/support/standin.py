"""A local Discord stand-in (REST under ``/api/v10`` and a gateway websocket) for the real
discord.py client: enough of Discord to run ``python -m bot`` as a process under load.

It answers login (``GET /users/@me``, ``GET /oauth2/applications/@me``, ``GET /gateway/bot``),
the gateway handshake (HELLO, IDENTIFY -> READY, then one GUILD_CREATE per guild with its
text channels and members, heartbeats), command sync (``PUT .../commands``), and the REST
calls a bot makes while answering interactions: the interaction callback, webhook
follow-ups (``/webhooks/{app}/{token}...``, ``@original`` included) and channel messages
(create, edit, delete, fetch, history). Replies are Discord-shaped JSON, so discord.py
parses them as it parses Discord's.

``dispatch()`` sends an INTERACTION_CREATE (slash command, type 2, or component click,
type 3) and returns an :class:`Interaction` record: the time it was dispatched, the time
the callback arrived, the callback's type and flags, and every REST call attributed to it
(callback and webhook calls by token; channel calls by the channel's latest interaction).

Like Discord, it can refuse a token: with ``token`` set, every REST call except the
interaction callback and webhook calls (those carry their own token in the URL) must come
with ``Authorization: Bot <token>``, or it is answered 401 (and counted in
``unauthorized``). It keeps what a test checks about start-up: the first REST calls with
their Authorization header (``requests``), the calls per route (``rest_counts``, refused
ones not included), the command payloads per sync path (``synced``), the token of every
IDENTIFY (``identify_tokens``) and the gateway connections (``connections``).

Like Discord it shards: with ``shard_count`` above 1, ``GET /gateway/bot`` says so, each
IDENTIFY must carry ``shard: [id, shard_count]`` (otherwise the connection is closed with
4011, sharding required, or 4010, invalid shard), and a guild's GUILD_CREATE and
interactions go only to the connection of its shard, ``(guild_id >> 22) % shard_count``.
Consecutive guilds get consecutive shards (their ids are ``1 << 22`` apart), so
``channels_per_guild=1`` spreads the channels over every shard. ``connected`` and ``ready``
hold while every shard is connected; ``links[i]`` has each shard's own.

Everything listens on 127.0.0.1 only. Used by ``tests/test_main.py``,
``tests/test_crash_kill9.py``, ``tests/test_shards.py`` and ``benchmarks.wire_bench``
(README, sections Tests and Benchmarks).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = 424242424242424242
BOT_USER: dict[str, Any] = {
    "id": str(APP_ID),
    "username": "mexican-bot",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
    "flags": 0,
}
#: What GET /oauth2/applications/@me answers: the bot's application.
APPLICATION: dict[str, Any] = {
    "id": str(APP_ID),
    "name": "mexican-bot",
    "description": "",
    "icon": None,
    "bot_public": False,
    "bot_require_code_grant": False,
    "owner": BOT_USER,
    "verify_key": "0" * 64,
    "flags": 0,
}
EPHEMERAL = 64
#: VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY: an ordinary member, no Manage Messages.
MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 16))
#: What the bot may do in a channel (everything a text bot needs).
BOT_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 16))
TIMESTAMP = "2025-01-01T00:00:00.000000+00:00"
#: Channels per guild (Discord's own cap is 500).
CHANNELS_PER_GUILD = 500
#: Messages kept per channel for history and clicks; older ones are forgotten.
KEEP_MESSAGES = 10
#: REST calls kept in ``StandIn.requests`` (the first ones: start-up); later ones are not.
KEEP_REQUESTS = 1000

_snowflakes = itertools.count(1_300_000_000_000_000_000)


def snowflake() -> int:
    return next(_snowflakes)


def user_obj(user_id: int) -> dict[str, Any]:
    short = user_id % 1_000_000
    return {
        "id": str(user_id),
        "username": f"player{short}",
        "discriminator": "0",
        "global_name": f"Player {short}",
        "avatar": None,
    }


def as_dm(inter: Interaction, user_id: int) -> Interaction:
    """The same slash command sent from a direct message with the bot: no guild, no
    member, a DM channel (Discord's context 1)."""
    payload = inter.payload
    for key in ("guild_id", "member", "guild_locale"):
        payload.pop(key, None)
    payload["data"].pop("guild_id", None)
    payload["user"] = user_obj(user_id)
    payload["channel"] = {"id": payload["channel_id"], "type": 1}
    payload["context"] = 1
    return inter


def member_obj(user_id: int) -> dict[str, Any]:
    return {
        "user": user_obj(user_id),
        "nick": None,
        "avatar": None,
        "roles": [],
        "joined_at": TIMESTAMP,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses bodies whose content type is exactly "application/json".
    return web.Response(
        body=json.dumps(data, separators=(",", ":")).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def _not_found(what: str = "Unknown Message", code: int = 10008) -> web.Response:
    return _json({"message": what, "code": code}, status=404)


@dataclass(slots=True)
class RestCall:
    method: str
    route: str  # the route template, e.g. "PATCH /channels/{cid}/messages/{mid}"
    at: float


@dataclass(slots=True)
class Interaction:
    """One dispatched interaction and what the bot did about it."""

    id: int
    token: str
    kind: str  # e.g. "slash:roll", "button:roll", "select:claim"
    channel_id: int
    user_id: int
    payload: dict[str, Any]
    dispatched: float = 0.0
    answered: float | None = None
    #: The callback's type (4 message, 5 deferred message, 6 deferred update, 7 update).
    response_type: int | None = None
    response_flags: int = 0
    #: The callback's body as sent, in bytes (the bench sizes the bare bot's answer by it).
    callback_bytes: int = 0
    #: The message the callback created or updated (Discord-shaped), if any.
    message: dict[str, Any] | None = None
    rest: list[RestCall] = field(default_factory=list)
    done: asyncio.Future[Interaction] | None = None
    #: A deferred answer ("thinking", 5) whose message no follow-up has filled yet:
    #: Discord shows the first follow-up in it, with the deferral's visibility.
    loading: bool = False

    @property
    def latency(self) -> float | None:
        return None if self.answered is None else self.answered - self.dispatched

    @property
    def ephemeral(self) -> bool:
        return bool(self.response_flags & EPHEMERAL)

    @property
    def last_rest(self) -> float | None:
        return self.rest[-1].at if self.rest else None


@dataclass(slots=True)
class Guild:
    id: int
    channels: list[int]
    members: list[int]


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's routing rule (the bot's own copy is ``bot.game.shards``; the stand-in keeps
    its own so a mistake in the bot's cannot hide behind the same mistake here)."""
    return (guild_id >> 22) % shard_count


@dataclass(slots=True)
class Link:
    """One shard's gateway connection: its socket, sequence number and readiness."""

    shard_id: int
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # its GUILD_CREATEs sent


MessageHook = Callable[[int, dict[str, Any], str, "Interaction | None"], None]
"""``hook(channel_id, message, how, interaction)``; how: "callback", "create", "edit"."""


class StandIn:
    """The stand-in server. ``channels`` text channels spread over guilds of at most
    ``CHANNELS_PER_GUILD``, ``members`` members per guild (user ids shared by all guilds).
    ``token``: the only bot token accepted (None: any); may be changed before a login.
    ``invited=False``: the bot is in no server at all (READY lists none)."""

    def __init__(
        self,
        *,
        channels: int = 10,
        members: int = 20,
        first_guild_id: int = 0,
        token: str | None = None,
        shard_count: int = 1,
        channels_per_guild: int = CHANNELS_PER_GUILD,
        invited: bool = True,
    ) -> None:
        self.port = 0
        self.token = token
        self.shard_count = shard_count
        self._runner: web.AppRunner | None = None
        base = first_guild_id or 900_000_000_000_000_000
        self.members = [800_000_000_000_000_000 + i for i in range(1, members + 1)]
        self.guilds: list[Guild] = []
        self.channel_guild: dict[int, int] = {}
        for start in range(0, channels, channels_per_guild):
            gid = base + (len(self.guilds) << 22)  # the next guild is on the next shard
            chans = [
                700_000_000_000_000_000 + i + 1
                for i in range(start, min(start + channels_per_guild, channels))
            ]
            self.guilds.append(Guild(gid, chans, self.members))
            for cid in chans:
                self.channel_guild[cid] = gid
        if not self.guilds and invited:
            self.guilds.append(Guild(base, [], self.members))
        elif not invited:
            assert not channels, "a bot in no server sees no channel"
        self.channels = [c for g in self.guilds for c in g.channels]

        # REST bookkeeping
        #: (method, path below /api/v10, Authorization header) of the first KEEP_REQUESTS calls.
        self.requests: list[tuple[str, str, str]] = []
        self.unauthorized = 0  # calls answered 401 (wrong or missing bot token)
        self.rest_counts: dict[str, int] = {}
        self.unknown_routes: dict[str, int] = {}
        self.synced: dict[str, list[dict[str, Any]]] = {}
        self.first_request_at: float | None = None
        self.identified_at: float | None = None
        self.guilds_sent_at: float | None = None
        # messages
        self.messages: dict[int, dict[str, Any]] = {}
        self._channel_messages: dict[int, deque[int]] = {}
        self.on_message: MessageHook | None = None
        #: Told of every message an interaction's webhook created or edited (its
        #: follow-ups), with that interaction for sure: ``on_message`` attributes a
        #: channel's posts and edits to its latest interaction, a guess.
        self.on_followup: MessageHook | None = None
        #: Seconds every message edit takes (a slow Discord, for race tests).
        self.edit_delay = 0.0
        #: Fail the next interaction answers: "404" (as after a missed 3 s deadline) or
        #: "drop" (the connection closes without an answer), one per entry.
        self.fail_answers: list[str] = []
        # interactions
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self._channel_latest: dict[int, Interaction] = {}
        self.keep_interactions = True
        self.unattributed_rest = 0
        # gateway
        self.links = [Link(i) for i in range(shard_count)]
        self.connected = asyncio.Event()  # every shard identified
        self.ready = asyncio.Event()  # every shard's GUILD_CREATEs sent
        self.connections = 0
        self.identify_tokens: list[str] = []  # the token of every IDENTIFY, in order
        #: The intents each IDENTIFY asked for.
        self.identify_intents: list[int | None] = []
        self.command_ids: dict[str, int] = {}
        #: The application's own emojis (the die faces `sync` uploads).
        self.emojis: list[dict[str, Any]] = []
        self._routes = [(re.compile(p), n, getattr(self, h)) for p, n, h in ROUTES]

    # --------------------------------------------------------------- lifecycle

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def dev_guild_id(self) -> int:
        return self.guilds[0].id

    async def start(self) -> None:
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port, backlog=1024)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        for link in self.links:
            if link.ws is not None:
                with contextlib.suppress(Exception):
                    await link.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def reset_connection(self, shard_id: int | None = None) -> None:
        """Forget the gateway session of every shard, or of ``shard_id`` only (the bot
        process that ran it died); messages stay."""
        for link in self.links:
            if shard_id is None or link.shard_id == shard_id:
                link.ws = None
                link.connected.clear()
                link.ready.clear()
        self._update_links()
        self.identified_at = None
        self.guilds_sent_at = None
        self.first_request_at = None

    def shard_guilds(self, shard_id: int) -> list[Guild]:
        """The guilds whose events go to shard ``shard_id``."""
        return [g for g in self.guilds if shard_of(g.id, self.shard_count) == shard_id]

    def shard_of_channel(self, channel_id: int) -> int:
        return shard_of(self.channel_guild[channel_id], self.shard_count)

    def _update_links(self) -> None:
        for name in ("connected", "ready"):
            event: asyncio.Event = getattr(self, name)
            if all(getattr(link, name).is_set() for link in self.links):
                event.set()
            else:
                event.clear()

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False)
        await ws.prepare(request)
        self.connections += 1
        link: Link | None = None
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 2:  # IDENTIFY
                    identify = data.get("d") or {}
                    self.identified_at = time.perf_counter()
                    self.identify_tokens.append(str(identify.get("token")))
                    self.identify_intents.append(identify.get("intents"))
                    link = await self._identify(ws, identify.get("shard"))
                    if link is None:
                        break
                elif op == 1:  # HEARTBEAT
                    await ws.send_json({"op": 11})
                elif op == 6:  # RESUME: no sessions here, start over
                    await ws.send_json({"op": 9, "d": False})
        finally:
            if link is not None and link.ws is ws:
                link.ws = None
                link.connected.clear()
                link.ready.clear()
                self._update_links()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, shard: Any) -> Link | None:
        """READY and the shard's GUILD_CREATEs; None (and the socket closed with Discord's
        code) for a shard this stand-in does not have."""
        if shard is None and self.shard_count > 1:
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        shard_id, count = shard if shard is not None else (0, 1)
        if count != self.shard_count or not 0 <= shard_id < count:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        link = self.links[shard_id]
        link.ws, link.seq = ws, 0
        await self._send_dispatch(link, "READY", self._ready_payload(link, shard))
        link.connected.set()
        self._update_links()
        for guild in self.shard_guilds(shard_id):
            await self._send_dispatch(link, "GUILD_CREATE", self._guild_payload(guild))
        self.guilds_sent_at = time.perf_counter()
        link.ready.set()
        self._update_links()
        return link

    async def _send_dispatch(self, link: Link, event: str, data: Any) -> None:
        assert link.ws is not None
        link.seq += 1
        await link.ws.send_str(json.dumps({"op": 0, "t": event, "s": link.seq, "d": data}))

    def _ready_payload(self, link: Link, shard: Any) -> dict[str, Any]:
        guilds = self.shard_guilds(link.shard_id)
        ready: dict[str, Any] = {
            "v": 10,
            "user": BOT_USER,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": f"standin-{self.connections}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard is not None:  # as Discord: echoed to a client that identified with one
            ready["shard"] = [link.shard_id, self.shard_count]
        return ready

    def _guild_payload(self, guild: Guild) -> dict[str, Any]:
        everyone = {
            "id": str(guild.id),
            "name": "@everyone",
            "permissions": BOT_PERMISSIONS,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(guild.id),
            "name": f"bench-{guild.id % 1000}",
            "icon": None,
            "owner_id": str(guild.members[0] if guild.members else APP_ID),
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(guild.members) + 1,
            "large": len(guild.members) > 250,
            "unavailable": False,
            "joined_at": TIMESTAMP,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "afk_timeout": 300,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "channels": [
                {
                    "id": str(cid),
                    "type": 0,
                    "guild_id": str(guild.id),
                    "name": f"table-{i}",
                    "position": i,
                    "permission_overwrites": [],
                    "nsfw": False,
                    "parent_id": None,
                    "topic": None,
                    "rate_limit_per_user": 0,
                }
                for i, cid in enumerate(guild.channels)
            ],
            "threads": [],
            # Only the bot itself: without the members intent Discord sends few members,
            # and interactions carry their member anyway.
            "members": [{**member_obj(APP_ID), "user": BOT_USER}],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------- interactions

    def _channel_obj(self, channel_id: int) -> dict[str, Any]:
        gid = self.channel_guild[channel_id]
        return {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(gid),
            "name": "table",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
        }

    def _base_interaction(self, itype: int, channel_id: int, user_id: int) -> Interaction:
        iid = snowflake()
        token = f"tok{iid}"
        gid = self.channel_guild[channel_id]
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": itype,
            "token": token,
            "version": 1,
            "guild_id": str(gid),
            "channel_id": str(channel_id),
            "channel": self._channel_obj(channel_id),
            "member": {**member_obj(user_id), "permissions": MEMBER_PERMISSIONS},
            "app_permissions": BOT_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(gid)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return Interaction(iid, token, "", channel_id, user_id, payload)

    def slash(
        self, channel_id: int, user_id: int, name: str, options: dict[str, Any] | None = None
    ) -> Interaction:
        """A slash command (type 2); option types are guessed from the Python values."""
        inter = self._base_interaction(2, channel_id, user_id)
        opts = []
        resolved: dict[str, Any] = {}
        for key, value in (options or {}).items():
            if key == "player":  # a member option (type 6) comes with its resolved member
                uid = int(value)
                opts.append({"name": key, "type": 6, "value": str(uid)})
                resolved.setdefault("users", {})[str(uid)] = user_obj(uid)
                member = {k: v for k, v in member_obj(uid).items() if k != "user"}
                resolved.setdefault("members", {})[str(uid)] = {
                    **member,
                    "permissions": MEMBER_PERMISSIONS,
                }
                continue
            kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
            opts.append({"name": key, "type": kind, "value": value})
        inter.payload["data"] = {
            "id": str(self.command_ids.get(name, 1)),
            "name": name,
            "type": 1,
            "options": opts,
            "guild_id": str(self.channel_guild[channel_id]),
        }
        if resolved:
            inter.payload["data"]["resolved"] = resolved
        inter.kind = f"slash:{name}"
        return inter

    def click(
        self, message: dict[str, Any], user_id: int, custom_id: str, values: list[str] | None = None
    ) -> Interaction:
        """A component click (type 3) on ``message``: a button, or a select with ``values``."""
        channel_id = int(message["channel_id"])
        inter = self._base_interaction(3, channel_id, user_id)
        inter.payload["message"] = message
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": values}
        inter.payload["data"] = data
        parsed = parse_custom_id(custom_id)
        move = parsed.move if parsed is not None else custom_id
        inter.kind = f"{'select' if values is not None else 'button'}:{move}"
        return inter

    def clone(self, payload: dict[str, Any], kind: str) -> Interaction:
        """The same interaction again, with a fresh id and token (replaying a recorded load)."""
        iid = snowflake()
        data = {**payload, "id": str(iid), "token": f"tok{iid}"}
        channel_id = int(payload["channel_id"])
        user_id = int(payload["member"]["user"]["id"])
        return Interaction(iid, data["token"], kind, channel_id, user_id, data)

    async def dispatch(self, inter: Interaction) -> Interaction:
        """Send the INTERACTION_CREATE on the connection of the channel's shard;
        ``inter.done`` resolves when the callback arrives."""
        link = self.links[self.shard_of_channel(inter.channel_id)]
        ws = link.ws
        if ws is None or ws.closed:
            raise ConnectionError(f"the bot's shard {link.shard_id} is not connected")
        loop = asyncio.get_running_loop()
        inter.done = loop.create_future()
        if self.keep_interactions:
            self.interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        self._channel_latest[inter.channel_id] = inter
        link.seq += 1
        text = json.dumps(
            {"op": 0, "t": "INTERACTION_CREATE", "s": link.seq, "d": inter.payload},
            separators=(",", ":"),
        )
        inter.dispatched = time.perf_counter()
        await ws.send_str(text)
        return inter

    def forget(self, inter: Interaction) -> None:
        """Drop a finished interaction (long runs keep memory bounded)."""
        self._by_token.pop(inter.token, None)
        if not self.keep_interactions:
            self.interactions.pop(inter.id, None)

    def abandon_pending(self, shard_id: int | None = None) -> list[Interaction]:
        """The bot died: every unanswered interaction (of shard ``shard_id`` only, if
        given: the process that ran it died) fails with ConnectionError."""
        lost = []
        for inter in list(self._by_token.values()):
            if shard_id is not None and self.shard_of_channel(inter.channel_id) != shard_id:
                continue
            if inter.done is not None and not inter.done.done():
                inter.done.set_exception(ConnectionError("bot died"))
                inter.done.exception()  # mark retrieved
                lost.append(inter)
        return lost

    # --------------------------------------------------------------------- REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        now = time.perf_counter()
        if self.first_request_at is None:
            self.first_request_at = now
        path = "/" + request.match_info["tail"]
        method = request.method
        auth = request.headers.get("Authorization", "")
        if len(self.requests) < KEEP_REQUESTS:
            self.requests.append((method, path, auth))
        if self.token is not None and auth != f"Bot {self.token}" and not _url_token(path):
            self.unauthorized += 1
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        for pattern, name, handler in self._routes:
            match = pattern.fullmatch(path)
            if match is None or not name.startswith(method + " "):
                continue
            self.rest_counts[name] = self.rest_counts.get(name, 0) + 1
            return await handler(request, match, name, now)  # type: ignore[no-any-return]
        key = f"{method} {path}"
        self.unknown_routes[key] = self.unknown_routes.get(key, 0) + 1
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def _attribute(self, inter: Interaction | None, name: str, now: float) -> None:
        if inter is None:
            self.unattributed_rest += 1
        else:
            inter.rest.append(RestCall(name.split(" ", 1)[0], name, now))

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            payload: dict[str, Any] = {}
            async for part in reader:
                if getattr(part, "name", None) == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    await part.read()  # type: ignore[union-attr]
            return payload
        if not request.can_read_body:
            return {}
        return json.loads(await request.read())

    # login and sync
    async def _users_me(self, request, match, name, now):  # type: ignore[no-untyped-def]
        return _json(BOT_USER)

    async def _app_me(self, request, match, name, now):  # type: ignore[no-untyped-def]
        return _json(APPLICATION)

    async def _gateway_bot(self, request, match, name, now):  # type: ignore[no-untyped-def]
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _sync(self, request, match, name, now):  # type: ignore[no-untyped-def]
        payload = await request.json()
        self.synced["/" + request.match_info["tail"]] = payload
        out = []
        for i, cmd in enumerate(payload):
            cid = self.command_ids.setdefault(cmd["name"], 1_100_000_000_000_000_000 + i)
            out.append({**cmd, "id": str(cid), "application_id": str(APP_ID), "version": "1"})
        return _json(out)

    async def _get_emojis(self, request, match, name, now):  # type: ignore[no-untyped-def]
        return _json({"items": list(self.emojis)})

    async def _create_emoji(self, request, match, name, now):  # type: ignore[no-untyped-def]
        # As Discord: a name unique in the application, the image a data URI.
        payload = await request.json()
        if any(e["name"] == payload["name"] for e in self.emojis):
            return _json({"message": "Invalid Form Body", "code": 50035}, status=400)
        assert str(payload["image"]).startswith("data:image/png;base64,")
        emoji = {
            "id": str(1_300_000_000_000_000_000 + len(self.emojis)),
            "name": payload["name"],
            "animated": False,
            "require_colons": True,
            "managed": False,
            "available": True,
        }
        self.emojis.append(emoji)
        return _json(emoji, status=201)

    async def _get_commands(self, request, match, name, now):  # type: ignore[no-untyped-def]
        # As Discord: what the last PUT to the same path published, none before it.
        published = self.synced.get("/" + request.match_info["tail"], [])
        return _json(
            [
                {
                    **cmd,
                    "id": str(self.command_ids.get(cmd["name"], 1)),
                    "application_id": str(APP_ID),
                    "version": "1",
                }
                for cmd in published
            ]
        )

    # messages
    def message_like(self, channel_id: int, **data: Any) -> dict[str, Any]:
        """A message of the bot as Discord would send it, not stored (to forge clicks on)."""
        return self._message_dict(channel_id, data, 0, snowflake())

    def _store(
        self, channel_id: int, data: dict[str, Any], flags: int = 0, message_id: int | None = None
    ) -> dict[str, Any]:
        mid = message_id or snowflake()
        message = self._message_dict(channel_id, data, flags, mid)
        self.messages[mid] = message
        kept = self._channel_messages.setdefault(channel_id, deque())
        kept.append(mid)
        while len(kept) > KEEP_MESSAGES:
            self.messages.pop(kept.popleft(), None)
        return message

    def _message_dict(
        self, channel_id: int, data: dict[str, Any], flags: int, mid: int
    ) -> dict[str, Any]:
        return {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(self.channel_guild.get(channel_id, 0)),
            "author": BOT_USER,
            "content": data.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": (data.get("flags") or 0) | flags,
        }

    def _edit(self, mid: int, data: dict[str, Any]) -> dict[str, Any] | None:
        message = self.messages.get(mid)
        if message is None:
            return None
        for key in ("content", "embeds", "components"):
            if key in data:
                empty: Any = "" if key == "content" else []
                message[key] = data[key] if data[key] is not None else empty
        message["edited_timestamp"] = TIMESTAMP
        return message

    def _notify(
        self, channel_id: int, message: dict[str, Any], how: str, inter: Interaction | None
    ) -> None:
        if self.on_message is not None:
            self.on_message(channel_id, message, how, inter)

    async def _callback(self, request, match, name, now):  # type: ignore[no-untyped-def]
        inter = self._by_token.get(match["token"])
        body = await self._body(request)
        if inter is not None and self.fail_answers:
            failure = self.fail_answers.pop(0)
            if failure == "drop" and request.transport is not None:
                request.transport.close()
                return web.Response(status=500)  # never reaches the bot
            inter = None  # answered as an interaction Discord no longer knows
        if inter is None:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if inter.answered is not None:
            text = "Interaction has already been acknowledged."
            return _json({"message": text, "code": 40060}, 400)
        inter.answered = now
        inter.callback_bytes = request.content_length or 0
        self._attribute(inter, name, now)
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        inter.response_type = rtype
        inter.response_flags = int(data.get("flags") or 0)
        result: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.payload["type"],
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": inter.ephemeral,
            }
        }
        message = None
        if rtype in (4, 5):
            content = data if rtype == 4 else {}
            message = self._store(inter.channel_id, content, inter.response_flags)
            message["interaction_metadata"] = {
                "id": str(inter.id),
                "type": inter.payload["type"],
                "user": (inter.payload.get("member") or {}).get("user")
                or inter.payload.get("user"),
                "authorizing_integration_owners": {},
                "name": inter.kind,
            }
            message["_for_user"] = inter.user_id  # the driver's note: who sees it
        elif rtype == 6 and "message" in inter.payload:
            # A deferred update: the original response is the message clicked.
            clicked = int(inter.payload["message"]["id"])
            inter.message = self.messages.get(clicked) or inter.payload["message"]
        elif rtype == 7 and "message" in inter.payload:
            message = self._edit(int(inter.payload["message"]["id"]), data)
            if message is None:  # clicked message forgotten: answer with the click's copy
                message = {**inter.payload["message"], **data}
        inter.loading = rtype == 5
        if message is not None:
            inter.message = message
            result["interaction"]["response_message_id"] = message["id"]
            result["resource"] = {"type": rtype, "message": _public(message)}
            self._notify(inter.channel_id, message, "callback", inter)
        else:
            result["resource"] = {"type": rtype}
        if inter.done is not None and not inter.done.done():
            inter.done.set_result(inter)
        return _json(result)

    async def _webhook_send(self, request, match, name, now):  # type: ignore[no-untyped-def]
        inter = self._by_token.get(match["token"])
        body = await self._body(request)
        self._attribute(inter, name, now)
        if inter is None:
            return _not_found("Unknown Webhook", 10015)
        if (
            inter.loading
            and inter.message is not None
            and int(inter.message["id"]) in self.messages
        ):
            # As Discord: the first follow-up after "thinking" is shown in its message,
            # private or public as the deferral was, whatever the follow-up's flags say.
            inter.loading = False
            message = self._edit(int(inter.message["id"]), body)
            assert message is not None
            self._notify(inter.channel_id, message, "callback", inter)
            self._followed(inter, message, "callback")
            return _json(_public(message))
        inter.loading = False
        message = self._store(inter.channel_id, body)
        message["_for_user"] = inter.user_id
        self._notify(inter.channel_id, message, "create", inter)
        self._followed(inter, message, "create")
        return _json(_public(message))

    def _followed(self, inter: Interaction, message: dict[str, Any], how: str) -> None:
        if self.on_followup is not None:
            self.on_followup(inter.channel_id, message, how, inter)

    async def _webhook_message(self, request, match, name, now):  # type: ignore[no-untyped-def]
        inter = self._by_token.get(match["token"])
        self._attribute(inter, name, now)
        if inter is None:
            return _not_found("Unknown Webhook", 10015)
        ref = match["mid"]
        mid = int(inter.message["id"]) if ref == "@original" and inter.message else None
        if ref != "@original":
            mid = int(ref)
        if request.method == "DELETE":
            if mid is not None:
                self.messages.pop(mid, None)
            inter.loading = False
            return web.Response(status=204)
        body = await self._body(request) if request.method == "PATCH" else {}
        message = self._edit(mid, body) if mid is not None else None
        if message is None:
            return _not_found()
        if request.method == "PATCH":
            self._notify(inter.channel_id, message, "edit", inter)
            self._followed(inter, message, "edit")
        return _json(_public(message))

    async def _channel(self, request, match, name, now):  # type: ignore[no-untyped-def]
        cid = int(match["cid"])
        if cid not in self.channel_guild:
            return _not_found("Unknown Channel", 10003)
        self._attribute(self._channel_latest.get(cid), name, now)
        return _json(self._channel_obj(cid))

    async def _create_message(self, request, match, name, now):  # type: ignore[no-untyped-def]
        cid = int(match["cid"])
        inter = self._channel_latest.get(cid)
        self._attribute(inter, name, now)
        if cid not in self.channel_guild:
            return _not_found("Unknown Channel", 10003)
        message = self._store(cid, await self._body(request))
        self._notify(cid, message, "create", inter)
        return _json(_public(message))

    async def _history(self, request, match, name, now):  # type: ignore[no-untyped-def]
        cid = int(match["cid"])
        self._attribute(self._channel_latest.get(cid), name, now)
        limit = int(request.query.get("limit", "50"))
        ids = list(self._channel_messages.get(cid, ()))
        before = request.query.get("before")
        if before:
            ids = [i for i in ids if i < int(before)]
        out = [
            _public(self.messages[i])
            for i in reversed(ids)
            if i in self.messages and not self.messages[i]["flags"] & EPHEMERAL
        ]
        return _json(out[:limit])

    async def _message(self, request, match, name, now):  # type: ignore[no-untyped-def]
        cid, mid = int(match["cid"]), int(match["mid"])
        inter = self._channel_latest.get(cid)
        self._attribute(inter, name, now)
        if request.method == "DELETE":
            self.messages.pop(mid, None)
            return web.Response(status=204)
        if request.method == "GET":
            message = self.messages.get(mid)
            return _json(_public(message)) if message else _not_found()
        body = await self._body(request)
        if self.edit_delay:
            await asyncio.sleep(self.edit_delay)
        message = self._edit(mid, body)
        if message is None:
            return _not_found()
        self._notify(cid, message, "edit", inter)
        return _json(_public(message))

    async def _noop(self, request, match, name, now):  # type: ignore[no-untyped-def]
        cid = match.groupdict().get("cid")
        self._attribute(self._channel_latest.get(int(cid)) if cid else None, name, now)
        return web.Response(status=204)


#: (path pattern, route name as counted, handler method) of every REST route answered.
_M = r"(?P<mid>@original|\d+)"
ROUTES: list[tuple[str, str, str]] = [
    (r"/users/@me", "GET /users/@me", "_users_me"),
    (r"/oauth2/applications/@me", "GET /oauth2/applications/@me", "_app_me"),
    (r"/gateway/bot", "GET /gateway/bot", "_gateway_bot"),
    (r"/gateway", "GET /gateway", "_gateway_bot"),
    (
        r"/applications/\d+/guilds/\d+/commands",
        "PUT /applications/{app}/guilds/{gid}/commands",
        "_sync",
    ),
    (r"/applications/\d+/commands", "PUT /applications/{app}/commands", "_sync"),
    (
        r"/applications/\d+/guilds/\d+/commands",
        "GET /applications/{app}/guilds/{gid}/commands",
        "_get_commands",
    ),
    (r"/applications/\d+/commands", "GET /applications/{app}/commands", "_get_commands"),
    (r"/applications/\d+/emojis", "GET /applications/{app}/emojis", "_get_emojis"),
    (r"/applications/\d+/emojis", "POST /applications/{app}/emojis", "_create_emoji"),
    (
        r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
        "POST /interactions/{iid}/{token}/callback",
        "_callback",
    ),
    (r"/webhooks/\d+/(?P<token>[^/]+)", "POST /webhooks/{app}/{token}", "_webhook_send"),
    (
        rf"/webhooks/\d+/(?P<token>[^/]+)/messages/{_M}",
        "PATCH /webhooks/{app}/{token}/messages/{mid}",
        "_webhook_message",
    ),
    (
        rf"/webhooks/\d+/(?P<token>[^/]+)/messages/{_M}",
        "GET /webhooks/{app}/{token}/messages/{mid}",
        "_webhook_message",
    ),
    (
        rf"/webhooks/\d+/(?P<token>[^/]+)/messages/{_M}",
        "DELETE /webhooks/{app}/{token}/messages/{mid}",
        "_webhook_message",
    ),
    (r"/channels/(?P<cid>\d+)", "GET /channels/{cid}", "_channel"),
    (r"/channels/(?P<cid>\d+)/messages", "POST /channels/{cid}/messages", "_create_message"),
    (r"/channels/(?P<cid>\d+)/messages", "GET /channels/{cid}/messages", "_history"),
    (
        r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)",
        "PATCH /channels/{cid}/messages/{mid}",
        "_message",
    ),
    (
        r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)",
        "GET /channels/{cid}/messages/{mid}",
        "_message",
    ),
    (
        r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)",
        "DELETE /channels/{cid}/messages/{mid}",
        "_message",
    ),
    (r"/channels/(?P<cid>\d+)/typing", "POST /channels/{cid}/typing", "_noop"),
]


def _url_token(path: str) -> bool:
    """Whether a call authenticates by the token in its URL (interaction callbacks and
    webhooks), not by the bot token."""
    return path.startswith(("/interactions/", "/webhooks/"))


def _public(message: dict[str, Any]) -> dict[str, Any]:
    """The message as Discord sends it (without the stand-in's private notes)."""
    return {k: v for k, v in message.items() if not k.startswith("_")}


# ------------------------------------------------------------------ reading messages

_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True, slots=True)
class GameId:
    """What the custom id of one of the bot's game components says."""

    move: str  # the act, e.g. "roll", "claim", "join" (a menu's options carry the values)
    game_id: int
    move_no: int  # the move number of the game it was posted for
    select: bool  # a menu (its option values are encoded moves), not a button


#: The bot's game custom ids (README, Playing): ``mx:<game>:<move_no>:<move>`` buttons and
#: ``mxs:<game>:<move_no>:<act>`` menus. Tools (``mxt:``) make no move and are not read.
_CUSTOM_ID = re.compile(r"^(mx|mxs):(\d+):(\d+):([a-z]+)(?:\.\w+)?$")


def parse_custom_id(custom_id: str) -> GameId | None:
    """The one place that reads the bot's custom-id format; None for anything else (the
    leaderboard's ``lb:`` buttons, say). The driver, the stand-in's ``click`` and the crash
    test all go through here, so a change of the format is made here only."""
    m = _CUSTOM_ID.match(custom_id)
    if m is None:
        return None
    return GameId(m[4], int(m[2]), int(m[3]), m[1] == "mxs")


@dataclass(slots=True)
class Control:
    """One live component of a bot message: a button or a select (with its option values)."""

    custom_id: str
    move: str
    game_id: int
    move_no: int
    select: bool
    values: list[str]


def controls(message: dict[str, Any]) -> list[Control]:
    """The bot's live (not disabled) game components on a message."""
    found = []
    for row in message.get("components") or []:
        for item in row.get("components", [row]):
            custom_id = item.get("custom_id") or ""
            parsed = parse_custom_id(custom_id)
            if parsed is None or item.get("disabled"):
                continue
            values = [o["value"] for o in item.get("options") or []]
            game = (parsed.move, parsed.game_id, parsed.move_no, parsed.select)
            found.append(Control(custom_id, *game, values))
    return found


#: The line of a turn message that names the player to act: a mention, then "," or ":".
_TO_ACT = re.compile(r"^<@!?(\d+)>[,:]", re.MULTILINE)


def player_to_act(message: dict[str, Any]) -> int | None:
    """Who the bot asks to move in a turn message (story lines name others first)."""
    found = _TO_ACT.findall(message.get("content") or "")
    return int(found[-1]) if found else None


def first_mention(message: dict[str, Any]) -> int | None:
    m = _MENTION.search(message.get("content") or "")
    return int(m[1]) if m else None


def is_game_over(message: dict[str, Any]) -> bool:
    return any("Final standing" in (e.get("title") or "") for e in message.get("embeds") or [])
