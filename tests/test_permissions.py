"""The permission table, its sentences, and the invite link's number."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.adapter import permissions
from bot.adapter.permissions import (
    ANNOUNCE,
    INVITE_PERMISSIONS,
    NEEDS,
    PLAY,
    RESTART,
    describe_forbidden,
    describe_forbidden_in,
    invite_permissions,
    invite_url,
    join_names,
    markdown_table,
    missing,
    missing_sentence,
    missing_sentence_for,
    needed,
    permissions_in,
)
from bot.present.i18n import talk

REPO_ROOT = Path(__file__).resolve().parent.parent
#: The number in the invite link of the docs (README, Inviting the bot). Changing NEEDS
#: changes it: update docs/setup.md too.
DOCUMENTED_INVITE_PERMISSIONS = 274877991936

ALL = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    read_message_history=True,
)


def test_the_invite_number_is_the_table_computed_by_discord_py() -> None:
    assert ALL.value == DOCUMENTED_INVITE_PERMISSIONS
    assert INVITE_PERMISSIONS == invite_permissions().value == DOCUMENTED_INVITE_PERMISSIONS
    assert [need.flag for need in NEEDS] == [
        "view_channel",
        "send_messages",
        "send_messages_in_threads",
        "embed_links",
        "read_message_history",
    ]


def test_invite_url() -> None:
    assert invite_url(1234) == (
        "https://discord.com/oauth2/authorize?client_id=1234"
        "&scope=bot+applications.commands&permissions=274877991936"
    )


def test_the_table_names_real_permissions_once() -> None:
    for need in NEEDS:
        assert need.flag in discord.Permissions.VALID_FLAGS, need.flag
        assert need.purpose and need.without and need.features <= {PLAY, RESTART, ANNOUNCE}
    assert len({need.flag for need in NEEDS}) == len({need.name for need in NEEDS}) == len(NEEDS)


def test_a_seasons_announcement_needs_to_see_and_post_and_nothing_else() -> None:
    assert [n.flag for n in needed(feature=ANNOUNCE)] == ["view_channel", "send_messages"]
    assert [n.flag for n in needed(in_thread=True, feature=ANNOUNCE)] == [
        "view_channel",
        "send_messages_in_threads",
    ]


def test_nothing_missing_means_no_sentence() -> None:
    assert missing(ALL) == []
    assert missing_sentence(ALL) is None
    assert missing_sentence(ALL, in_thread=True) is None
    # Discord's computed permissions for an administrator carry every bit; a bare
    # administrator flag counts as everything too.
    assert missing_sentence(discord.Permissions(administrator=True)) is None


def test_the_example_sentence() -> None:
    granted = discord.Permissions(embed_links=True, read_message_history=True)
    assert missing_sentence(granted) == (
        "I can't post here: give me View Channel and Send Messages in this channel."
    )


def test_everything_missing_in_a_channel() -> None:
    assert missing_sentence(discord.Permissions.none()) == (
        "I can't post here: give me View Channel, Send Messages, Embed Links and "
        "Read Message History in this channel."
    )


def test_threads_need_send_messages_in_threads_not_send_messages() -> None:
    # Send Messages has no effect in a thread, and Send Messages in Threads none outside.
    channel_only = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, read_message_history=True
    )
    assert missing_sentence(channel_only) is None
    assert missing_sentence(channel_only, in_thread=True) == (
        "I can't post in this thread: give me Send Messages in Threads in the channel this "
        "thread belongs to."
    )
    thread_only = discord.Permissions(
        view_channel=True,
        send_messages_in_threads=True,
        embed_links=True,
        read_message_history=True,
    )
    assert missing_sentence(thread_only, in_thread=True) is None
    assert [need.name for need in missing(thread_only)] == ["Send Messages"]


def test_the_first_missing_permission_sets_the_lead() -> None:
    no_embeds = discord.Permissions(view_channel=True, send_messages=True)
    assert missing_sentence(no_embeds) == (
        "I can't show the table here: give me Embed Links and Read Message History in this channel."
    )


def test_feature_filter() -> None:
    only_history_missing = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True
    )
    assert missing_sentence(only_history_missing, feature=PLAY) is None
    assert missing_sentence(only_history_missing, feature=RESTART) == (
        "I can't tidy up old buttons here after a restart: give me Read Message History in "
        "this channel."
    )
    assert [need.flag for need in needed(feature=RESTART)] == [
        "view_channel",
        "read_message_history",
    ]


def test_sentence_for_an_interaction() -> None:
    in_thread = SimpleNamespace(
        app_permissions=discord.Permissions(view_channel=True, embed_links=True),
        channel=SimpleNamespace(type=discord.ChannelType.public_thread),
        locale=discord.Locale.british_english,
    )
    assert missing_sentence_for(in_thread, feature=PLAY) == (  # type: ignore[arg-type]
        "I can't post in this thread: give me Send Messages in Threads in the channel this "
        "thread belongs to."
    )
    in_channel = SimpleNamespace(
        app_permissions=discord.Permissions(view_channel=True, embed_links=True),
        channel=SimpleNamespace(type=discord.ChannelType.text),
        locale=discord.Locale.american_english,
    )
    assert missing_sentence_for(in_channel, feature=PLAY) == (  # type: ignore[arg-type]
        "I can't post here: give me Send Messages in this channel."
    )


def test_describe_forbidden_names_the_permission_to_fix() -> None:
    assert describe_forbidden(discord.Permissions(view_channel=True, embed_links=True)) == (
        "Discord refused (403): the bot lacks Send Messages and Read Message History in "
        "that channel; give its role those permissions there"
    )
    assert describe_forbidden(discord.Permissions(view_channel=True), in_thread=True) == (
        "Discord refused (403): the bot lacks Send Messages in Threads, Embed Links and Read "
        "Message History in the channel this thread belongs to; give its role those "
        "permissions there"
    )


def test_describe_forbidden_without_a_missing_permission() -> None:
    assert "overwrite may have changed" in describe_forbidden(ALL)
    assert "locked or archived, or private" in describe_forbidden(ALL, in_thread=True)
    unknown = describe_forbidden(None)
    assert unknown.startswith("Discord refused (403) and the bot's permissions there are unknown")
    assert "View Channel, Send Messages, Embed Links and Read Message History" in unknown


def test_describe_forbidden_in_a_cached_channel() -> None:
    me = object()
    granted = discord.Permissions(view_channel=True, send_messages=True)

    def permissions_for(member: object) -> discord.Permissions:
        assert member is me
        return granted

    channel = SimpleNamespace(
        guild=SimpleNamespace(me=me), permissions_for=permissions_for, type=None
    )
    assert permissions_in(channel) is granted
    assert describe_forbidden_in(channel) == (
        "Discord refused (403): the bot lacks Embed Links and Read Message History in that "
        "channel; give its role those permissions there"
    )
    assert permissions_in(SimpleNamespace(guild=None)) is None


def test_files_go_only_into_answers_to_commands() -> None:
    """Attach Files is left out because the only file the bot sends (the /stats card) goes
    in the first answer to a command (an interaction response, also through
    `respond_first`, which sends nothing else), where Discord doesn't ask for it. A file
    sent any other way (`channel.send`, a follow-up, or built somewhere and passed on)
    makes this fail unless Attach Files is in the table. Reading history needs Read
    Message History."""
    flags = {need.flag for need in NEEDS}
    elsewhere: list[str] = []
    reads_history = False
    sides = (REPO_ROOT / "cogs", REPO_ROOT / "bot" / "adapter", REPO_ROOT / "bot" / "runtime")
    for source in sorted(p for side in sides for p in side.rglob("*.py")):
        tree = ast.parse(source.read_text(), str(source))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            callee = ast.unparse(node.func)
            reads_history |= callee.endswith(".history")
            if callee not in ("discord.File", "File"):
                continue
            holder = parents.get(node)
            call = parents.get(holder) if isinstance(holder, ast.keyword) else None
            target = ast.unparse(call.func) if isinstance(call, ast.Call) else "?"
            # respond_first answers only as the response (bot/runtime/answering.py).
            first = ("response.send_message", "response.edit_message", "respond_first")
            if not target.endswith(first):
                elsewhere.append(f"{source.name}:{node.lineno} {target}")
    assert not elsewhere or "attach_files" in flags, elsewhere
    assert not reads_history or "read_message_history" in flags


def test_the_docs_match_the_table() -> None:
    """Inviting the bot (docs/setup.md) shows the link's number and the table made from
    `NEEDS`; the README's first hour names the same permissions."""
    setup = (REPO_ROOT / "docs" / "setup.md").read_text()
    assert f"permissions={INVITE_PERMISSIONS}" in setup
    assert markdown_table() in setup
    readme = " ".join((REPO_ROOT / "README.md").read_text().split())
    assert f"({join_names(NEEDS)})" in readme


def test_module_is_pure() -> None:
    """No I/O: nothing in the module opens files, sockets or awaits Discord."""
    source = Path(permissions.__file__).read_text()
    tree = ast.parse(source)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef | ast.Await)]
    assert "open(" not in source


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "nl",
            "Ik kan hier niets posten: geef me Kanaal bekijken, Berichten versturen en "
            "Links insluiten in dit kanaal.",
        ),
        (
            "de",
            "Ich kann hier nichts posten: gib mir Kanal ansehen, Nachrichten senden und "
            "Links einbetten in diesem Kanal.",
        ),
    ],
)
def test_the_missing_permissions_sentence_speaks_the_readers_language(
    language: str, expected: str
) -> None:
    """Names as Discord's settings show them in that language, in a sentence of its own."""
    sentence = permissions.missing_sentence(
        discord.Permissions.none(), feature=permissions.PLAY, t=talk(language)
    )
    assert sentence == expected
