"""The one difference between the backends' query text: how parameters are written.

Queries are written once in SQLite's style, ``?`` for positional and ``:name`` for named
parameters; asyncpg wants ``$1``, ``$2``… Translating at the edge keeps a single copy of
every query, so the leaderboard cannot drift apart between the two databases.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

# A parameter outside quotes: ``?`` or ``:name`` (not PostgreSQL's ``::type`` cast).
_TOKEN = re.compile(r"'(?:[^']|'')*'|(?<![:\w]):([A-Za-z_]\w*)|\?")


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> tuple[str, tuple[str, ...] | int]:
    """``sql`` with ``$n`` parameters, and how to order the arguments: the names in
    ``$n`` order for named parameters (a name used twice keeps one number), or the
    count of ``?`` for positional ones. A query never mixes the two styles."""
    names: list[str] = []
    count = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal count
        text = match.group(0)
        if text.startswith("'"):
            return text  # a string literal is left alone
        name = match.group(1)
        if name is None:
            count += 1
            return f"${count}"
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    out = _TOKEN.sub(swap, sql)
    if names and count:
        raise ValueError("a query mixes ? and :name parameters")
    return out, tuple(names) if names else count


def arguments(order: tuple[str, ...] | int, params: Any) -> Sequence[Any]:
    """The arguments of a `numbered` query, in ``$n`` order."""
    if isinstance(order, tuple):
        if not isinstance(params, Mapping):
            raise TypeError("a query with :name parameters needs a mapping of values")
        return [params[name] for name in order]
    values = list(params or ())
    if len(values) != order:
        raise ValueError(f"the query takes {order} parameter(s), {len(values)} given")
    return values
