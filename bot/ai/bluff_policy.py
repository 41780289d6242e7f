"""The heads-up bluffing strategy computed offline by :mod:`tools.cfr`, served as plain
Python data (README, Rule sets: ``mexican`` and ``dollar``).

The tables are read once from ``policy/<preset>.json`` beside this module, so the bot
needs neither numpy nor a solver at run time. Ranks are indices in ``ORDER`` (0 is 3-1,
20 the top roll); a standing claim of ``None`` means no claim yet; ``how`` is how the
claim was made: ``"seen"``, ``"blind"`` or ``"pass"``. Every lookup returns a fresh
``dict`` of action -> probability: ``"roll"``, ``"blind"``, ``"pass"``, ``"call"``,
``"accept"``, ``"fold"``, or a claimed rank as an ``int``.

A key the table lacks is a spot the abstract game never has (a claim that is not valid
over the standing one). Such a lookup gets a
plain, safe answer instead of an error, so the computer always has a move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from random import Random
from typing import Any

Action = str | int
Distribution = dict[Action, float]

TOP = 20
HOWS = ("seen", "blind", "pass")
#: The Discord presets solved, and the bot arena's rules (README, Arena rules).
PRESETS = ("dollar", "mexican", "maexchen")


def _s_key(s: int | None) -> str:
    return "-" if s is None else str(s)


def _actions(row: Mapping[str, float]) -> Distribution:
    """Claims are stored as JSON keys (text); hand them out as ranks."""
    return {(int(a) if a.isdigit() else a): float(x) for a, x in row.items()}


class Policy:
    """One preset's tables with the lookups of the abstract round's information sets."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.preset: str = document["preset"]
        rules = document["rules"]
        self.ties: bool = rules["ties"]
        self.fold: bool = rules["fold"]
        self.lowest: int = 1 if rules["reroll_three_one"] else 0
        #: A top claim is lifted at once: nothing may be claimed over it.
        self.top_shown: bool = rules.get("top_shown", False)
        self.exploitability: float = document["exploitability"]["shipped"]
        self.value_for_starter: float = document["value_for_starter"]
        self.iterations: int = document["solver"]["iterations"]
        #: What starting the next round is worth, in round outcomes (the caller starts it).
        self.start_value: float = document.get("start_value", 0.0)

        self._start = _actions(document["start"])
        self._tables: dict[str, dict[str, Distribution]] = {
            name: {key: _actions(row) for key, row in document[name].items()}
            for name in ("claim_seen", "claim_blind", "respond", "after", "pass_claim")
        }

    @classmethod
    def load(cls, preset: str) -> Policy:
        if preset not in PRESETS:
            raise ValueError(f"No bluffing policy for '{preset}'; there are: {', '.join(PRESETS)}.")
        text = resources.files(__package__).joinpath("policy", f"{preset}.json").read_text("utf-8")
        return cls(json.loads(text))

    def legal_claims(self, s: int | None) -> list[int]:
        """The claims the abstract game allows over ``s``, lowest first."""
        if s is None:
            return list(range(self.lowest, TOP + 1))
        if s >= TOP:
            return [] if self.top_shown else [TOP]
        return list(range(max(s if self.ties else s + 1, self.lowest), TOP + 1))

    def _look(self, table: str, key: str) -> Distribution | None:
        row = self._tables[table].get(key)
        return None if row is None else dict(row)

    def start(self) -> Distribution:
        return dict(self._start)

    def claim_seen(self, s: int | None, d: int) -> Distribution:
        found = self._look("claim_seen", f"{_s_key(s)},{d}")
        if found is not None:
            return found
        claims = self.legal_claims(s)
        return {d if d in claims else claims[0]: 1.0}  # the truth, or the least lie

    def claim_blind(self, s: int | None) -> Distribution:
        found = self._look("claim_blind", _s_key(s))
        return found if found is not None else {self.legal_claims(s)[0]: 1.0}

    def respond(self, c: int, s: int | None, how: str) -> Distribution:
        found = self._look("respond", f"{c},{_s_key(s)},{how}")
        return found if found is not None else {"call": 1.0}

    def after(self, c: int, s: int | None, how: str) -> Distribution:
        found = self._look("after", f"{c},{_s_key(s)},{how}")
        return found if found is not None else {"roll": 1.0}

    def pass_claim(self, c: int, s: int | None, how: str) -> Distribution:
        """Empty only where no pass is legal (over the top claim)."""
        found = self._look("pass_claim", f"{c},{_s_key(s)},{how}")
        if found is not None:
            return found
        return {c + 1: 1.0} if c < TOP else {}


@cache
def policy(preset: str) -> Policy:
    """The preset's policy, read from the package once per process."""
    return Policy.load(preset)


def start(preset: str) -> Distribution:
    """Starting a round: ``"roll"`` or ``"blind"``."""
    return policy(preset).start()


def claim_seen(preset: str, s: int | None, d: int) -> Distribution:
    """Having seen dice of rank ``d`` against the standing claim ``s``: a claim, or
    ``"fold"``."""
    return policy(preset).claim_seen(s, d)


def claim_blind(preset: str, s: int | None) -> Distribution:
    """Having rolled blind against the standing claim ``s``: a claim."""
    return policy(preset).claim_blind(s)


def respond(preset: str, c: int, s: int | None, how: str) -> Distribution:
    """Facing claim ``c`` made over ``s``: ``"call"`` or ``"accept"``."""
    return policy(preset).respond(c, s, how)


def after(preset: str, c: int, s: int | None, how: str) -> Distribution:
    """Holding the cup after accepting ``c``: ``"roll"``, ``"blind"`` or ``"pass"``."""
    return policy(preset).after(c, s, how)


def pass_claim(preset: str, c: int, s: int | None, how: str) -> Distribution:
    """Passing the accepted cup (claim ``c`` over ``s``) on unseen: the higher claim."""
    return policy(preset).pass_claim(c, s, how)


def choose(distribution: Mapping[Action, float], rng: Random) -> Action:
    """One action drawn from a lookup's answer."""
    if not distribution:
        raise ValueError("There is no action to choose from.")
    pick = rng.random() * sum(distribution.values())
    for action, weight in distribution.items():
        pick -= weight
        if pick < 0:
            return action
    return next(reversed(list(distribution)))
