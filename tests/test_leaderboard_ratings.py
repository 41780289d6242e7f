"""The rating leaderboards (``rating_bluff``, ``rating_open``): one rating per person and
family, listed on every scope among the people who played there.

Rows go straight into ``ratings``, ``rated_channel_players`` and ``stat_buckets`` (the
league's write side stores them in play: tests/test_league.py checks that it does, and
that a board lists who it rated there); each test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage import Storage

from .db_helpers import storage_fixture

GUILD = 1
OTHER_GUILD = 2
CHANNEL = 50
NOW = 1_796_083_200.0  # 2026-12-01 00:00 UTC
MONTH = "m2026-12"

storage = storage_fixture()


async def rate(
    store: Storage,
    family: str,
    rows: Iterable[tuple[int, int, int]],
    guild: int = GUILD,
    last: float = NOW,
) -> None:
    """(user id, shown, games) in one family, their last rated game at ``last``; μ and σ
    do not matter to the ranking."""
    await store._write(
        [
            (
                "INSERT INTO ratings (guild_id, family, user_id, mu, sigma, shown, games,"
                " last_game_at) VALUES (?, ?, ?, 25.0, 8.0, ?, ?, ?)",
                (guild, family, user, shown, games, last),
            )
            for user, shown, games in rows
        ]
    )


async def played(
    store: Storage, users: Iterable[int], channel: int = 0, period: str = "all", guild: int = GUILD
) -> None:
    """A bucket row for each user: they played on this scope."""
    await store._write(
        [
            (
                "INSERT INTO stat_buckets (guild_id, channel_id, period, user_id, rolls_made)"
                " VALUES (?, ?, ?, ?, 1)",
                (guild, channel, period, user),
            )
            for user in users
        ]
    )


async def rated_in(
    store: Storage,
    family: str,
    users: Iterable[int],
    channel: int = CHANNEL,
    last: float = NOW,
    guild: int = GUILD,
) -> None:
    """A rated_channel_players row for each user: their last rated game of the family in
    the channel was at ``last``."""
    await store._write(
        [
            (
                "INSERT INTO rated_channel_players (guild_id, family, channel_id, user_id,"
                " last_game_at) VALUES (?, ?, ?, ?, ?)",
                (guild, family, channel, user, last),
            )
            for user in users
        ]
    )


async def board(store: Storage, stat: str, **scope: object) -> list[tuple[int, int, int, int]]:
    rows, _ = await store.leaderboard(GUILD, stat, now=NOW, **scope)  # type: ignore[arg-type]
    return [(r.rank, r.user_id, int(r.value), r.games_played) for r in rows]


async def test_ratings_rank_by_shown_then_games_then_id_and_ties_share_a_place(
    storage: Storage,
) -> None:
    await rate(
        storage, "bluff", [(1, 1100, 3), (2, 1200, 4), (3, 1100, 12), (4, 1100, 3), (5, 900, 30)]
    )
    await played(storage, range(1, 6))
    assert await board(storage, "rating_bluff") == [
        (1, 2, 1200, 4),
        (2, 3, 1100, 12),
        (2, 1, 1100, 3),
        (2, 4, 1100, 3),
        (5, 5, 900, 30),
    ]
    mine = await storage.rank_of(GUILD, "rating_bluff", 4, now=NOW)
    assert mine is not None and (mine.rank, mine.value, mine.games_played) == (2, 1100.0, 3)


async def test_each_family_lists_its_own_rating(storage: Storage) -> None:
    await rate(storage, "bluff", [(1, 1300, 10), (2, 1000, 1)])
    await rate(storage, "open", [(2, 1250, 5), (3, 1010, 2)])
    await played(storage, [1, 2, 3])
    assert await board(storage, "rating_open") == [(1, 2, 1250, 5), (2, 3, 1010, 2)]
    assert await board(storage, "rating_bluff") == [(1, 1, 1300, 10), (2, 2, 1000, 1)]
    assert await storage.rank_of(GUILD, "rating_open", 1, now=NOW) is None


async def test_a_scope_lists_who_played_there_by_their_one_rating(storage: Storage) -> None:
    # On the whole server a period lists who played a rated game of the family in it
    # (the rating's last game); in a channel, who played one there (their last game in
    # that channel), whatever the channel's counters say.
    await rate(storage, "bluff", [(1, 1300, 10), (3, 1100, 10)])
    await rate(storage, "bluff", [(2, 1200, 10), (4, 1050, 10)], last=NOW - 40 * 86400)
    await played(storage, [1, 2, 3, 4])
    await played(storage, [1, 2, 3, 4], channel=CHANNEL)
    await rated_in(storage, "bluff", [2], last=NOW - 40 * 86400)
    await rated_in(storage, "bluff", [3])
    await rated_in(storage, "open", [4])  # the other family only: not on this list
    await rated_in(storage, "bluff", [1], channel=CHANNEL + 1)  # another channel
    await played(storage, [1], period="m2026-11")  # last month: not this month's list
    await played(storage, [1], period=MONTH)
    assert await board(storage, "rating_bluff", channel_id=CHANNEL) == [
        (1, 2, 1200, 10),
        (2, 3, 1100, 10),
    ]
    assert await board(storage, "rating_bluff", channel_id=CHANNEL, period="month") == [
        (1, 3, 1100, 10),
    ]
    assert await board(storage, "rating_bluff", channel_id=CHANNEL, period="week") == [
        (1, 3, 1100, 10),
    ]
    assert await board(storage, "rating_bluff", channel_id=CHANNEL + 1) == [(1, 1, 1300, 10)]
    for period, count in (("all", 2), ("month", 1), ("week", 1)):
        _, total = await storage.leaderboard(
            GUILD, "rating_bluff", channel_id=CHANNEL, period=period, now=NOW
        )
        assert total == count, period
    assert await board(storage, "rating_bluff", period="month") == [
        (1, 1, 1300, 10),
        (2, 3, 1100, 10),
    ]
    assert await board(storage, "rating_bluff", period="week") == [
        (1, 1, 1300, 10),
        (2, 3, 1100, 10),
    ]
    assert [r[1] for r in await board(storage, "rating_bluff")] == [1, 2, 3, 4]
    mine = await storage.rank_of(GUILD, "rating_bluff", 2, period="month", now=NOW)
    assert mine is None, "not this month's"
    # A place is counted among that scope's people only.
    mine = await storage.rank_of(GUILD, "rating_bluff", 3, channel_id=CHANNEL, now=NOW)
    assert mine is not None and mine.rank == 2
    mine = await storage.rank_of(
        GUILD, "rating_bluff", 3, channel_id=CHANNEL, period="month", now=NOW
    )
    assert mine is not None and mine.rank == 1
    assert await storage.rank_of(GUILD, "rating_bluff", 1, channel_id=CHANNEL, now=NOW) is None
    assert await storage.rank_of(GUILD, "rating_bluff", 4, channel_id=CHANNEL, now=NOW) is None


async def test_computers_and_other_servers_are_left_out(storage: Storage) -> None:
    await rate(storage, "open", [(1, 1000, 3), (-7, 1500, 40), (2, 990, 3)])
    await rate(storage, "open", [(3, 1400, 9)], guild=OTHER_GUILD)
    await played(storage, [1, -7, 2, 3])
    await played(storage, [3], guild=OTHER_GUILD)
    assert await board(storage, "rating_open") == [(1, 1, 1000, 3), (2, 2, 990, 3)]
    _, total = await storage.leaderboard(GUILD, "rating_open", now=NOW)
    assert total == 2
    assert await storage.rank_of(GUILD, "rating_open", -7, now=NOW) is None


async def test_someone_who_played_but_has_no_rating_is_not_listed(storage: Storage) -> None:
    await rate(storage, "bluff", [(1, 1000, 1)])
    await played(storage, [1, 2])
    assert await board(storage, "rating_bluff") == [(1, 1, 1000, 1)]
    assert await storage.rank_of(GUILD, "rating_bluff", 2, now=NOW) is None


async def test_pages_never_repeat_or_skip_and_a_tie_keeps_its_place_across_pages(
    storage: Storage,
) -> None:
    # 25 people, shown in steps of 10 but every third one tied with the one before.
    people = [(user, 2000 - 10 * (user - user // 3), user % 4) for user in range(1, 26)]
    await rate(storage, "bluff", people)
    await played(storage, range(1, 26))
    everyone, total = await storage.leaderboard(GUILD, "rating_bluff", now=NOW, limit=100)
    assert total == 25
    paged = []
    for offset in range(0, 30, 7):
        rows, _ = await storage.leaderboard(GUILD, "rating_bluff", now=NOW, offset=offset, limit=7)
        paged += rows
    assert paged == everyone
    assert sorted(r.user_id for r in paged) == list(range(1, 26))
    # The places are competition ranks of the values, whatever the page.
    for row in everyone:
        assert row.rank == 1 + sum(other.value > row.value for other in everyone)
        mine = await storage.rank_of(GUILD, "rating_bluff", row.user_id, now=NOW)
        assert mine == row


async def test_the_other_statistics_still_read_the_bucket_alone(storage: Storage) -> None:
    await rate(storage, "bluff", [(1, 1500, 10)])
    await storage._write(
        [
            (
                "INSERT INTO stat_buckets (guild_id, channel_id, period, user_id, sips,"
                " games_played) VALUES (?, 0, 'all', ?, ?, ?)",
                (GUILD, user, sips, games),
            )
            for user, sips, games in [(1, 2, 1), (2, 5, 3)]
        ]
    )
    assert await board(storage, "sips") == [(1, 2, 5, 3), (2, 1, 2, 1)]
