"""The buttons' custom ids (bot/present/ids.py): the one place their prefixes are spelled,
so what a restart retires and what the button classes route agree (README, Playing)."""

from __future__ import annotations

import re

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
