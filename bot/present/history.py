"""/history: one line per finished round, every penalty in the rule set's own words."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.engine import Reason
from bot.present import i18n
from bot.present.i18n import Talk
from bot.present.words import Words, amount, listing, who
from bot.storage import RoundRecord

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
        text = t(
            "history-lost",
            round=record.round_no,
            preset=record.ruleset,
            p=who(str(record.loser_id), t),
            reason=str(reason),
        )
    paid: Sequence[Sequence[Any]] = record.summary.get("paid", [])
    bits = [_penalty(words, line) for line in _by_cause(paid)]
    for shown, bit in enumerate(bits):
        more = len(bits) - shown
        candidate = f"{text}{' · ' if shown else ' — '}{bit}"
        if len(candidate) > LINE_BUDGET and more > 1:
            return f"{text} · {t('history-more', more=more)}"
        text = candidate
    return text


def _by_cause(
    paid: Sequence[Sequence[Any]],
) -> list[tuple[Any, list[tuple[str, int]], Any, Any, Any]]:
    """A player's penalties of one cause together (a lost call costs a shot and a life):
    one line per cause, so the cause is said once, in the order first paid."""
    out: dict[str, tuple[Any, list[tuple[str, int]], Any, Any, Any]] = {}
    for line in paid:
        player, unit, n, cause = line[0], line[1], int(line[2]), line[3]
        detail = line[4] if len(line) > 4 else {}
        by = line[5] if len(line) > 5 else None
        key = json.dumps([player, cause, detail, by], sort_keys=True, default=str)
        amounts = out.setdefault(key, (player, [], cause, detail, by))[1]
        same = next((i for i, (u, _) in enumerate(amounts) if u == unit), None)
        if same is None:
            amounts.append((unit, n))
        else:  # three Socials in a round: "3 sips: Social"
            amounts[same] = (unit, amounts[same][1] + n)
    return list(out.values())


def _penalty(words: Words, line: tuple[Any, list[tuple[str, int]], Any, Any, Any]) -> str:
    player, amounts, cause, detail, by = line
    t = words.talk
    paid = listing([amount(n, unit, t) for unit, n in amounts], t)
    return t(
        "history-penalty",
        p=who(str(player), t),
        amount=paid,
        why=words.cause(cause, detail or {}, by),
    )
