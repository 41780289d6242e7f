"""Writes as data: the steps a `Plan` yields, which every driver knows how to run.

A plan is a generator: it yields a step, is sent the step's answer, and returns its
result; `bot.storage.driver.Driver.run` runs one in one transaction. Written against
these four steps only, a write is spelled once for both databases.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

#: A statement's parameters: positional for ``?``, a mapping for ``:name``.
Params = Sequence[Any] | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Execute:
    """Run one statement; answered with how many rows it changed."""

    sql: str
    params: Params = ()


@dataclass(frozen=True, slots=True)
class ExecuteMany:
    """Run one statement once per row (nothing for no rows); answered with None."""

    sql: str
    rows: Sequence[Sequence[Any]]


@dataclass(frozen=True, slots=True)
class FetchOne:
    """Run one query; answered with its first row, or None."""

    sql: str
    params: Params = ()


@dataclass(frozen=True, slots=True)
class FetchAll:
    """Run one query; answered with all its rows."""

    sql: str
    params: Params = ()


Step = Execute | ExecuteMany | FetchOne | FetchAll
#: A write written once for every backend: yields steps, is sent their answers, and
#: returns its result. A driver runs it in one transaction (`Driver.run`).
Plan = Generator[Step, Any, T]


def statements(writes: Sequence[tuple[str, Params]]) -> Plan[list[int]]:
    """The plan of several plain statements: their row counts."""
    counts: list[int] = []
    for sql, params in writes:
        counts.append((yield Execute(sql, params)))
    return counts
