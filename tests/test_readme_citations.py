"""Every README section the code cites exists, in the README or in the docs.

Comments and docstrings point readers at the README by section: ``(README, Rule sets)``,
``(README, Running at scale: While the database is down)``, ``README, section Tests``,
``(README, Ratings; Seasons)``, ``(README, Playing against the computer and Benchmarks)``.
The README keeps the first hour and the documentation site (``docs/*.md``, README,
Documentation) the rest, so "README" names the two together: a section may be a heading
of README.md or of any page in docs/. A renamed heading leaves such pointers dangling, so
each one is checked here against those headings (``#`` lines outside code blocks),
compared case-insensitively and without backticks; a section no page has fails.

How a citation is read, from the comments and strings of the .py files (``tokenize``, so
a citation may run over several comment lines):

- It starts at ``README,`` or ``README`` followed by a capitalised name or ``(``; a
  leading ``section``/``sections`` is dropped.
- Right after an opening parenthesis, ``(README, …)``, it runs to the closing one;
  otherwise to the first ``)``, ``;`` or full stop. ``README (X)`` cites X.
- ``;`` separates sections. In each, what precedes the first ``:`` is the section; what
  follows may be a subsection or a pointer within it (``Rule sets: the 21 rolls``).
- A section that is no heading as a whole may be a list of headings joined by ``and``
  (``Playing against the computer and Benchmarks``), each of which must be one.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("bot", "cogs", "tests", "benchmarks", "tools")
#: Where the cited sections are: the README and the documentation site's pages.
PAGES = (REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").rglob("*.md")))

START = re.compile(r"\bREADME(?:,\s*|\s+(?=[A-Z(]))(?:sections?\s+)?")
FENCE = re.compile(r"^\s*(```|~~~)")


def normal(text: str) -> str:
    return " ".join(text.replace("`", "").split()).strip().lower()


def headings(readme: str) -> set[str]:
    found: set[str] = set()
    fenced = False
    for line in readme.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(normal(line.lstrip("#")))
    return found


def texts(source: str) -> list[tuple[int, str]]:
    """The comments (runs of comment lines joined) and strings of a module, each with the
    line it starts on."""
    found: list[tuple[int, str]] = []
    comment: list[str] = []
    start = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            if comment and tok.start[0] != start + len(comment):
                found.append((start, "\n".join(comment)))
                comment = []
            if not comment:
                start = tok.start[0]
            comment.append(tok.string.lstrip("#:"))
        elif tok.type == tokenize.STRING:
            found.append((tok.start[0], tok.string))
    if comment:
        found.append((start, "\n".join(comment)))
    return found


def citations(text: str) -> list[tuple[int, str]]:
    """The sections ``text`` cites, as written (whitespace folded), each with the number
    of lines before it in ``text``."""
    cited = []
    for match in START.finditer(text):
        rest = text[match.end() :]
        if rest.startswith("("):  # README (Rule sets)
            name = rest[1:].partition(")")[0]
        elif text[: match.start()].endswith("("):  # (README, Ratings; Seasons)
            name = rest.partition(")")[0]
        else:  # README, section Settings; nothing is inherited
            name = re.split(r"[);]|\.(?:\s|$)|\.?\"", rest, maxsplit=1)[0]
        cited.append((text.count("\n", 0, match.start()), " ".join(name.split())))
    return cited


def missing(cited: str, known: set[str]) -> list[str]:
    """The names in one citation that are no README heading."""
    wrong = []
    for part in cited.split(";"):
        section = normal(part.partition(":")[0])
        if section in known or normal(part) in known:
            continue
        names = [normal(name) for name in re.split(r"\s+and\s+", section)]
        if len(names) == 1 or any(name not in known for name in names):
            wrong.append(part.strip())
    return wrong


def all_citations() -> list[tuple[str, str]]:
    """(where, citation) for every README citation in the code."""
    found = []
    for folder in FOLDERS:
        for path in sorted((REPO_ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve() or ".venv" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            if "README" not in source:
                continue
            where = path.relative_to(REPO_ROOT)
            for line, text in texts(source):
                found += [(f"{where}:{line + n}", cited) for n, cited in citations(text)]
    return found


KNOWN = set().union(*(headings(page.read_text(encoding="utf-8")) for page in PAGES))


def test_every_cited_readme_section_is_a_heading() -> None:
    found = all_citations()
    assert len(found) > 100, "the reader finds the code's README citations"
    wrong = [f"{where}: README, {name}" for where, cited in found for name in missing(cited, KNOWN)]
    assert not wrong, "no such README section:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("(README, Rule sets).", ["Rule sets"]),
        (
            "the rolls (README, Rule sets: the 21 rolls in order) and",
            ["Rule sets: the 21 rolls in order"],
        ),
        ("(README, Ratings; Seasons)", ["Ratings; Seasons"]),
        ("its settings are the ones in README, section Settings; nothing", ["Settings"]),
        ("(catalog keys, README Languages)", ["Languages"]),
        ("match the option names in the README (Rule sets).", ["Rule sets"]),
        ('"""README, Rule sets: the rolls, their order."""', ["Rule sets: the rolls, their order"]),
        ("update README too, and the README's table; README.md", []),
    ],
)
def test_citations_are_read_as_written(text: str, cited: list[str]) -> None:
    assert [name for _, name in citations(text)] == cited


@pytest.mark.parametrize(
    ("cited", "wrong"),
    [
        ("Rule sets", []),
        ("rule SETS", []),
        ("Running at scale: While the database is down", []),
        ("Rule sets: ``mexico``", []),
        ("Ratings; Seasons", []),
        ("Playing against the computer and Benchmarks", []),
        ("What each statistic counts, and when", []),
        ("Publishing the slash commands: `python -m bot sync`", []),
        ("Ratings, seasons and achievements", ["Ratings, seasons and achievements"]),
        ("Ratings; No such section", ["No such section"]),
        ("Rule sets and Nowhere", ["Rule sets and Nowhere"]),
        ("Nowhere: Rule sets", ["Nowhere: Rule sets"]),
    ],
)
def test_a_citation_fails_unless_each_section_is_a_heading(cited: str, wrong: list[str]) -> None:
    assert missing(cited, KNOWN) == wrong


def test_headings_in_code_blocks_do_not_count() -> None:
    readme = "# Top\n\n```sh\n# not a heading\n```\n\n## `Second` one\n"
    assert headings(readme) == {"top", "second one"}


def test_sections_are_read_from_the_readme_and_every_docs_page() -> None:
    """The first hour's headings are the README's, the rest the docs pages'; both count,
    and nothing else does."""
    readme = headings((REPO_ROOT / "README.md").read_text(encoding="utf-8"))
    assert "quick start" in readme
    assert "ratings" not in readme  # moved to docs/league.md
    assert {"quick start", "ratings", "while the database is down", "benchmarks"} <= KNOWN
    assert len(PAGES) > 10, "the docs pages are found"
    assert missing("Ratings; Quick start", KNOWN) == []
    assert missing("Ratings; Nowhere at all", KNOWN) == ["Nowhere at all"]
