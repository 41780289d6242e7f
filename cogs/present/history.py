"""/history: one line per finished round, every penalty in the rule set's own words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine import Reason
from bot.storage import RoundRecord

from .words import Words, amount, who

#: A line longer than this says how many more penalties there were instead.
LINE_BUDGET = 300
REASONS = {
    Reason.CALL: "on a call", Reason.FOLD: "folded", Reason.TIMER: "time ran out",
    Reason.LOWEST: "lowest roll", Reason.END_EARLY: "ended it early",
    "end early": "ended it early", "timeout": "time ran out",
}  # fmt: skip


def history_line(record: RoundRecord) -> str:
    words = Words.of_preset(record.ruleset)
    head = f"`#{record.round_no}` {record.ruleset}: "
    if record.reason == Reason.VOID or record.loser_id is None:
        head += "void, nobody paid"
    else:
        head += f"{who(str(record.loser_id))} lost ({REASONS.get(record.reason, record.reason)})"
    paid: Sequence[Sequence[Any]] = record.summary.get("paid", [])
    bits = [_penalty(words, line) for line in paid]
    text = head
    for shown, bit in enumerate(bits):
        more = len(bits) - shown
        candidate = f"{text}{' · ' if shown else ' — '}{bit}"
        if len(candidate) > LINE_BUDGET and more > 1:
            return f"{text} · and {more} more"
        text = candidate
    return text


def _penalty(words: Words, line: Sequence[Any]) -> str:
    player, unit, n, cause = line[0], line[1], int(line[2]), line[3]
    detail = line[4] if len(line) > 4 else {}
    by = line[5] if len(line) > 5 else None
    return f"{who(str(player))} {amount(n, unit)}: {words.cause(cause, detail or {}, by)}"
