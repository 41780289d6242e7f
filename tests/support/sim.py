"""The production bot inside simcord, as the tests play it in-process.

``SimTable`` is what conftest's ``sim`` fixture hands a test: the bot built by the same
``create_bot`` factory as ``python -m bot``, logged in to simcord's in-memory Discord, and
a guild whose id is ``DEV_GUILD_ID`` (so the start-up sync lands where the players are),
with one channel and the players ``PLAYER_NAMES``. The fixtures themselves stay in
``tests/conftest.py``; this module holds what tests import.
"""

from __future__ import annotations

from dataclasses import dataclass

import simcord

from bot.runtime.client import MexicanBot

DEV_GUILD_ID = 111_222_333_444_555_666
TEST_TOKEN = "MTExMjIyMzMzNDQ0NTU1NjY2.Gxyzzy.not-a-real-token-only-for-tests-42"
PLAYER_NAMES = ("alice", "bob", "carol", "dave")


@dataclass
class SimTable:
    """Everything a test needs to play at one table."""

    env: simcord.Env
    bot: MexicanBot
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    users: list[simcord.MemberActor]
