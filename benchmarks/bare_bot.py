"""The baseline for ``benchmarks.wire_bench``: a bare discord.py bot that answers every
interaction with one message and does nothing else (no commands, no storage, no engine).

The message is as large as the real bot's typical answer (``BARE_ANSWER_BYTES``, the
median callback body the bench saw from the bot; a two-byte "ok" was a cheaper floor
than the same JSON: docs/benchmarks.md), sent as one embed, as the bot's are.

Run as ``python -m benchmarks.bare_bot`` with DISCORD_TOKEN, DISCORD_API_BASE and
DISCORD_GATEWAY_URL set, exactly like the real bot.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Any

import discord

from bot.__main__ import loop_factory
from bot.runtime.endpoints import apply_endpoints

#: The JSON around an embed's description in a message callback, in bytes (measured:
#: the body discord.py sends for one embed, its flags, mentions and attachments).
FRAME = 101


class BareBot(discord.Client):
    def __init__(self, answer_bytes: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pad = "x" * max(1, answer_bytes - FRAME)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(description=self.pad))


async def run() -> None:
    size = int(os.environ.get("BARE_ANSWER_BYTES") or 0)
    bot = BareBot(size, intents=discord.Intents.default())
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


def main() -> None:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"))
    apply_endpoints(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"))
    # The same event loop as the real bot (uvloop where installed), so the ratio compares
    # the bots' own work, not their loops.
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        runner.run(run())


if __name__ == "__main__":
    main()
