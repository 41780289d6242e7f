"""The packages' layering, read from the source with ``ast``: bot/ (engine, storage, the
bot's own wiring) imports nothing from cogs/, and no module reaches itself through its
imports. A circle means neither side can be read, tested or changed alone; typing-only
imports count too, since they tie the modules just as much for a reader."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports anywhere in its body (inside functions and
    ``if TYPE_CHECKING`` too), each resolved to the module that holds it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import mod`` imports the module pkg.mod, else a name in pkg.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]  # fmt: skip
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None. A package importing its own
    submodules (``__init__`` re-exports) is not a circle unless a submodule imports back
    a sibling that imports it."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start)):
            return found
    return None


def without_package_inits(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """A module importing its own package (``from . import x`` in ``pkg/y.py``) goes
    through ``pkg/__init__``, which re-exports its submodules: that edge is the package
    handing out a sibling, so it points at the sibling that is named, not at every
    submodule ``__init__`` imports."""
    return {
        name: {t for t in targets if not name.startswith(f"{t}.")}
        for name, targets in edges.items()
    }


def test_graph_sees_the_imports_it_should() -> None:
    """The reader finds relative, absolute and typing-only imports: a test of nothing
    would pass on any code."""
    edges = graph()
    assert "bot.tables" in edges["cogs.dealer"]
    assert "cogs.present.table" in edges["cogs.dealer"]
    assert "bot.storage.base" in edges["bot.storage.db"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_bot_imports_nothing_from_cogs() -> None:
    offenders = {
        name: sorted(t for t in targets if t.split(".")[0] == "cogs")
        for name, targets in graph().items()
        if name.split(".")[0] == "bot"
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_storage_backends_do_not_import_the_factory() -> None:
    edges = graph()
    for backend in ("bot.storage.base", "bot.storage.db", "bot.storage.postgres"):
        assert "bot.storage.factory" not in edges[backend], backend


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circles(package: str) -> None:
    edges = without_package_inits(graph())
    inside = {n: {t for t in e if t.split(".")[0] == package} for n, e in edges.items()
              if n.split(".")[0] == package}  # fmt: skip
    assert cycle(inside) is None


def test_no_import_circles_across_packages() -> None:
    assert cycle(without_package_inits(graph())) is None
