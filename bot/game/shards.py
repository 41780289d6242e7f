"""Which guilds this process answers for, when the bot runs as several shard processes.

Discord sends each guild's events to one shard only, by its rule
``(guild_id >> 22) % shard_count``; a process that runs some of the shards must therefore
restore and time only those guilds' games, or two processes would both re-post a table
and both fire its turn timer (README, Running at scale). Pure functions, no Discord.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord routes ``guild_id``'s events to (its documented sharding formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: ``ids`` out of ``count`` (settings SHARD_COUNT and
    SHARD_IDS). A process without sharding has no `Shards` and owns every guild."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        # Settings check these with friendlier words; this guards every other caller.
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {self.ids} do not fit a shard count of {self.count}")

    def owns(self, guild_id: int) -> bool:
        """Whether this process gets ``guild_id``'s events, so its games are ours to run."""
        return shard_of(guild_id, self.count) in self.ids


def owns_all(guild_id: int) -> bool:
    """The unsharded bot's rule: one process sees every guild."""
    return True
