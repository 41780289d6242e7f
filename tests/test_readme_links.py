"""The README's links lead somewhere (README, Documentation).

`mkdocs build --strict` checks every link between the docs pages, down to the headings'
anchors, but the README lies outside the site, so its links into `docs/` (and to its own
headings, and its picture) are checked here the same way: the file exists, and an anchor
is the slug of one of that page's headings as MkDocs makes it (Python-Markdown's ``toc``:
letters, digits, spaces and hyphens kept, lower case, runs of spaces and hyphens made one
hyphen), which is also GitHub's for these headings.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^\s*(```|~~~)")
#: Markdown links and images, and HTML src/href attributes.
LINK = re.compile(r"\]\(([^)\s]+)\)|\b(?:src|href)=\"([^\"]+)\"")


def slug(heading: str) -> str:
    text = re.sub(r"[`*]", "", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#{1,6}\s+(.*?)\s*#*$", line)):
            found.add(slug(m[1]))
    return found


def links(page: Path) -> list[str]:
    found, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            found += [a or b for a, b in LINK.findall(line)]
    return found


def broken(page: Path) -> list[str]:
    wrong = []
    for link in links(page):
        if re.match(r"^[a-z]+:", link):
            continue  # https://…: outside the repository
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists():
            wrong.append(f"{link}: no such file")
        elif anchor and anchor not in anchors(target):
            wrong.append(f"{link}: no heading with that anchor")
    return wrong


def test_the_readme_links_to_pages_headings_and_pictures_that_exist() -> None:
    found = links(README)
    assert sum("docs/" in link for link in found) > 10, "the README links into the docs"
    assert broken(README) == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Inviting the bot", "inviting-the-bot"),
        ("What each statistic counts, and when", "what-each-statistic-counts-and-when"),
        ("Shards are held, not assumed", "shards-are-held-not-assumed"),
        ("`/rules [ruleset] [public]`", "rules-ruleset-public"),
        (
            "Publishing the slash commands: `python -m bot sync`",
            "publishing-the-slash-commands-python-m-bot-sync",
        ),
    ],
)
def test_anchors_are_made_as_mkdocs_makes_them(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_wrong_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n\n## Real one\n\n```\n# Not one\n```\n")
    page = tmp_path / "README.md"
    page.write_text(
        "# Top\n[a](docs/page.md#real-one) [b](docs/page.md#not-one) [c](docs/gone.md)\n"
        '[d](#top) [e](#nowhere) <img src="docs/none.png"> [f](https://example.org/x)\n'
    )
    assert broken(page) == [
        "docs/page.md#not-one: no heading with that anchor",
        "docs/gone.md: no such file",
        "#nowhere: no heading with that anchor",
        "docs/none.png: no such file",
    ]
