"""Custom ids of the bot's buttons and menus: one encoding, read back in one place.

Every id names the game and the move number it was drawn for, so a button of an earlier
turn, or of an earlier game in the same channel, is refused instead of acting on a newer
state. A move button carries the move itself (``Move.encode``); a menu's options carry
theirs as values.
"""

from __future__ import annotations

import re

from bot.engine import Act, Move

MOVE_PREFIX, MENU_PREFIX, TOOL_PREFIX = "mx", "mxs", "mxt"
#: A leaderboard page's buttons (cogs/stats.py): the whole query is in the id.
PAGE_PREFIX = "lb"
#: discord.ui.DynamicItem templates: anything behind the prefix, so every id of this bot
#: reaches a callback, which reads it strictly (below) and refuses what does not parse
#: (an id of an older version of the bot, or a forged one) with a clear private answer.
#: ``(?s)``: a forged id may hold a line break, which must reach the refusal too.
MOVE_ROUTE = rf"(?s){MOVE_PREFIX}:(?P<rest>.{{0,97}})"
MENU_ROUTE = rf"(?s){MENU_PREFIX}:(?P<rest>.{{0,96}})"
TOOL_ROUTE = rf"(?s){TOOL_PREFIX}:(?P<rest>.{{0,96}})"
PAGE_ROUTE = rf"(?s){PAGE_PREFIX}:(?P<rest>.{{0,97}})"
#: Every id is read in ASCII only (``re.ASCII``): ``\d`` would also take other scripts'
#: digits, which ``int`` reads, so a forged "page ٣" or "game ١" would parse.
_MOVE = re.compile(
    r"(?P<game>\d{1,19}):(?P<n>\d{1,9}):(?P<move>[a-z]{1,10}(?:\.\w{1,24})?)", re.ASCII
)
_MENU = re.compile(r"(?P<game>\d{1,19}):(?P<n>\d{1,9}):(?P<act>[a-z]{1,10})", re.ASCII)
#: The acts a menu offers (a value or a target to pick); any other is no menu of ours.
MENU_ACTS = frozenset({Act.CLAIM.value, Act.PASS.value, Act.HANDOUT.value, Act.KNIGHT.value})
_TOOL = re.compile(
    r"(?P<game>\d{1,19}):(?P<n>\d{1,9}):(?P<tool>[a-z]{1,10})(?:\.(?P<arg>\w{1,64}))?", re.ASCII
)
_PAGE = re.compile(
    r"(?P<stat>[a-z_]{1,20}):(?P<scope>server|channel):(?P<period>all|month|week)"
    r":(?P<page>\d{1,6})",
    re.ASCII,
)
#: Pages a leaderboard button may ask for at most; a page past a board's last one is
#: refused too, once the board's size is read (cogs/stats.py).
MAX_PAGE = 100_000
OUTDATED = "button-outdated"
#: A click whose id is not honoured on the message it came on (bot/adapter/checks.py).
NOT_HERE = "button-not-here"
#: The largest game id storage can hold (a signed 64-bit column): a forged id past it is
#: no game of ours, and must be refused here rather than overflow a database query.
MAX_GAME_ID = 2**63 - 1


def _game(m: re.Match[str] | None) -> int | None:
    game = int(m["game"]) if m else None
    return game if game is not None and game <= MAX_GAME_ID else None


def read_move(rest: str) -> tuple[int, int, str] | None:
    """(game, move number, encoded move) of a move button, or None if it isn't one."""
    m = _MOVE.fullmatch(rest)
    game = _game(m)
    return (game, int(m["n"]), m["move"]) if m and game is not None else None


def read_menu(rest: str) -> tuple[int, int, str] | None:
    m = _MENU.fullmatch(rest)
    game = _game(m)
    return (game, int(m["n"]), m["act"]) if m and game is not None else None


def read_tool(rest: str) -> tuple[int, int, str, str] | None:
    m = _TOOL.fullmatch(rest)
    game = _game(m)
    return (game, int(m["n"]), m["tool"], m["arg"] or "") if m and game is not None else None


#: Tools: buttons that show something privately or open a new table, never a move.
SHOW_DICE, CHECK_CUP, REMATCH = "dice", "cup", "rematch"
TOOLS = frozenset({SHOW_DICE, CHECK_CUP, REMATCH})
#: Moves whose buttons stay valid while a lobby fills: the lobby message is edited in
#: place at every join, so its buttons carry no meaningful move number.
UNCHECKED = frozenset({Act.JOIN, Act.LEAVE, Act.START, Act.ADD_COMPUTER})


def acts_on_a_turn(custom_id: str) -> bool:
    """A move button or menu: what an old turn message must lose once its turn is over."""
    return custom_id.startswith((f"{MOVE_PREFIX}:", f"{MENU_PREFIX}:"))


def is_tool(custom_id: str) -> bool:
    """A tool button (dice, cup, rematch), which may outlive its turn."""
    return custom_id.startswith(f"{TOOL_PREFIX}:")


def is_rematch_of(custom_id: str, game_id: int) -> bool:
    """The Rematch button of game ``game_id``: its final standing carries it."""
    if not custom_id.startswith(f"{TOOL_PREFIX}:"):
        return False
    tool = read_tool(custom_id.split(":", 1)[1])
    return tool is not None and tool[0] == game_id and tool[2] == REMATCH


def move_id(game_id: int, move_no: int, move: Move) -> str:
    return f"{MOVE_PREFIX}:{game_id}:{move_no}:{move.encode()}"


def menu_id(game_id: int, move_no: int, act: Act) -> str:
    return f"{MENU_PREFIX}:{game_id}:{move_no}:{act.value}"


def tool_id(game_id: int, move_no: int, tool: str, arg: str = "") -> str:
    return f"{TOOL_PREFIX}:{game_id}:{move_no}:{tool}" + (f".{arg}" if arg else "")


def page_id(stat: str, scope: str, period: str, page: int) -> str:
    return f"{PAGE_PREFIX}:{stat}:{scope}:{period}:{page}"


def read_page(rest: str) -> tuple[str, str, str, int] | None:
    """(stat, scope, period, page) of a leaderboard button, or None if it isn't one."""
    m = _PAGE.fullmatch(rest)
    return (m["stat"], m["scope"], m["period"], int(m["page"])) if m else None


# --- the kinds of message ids belong on (bot/adapter/checks.py decides by them) -------------
#: The kinds of message the bot's components live on, by the prefix of their ids: a
#: game's messages (lobby, turn, private menu, final standing) and a leaderboard page.
GAME, PAGE = "game", "page"
KINDS = {MOVE_PREFIX: GAME, MENU_PREFIX: GAME, TOOL_PREFIX: GAME, PAGE_PREFIX: PAGE}


def kind_of(custom_id: str) -> str | None:
    """The kind of message an id of this bot belongs on (``KINDS``); None: no id of
    this bot's."""
    prefix, colon, _ = custom_id.partition(":")
    return KINDS.get(prefix) if colon else None


#: Each kind's routes, compiled: an id of the kind that none of them takes whole reaches
#: no callback.
ROUTES = {
    GAME: tuple(re.compile(r) for r in (MOVE_ROUTE, MENU_ROUTE, TOOL_ROUTE)),
    PAGE: (re.compile(PAGE_ROUTE),),
}
