"""The words a table speaks: rolls, amounts, causes and odds in one vocabulary per rule
set (README, Rule sets): ``mexican`` and ``dollar`` in words, the Dutch three in numbers.

Every message that names a roll or a penalty goes through here, so the turn message, the
reveal, /history and the stats card say the same thing the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine import PRESETS, Cause, Game, Options, Roll, from_code
from bot.engine.rolls import chance_to_beat, name

UNIT_WORDS: dict[str, tuple[str, str]] = {
    "sip": ("sip", "sips"), "shot": ("shot", "shots"), "chug": ("chug", "chugs"),
    "life": ("life", "lives"), "point": ("point", "points"), "game": ("game", "games"),
}  # fmt: skip
#: Drinks in the order a standing sums them up.
DRINKS = ("sip", "shot", "chug", "point")


def who(player: str | None) -> str:
    """A player as a mention (a user id) or as themselves (names in engine tests)."""
    if player is None:
        return "nobody"
    return f"<@{player}>" if player.isdigit() else player


#: A bare Discord id (a player as the engine names them) not already inside a mention.
_BARE_ID = re.compile(r"(?<![<@#&\d])(\d{15,21})(?![\d>])")


def mention_ids(text: str) -> str:
    """The engine's refusals speak of players by id ("it's 1234's move"); show mentions."""
    return _BARE_ID.sub(lambda m: f"<@{m.group(1)}>", text)


def amount(n: int, unit: str) -> str:
    one, many = UNIT_WORDS.get(unit, (unit, unit))
    return f"{n:,} {one if n == 1 else many}"


def drinks(totals: Mapping[str, int]) -> str:
    """Drinks taken, lives aside: ``2 sips, 1 shot``; empty when nothing was drunk."""
    return ", ".join(amount(totals[u], u) for u in DRINKS if totals.get(u))


#: What ending a round early is called at a table: "abort" in mexicanen (README, Rule
#: sets), "end early" elsewhere. (verb, choice, button label, cause)
ENDING: dict[str, tuple[str, str, str, str]] = {
    "mexicanen": ("aborts the round", "abort the round", "Abort round", "aborted the round"),
}
ENDING_EARLY = ("ends the round early", "end the round early", "End round early",
                "ended the round early")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Words:
    style: str
    top_name: str
    three_one: str
    reroll_three_one: bool
    #: How ending a round early is said here: (verb, choice, button label, cause).
    ending: tuple[str, str, str, str] = ENDING_EARLY

    @classmethod
    def of(cls, game: Game) -> Words:
        return cls.of_options(game.options, game.preset)

    @classmethod
    def of_options(cls, options: Options, preset: str) -> Words:
        return cls(options.style, options.top_name, options.three_one,
                   options.three_one != "low", ENDING.get(preset, ENDING_EARLY))  # fmt: skip

    @classmethod
    def of_preset(cls, preset: str) -> Words:
        """For records that keep only the rule set's name (history, stats)."""
        return cls.of_options(PRESETS.get(preset, PRESETS["mexican"]), preset)

    def roll(self, roll: str | Roll) -> str:
        value = from_code(roll) if isinstance(roll, str) else roll
        return name(value, self.style, self.top_name, self.three_one)  # type: ignore[arg-type]

    def odds(self, claim: str | Roll) -> str:
        """How often a fresh roll makes the claim, worded for likely and unlikely claims
        alike (out of 34 where a 3-1 is rolled again, README Rule sets)."""
        value = from_code(claim) if isinstance(claim, str) else claim
        chance = chance_to_beat(value, self.reroll_three_one)
        out_of = 34 if self.reroll_three_one else 36
        hits = int(chance * out_of)
        if hits == out_of:
            return f"every fresh roll makes {self.roll(value)}"
        if hits * 3 < out_of:
            return f"a fresh roll makes it only {hits} in {out_of}"
        if hits * 10 >= out_of * 9:
            return f"a fresh roll makes it {hits} in {out_of}, nearly always"
        return f"a fresh roll makes it {hits} in {out_of}"

    def cause(self, cause: str, detail: Mapping[str, Any], by: str | None) -> str:
        """Why a penalty was paid, short, in this table's words."""
        d = detail
        match cause:
            case Cause.CAUGHT:
                return f"caught bluffing {self.roll(d['claim'])} on {self.roll(d['cup'])}"
            case Cause.WRONG_CALL:
                return f"called a true {self.roll(d['claim'])}"
            case Cause.FOLDED:
                return f"folded against {self.roll(d['claim'])}"
            case Cause.SOCIAL:
                return "Social"
            case Cause.TIMER:
                return "time ran out"
            case Cause.HANDED_OUT:
                return f"handed out by {who(by)}"
            case Cause.KNIGHT_ONE_ONE:
                return "Knight, on a 1-1"
            case Cause.KNIGHT_DOUBLE:
                return f"Knight, on a double {d['die']}"
            case Cause.ENDED_EARLY:
                return self.ending[3]
            case Cause.LOWEST | Cause.POT:
                if d.get("roll") is None:
                    base = "last of the tied players"
                else:
                    base = f"lowest roll ({self.roll(d['roll'])})"
                if cause == Cause.POT:
                    return f"the pot, {base}"
                mexes = d.get("mexes") or 0
                return base + (f", {mexes}× {self.top_name}" if mexes else "")
        # Causes stored as text before they were codes (saved games, old history).
        return str(cause)
