"""The production bot against simcord's in-memory Discord: login, sync, `/rules`."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord

from bot.engine.presets import PRESET_NAMES
from bot.present.rulebook import RULEBOOK
from bot.present.words import ruleset_name
from bot.runtime.client import EXTENSIONS, create_bot
from bot.runtime.settings import Settings
from bot.storage import Storage
from tests.support.sim import DEV_GUILD_ID, TEST_TOKEN, SimTable


async def test_logs_in_and_syncs_to_dev_guild(sim: SimTable) -> None:
    assert sim.bot.is_ready()
    assert sim.bot.user is not None
    syncs = [r for r in sim.env.http_requests if r.method == "PUT" and "commands" in r.path]
    assert [r.path.rsplit("/guilds/", 1)[-1] for r in syncs] == [f"{DEV_GUILD_ID}/commands"]
    assert "rules" in sim.users[0].available_commands(sim.channel)


async def test_rules_overview_lists_all_five(sim: SimTable) -> None:
    result = await sim.users[0].slash(sim.channel, "rules")

    assert result.acknowledged
    assert result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == "Mexican dice: five ways to play"
    listed = [field.name.split(" · ")[0] for field in embed.fields]
    assert all(ruleset_name(code) in listed for code in PRESET_NAMES)


@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_rules_for_each_preset(sim: SimTable, preset: str) -> None:
    result = await sim.users[1].slash(sim.channel, "rules", ruleset=preset)

    assert result.response is not None
    assert result.ephemeral, "a page of rules is for the one who asked"
    (embed,) = result.response.embeds
    assert embed.title == RULEBOOK[preset].title
    assert embed.description is not None
    assert RULEBOOK[preset].rules[0] in embed.description


async def test_rules_are_private_unless_shown_to_everyone(sim: SimTable) -> None:
    """A page of rules would bury the game in the channel: it is private by default, and
    public only when the asker chooses to show everyone."""
    private = await sim.users[0].slash(sim.channel, "rules")
    shown = await sim.users[0].slash(sim.channel, "rules", ruleset="dollar", public=True)

    assert private.ephemeral
    assert shown.response is not None and not shown.ephemeral


async def test_rules_mexico_mentions_its_specials(sim: SimTable) -> None:
    result = await sim.users[0].slash(sim.channel, "rules", ruleset="mexico")

    assert result.response is not None
    (embed,) = result.response.embeds
    text = embed.description or ""
    for word in ("Knight", "Elbow", "STUCK", "pot"):
        assert word in text


async def test_every_extension_loads_in_a_fresh_bot(settings: Settings, storage: Storage) -> None:
    """Loading each cog on its own catches a cog that only works thanks to another."""
    for name in EXTENSIONS:
        bot = create_bot(settings, storage)
        await bot.load_extension(name)
        assert name in bot.extensions
        await bot.unload_extension(name)


async def test_production_bot_loaded_every_extension(sim: SimTable) -> None:
    assert set(sim.bot.extensions) == set(EXTENSIONS)
    assert sim.bot.get_cog("Rules") is not None


async def test_token_never_logged_during_startup(
    caplog: pytest.LogCaptureFixture, settings: Settings, storage: Storage
) -> None:
    caplog.set_level(logging.DEBUG)
    logging.getLogger("bot.test").info("settings at start-up: %s / %r", settings, settings)

    async with simcord.run(create_bot(settings, storage)) as env:
        guild = env.create_guild(id=DEV_GUILD_ID)
        alice = guild.add_member(env.create_user("alice"))
        await alice.slash(guild.create_text_channel("dice"), "rules")

    assert "logging in using static token" in caplog.text  # the capture really saw start-up
    assert TEST_TOKEN not in caplog.text
    for part in TEST_TOKEN.split("."):
        assert part not in caplog.text


async def test_asks_only_for_the_events_it_uses(sim: SimTable) -> None:
    """Commands and buttons arrive as interactions whatever the intents; guild events keep
    channels and the bot's permissions known. Nothing privileged, and no message, typing
    or reaction events, which a busy server would send for every chat line."""
    intents = sim.bot.intents
    assert intents == discord.Intents(guilds=True)
    assert not (intents.message_content or intents.members or intents.presences)
    assert not (intents.messages or intents.typing or intents.reactions)


async def test_a_command_during_shutdown_is_told_the_bot_is_restarting(sim: SimTable) -> None:
    """Closing unloads the cogs before the connection goes: a command that arrives then
    finds no command, and is told the bot is restarting, not that the command is gone."""
    a = sim.users[0]
    await sim.bot.unload_extension("cogs.play")
    result = await a.slash(sim.channel, "join")
    assert result.ephemeral and "restarting" in result.response.content
