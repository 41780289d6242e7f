"""Replays every worked example of the rule book (tests/data/rule_cases.json) against the
engine: the conformance suite. A case id names the rule it checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .engine_helpers import Replay

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "rule_cases.json").read_text(encoding="utf-8")
)["cases"]


def test_every_preset_has_cases() -> None:
    presets = {case["preset"] for case in CASES}
    assert presets == {"mexican", "dollar", "mexen", "mexicanen", "mexico"}
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_rule_example(case: dict[str, Any]) -> None:
    Replay(case).run()
