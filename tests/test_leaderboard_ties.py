"""Tied players share a place (1, 2, 2, 4) on every page and in "Your place".

The counters are written through `save_move`, the path the bot itself uses; each test
names its players by user id so the expected places read straight off the numbers.
Each test runs on both backends.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage import Storage

from .db_helpers import storage_fixture
from .support.sim import SimTable

GUILD = 1

# Every test here runs on SQLite and on PostgreSQL: the same places from both.
storage = storage_fixture()


async def seed(store: Storage, players: Mapping[int, Mapping[str, int]]) -> None:
    """Give each user id its counters in the server-wide, all-time bucket of GUILD."""
    game = await store.create_game(GUILD, 2, "mexen", "{}")
    deltas = {(GUILD, user): dict(counters) for user, counters in players.items()}
    await store.save_move(game.id, "{}", "running", [], deltas)


async def places(
    store: Storage, stat: str, *, offset: int = 0, limit: int = 10
) -> list[tuple[int, int]]:
    rows, _ = await store.leaderboard(GUILD, stat, offset=offset, limit=limit)
    return [(r.rank, r.user_id) for r in rows]


async def own_place(store: Storage, stat: str, user: int) -> int | None:
    mine = await store.rank_of(GUILD, stat, user)
    return mine.rank if mine else None


async def test_a_tie_at_the_top_shares_first_place(storage: Storage) -> None:
    await seed(storage, {1: {"sips": 5}, 2: {"sips": 5}, 3: {"sips": 3}, 4: {"sips": 1}})
    assert await places(storage, "sips") == [(1, 1), (1, 2), (3, 3), (4, 4)]


async def test_within_a_tie_more_games_come_first_then_lower_user_ids(storage: Storage) -> None:
    await seed(
        storage,
        {
            1: {"sips": 5, "games_played": 1},
            2: {"sips": 5, "games_played": 3},
            3: {"sips": 5, "games_played": 1},
            4: {"sips": 9, "games_played": 1},
        },
    )
    assert await places(storage, "sips") == [(1, 4), (2, 2), (2, 1), (2, 3)]


async def test_a_tie_in_the_middle_shares_a_place_and_the_next_skips(storage: Storage) -> None:
    await seed(
        storage,
        {
            1: {"sips": 9},
            2: {"sips": 5},
            3: {"sips": 5},
            4: {"sips": 5},
            5: {"sips": 2},
        },
    )
    assert await places(storage, "sips") == [(1, 1), (2, 2), (2, 3), (2, 4), (5, 5)]


async def test_a_tie_across_a_page_boundary_has_one_place_on_both_pages(
    storage: Storage,
) -> None:
    # Users 1-8 have 20..13 sips; 9-12 tie on 5 (places 9 to 12, pages 1 and 2); 13 has 1.
    players = {user: {"sips": 21 - user} for user in range(1, 9)}
    players |= {user: {"sips": 5} for user in range(9, 13)} | {13: {"sips": 1}}
    await seed(storage, players)
    assert (await places(storage, "sips"))[-2:] == [(9, 9), (9, 10)]
    assert await places(storage, "sips", offset=10) == [(9, 11), (9, 12), (13, 13)]


async def test_the_callers_own_place_in_a_tie_is_the_shared_one(storage: Storage) -> None:
    await seed(storage, {1: {"sips": 9}, 2: {"sips": 5}, 3: {"sips": 5}, 4: {"sips": 2}})
    assert [await own_place(storage, "sips", user) for user in (1, 2, 3, 4, 5)] == [
        1,
        2,
        2,
        4,
        None,
    ]


async def test_rates_tie_on_equal_fractions_and_the_minimum_still_applies(
    storage: Storage,
) -> None:
    # 3/5 and 6/10 are the same rate; 4/4 is below the 5-game minimum and unranked.
    await seed(
        storage,
        {
            1: {"games_played": 5, "games_won": 3},
            2: {"games_played": 10, "games_won": 6},
            3: {"games_played": 4, "games_won": 4},
            4: {"games_played": 5, "games_won": 1},
            5: {"games_played": 5, "games_won": 5},
        },
    )
    rows, total = await storage.leaderboard(GUILD, "winrate")
    assert ([(r.rank, r.user_id) for r in rows], total) == ([(1, 5), (2, 2), (2, 1), (4, 4)], 4)
    assert [await own_place(storage, "winrate", user) for user in (1, 2, 3, 4)] == [
        2,
        2,
        None,
        4,
    ]


async def test_bluff_success_ties_across_pages_with_its_minimum(storage: Storage) -> None:
    # (made - caught) / made: 4/5 == 8/10 == 0.8 for users 2-4; user 6 made too few bluffs.
    await seed(
        storage,
        {
            1: {"bluffs_made": 5},
            2: {"bluffs_made": 5, "bluffs_caught": 1},
            3: {"bluffs_made": 10, "bluffs_caught": 2},
            4: {"bluffs_made": 5, "bluffs_caught": 1},
            5: {"bluffs_made": 5, "bluffs_caught": 5},
            6: {"bluffs_made": 4},
        },
    )
    pages = [await places(storage, "bluffing", offset=o, limit=2) for o in (0, 2, 4)]
    assert pages == [[(1, 1), (2, 2)], [(2, 3), (2, 4)], [(5, 5)]]
    assert await own_place(storage, "bluffing", 4) == 2


async def test_every_page_size_gives_the_same_places_as_rank_of(storage: Storage) -> None:
    """Ties at the top, in the middle and at zero (wins counts players who never won),
    with games played breaking them: users 1-11 have played 9, 8, 10, 9, 8, 10, ... games."""
    wins = [7, 7, 5, 4, 4, 4, 4, 2, 0, 0, 0]
    await seed(
        storage,
        {
            user: {"games_played": 10 - user % 3, "games_won": won}
            for user, won in enumerate(wins, start=1)
        },
    )
    expected = [
        (1, 1),
        (1, 2),
        (3, 3),
        (4, 6),
        (4, 4),
        (4, 7),
        (4, 5),
        (8, 8),
        (9, 9),
        (9, 10),
        (9, 11),
    ]
    for size in range(1, len(wins) + 1):
        paged: list[tuple[int, int]] = []
        for offset in range(0, len(wins), size):
            paged += await places(storage, "wins", offset=offset, limit=size)
        assert paged == expected, f"pages of {size}"
    assert [(await own_place(storage, "wins", user), user) for _, user in expected] == expected


async def test_a_page_past_the_end_is_empty_but_still_counts_everyone(storage: Storage) -> None:
    """The total rides on the page's rows, yet a stale ▶ button can still ask for a page
    that no longer exists (after a reset, say); the footer needs the total all the same."""
    await seed(storage, {1: {"sips": 3}, 2: {"sips": 3}})
    assert await storage.leaderboard(GUILD, "sips", offset=10) == ([], 2)


async def test_the_leaderboard_command_shows_tied_players_on_one_place(sim: SimTable) -> None:
    """The reported symptom: two players without a win were shown as #2 and #3."""
    store, guild = sim.bot.storage, sim.guild.id
    viewer = sim.users[1]
    game = await store.create_game(guild, sim.channel.id, "mexen", "{}")
    await store.save_move(
        game.id,
        "{}",
        "running",
        [],
        {
            (guild, 1000): {"games_played": 2, "games_won": 2},
            (guild, 1001): {"games_played": 2},
            (guild, viewer.id): {"games_played": 2},
        },
    )
    result = await viewer.slash(sim.channel, "leaderboard", stat="wins")
    embed = result.response.embeds[0]
    assert embed.description.splitlines() == [
        "**#1** <@1000> · 2",
        "**#2** <@1001> · 0",
        f"**#2** <@{viewer.id}> · 0",
    ]
    assert {f.name: f.value for f in embed.fields}["Your place"] == "#2 · 0"
