"""Source hygiene the formatter and the type checker leave to us (README, How the code is
laid out): ruff's layout is the project's, so no line opts out of it, and every ignore of
the type checker says why beside its error code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("bot", "cogs", "tools", "tests", "benchmarks")
#: Spelled apart, so this file does not hold the marker it looks for.
SKIP = "# fmt: " + "skip"
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[\w\-, ]+\])?(?P<rest>.*)$")


def sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def skips(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.rstrip().endswith(SKIP))


def unexplained_ignores(text: str) -> list[str]:
    """Lines whose ignore names no code, or gives no reason in a comment after it."""
    found = []
    for line in text.splitlines():
        m = IGNORE.search(line)
        if m and (not m["code"] or not m["rest"].strip().startswith("#")):
            found.append(line.strip())
    return found


def test_the_rules_see_what_they_should() -> None:
    assert skips(f"x = 1  {SKIP}\ny = 2\n") == 1
    assert unexplained_ignores("a = b  # type: ignore[arg-type]\n") == [
        "a = b  # type: ignore[arg-type]"
    ]
    assert unexplained_ignores("a = b  # type: ignore[arg-type]  # stub lacks it\n") == []


def test_no_line_opts_out_of_the_formatter() -> None:
    found = [str(p.relative_to(ROOT)) for p in sources() if skips(p.read_text("utf-8"))]
    assert found == []


def test_every_type_ignore_in_the_bot_says_why() -> None:
    found = {
        str(p.relative_to(ROOT)): bad
        for folder in ("bot", "cogs")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if (bad := unexplained_ignores(p.read_text("utf-8")))
    }
    assert found == {}


def test_the_commit_hooks_run_what_ci_runs() -> None:
    """The pre-commit hooks (CONTRIBUTING.md) are a valid configuration and run the same
    ruff and mypy commands as CI after the tests, so a commit that passes them passes those."""
    import subprocess
    import sys

    import yaml

    config = ROOT / ".pre-commit-config.yaml"
    checked = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", str(config)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    hooks = [hook for repo in yaml.safe_load(config.read_text())["repos"] for hook in repo["hooks"]]
    entries = {hook["entry"].replace(" --force-exclude", "") for hook in hooks}
    ci = (ROOT / ".ci" / "run").read_text()
    assert entries == {".venv/bin/ruff check", ".venv/bin/ruff format --check", ".venv/bin/mypy"}
    for entry in entries:
        assert entry in ci, entry
