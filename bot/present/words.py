"""The words a table speaks: rolls, amounts, causes and odds in one vocabulary per rule
set (README, Rule sets): ``mexican`` and ``dollar`` in words, the Dutch three in numbers.

Every message that names a roll or a penalty goes through here, so the turn message, the
reveal, /history and the stats card say the same thing the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.ai.personas import display_name, persona_of_stats_id
from bot.engine import PRESETS, Cause, Game, Options, Roll, from_code
from bot.engine.rolls import THREE_ONE, TOP, chance_to_beat, name
from bot.present import i18n
from bot.present.faces import faces
from bot.present.i18n import Talk

#: Drinks in the order a standing sums them up.
DRINKS = ("sip", "shot", "chug", "point")


def who(player: str | None, talk: Talk | None = None) -> str:
    """A player as a mention (a user id), a computer player by its name and face (never a
    mention, so never pinged), or as themselves (names in engine tests)."""
    if player is None:
        return (talk or i18n.talk())("nobody")
    if player.isdigit():
        return f"<@{player}>"
    if player.startswith("-") and player[1:].isdigit():  # a computer's stored id
        persona = persona_of_stats_id(int(player))
        return persona.display() if persona else (talk or i18n.talk())("a-computer")
    return display_name(player) or player


#: A bare Discord id (a player as the engine names them) not already inside a mention.
_BARE_ID = re.compile(r"(?<![<@#&\d])(\d{15,21})(?![\d>])")


def mention_ids(text: str) -> str:
    """The engine's refusals speak of players by id ("it's 1234's move"); show mentions."""
    return _BARE_ID.sub(lambda m: f"<@{m.group(1)}>", text)


def ruleset_name(preset: str, talk: Talk | None = None) -> str:
    """A rule set as players call it in their language (nl "Blufmexen", de "Mäxchen");
    its code stays what the commands take. A code no catalog names is shown as it is."""
    t = talk or i18n.talk()
    key = f"preset-name-{preset}"
    return t(key) if t.has(key) else preset


def amount(n: int, unit: str, talk: Talk | None = None) -> str:
    return (talk or i18n.talk())("amount", n=n, unit=unit)


def lives_due(unit: str, detail: Mapping[str, Any]) -> int | None:
    """The lives a penalty asked for where the player had fewer left (the engine's
    ``due`` in its detail), read the same from an event and from a stored round."""
    due = detail.get("due") if unit == "life" else None
    return due if isinstance(due, int) else None


def lives_lost(n: int, due: int | None, talk: Talk) -> str:
    """Lives lost; where fewer were left than due, "their last 3 lives (4 due)", so the
    number does not look miscounted."""
    if due is not None and due > n:
        return talk("amount-last-lives", n=n, due=due)
    return amount(n, "life", talk)


def listing(items: list[str], talk: Talk | None = None, word: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (or 'a or b') in the language's own way."""
    t = talk or i18n.talk()
    if not items:
        return ""
    text = items[-1]
    if len(items) > 1:
        text = t(f"list-{word}", a=items[-2], b=text)
    for item in reversed(items[:-2]):
        text = t("list-join", a=item, b=text)
    return text


def drinks(totals: Mapping[str, int], talk: Talk | None = None) -> str:
    """Drinks taken, lives aside: ``2 sips, 1 shot``; empty when nothing was drunk."""
    t = talk or i18n.talk()
    parts = [amount(totals[u], u, t) for u in DRINKS if totals.get(u)]
    text = parts[-1] if parts else ""
    for part in reversed(parts[:-1]):
        text = t("list-join", a=part, b=text)
    return text


@dataclass(frozen=True, slots=True)
class Words:
    style: str
    top_name: str
    three_one: str
    reroll_three_one: bool
    preset: str = ""
    talk: Talk = field(default_factory=i18n.talk)

    @classmethod
    def of(cls, game: Game, talk: Talk | None = None) -> Words:
        return cls.of_options(game.options, game.preset, talk)

    @classmethod
    def of_options(cls, options: Options, preset: str, talk: Talk | None = None) -> Words:
        return cls(
            options.style,
            options.top_name,
            options.three_one,
            options.three_one != "low",
            preset,
            talk or i18n.talk(),
        )

    @classmethod
    def of_preset(cls, preset: str, talk: Talk | None = None) -> Words:
        """For records that keep only the rule set's name (history, stats)."""
        return cls.of_options(PRESETS.get(preset, PRESETS["mexican"]), preset, talk)

    @property
    def top(self) -> str:
        return self.talk(f"top-{self.top_name.lower()}")

    def ending(self, part: str) -> str:
        """How ending a round early is said: verb, choice, button or cause, one name in
        every rule set (docs/languages.md)."""
        return self.talk(f"end-early-{part}")

    def roll(self, roll: str | Roll) -> str:
        value = from_code(roll) if isinstance(roll, str) else roll
        if value == TOP:
            return self.top
        if value == THREE_ONE and self.three_one in ("social", "handout", "elbow"):
            return self.talk(f"three-one-{self.three_one}")
        if self.style == "numbers":
            return name(value, "numbers", self.top_name, self.three_one)
        return self.talk(f"roll-{value[0]}{value[1]}")

    def dice(self, roll: str | Roll) -> str:
        """Dice the table shows: two die faces beside the roll's words (README, How the
        table talks), wherever a cup's dice come out."""
        value = from_code(roll) if isinstance(roll, str) else roll
        return f"{faces().of(value)} {self.roll(value)}"

    def odds(self, claim: str | Roll) -> str:
        """How often one fresh roll makes the claim, worded for likely and unlikely claims
        alike. Always out of 36, the dice everyone knows, and of one roll: a 3-1 rolled
        again is another roll, so it goes unsaid (README, How the table talks)."""
        value = from_code(claim) if isinstance(claim, str) else claim
        out_of = 36
        # A 3-1 rolled again never makes a claim on this roll (no claim is ever a 3-1).
        hits = int(chance_to_beat(value, False) * out_of)
        rerolled = 2 if self.reroll_three_one else 0
        if hits + rerolled == out_of:
            return self.talk("odds-every", roll=self.roll(value))
        return self._odds(hits, out_of)

    def _odds(self, hits: int, out_of: int) -> str:
        if hits * 3 < out_of:
            return self.talk("odds-rare", hits=hits, out=out_of)
        if hits * 10 >= out_of * 9:
            return self.talk("odds-likely", hits=hits, out=out_of)
        return self.talk("odds-plain", hits=hits, out=out_of)

    def cause(self, cause: str, detail: Mapping[str, Any], by: str | None) -> str:
        """Why a penalty was paid, short, in this table's words."""
        d, t = detail, self.talk
        match cause:
            case Cause.CAUGHT:
                return t("cause-caught", claim=self.roll(d["claim"]), cup=self.dice(d["cup"]))
            case Cause.WRONG_CALL:
                return t("cause-wrong-call", claim=self.roll(d["claim"]))
            case Cause.FOLDED:
                return t("cause-folded", claim=self.roll(d["claim"]))
            case Cause.SOCIAL:
                return t("cause-social")
            case Cause.TIMER:
                return t("cause-timer")
            case Cause.HANDED_OUT:
                return t("cause-handed-out", by=who(by, t))
            case Cause.KNIGHT_ONE_ONE:
                return t("cause-knight-one-one")
            case Cause.KNIGHT_DOUBLE:
                return t("cause-knight-double", die=d["die"])
            case Cause.ENDED_EARLY:
                return self.ending("cause")
            case Cause.LOWEST | Cause.POT:
                roll = None if d.get("roll") is None else self.roll(d["roll"])
                mexes = d.get("mexes") or 0
                if cause == Cause.POT:
                    return t("cause-pot", roll=roll) if roll else t("cause-pot-tied-left")
                if roll is None:
                    key = "cause-tied-left-mexes" if mexes else "cause-tied-left"
                    return t(key, mexes=mexes, top=self.top)
                key = "cause-lowest-mexes" if mexes else "cause-lowest"
                return t(key, roll=roll, mexes=mexes, top=self.top)
        # Causes stored as text before they were codes (saved games, old history).
        return str(cause)
