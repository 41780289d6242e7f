"""The packages' layering, read from the source with ``ast`` (README, How the code is laid
out): each folder is a floor, and a module imports only from its own floor or those below;
the floors under the Discord side import no Discord; and no module reaches itself through
its imports. A circle means neither side can be read, tested or changed alone; typing-only
imports count too, since they tie the modules just as much for a reader."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "tools")

#: The floors, lowest first: a module may import from its own floor and those below.
FLOORS = (
    "bot.engine",  # the rules: pure, no I/O
    "bot.ai",  # the computer players' decisions: pure
    "bot.storage",  # the databases
    "bot.league",  # ratings, seasons, achievements, statistics
    "bot.game",  # the tables in play: locks, turn clock, computer players' turns
    "bot.arena",  # the bot arena: the Mäxchen protocol server over UDP; no Discord
    "bot.present",  # every word and message players read, and which messages show a move
    "bot.runtime",  # the process: settings, client, metrics, logs, shard leases
    "bot.web",  # the web companion: pages of leaderboards, profiles, replays; no Discord
    "bot.adapter",  # the Discord side: carries out plans, answers interactions
    "cogs",  # slash commands and buttons: entry points only
    "bot.__main__",  # start-up
    "tools",  # offline tools (the solver); nothing at run time imports them
)
#: Floors that know nothing of Discord (README, How the code is laid out).
NO_DISCORD = FLOORS[: FLOORS.index("bot.present") + 1]


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
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
            ]
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
    assert "bot.game.tables" in edges["bot.adapter.dealer"]
    assert "bot.present.screens" in edges["bot.adapter.dealer"]
    assert "bot.storage.base" in edges["bot.storage.sqlite"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def floor_of(name: str) -> int | None:
    found = [i for i, f in enumerate(FLOORS) if name == f or name.startswith(f"{f}.")]
    return found[0] if found else None


def test_every_module_stands_on_a_floor() -> None:
    """A module outside every floor would escape the rule below."""
    homeless = [n for n in modules() if floor_of(n) is None and n not in {"bot", *PACKAGES}]
    assert homeless == []


def test_no_module_imports_from_a_floor_above_its_own() -> None:
    upward = {
        (name, target)
        for name, targets in graph().items()
        for target in targets
        if (here := floor_of(name)) is not None
        and (there := floor_of(target)) is not None
        and there > here
    }
    assert upward == set()


def test_the_floors_below_the_discord_side_import_no_discord() -> None:
    offenders = []
    for name, path in modules().items():
        if (floor := floor_of(name)) is None or FLOORS[floor] not in NO_DISCORD:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            offenders += [name for root in roots if root in {"discord", "aiohttp"}]
    assert offenders == []


def test_the_floor_rule_sees_an_upward_import() -> None:
    """Not a rule of nothing: the engine importing the game layer would be caught."""
    assert floor_of("bot.engine.game") == FLOORS.index("bot.engine")
    assert floor_of("bot.game.tables") == FLOORS.index("bot.game")
    assert floor_of("bot.stray") is None


def test_bot_imports_nothing_from_cogs() -> None:
    offenders = {
        name: sorted(t for t in targets if t.split(".")[0] == "cogs")
        for name, targets in graph().items()
        if name.split(".")[0] == "bot"
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_storage_backends_do_not_import_the_factory() -> None:
    edges = graph()
    for backend in ("bot.storage.base", "bot.storage.sqlite", "bot.storage.postgres"):
        assert "bot.storage.factory" not in edges[backend], backend


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circles(package: str) -> None:
    edges = without_package_inits(graph())
    inside = {
        n: {t for t in e if t.split(".")[0] == package}
        for n, e in edges.items()
        if n.split(".")[0] == package
    }
    assert cycle(inside) is None


def test_no_import_circles_across_packages() -> None:
    assert cycle(without_package_inits(graph())) is None
