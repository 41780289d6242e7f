"""Play a seeded game through the real bot in simcord and write down everything every
player sees: each public message, each private reply (and to whom), each edit and delete,
and who was pinged. The text is kept as an approval snapshot (README, Tests), so a change
of wording shows up as a diff a person reads; the figures (lengths, pings) are asserted.
"""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import simcord

from bot.engine import Act, Game, Move
from bot.game.tables import Table
from bot.present.ids import MENU_PREFIX, MOVE_PREFIX
from tests.support.sim import SimTable

EPHEMERAL = 64
MENTION = re.compile(r"<@!?(\d+)>")
STAMP = re.compile(r"<t:(\d+):R>")
#: Interaction callback types that carry a message (new, or an update of the clicked one).
NEW_MESSAGE, UPDATE_MESSAGE = 4, 7


@dataclass
class Sent:
    """One message as a person meets it."""

    kind: str  # "public", "private", "edit", "delete"
    text: str
    actor: int | None
    pinged: list[int]
    to: int | None = None  # the one who sees a private message


@dataclass
class Transcript:
    sim: SimTable
    lines: list[str] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    mark: int = 0
    #: The last private reply with components, per user: where their menus are.
    private: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.mark = len(self.sim.env.http_requests)
        self.names = {u.id: u.name for u in self.sim.users}

    # --- recording ----------------------------------------------------------------------
    def name(self, text: str) -> str:
        """Ids to names, and timestamps to how far off they are, so the text is stable."""
        now = self.sim.env.now().timestamp()
        text = MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), "someone"), text)
        return STAMP.sub(lambda m: f"<in {round(int(m.group(1)) - now)} s>", text)

    def note(self, text: str) -> None:
        self.lines.append(text)

    async def act(
        self, user: simcord.MemberActor, label: str, action: Awaitable[simcord.InteractionResult]
    ) -> simcord.InteractionResult:
        self.lines.append(f"\n▶ {user.name}: {label}")
        result = await action
        self.collect(user.id)
        if result.ephemeral and result.response is not None and result.response.components:
            self.private[user.id] = result.response
        return result

    async def wait(self, seconds: float) -> None:
        self.lines.append(f"\n⏳ {seconds:g} s pass")
        await self.sim.env.advance_time(seconds)
        self.collect(None)

    def collect(self, actor: int | None) -> None:
        """Read the REST calls the bot made since the last look."""
        requests = self.sim.env.http_requests
        for request in requests[self.mark :]:
            self._one(request.method, request.path, request.json or {}, actor)
        self.mark = len(requests)

    def _one(self, method: str, path: str, body: dict[str, Any], actor: int | None) -> None:
        if path.endswith("/callback"):
            kind = body.get("type")
            data = body.get("data") or {}
            if kind == NEW_MESSAGE:
                private = bool((data.get("flags") or 0) & EPHEMERAL)
                self._message("private" if private else "public", data, actor)
            elif kind == UPDATE_MESSAGE:
                self._message("edit", data, actor)
            return
        if method == "POST" and "/webhooks/" in path:
            private = bool((body.get("flags") or 0) & EPHEMERAL)
            self._message("private" if private else "public", body, actor)
        elif method == "POST" and path.endswith("/messages"):
            self._message("public", body, actor)
        elif method == "PATCH" and "/messages/" in path:
            self._message("edit", body, actor)
        elif method == "DELETE" and "/messages/" in path:
            self.sent.append(Sent("delete", "", actor, []))
            self.lines.append("  ✖ a message is deleted")

    def _message(self, kind: str, data: dict[str, Any], actor: int | None) -> None:
        text = message_text(data)
        pinged = [] if kind != "public" else pings(data)
        to = actor if kind == "private" else None
        self.sent.append(Sent(kind, text, actor, pinged, to))
        head = {
            "public": "📣 public",
            "private": f"🔒 only {self.names.get(actor or 0, '?')}",
            "edit": "✏️ edited",
        }[kind]
        if pinged:
            head += " · pings " + ", ".join("@" + self.names.get(p, "?") for p in pinged)
        self.lines.append(f"  {head}")
        for line in self.name(text).splitlines():
            self.lines.append(f"  │ {line}")
        controls = describe_components(data.get("components"))
        if controls is not None and (controls != "(no buttons)" or kind == "edit"):
            self.lines.append(f"  └ {controls}")

    def text(self) -> str:
        return "\n".join(self.lines).strip() + "\n"

    # --- playing ------------------------------------------------------------------------
    def public(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "public"]


def message_text(data: dict[str, Any]) -> str:
    """Everything a person reads in a message: content and every part of its embeds."""
    parts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


def pings(data: dict[str, Any]) -> list[int]:
    """Who a new message notifies: users mentioned in its content that its allowed
    mentions let through (all of them when it sets none)."""
    named = list(dict.fromkeys(int(m) for m in MENTION.findall(data.get("content") or "")))
    allowed = data.get("allowed_mentions")
    if allowed is None:
        return named
    if "users" in (allowed.get("parse") or []):
        return named
    users = {int(u) for u in allowed.get("users") or []}
    return [u for u in named if u in users]


def describe_components(rows: list[dict[str, Any]] | None) -> str | None:
    if rows is None:
        return None
    if not rows:
        return "(no buttons)"
    parts = []
    for row in rows:
        for item in row.get("components") or []:
            if item.get("type") == 2:
                parts.append(f"[{item.get('label')}]")
            else:
                options = item.get("options") or []
                parts.append(f"{{{item.get('placeholder')} {len(options)} choices}}")
    return " ".join(parts)


# --- driving a game ------------------------------------------------------------------------

#: How a move is typed as a slash command: (command, options from the move).
SLASH: dict[Act, tuple[str, Callable[[Move], dict[str, Any]]]] = {
    Act.ROLL: ("roll", lambda m: {}),
    Act.ROLL_BLIND: ("roll", lambda m: {"blind": True}),
    Act.CLAIM: ("claim", lambda m: {"value": f"{m.roll[0]}{m.roll[1]}"}),  # type: ignore[index]
    Act.PASS: ("claim", lambda m: {"value": f"{m.roll[0]}{m.roll[1]}"}),  # type: ignore[index]
    Act.ACCEPT: ("accept", lambda m: {}),
    Act.BULLSHIT: ("bullshit", lambda m: {}),
    Act.FOLD: ("fold", lambda m: {}),
    Act.STAND: ("stand", lambda m: {}),
    Act.KEEP: ("roll", lambda m: {"keep": m.die}),
    Act.ENDROUND: ("endround", lambda m: {}),
    Act.TAP: ("tap", lambda m: {}),
}


class Driver:
    """Plays seeded random legal moves the way people do: mostly by tapping the buttons
    and menus the bot shows, sometimes by slash command."""

    def __init__(self, transcript: Transcript, seed: int, slash_share: float = 0.2) -> None:
        self.t = transcript
        self.sim = transcript.sim
        self.rng = random.Random(seed)
        self.slash_share = slash_share
        self.users = {str(u.id): u for u in self.sim.users}

    @property
    def table(self) -> Table:
        table = self.sim.bot.tables.get(self.sim.channel.id)
        assert table is not None
        return table

    def live_message(self) -> Any:
        table = self.table
        for message in self.sim.channel.history():
            if message.id == table.meta.message_id:
                return message
        raise AssertionError("the table's live message is not in the channel")

    def pick(self, game: Game) -> tuple[str, Move]:
        mover = game.to_move
        assert mover is not None
        tappers = [p for p in game.seats if p != mover and p in self.users]
        if game.stuck and tappers and self.rng.random() < 0.5:
            return self.rng.choice(tappers), Move(Act.TAP)
        moves = game.legal_actions(mover)
        acts = list(dict.fromkeys(m.act for m in moves))
        act = self.rng.choice(acts)
        same = [m for m in moves if m.act is act]
        if act in (Act.CLAIM, Act.PASS) and self.rng.random() < 0.7:
            return mover, same[min(int(self.rng.expovariate(0.8)), len(same) - 1)]
        return mover, self.rng.choice(same)

    async def step(self) -> None:
        player, move = self.pick(self.table.game)
        await self.make(player, move)

    async def make(self, player: str, move: Move) -> simcord.InteractionResult:
        user = self.users[player]
        code = move.encode()
        label = code.split(".")[0] if move.to is None else f"{move.act.value} → {self._who(move)}"
        if move.roll is not None:
            label = f"{move.act.value} {move.roll[0]}{move.roll[1]}"
        if move.act in SLASH and self.rng.random() < self.slash_share:
            name, options = SLASH[move.act]
            shown = " ".join(f"{k}:{v}" for k, v in options(move).items())
            typed = user.slash(self.sim.channel, name, **options(move))
            return await self.t.act(user, f"/{name} {shown}".strip(), typed)
        private = self.t.private.get(user.id)
        # Only controls drawn for this move: a private menu from an earlier roll is stale
        # (a blind roll brings no new one: its Claim menu is on the turn message).
        current = f":{self.table.game_id}:{self.table.game.move_no}:"
        for source in (private, self.live_message()):
            if source is None:
                continue
            found = find(source, code)
            if found is None or current not in found[1]:
                continue
            kind, custom_id, label_shown = found
            if kind == "button":
                tap = user.click(source, custom_id=custom_id)
                return await self.t.act(user, f"taps [{label_shown}]", tap)
            pick = user.select(source, [code], custom_id=custom_id)
            return await self.t.act(user, f"picks {label_shown!r} from {{{label}}}", pick)
        if move.act in (Act.HANDOUT, Act.KNIGHT):
            target = self.users[move.to or ""]
            typed = user.slash(self.sim.channel, move.act.value, player=target)
            return await self.t.act(user, f"/{move.act.value} player:{target.name}", typed)
        name, options = SLASH[move.act]
        typed = user.slash(self.sim.channel, name, **options(move))
        return await self.t.act(user, f"/{name}", typed)

    def _who(self, move: Move) -> str:
        return self.users[move.to].name if move.to in self.users else str(move.to)


def find(message: Any, code: str) -> tuple[str, str, str] | None:
    """The button or menu on ``message`` that makes the move ``code``."""
    for row in message.components:
        children = row.children if hasattr(row, "children") else row["components"]
        for item in children:
            custom_id = item.custom_id if hasattr(item, "custom_id") else item["custom_id"]
            if custom_id.startswith(f"{MOVE_PREFIX}:") and custom_id.endswith(f":{code}"):
                label = item.label if hasattr(item, "label") else item["label"]
                return "button", custom_id, label
            if custom_id.startswith(f"{MENU_PREFIX}:"):
                options = item.options if hasattr(item, "options") else item["options"]
                for option in options:
                    value = option.value if hasattr(option, "value") else option["value"]
                    if value == code:
                        shown = option.label if hasattr(option, "label") else option["label"]
                        return "menu", custom_id, shown
    return None
