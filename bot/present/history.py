"""/history: one line per finished round, every penalty in the rule set's own words."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import Reason
from bot.present import i18n
from bot.present.i18n import Talk
from bot.present.words import Words, amount, listing, lives_due, lives_lost, ruleset_name, who
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
        text = t("history-void", round=record.round_no, preset=ruleset_name(record.ruleset, t))
    else:
        reason = OLD_REASONS.get(record.reason, record.reason)
        text = t(
            "history-lost",
            round=record.round_no,
            preset=ruleset_name(record.ruleset, t),
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


@dataclass(slots=True)
class _Paid:
    """One player's penalties of one cause in a round, as /history says them."""

    player: Any
    amounts: list[tuple[str, int]]
    cause: Any
    detail: dict[str, Any]
    by: Any
    #: Lives that were due where the player lost their last ones (README, How the table
    #: talks): part of the amount, not of the cause.
    due: int | None = None


def _by_cause(paid: Sequence[Sequence[Any]]) -> list[_Paid]:
    """A player's penalties of one cause together (a lost call costs a shot and a life):
    one line per cause, so the cause is said once, in the order first paid."""
    out: dict[str, _Paid] = {}
    for line in paid:
        player, unit, n, cause = line[0], line[1], int(line[2]), line[3]
        detail = dict(line[4] or {}) if len(line) > 4 else {}
        by = line[5] if len(line) > 5 else None
        due = lives_due(unit, detail)
        detail.pop("due", None)
        key = json.dumps([player, cause, detail, by], sort_keys=True, default=str)
        entry = out.setdefault(key, _Paid(player, [], cause, detail, by))
        if due is not None:
            entry.due = due
        same = next((i for i, (u, _) in enumerate(entry.amounts) if u == unit), None)
        if same is None:
            entry.amounts.append((unit, n))
        else:  # three Socials in a round: "3 sips: Social"
            entry.amounts[same] = (unit, entry.amounts[same][1] + n)
    return list(out.values())


def _penalty(words: Words, line: _Paid) -> str:
    t = words.talk
    paid = listing(
        [
            lives_lost(n, line.due, t) if unit == "life" else amount(n, unit, t)
            for unit, n in line.amounts
        ],
        t,
    )
    return t(
        "history-penalty",
        p=who(str(line.player), t),
        amount=paid,
        why=words.cause(line.cause, line.detail, line.by),
    )
