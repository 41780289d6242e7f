"""The ``slow`` marker is where it must be, and conftest is only imported by pytest.

``pytest -m "not slow"`` is the quick loop (README, Tests); plain ``pytest`` runs
everything. A test that starts a bot process or a PostgreSQL server is slow, so:

- a module that imports the process launcher (``tests/support/procs.py``), the shard
  rig built on it, or the PostgreSQL server (``tests/support/postgres.py``) is marked
  slow as a whole (``pytestmark``);
- a test that asks for ``postgres_url`` or ``postgres_server``, itself or through a
  fixture of its module, is marked slow, by the module or by its own decorator.

A PostgreSQL database asked for at run time (``request.getfixturevalue``) is caught by
the ``postgres_url`` fixture itself, which fails a test not marked slow; the parameter
builders in tests/db_helpers.py mark their ``postgresql`` side. Tests that are slow
only by their duration are marked by hand.

Read from the source with ``ast``; each rule is also shown failing on a made-up module.
"""

from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
LAUNCHERS = {"procs", "postgres", "shardrig"}
POSTGRES_FIXTURES = {"postgres_url", "postgres_server"}


def module_paths() -> list[Path]:
    return sorted(TESTS.glob("test_*.py"))


def is_slow(node: ast.expr) -> bool:
    """``pytest.mark.slow``, alone or in a list or tuple of marks."""
    if isinstance(node, ast.List | ast.Tuple):
        return any(is_slow(item) for item in node.elts)
    return ast.unparse(node) in ("pytest.mark.slow", "mark.slow")


def module_is_slow(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and is_slow(node.value)
        for node in tree.body
    )


def launchers_imported(tree: ast.Module) -> set[str]:
    """The launcher modules ``tree`` imports, however it spells the import."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".")
            if module[-2:-1] == ["support"] and module[-1] in LAUNCHERS:
                found.add(module[-1])
            if module[-1:] == ["support"]:
                found |= {alias.name for alias in node.names} & LAUNCHERS
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[-2:-1] == ["support"] and parts[-1] in LAUNCHERS:
                    found.add(parts[-1])
    return found


Function = ast.FunctionDef | ast.AsyncFunctionDef


def functions(tree: ast.Module) -> list[Function]:
    """Module-level functions and the methods of module-level classes."""
    found: list[Function] = []
    for node in tree.body:
        if isinstance(node, Function):
            found.append(node)
        elif isinstance(node, ast.ClassDef):
            found += [item for item in node.body if isinstance(item, Function)]
    return found


def arguments(function: Function) -> set[str]:
    args = function.args
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}


def is_fixture(function: Function) -> bool:
    return any("fixture" in ast.unparse(d) for d in function.decorator_list)


def unmarked_postgres_tests(tree: ast.Module) -> list[str]:
    """Tests that reach PostgreSQL through their arguments and are not marked slow."""
    if module_is_slow(tree):
        return []
    postgres = set(POSTGRES_FIXTURES)
    fixtures = [f for f in functions(tree) if is_fixture(f)]
    grew = True
    while grew:  # fixtures built on fixtures that reach PostgreSQL reach it too
        reaching = {f.name for f in fixtures if arguments(f) & postgres}
        grew = not reaching <= postgres
        postgres |= reaching
    return [
        f.name
        for f in functions(tree)
        if f.name.startswith("test")
        and arguments(f) & postgres
        and not any(is_slow(d) for d in f.decorator_list)
    ]


def conftest_imports(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "conftest":
            return True
        if isinstance(node, ast.Import) and any(
            a.name.split(".")[-1] == "conftest" for a in node.names
        ):
            return True
    return False


@functools.cache
def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_slow_is_a_registered_marker() -> None:
    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    markers = config["tool"]["pytest"]["ini_options"]["markers"]
    assert any(marker.startswith("slow:") for marker in markers)


def test_modules_that_start_processes_or_postgresql_are_slow() -> None:
    unmarked = [
        f"{path.name} imports {sorted(used)}"
        for path in module_paths()
        if (used := launchers_imported(tree := parse(path))) and not module_is_slow(tree)
    ]
    assert not unmarked, "add pytestmark = pytest.mark.slow:\n" + "\n".join(unmarked)


def test_tests_that_ask_for_postgresql_are_slow() -> None:
    unmarked = [
        f"{path.name}::{name}"
        for path in module_paths()
        for name in unmarked_postgres_tests(parse(path))
    ]
    assert not unmarked, "mark these @pytest.mark.slow:\n" + "\n".join(unmarked)


def test_the_launchers_are_found_by_the_rule() -> None:
    """The rule has something to check: modules that start processes and PostgreSQL exist
    and are found (a renamed launcher would otherwise pass the rule vacuously)."""
    found = set().union(*(launchers_imported(parse(path)) for path in module_paths()))
    assert found == LAUNCHERS
    for name in LAUNCHERS:
        assert (TESTS / "support" / f"{name}.py").exists()


def test_nothing_imports_conftest() -> None:
    """Conftest holds fixtures; what tests import lives in tests/support/ or the helpers."""
    paths = [p for p in TESTS.rglob("*.py") if ".venv" not in p.parts]
    importing = [
        str(p.relative_to(TESTS))
        for p in paths
        if "conftest" in p.read_text(encoding="utf-8") and conftest_imports(parse(p))
    ]
    assert not importing, importing


UNMARKED = """
import pytest
from tests.support.procs import BotProcess
from .support import postgres

@pytest.fixture
async def rig(postgres_url): ...

@pytest.fixture
def deeper(rig): ...

async def test_direct(postgres_url): ...
async def test_through_fixtures(deeper): ...
@pytest.mark.slow
async def test_marked(postgres_server): ...
async def test_sqlite(tmp_path): ...
"""


@pytest.mark.parametrize(
    ("source", "launchers", "unmarked"),
    [
        (UNMARKED, {"procs", "postgres"}, ["test_direct", "test_through_fixtures"]),
        (UNMARKED + "\npytestmark = pytest.mark.slow\n", {"procs", "postgres"}, []),
        (
            UNMARKED + "\npytestmark = [pytest.mark.simcord(), pytest.mark.slow]\n",
            {"procs", "postgres"},
            [],
        ),
        (
            "import tests.support.shardrig\nfrom tests.support.driver import Driver\n",
            {"shardrig"},
            [],
        ),
        ("from tests.support import standin, procs\n", {"procs"}, []),
    ],
)
def test_the_rules_fail_on_unmarked_modules(
    source: str, launchers: set[str], unmarked: list[str]
) -> None:
    tree = ast.parse(source)
    assert launchers_imported(tree) == launchers
    assert unmarked_postgres_tests(tree) == unmarked
    assert module_is_slow(tree) == ("pytestmark" in source)


@pytest.mark.parametrize(
    ("source", "imports"),
    [
        ("from .conftest import SimTable\n", True),
        ("from tests.conftest import DEV_GUILD_ID\n", True),
        ("import tests.conftest\n", True),
        ("from tests.support.sim import SimTable\n", False),
    ],
)
def test_the_conftest_rule_fails_on_an_import(source: str, imports: bool) -> None:
    assert conftest_imports(ast.parse(source)) == imports


def test_every_test_has_a_time_limit(pytestconfig: pytest.Config) -> None:
    """A deadlock fails its own test within minutes (pytest-timeout) instead of hanging
    the run: a planted one in tests/test_storage_race.py once hung it for 10 minutes."""
    assert pytestconfig.pluginmanager.hasplugin("timeout")
    limit = float(pytestconfig.getini("timeout"))
    assert 60 <= limit <= 300, limit


@pytest.mark.slow
def test_a_hung_test_fails_with_the_time_limit(tmp_path: Path) -> None:
    """The limit ends an event loop stuck on a lock nobody releases, as the planted
    deadlock was: the test fails and the run goes on."""
    import subprocess
    import sys

    (tmp_path / "test_hangs.py").write_text(
        "import asyncio\n\n"
        "async def test_hangs() -> None:\n"
        "    lock = asyncio.Lock()\n"
        "    await lock.acquire()\n"
        "    await lock.acquire()\n\n"
        "def test_runs_after() -> None:\n"
        "    pass\n"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--timeout=2",
            "-o",
            "asyncio_mode=auto",
            "-q",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Timeout" in run.stdout, run.stdout
    assert "1 failed, 1 passed" in run.stdout, run.stdout
