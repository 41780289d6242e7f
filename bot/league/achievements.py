"""Achievements: what a finished game's event log says a person did that is worth a badge
(README, Achievements).

Pure: computed once per finished game, from the stored log and the final state, when
every cup has been lifted or taken away for good, so nothing here can depend on dice
still hidden. Storage keeps who holds what and each person's running counts.

Every achievement is one row of data: a fact, the count it needs, and whether the count
is about this game or a whole career. One pass over the log counts the game's facts per
player; a few more are read off the final state; career facts are the stored progress
plus what this game adds. So a new achievement is a new row, and maybe one new fact.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from bot.ai.personas import persona_of
from bot.engine import Game, Kind
from bot.engine.presets import PRESET_NAMES
from bot.engine.result import counts, winners
from bot.engine.result import places as result_places
from bot.league.stats import stored_id


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as storage holds it: what ratings and achievements are read from,
    the same at a game's end and in the backfill of older games."""

    game_id: int
    guild_id: int
    channel_id: int
    ruleset: str
    ended_at: float
    #: The final state (``Game.from_dict`` of the stored state's ``engine`` part).
    game: Game
    #: The stored event log in order: ``(kind, payload)`` as `TableService` wrote it
    #: ("move" entries, engine events as ``Event.to_dict()``, "cup_opened", ...); the
    #: league passes only the entries of `LOG_KINDS`, all that `award` reads.
    log: Sequence[tuple[str, Mapping[str, Any]]]


@dataclass(frozen=True, slots=True)
class Achievement:
    """One badge; its name and explanation are the catalogs' ``achievement-<key>`` and
    ``achievement-<key>-how``. Earned when ``fact`` reaches ``at_least``: counted in this
    one game, or (``career``) over every game the person played on the server."""

    key: str
    emoji: str = "🏅"
    fact: str = ""
    at_least: int = 1
    career: bool = False


def _badges(*rows: tuple[str, str, str, int, bool]) -> dict[str, Achievement]:
    return {key: Achievement(key, emoji, fact, n, career) for key, emoji, fact, n, career in rows}


GAME, CAREER = False, True
#: Every achievement, in the order `/achievements` lists them (README, Achievements).
ACHIEVEMENTS: dict[str, Achievement] = _badges(
    ("first_win", "🏆", "wins", 1, CAREER),
    ("ten_wins", "🥇", "wins", 10, CAREER),
    ("flawless", "💎", "flawless", 1, GAME),
    ("last_life", "❤️", "last_life", 1, GAME),
    ("comeback", "🔄", "comeback", 3, GAME),
    ("ada_slayer", "🤖", "beat_ada", 1, GAME),
    ("bluff_hunter", "🕵️", "caught", 3, GAME),
    ("lie_detector", "🧠", "perfect_calls", 4, GAME),
    ("mex_exposed", "🎯", "caught_top", 1, GAME),
    ("ghost_mex", "👻", "ghost_top", 1, GAME),
    ("blind_faith", "🙈", "blind_held", 1, GAME),
    ("triple_mex", "🌶️", "tops", 3, GAME),
    ("social", "🍻", "socials", 1, GAME),
    ("bartender", "🍹", "handed_out", 3, GAME),
    ("double_knight", "⚔️", "knighted", 2, GAME),
    ("tapper", "✋", "taps", 1, GAME),
    ("marathon", "🏃", "long_game", 30, GAME),
    ("full_table", "🪑", "table", 6, GAME),
    ("dry_run", "🧊", "dry_rounds", 10, GAME),
    ("tourist", "🗺️", "rulesets_played", len(PRESET_NAMES), CAREER),
    ("all_rounder", "🌍", "rulesets_won", len(PRESET_NAMES), CAREER),
    ("centurion", "💯", "games", 100, CAREER),
)

Progress = Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Awards:
    """What one finished game adds: per person, counts to add to their running progress
    (e.g. games played, wins per rule set), and the achievements they earn now."""

    progress: dict[int, dict[str, int]] = field(default_factory=dict)
    #: (user id, achievement key), each at most once per person, never one already held.
    earned: list[tuple[int, str]] = field(default_factory=list)


#: Codes as the log holds them: the top roll, the lives unit, a 3-1's hand-out.
TOP = "21"
LIFE = "life"
HANDED_OUT = "handed_out"
Facts = dict[str, int]
_NO_DATA: Mapping[str, Any] = {}
_NO_PROGRESS: Progress = {}
_NONE_HELD: frozenset[str] = frozenset()


class _Scan:
    """One pass over a game's log, counting per engine player the facts the achievements
    read. The dice of every cup are known here: seen rolls from the roller's private DICE
    event, blind ones from the reveal when the cup was lifted (a blind cup nobody lifted
    was never seen by anyone, so nothing about it counts)."""

    __slots__ = (
        "alive",
        "blind_claim",
        "bluffing",
        "cup",
        "cup_roller",
        "facts",
        "ghost",
        "lives",
        "rounds",
        "start_lives",
    )

    def __init__(self, game: Game) -> None:
        self.bluffing = game.bluffing
        self.start_lives = game.options.lives
        self.facts: dict[str, Facts] = {p: {} for p in game.players}
        self.lives: dict[str, int] = {}
        self.alive: set[str] = set()
        self.rounds = 0
        #: The dice under the cup now, if anyone saw them, and who rolled them.
        self.cup: str | None = None
        self.cup_roller: str | None = None
        #: The standing claim was made by someone who never saw the dice it is about.
        self.blind_claim = False
        #: Who claimed a 21 over dice that were no 21, until the claim is answered.
        self.ghost: str | None = None

    def add(self, player: str | None, fact: str, n: int = 1) -> None:
        facts = self.facts.get(player) if player is not None else None
        if facts is not None:
            facts[fact] = facts.get(fact, 0) + n

    def run(self, log: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        handlers = _HANDLERS
        for kind, payload in log:
            handler = handlers.get(kind)
            if handler is not None:
                handler(self, payload.get("player"), payload.get("data") or _NO_DATA)

    # --- handlers: (scan, player, data) ------------------------------------------------------
    def started(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.alive = set(data.get("players") or ())
        if self.start_lives is not None:
            self.lives = dict.fromkeys(self.alive, self.start_lives)

    def rolled(self, player: str | None, data: Mapping[str, Any]) -> None:
        if not self.bluffing:
            if data.get("dice") == TOP:
                self.add(player, "tops")
            return
        self.ghost = None  # new dice: a 21 claimed and believed was counted at the accept
        self.cup, self.cup_roller = None, player
        self.blind_claim = bool(data.get("blind"))

    def dice(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.cup = data.get("dice")
        self.blind_claim = False
        if self.cup == TOP:
            self.add(player, "tops")

    def claimed(self, player: str | None, data: Mapping[str, Any]) -> None:
        cup = self.cup
        self.blind_claim = self.blind_claim and player == self.cup_roller
        self.ghost = player if data.get("claim") == TOP and cup is not None and cup != TOP else None

    def passed(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.claimed(player, data)
        self.blind_claim = True  # passed on unseen: the passer never saw these dice

    def accepted(self, player: str | None, data: Mapping[str, Any]) -> None:
        if self.ghost is not None:
            self.add(self.ghost, "ghost_top")
            self.ghost = None

    def reveal(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.ghost = None
        if self.cup is None and data.get("dice") == TOP:
            self.add(self.cup_roller, "tops")  # a blind roll's 21, seen now the cup is up
        self.cup = data.get("dice")
        self.add(player, "calls")
        if data.get("bluff"):
            self.add(player, "caught")
            if data.get("claim") == TOP:
                self.add(player, "caught_top")
        else:
            self.add(player, "wrong_calls")
            if self.blind_claim:
                self.add(data.get("claimer"), "blind_held")

    def penalty(self, player: str | None, data: Mapping[str, Any]) -> None:
        if data.get("cause") == HANDED_OUT:
            self.add(data.get("by"), "handed_out", data.get("amount") or 0)
        if data.get("unit") != LIFE or player not in self.lives:
            return
        left = self.lives[player] = self.lives[player] - (data.get("amount") or 0)
        best = max(
            (self.lives[p] for p in self.alive if p != player and p in self.lives), default=left
        )
        facts = self.facts.get(player)
        if facts is not None and best - left > facts.get("behind", 0):
            facts["behind"] = best - left

    def gone(self, player: str | None, data: Mapping[str, Any]) -> None:
        if player is not None:
            self.alive.discard(player)

    def seated(self, player: str | None, data: Mapping[str, Any]) -> None:
        if player is not None:
            self.alive.add(player)

    def social(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.add(player, "socials")

    def knight(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.add(data.get("knight"), "knighted")

    def tapped(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.add(player, "taps")

    def round_over(self, player: str | None, data: Mapping[str, Any]) -> None:
        self.rounds += 1
        self.ghost = None


_Handler = Callable[[_Scan, "str | None", Mapping[str, Any]], None]
#: The log entries that count for something, by the kind they are stored under (plain
#: text keys: the log's kinds are text, and a dict of only text looks them up fastest);
#: every other entry is skipped. Each handler reads the stored data of its event class
#: (`Started`, `Rolled`, ...) by the keys its ``to_dict`` writes, without building the
#: class: converting costs more than the whole scan (README, Benchmarks: The league).
_HANDLERS: dict[str, _Handler] = {
    kind.value: handler
    for kind, handler in (
        (Kind.STARTED, _Scan.started),
        (Kind.ROLLED, _Scan.rolled),
        (Kind.DICE, _Scan.dice),
        (Kind.CLAIMED, _Scan.claimed),
        (Kind.PASSED, _Scan.passed),
        (Kind.ACCEPTED, _Scan.accepted),
        (Kind.REVEAL, _Scan.reveal),
        (Kind.PENALTY, _Scan.penalty),
        (Kind.OUT, _Scan.gone),
        (Kind.LEFT, _Scan.gone),
        (Kind.SEATED, _Scan.seated),
        (Kind.SOCIAL, _Scan.social),
        (Kind.KNIGHT, _Scan.knight),
        (Kind.TAPPED, _Scan.tapped),
        (Kind.ROUND_OVER, _Scan.round_over),
    )
}


#: The only kinds of log entry the achievements read: the league fetches just these from
#: storage (README, Benchmarks: The league), two thirds of a log being turns and moves.
LOG_KINDS: tuple[str, ...] = tuple(sorted(_HANDLERS))


@dataclass(frozen=True, slots=True)
class _Table:
    """What the final state says about the whole table, read once for all its people."""

    places: list[tuple[str, int]]
    winners: frozenset[str]
    #: Players knocked out (no lives left), and players who took a drink or point.
    knocked_out: frozenset[str]
    drinkers: frozenset[str]


def _table(game: Game, places: list[tuple[str, int]]) -> _Table:
    players = game.players
    knocked = frozenset(p for p, _ in places if players[p].lives == 0)
    drinkers = frozenset(
        p for p, _ in places if any(n for u, n in players[p].totals.items() if u != LIFE)
    )
    return _Table(places, winners(game, places), knocked, drinkers)


def _game_facts(game: Game, scan: _Scan, table: _Table, player: str) -> Facts:
    """The facts read off the final state, beside those the log pass counted."""
    facts = scan.facts.get(player, {})
    state = game.players[player]
    lives = game.options.lives
    stayed = not game.left_early(player)
    won = player in table.winners
    places = table.places
    facts["table"] = len(places)
    if stayed:
        facts["long_game"] = scan.rounds
    if won and lives is not None:
        knocked_out = bool(table.knocked_out - {player})
        facts["flawless"] = int(state.lives == lives and knocked_out)
        facts["last_life"] = int(state.lives == 1 and lives > 1)
        facts["comeback"] = facts.get("behind", 0)
    if won and len(places) == 2 and len(table.winners) == 1:  # a shared first beats nobody
        other = places[1][0] if places[0][0] == player else places[0][0]
        ada = persona_of(other)
        facts["beat_ada"] = int(ada is not None and ada.key == "expert")
    if not facts.get("wrong_calls"):
        facts["perfect_calls"] = facts.get("calls", 0)
    drinkers = table.drinkers
    if stayed and player not in drinkers and drinkers:
        facts["dry_rounds"] = scan.rounds
    return facts


#: Per rule set, its progress facts, so a career's rule sets are counted without
#: building names.
_PLAYED = tuple(f"played:{name}" for name in PRESET_NAMES)
_WON = tuple(f"won:{name}" for name in PRESET_NAMES)


def _career(progress: Progress, added: Mapping[str, int]) -> Facts:
    facts = {fact: progress.get(fact, 0) + n for fact, n in added.items()}
    for fact in ("games", "wins"):
        facts.setdefault(fact, progress.get(fact, 0))
    for names, derived in ((_PLAYED, "rulesets_played"), (_WON, "rulesets_won")):
        facts[derived] = len([f for f in names if progress.get(f, 0) + added.get(f, 0) > 0])
    return facts


#: The table of achievements by fact, for the loop every person goes through: only the
#: facts a person has are looked up (a count of 0 earns nothing, every ``at_least`` is
#: at least 1), then the earned are put back in `ACHIEVEMENTS` order.
_GAME_CHECKS: dict[str, list[tuple[int, str]]] = {}
_CAREER_CHECKS: dict[str, list[tuple[int, str]]] = {}
for _a in ACHIEVEMENTS.values():
    (_CAREER_CHECKS if _a.career else _GAME_CHECKS).setdefault(_a.fact, []).append(
        (_a.at_least, _a.key)
    )
_ORDER = {key: n for n, key in enumerate(ACHIEVEMENTS)}


def _earned(facts: Facts, checks: Mapping[str, list[tuple[int, str]]], has: Set[str]) -> list[str]:
    return [
        key
        for fact, count in facts.items()
        for at_least, key in checks.get(fact, ())
        if count >= at_least and key not in has
    ]


def award(
    finished: Finished,
    progress: Mapping[int, Progress],
    held: Mapping[int, Set[str]],
    places: list[tuple[str, int]] | None = None,
) -> Awards:
    """The achievements a finished game earns its people (computers earn none), given
    each person's progress and achievements before it. ``places``: the game's
    `result.places`, if the caller has them already (the league does)."""
    game = finished.game
    if not counts(game):
        # Hidden stays hidden: a running game's cups may still be down (README,
        # Achievements); and a game that does not count earns nothing (README, Ratings).
        return Awards()
    if places is None:
        places = result_places(game)
    people = [(p, who) for p, _ in places if (who := stored_id(p)) is not None and who > 0]
    if not people:
        return Awards()
    scan = _Scan(game)
    scan.run(finished.log)
    table = _table(game, places)
    ruleset = finished.ruleset
    awards = Awards()
    earned = awards.earned
    for player, who in people:
        added = {"games": 1, f"played:{ruleset}": 1}
        if player in table.winners:
            added["wins"] = 1
            added[f"won:{ruleset}"] = 1
        awards.progress[who] = added
        has = held.get(who, _NONE_HELD)
        keys = _earned(_game_facts(game, scan, table, player), _GAME_CHECKS, has)
        keys += _earned(_career(progress.get(who, _NO_PROGRESS), added), _CAREER_CHECKS, has)
        keys.sort(key=_ORDER.__getitem__)
        earned.extend((who, key) for key in keys)
    return awards
