"""The Bot subclasses and the one factory that builds them, for production and tests alike."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.game.shards import Shards, owns_all
from bot.game.tables import TableService
from bot.league.ratings import FULL_LEND_DAYS
from bot.league.service import League
from bot.present.i18n import language_of, talk
from bot.present.links import replay_link
from bot.runtime import collector
from bot.runtime.answering import Answering, respond
from bot.runtime.gateway import guard_parsers
from bot.runtime.settings import Settings
from bot.storage import DatabaseDownError, Storage

if TYPE_CHECKING:
    from bot.runtime.leases import ShardLeases

log = logging.getLogger(__name__)

# The bot has no voice features; discord.py's "voice will NOT be supported" warnings
# at every start would only teach operators to ignore warnings.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

#: How long closing waits for moves under way to be stored and answered.
DRAIN_SECONDS = 5.0

EXTENSIONS: tuple[str, ...] = (
    "cogs.translate",
    "cogs.publishing",
    "cogs.rules",
    "cogs.play",
    "cogs.stats",
    "cogs.seasons",
    "cogs.web",
)
"""Every cog the bot loads, in order. Add a new cog here and nowhere else. The first sets
the commands' translator, so it is in place before the commands are synced."""


def now() -> float:
    """The bot's wall clock, in seconds (turn timers, moves, the league); read through
    discord.utils.utcnow, which keeps tests on their simulated clock."""
    return discord.utils.utcnow().timestamp()


class Dealer(Protocol):
    """What the bot itself asks of the Play cog's dealer: named here, not imported, so
    bot/ needs nothing from cogs/ (the cogs build on the bot, never the reverse)."""

    async def drain(self, timeout: float) -> None: ...

    @property
    def thinking(self) -> Mapping[int, asyncio.Future[None]]:
        """Each channel's computer move waited for (the metrics count them)."""
        ...


class UnreadableOption(app_commands.AppCommandError):
    """An option value discord.py cannot read (a user option that is no user id, say):
    Discord's own client never sends one, a forged request can."""


#: Option types whose options are the command's own (a subcommand, a group of them).
SUBCOMMANDS = (1, 2)


def readable(interaction: discord.Interaction) -> bool:
    """Whether discord.py can read the command's options: it reads them (user ids,
    numbers, the resolved users) before any command or error handler runs, and a value it
    chokes on would end that task with a traceback and no answer. Reading them here, once
    more, costs a few dictionary lookups."""
    data: Any = interaction.data or {}
    options = data.get("options") or []
    resolved: Any = data.get("resolved") or {}
    while options and options[0].get("type") in SUBCOMMANDS:
        options = options[0].get("options") or []
    try:
        app_commands.Namespace(interaction, resolved, options)
    except Exception:
        return False
    return True


class Tree(app_commands.CommandTree["MexicanBot"]):
    """The command tree, refusing a command whose options discord.py cannot read with the
    error handler's private answer instead of a traceback."""

    async def interaction_check(self, interaction: discord.Interaction[MexicanBot], /) -> bool:
        if readable(interaction):
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            return False  # it takes suggestions only: nothing to tell
        raise UnreadableOption()


class MexicanBot(commands.Bot):
    """Holds the long-lived resources (opened in `main()`) that cogs reach through `bot`."""

    def __init__(
        self,
        *,
        storage: Storage,
        dev_guild_id: int | None = None,
        sync_dev_guild: bool = True,
        extensions: tuple[str, ...] = EXTENSIONS,
        shards: Shards | None = None,
        web_url: str | None = None,
        new_account_days: float = FULL_LEND_DAYS,
    ) -> None:
        sharding: dict[str, Any] = {}
        if shards is not None:  # only `ShardedMexicanBot` (AutoShardedBot) takes these
            sharding = {"shard_count": shards.count, "shard_ids": list(shards.ids)}
        super().__init__(
            # Slash commands only; a mention prefix needs no privileged message intent.
            command_prefix=commands.when_mentioned,
            # Guild events only: commands and buttons come as interactions anyway, and
            # message or typing events would be parsed for every chat line the bot sees.
            intents=discord.Intents(guilds=True),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            tree_cls=Tree,
            **sharding,
        )
        self.storage = storage
        #: Where the web companion's pages are reached (WEB_URL; README, Web companion):
        #: /web prints links under it. None: this bot has no pages to offer.
        self.web_url = web_url
        #: The shards this process runs; its tables are those of their guilds only.
        self.sharding = shards
        owns = shards.owns if shards is not None else owns_all
        #: Ratings, seasons and achievements (README, Leaderboard and stats),
        #: on the same clock as the turn timers (tests move it).
        self.league = League(storage, clock=now, owns=owns, new_account_days=new_account_days)
        # Dice come from the OS's cryptographic source; tests swap in a seeded one.
        self.tables = TableService(
            storage,
            random.SystemRandom(),
            owns=owns,
            league=self.league,
            replay_link=self._replay_link,
        )
        self.dev_guild_id = dev_guild_id
        self.sync_dev_guild = sync_dev_guild
        self.extension_names = extensions
        #: Set by the Play cog while it is loaded: the path every move takes in Discord.
        self.dealer: Dealer | None = None
        #: Set by `python -m bot` before it connects: the leases of this process's shards
        #: (README, Running at scale); ``leases.held`` and ``leases.ok`` say what it holds.
        self.leases: ShardLeases | None = None
        #: Every interaction answered in time: deferred when its answer is late (README,
        #: While the database is down).
        self.answering = Answering()
        # A gateway payload is input: one that does not parse is dropped with a line in
        # the log, never let out of the gateway's reader, where it would end the process.
        # discord.py's parsers are a dict of its connection state, which its websocket
        # reads at every event (tests/test_gateway_wire.py checks the guard holds).
        guard_parsers(self._connection.parsers)

    async def _replay_link(self, guild_id: int, game_id: int) -> str | None:
        """A finished game's replay, if this bot has pages (WEB_URL) and its server
        turned them on (/web)."""
        if self.web_url is None:
            return None
        token = await self.storage.web_link(guild_id)
        return None if token is None else replay_link(self.web_url, token, game_id)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """An interaction's deadline is set as it is dispatched, before its handler runs
        (bot/runtime/answering.py): a listener would cost a task per interaction."""
        if event_name == "interaction":
            self.answering.watch(args[0], time.monotonic())
        super().dispatch(event_name, *args, **kwargs)

    async def setup_hook(self) -> None:
        self.tree.error(self.on_app_command_error)  # the tree's error handler
        try:
            # Games that ended unrated (a crash, a database outage; after schema step 8,
            # every game of the past): rated before the first move of this process.
            await self.league.catch_up()
        except Exception:
            log.exception("the league could not catch up now; it tries again every minute")
        for name in self.extension_names:
            await self.load_extension(name)
            log.debug("loaded extension %s", name)
        if self.dev_guild_id is not None and self.sync_dev_guild:
            await self.sync_to_dev_guild()

    async def sync_to_dev_guild(self) -> list[discord.app_commands.AppCommand]:
        """Guild commands show up at once, unlike global ones, which suits development."""
        assert self.dev_guild_id is not None
        guild = discord.Object(id=self.dev_guild_id)
        self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d app command(s) to dev guild %s", len(synced), self.dev_guild_id)
        return synced

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """One place that turns a failed command into a clear private answer; a command
        that already answered gets a follow-up, never a second response."""
        t = talk(language_of(interaction.locale))
        if isinstance(error, app_commands.CommandNotFound) and self.dealer is None:
            # Shutting down: the cogs, and their commands, are already unloaded.
            text = t("bot-closing")
        elif isinstance(error, app_commands.CommandNotFound):
            # A renamed or removed command still in someone's client: theirs to retype.
            log.info("unknown command /%s", error.name)
            text = t("command-unknown")
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = t("server-only-command")
        elif isinstance(error, app_commands.MissingPermissions):
            text = t("command-no-permission")
        elif isinstance(error, app_commands.CheckFailure):
            text = t("command-check-failed")
        elif isinstance(error, app_commands.TransformerError | UnreadableOption):
            text = t("command-bad-value")
        elif isinstance(error, app_commands.CommandSignatureMismatch):
            # An option missing or of the wrong kind: an outdated client, or a forged call.
            text = t("command-bad-options")
        elif isinstance(getattr(error, "original", None), DatabaseDownError):
            # Not a bug: the storage has logged the outage once (README, Running at scale).
            text = t("database-down")
        else:
            log.error(
                "command %s failed",
                interaction.command and interaction.command.name,
                exc_info=error,
            )
            # Never "nothing was changed": the error may come after a move was stored.
            text = t("command-failed")
        try:
            await respond(interaction, ephemeral=True, content=text)
        except discord.HTTPException:
            log.warning("could not tell a user their command failed")

    async def close(self) -> None:
        """Moves under way are stored and answered before the connection closes (no
        "Session is closed" halfway through an answer); new ones are turned away."""
        if self.dealer is not None:
            await self.dealer.drain(DRAIN_SECONDS)
        await super().close()

    async def on_ready(self) -> None:
        if collector.freeze_startup_heap():
            log.debug("start-up heap frozen: %d objects", gc.get_freeze_count())
        if self.sharding is None:
            log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))
        else:  # which shards, so an operator can tell the processes' logs apart
            ids = ",".join(map(str, self.sharding.ids))
            log.info(
                "ready as %s in %d guild(s), shard(s) %s of %d",
                self.user,
                len(self.guilds),
                ids,
                self.sharding.count,
            )


class ShardedMexicanBot(MexicanBot, commands.AutoShardedBot):
    """The same bot over the Discord shards SHARD_COUNT and SHARD_IDS name (README,
    Running at scale): discord.py's AutoShardedBot opens one gateway connection per shard,
    and Discord sends each guild's events on its shard's connection only."""


def create_bot(settings: Settings, storage: Storage, *, sync_dev_guild: bool = True) -> MexicanBot:
    """Build the bot from settings; tests call this too, so they run what production runs.

    Without shard settings it is the plain `MexicanBot`, one connection as ever."""
    cls = MexicanBot if settings.shards is None else ShardedMexicanBot
    return cls(
        storage=storage,
        dev_guild_id=settings.dev_guild_id,
        sync_dev_guild=sync_dev_guild,
        shards=settings.shards,
        web_url=settings.web_url,
        new_account_days=settings.new_account_days,
    )
