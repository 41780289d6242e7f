"""A replay made ready to serve (docs/web.md, Replays): its steps worded, as HTML, and cut
into parts of `PART` steps, each part's JSON made once.

This runs in a worker process (bot/web/replays.py), not on the event loop that serves
the pages and, with WEB_PORT, plays the games: it takes and returns plain values only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.present.i18n import Talk, talk
from bot.present.words import who
from bot.storage.web_queries import StoredEntry
from bot.web.names import Names
from bot.web.replay import Step, replay

#: Steps in one part: the page arrives with the first part and asks for the next ones.
PART = 100


@dataclass(frozen=True, slots=True)
class Built:
    """A replay as JSON parts: part ``n`` holds steps ``n * PART`` onwards."""

    ruleset: str
    total: int
    parts: tuple[bytes, ...]
    #: Its pages as served, by link and part, made on the event loop at their first read
    #: (a few for each link, not counted in `size`).
    pages: dict[tuple[str, int], bytes] = field(default_factory=dict, compare=False)

    @property
    def size(self) -> int:
        return sum(len(part) for part in self.parts)


def build(
    ruleset: str,
    state_text: str,
    entries: Sequence[StoredEntry],
    language: str,
    known: Mapping[str, str],
    link: str,
) -> Built:
    """A finished game's replay in ``language``, players named from ``known`` and
    linked to their profiles under ``link``."""
    t = talk(language)
    names = Names(known, t)
    said: dict[str, str] = {}

    def say(text: str) -> str:
        # A long game says the same names and lines again and again: each once.
        if text not in said:
            said[text] = str(names.html(text, link))
        return said[text]

    steps = replay(state_text, entries, t)
    players: list[str] = []
    for step in steps:
        for seat in step.seats:
            if seat.player not in players:
                players.append(seat.player)
    seat_names = [say(who(player, t)) for player in players]
    index = {player: n for n, player in enumerate(players)}
    shown = []
    for n, step in enumerate(steps, start=1):
        data = _step(step, say, index, t)
        data["where"] = t("web-step", n=n, total=len(steps))
        shown.append(data)
    parts = tuple(
        # In a <script type="application/json">: "</" could close the element early.
        orjson.dumps({"players": seat_names, "steps": shown[i : i + PART]}).replace(b"</", b"<\\/")
        for i in range(0, max(1, len(shown)), PART)
    )
    return Built(ruleset, len(shown), parts)


def _step(
    step: Step, say: Callable[[str], str], index: Mapping[str, int], t: Talk
) -> dict[str, Any]:
    """A step as the page's script reads it: every text already HTML, escaped here; a
    seat names its player by their place in the part's ``players``."""
    return {
        "lines": [say(line) for line in step.lines],
        "round": t("web-round", round=step.round) if step.round else "",
        "move": say(t("web-to-move", p=who(step.to_move, t))) if step.to_move else "",
        "claim": say(t("web-claim", claim=step.claim, p=who(step.claimer, t)))
        if step.claim and step.claimer
        else "",
        "cup": say(t("web-cup-lifted", dice=step.dice))
        if step.cup == "lifted" and step.dice
        else say(t("web-cup-down"))
        if step.cup == "down"
        else "",
        "digest": step.seal.digest if step.seal else "",
        "sealed": step.seal.text if step.seal and step.seal.text else "",
        "seats": [
            [index[seat.player], "" if seat.lives is None else seat.lives, seat.taken, seat.out]
            for seat in step.seats
        ],
    }
