"""Turn the presenter's ``Reply`` values into discord.py calls; nothing else.

Views are sent already stopped: every button and menu is routed by its custom id through
``bot.add_dynamic_items`` (cogs/components.py), so discord.py need not track one view per
message and a click still works after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from .present.message import Button, Component, Embed, Reply

COLOUR = discord.Colour.dark_gold()
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def routed_view() -> discord.ui.View:
    """An empty, already stopped view: its items are routed by custom id."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def view_of(components: tuple[Component, ...]) -> discord.ui.View:
    view = routed_view()
    menu_row = 2
    for item in components:
        if isinstance(item, Button):
            view.add_item(discord.ui.Button(
                label=item.label, custom_id=item.custom_id, style=STYLES[item.style],
                row=item.row,
            ))  # fmt: skip
        else:
            options = [discord.SelectOption(label=label, value=value)
                       for label, value in item.options]  # fmt: skip
            view.add_item(discord.ui.Select(
                custom_id=item.custom_id, placeholder=item.placeholder, options=options,
                row=menu_row,
            ))  # fmt: skip
            menu_row += 1
    return view


def embed_of(embed: Embed) -> discord.Embed:
    out = discord.Embed(title=embed.title or None, description=embed.description or None,
                        colour=COLOUR)  # fmt: skip
    for name, value in embed.fields:
        out.add_field(name=name, value=value, inline=len(value) < 40)
    if embed.footer:
        out.set_footer(text=embed.footer)
    if embed.image:
        out.set_image(url=f"attachment://{embed.image}")
    return out


def mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the players the presenter chose may be pinged; everyone else named is not."""
    users: list[discord.Object] | bool = [discord.Object(int(p)) for p in reply.ping if
                                          p.isdigit()] or False  # fmt: skip
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


def edit_kwargs(reply: Reply) -> dict[str, Any]:
    """Arguments for an edit: what the reply leaves out is cleared, so an edited message
    shows exactly the reply."""
    return {
        "content": reply.content or None,
        "embed": embed_of(reply.embed) if reply.embed is not None else None,
        "view": view_of(reply.components) if reply.components else None,
        "allowed_mentions": mentions(reply),
    }


async def answer(interaction: discord.Interaction, reply: Reply) -> None:
    """Answer an interaction with ``reply``: the response, or a follow-up if the
    interaction was already answered (never a second response)."""
    kwargs = send_kwargs(reply)
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=reply.private, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=reply.private, **kwargs)


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
