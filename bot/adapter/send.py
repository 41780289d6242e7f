"""Turn the presenter's ``Reply`` values into discord.py calls; nothing else.

Views are sent already stopped: every button and menu is routed by its custom id through
``bot.add_dynamic_items`` (cogs/components.py), so discord.py need not track one view per
message and a click still works after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.present.message import Button, Component, Embed, Reply
from bot.runtime.answering import respond, update

COLOUR = discord.Colour.dark_gold()
#: Discord's numbers for the button styles the presenter names.
STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}
#: The first row a menu takes; buttons sit in rows 0 and 1 (README, How the table talks).
MENU_ROW = 2


class Rows(discord.ui.View):
    """An already stopped view carrying its components as Discord's JSON, built from the
    presenter's values in one pass. discord.py's item objects (a Button or Select per
    control, turned back into the same JSON when sent) cost more than any other part of a
    reply (README, Benchmarks); tests/test_send.py checks these rows are what discord.py
    would have sent, and that discord.py sends them."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows


def routed_view() -> discord.ui.View:
    """An empty, already stopped view: its items are routed by custom id."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def component_rows(components: tuple[Component, ...]) -> list[dict[str, Any]]:
    """Buttons by their row, then each menu on a row of its own."""
    rows: dict[int, list[dict[str, Any]]] = {}
    menu_row = MENU_ROW
    for item in components:
        if isinstance(item, Button):
            rows.setdefault(item.row, []).append(
                {
                    "type": 2,
                    "style": STYLES[item.style],
                    "disabled": False,
                    "label": item.label,
                    "custom_id": item.custom_id,
                }
            )
        else:
            options = [
                {"label": label, "value": value, "default": False} for label, value in item.options
            ]
            rows[menu_row] = [
                {
                    "type": 3,
                    "custom_id": item.custom_id,
                    "min_values": 1,
                    "max_values": 1,
                    "disabled": False,
                    "required": True,
                    "placeholder": item.placeholder,
                    "options": options,
                }
            ]
            menu_row += 1
    return [{"type": 1, "components": rows[row]} for row in sorted(rows)]


def view_of(components: tuple[Component, ...]) -> discord.ui.View:
    return Rows(component_rows(components))


def embed_of(embed: Embed) -> discord.Embed:
    out = discord.Embed(
        title=embed.title or None, description=embed.description or None, colour=COLOUR
    )
    for name, value in embed.fields:
        out.add_field(name=name, value=value, inline=len(value) < 40)
    if embed.footer:
        out.set_footer(text=embed.footer)
    if embed.image:
        out.set_image(url=f"attachment://{embed.image}")
    return out


def mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the players the presenter chose may be pinged; everyone else named is not."""
    users: list[discord.Object] | bool = [
        discord.Object(int(p)) for p in reply.ping if p.isdigit()
    ] or False
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def send_kwargs(reply: Reply) -> dict[str, Any]:
    """Arguments for ``send``/``send_message``: nothing that is empty is sent."""
    kwargs: dict[str, Any] = {"allowed_mentions": mentions(reply)}
    if reply.content:
        kwargs["content"] = reply.content
    if reply.embed is not None:
        kwargs["embed"] = embed_of(reply.embed)
    if reply.components:
        kwargs["view"] = view_of(reply.components)
    return kwargs


def edit_payload(reply: Reply) -> dict[str, Any]:
    """The JSON of an edit showing exactly ``reply``, for editing a message that is not
    the one clicked: sent as it is, no discord.py message is built from Discord's answer
    (nothing reads it). Equal to what ``edit_kwargs`` makes discord.py send."""
    return {
        "content": reply.content or None,
        "embeds": [embed_of(reply.embed).to_dict()] if reply.embed is not None else [],
        "components": component_rows(reply.components),
        "tts": False,
        "allowed_mentions": mentions(reply).to_dict(),
    }


def components_payload(components: tuple[Component, ...]) -> dict[str, Any]:
    """The JSON of an edit that changes only a message's components (retiring it)."""
    return {"components": component_rows(components)}


def edit_kwargs(reply: Reply) -> dict[str, Any]:
    """Arguments for an edit: what the reply leaves out is cleared, so an edited message
    shows exactly the reply."""
    return {
        "content": reply.content or None,
        "embed": embed_of(reply.embed) if reply.embed is not None else None,
        "view": view_of(reply.components) if reply.components else None,
        "allowed_mentions": mentions(reply),
    }


async def answer(interaction: discord.Interaction, reply: Reply) -> int | None:
    """Answer an interaction with ``reply``: the response, or a follow-up if the
    interaction was deferred or already answered (never a second response). The new
    message's id, when Discord tells it."""
    return await respond(interaction, ephemeral=reply.private, **send_kwargs(reply))


async def show(interaction: discord.Interaction, reply: Reply) -> None:
    """Show ``reply`` in the message clicked (an edit, or of the deferred response)."""
    await update(interaction, **edit_kwargs(reply))


def button_ids(message: discord.Message) -> list[str]:
    """The custom ids of a message's components, for finding leftovers after a restart."""
    found = []
    for row in message.components:
        for item in getattr(row, "children", [row]):
            custom_id = getattr(item, "custom_id", None)
            if custom_id:
                found.append(custom_id)
    return found


def components_of(message: discord.Message) -> tuple[Component, ...]:
    """A sent message's buttons as the presenter's values, to decide which to keep."""
    found: list[Component] = []
    for row in message.components:
        for item in getattr(row, "children", [row]):
            custom_id = getattr(item, "custom_id", None)
            if isinstance(item, discord.components.Button) and custom_id:
                found.append(Button(item.label or "", custom_id, "secondary", 1))
    return tuple(found)
