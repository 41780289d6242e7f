"""/history: one line per finished round, every penalty in the rule set's own words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine import Reason
from bot.storage import RoundRecord

from . import i18n
from .i18n import Talk
from .words import Words, amount, who

#: A line longer than this says how many more penalties there were instead.
LINE_BUDGET = 300
#: Reasons stored in words before they were codes (old history), as their codes: the
#: catalog's ``history-lost`` says each code in the reader's language.
OLD_REASONS = {"end early": Reason.END_EARLY, "timeout": Reason.TIMER}


def history_line(record: RoundRecord, t: Talk | None = None) -> str:
    """One round as the reader's language says it (English when no reader is known)."""
    t = t or i18n.talk()
    words = Words.of_preset(record.ruleset, t)
    if record.reason == Reason.VOID or record.loser_id is None:
        text = t("history-void", round=record.round_no, preset=record.ruleset)
    else:
        reason = OLD_REASONS.get(record.reason, record.reason)
        text = t("history-lost", round=record.round_no, preset=record.ruleset,
                 p=who(str(record.loser_id), t), reason=str(reason))  # fmt: skip
    paid: Sequence[Sequence[Any]] = record.summary.get("paid", [])
    bits = [_penalty(words, line) for line in paid]
    for shown, bit in enumerate(bits):
        more = len(bits) - shown
        candidate = f"{text}{' · ' if shown else ' — '}{bit}"
        if len(candidate) > LINE_BUDGET and more > 1:
            return f"{text} · {t('history-more', more=more)}"
        text = candidate
    return text


def _penalty(words: Words, line: Sequence[Any]) -> str:
    player, unit, n, cause = line[0], line[1], int(line[2]), line[3]
    detail = line[4] if len(line) > 4 else {}
    by = line[5] if len(line) > 5 else None
    t = words.talk
    return t("history-penalty", p=who(str(player), t), amount=amount(n, unit, t),
             why=words.cause(cause, detail or {}, by))  # fmt: skip
