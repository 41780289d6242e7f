"""The buttons' custom ids (bot/present/ids.py): the one place their prefixes are spelled,
so what a restart retires and what the button classes route agree (README, Playing); and
the message each kind of id counts on (bot/adapter/checks.py)."""

from __future__ import annotations

import re

import pytest

from bot.adapter import checks
from bot.engine import Act, Move
from bot.present import ids


def test_each_kind_of_id_is_told_apart_by_its_prefix() -> None:
    move = ids.move_id(7, 3, Move(Act.ROLL))
    menu = ids.menu_id(7, 3, Act.CLAIM)
    tool = ids.tool_id(7, 3, ids.CHECK_CUP, "ab12")
    assert ids.acts_on_a_turn(move) and ids.acts_on_a_turn(menu)
    assert not ids.acts_on_a_turn(tool)
    assert ids.is_tool(tool) and not ids.is_tool(move) and not ids.is_tool(menu)


def test_each_route_matches_its_own_ids_only() -> None:
    made = {
        ids.MOVE_ROUTE: ids.move_id(7, 3, Move(Act.ROLL)),
        ids.MENU_ROUTE: ids.menu_id(7, 3, Act.CLAIM),
        ids.TOOL_ROUTE: ids.tool_id(7, 3, ids.SHOW_DICE),
        ids.PAGE_ROUTE: ids.page_id("wins", "server", "all", 2),
    }
    for route, custom_id in made.items():
        for other_route in made:
            matched = re.fullmatch(other_route, custom_id) is not None
            assert matched == (other_route == route), (other_route, custom_id)


def test_what_a_route_hands_on_reads_back() -> None:
    m = re.fullmatch(ids.MOVE_ROUTE, ids.move_id(7, 3, Move(Act.ROLL)))
    assert m is not None and ids.read_move(m["rest"]) == (7, 3, "roll")
    t = re.fullmatch(ids.TOOL_ROUTE, ids.tool_id(7, 3, ids.CHECK_CUP, "ab12"))
    assert t is not None and ids.read_tool(t["rest"]) == (7, 3, "cup", "ab12")


def test_a_page_id_reads_back_and_every_route_takes_discord_s_longest_id() -> None:
    custom_id = ids.page_id("rating_bluff", "channel", "week", 12)
    m = re.fullmatch(ids.PAGE_ROUTE, custom_id)
    assert m is not None and ids.read_page(m["rest"]) == ("rating_bluff", "channel", "week", 12)
    for prefix in ids.KINDS:  # Discord's custom ids are at most 100 characters
        longest = f"{prefix}:" + "x" * (99 - len(prefix))
        assert len(longest) == 100 and checks.routed(longest), prefix
        assert not checks.routed(longest + "x"), prefix
    assert checks.kind_of("lb:x") == ids.PAGE and checks.kind_of("mxs:x") == ids.GAME
    assert checks.kind_of("lbx") is None and checks.kind_of("other:1") is None


def test_only_ascii_digits_are_read() -> None:
    """``int`` reads other scripts' digits too: a forged "٣" names no page or game."""
    assert ids.read_page("wins:server:all:٣") is None
    assert ids.read_move("١:2:roll") is None and ids.read_menu("1:٢:claim") is None
    assert ids.read_tool("1:2:cup.ab١") is None


ROLL, PAGE = ids.move_id(7, 3, Move(Act.ROLL)), ids.page_id("wins", "server", "all", 1)
CUP = ids.tool_id(7, 3, ids.CHECK_CUP, "ab12")


def click(custom_id: str, *shown: str, **how: bool) -> checks.Clicked:
    on = tuple(checks.Shown(s.removesuffix("!"), 2, disabled=s.endswith("!")) for s in shown)
    facts = {"by_us": True, "private": False, "live": False} | how
    return checks.Clicked(custom_id, 2, on, **facts)


@pytest.mark.parametrize(
    "clicked, honoured",
    [
        (click(ROLL, ROLL, CUP, live=True), True),  # the turn message
        (click(ROLL, ROLL, private=True), True),  # a private menu
        (click(CUP, CUP), True),  # an older turn message's Cup check
        (click(PAGE, PAGE, PAGE), True),  # a leaderboard page
        (click(ROLL, CUP, live=True), False),  # not on the message
        (click(ROLL), False),  # a message with no buttons
        (click(ROLL, ROLL + "!", live=True), False),  # shown disabled
        (click(PAGE, PAGE + "!"), False),  # ▶ on the last page
        (click(ROLL, ROLL, PAGE), False),  # a message of two kinds
        (click(PAGE, PAGE, live=True), False),  # the turn message, as a forged payload shows it
        (click(PAGE, PAGE, private=True), False),  # pages are public
        (click(ROLL, ROLL, by_us=False), False),  # someone else's message
        (click("other:1", "other:1"), False),  # no id of this bot's
    ],
)
def test_an_id_counts_only_on_a_message_of_its_own_kind_that_shows_it(
    clicked: checks.Clicked, honoured: bool
) -> None:
    assert (checks.placed(clicked) is None) == honoured
    if not honoured:
        assert checks.placed(clicked) == ids.NOT_HERE


def test_a_component_of_another_type_with_the_same_id_is_not_the_one_clicked() -> None:
    menu = ids.menu_id(7, 3, Act.CLAIM)
    shown = (checks.Shown(menu, 3),)
    facts = {"by_us": True, "private": False, "live": True}
    assert checks.placed(checks.Clicked(menu, 3, shown, **facts)) is None
    assert checks.placed(checks.Clicked(menu, 2, shown, **facts)) == ids.NOT_HERE
