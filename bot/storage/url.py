"""`DATABASE_URL`: which database, as a value that never shows its password.

``sqlite:///data/mexican.db`` (a relative path; ``sqlite:////srv/bot.db`` an absolute
one) or ``postgresql://user:password@host:port/db`` (``postgres://`` too). Like the
token's `Secret`, the full URL comes out only through `get_secret_value()`; `str()` and
`repr()` show it with the password replaced, so it can go into logs and error messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

Dialect = Literal["sqlite", "postgresql"]
HIDDEN = "***"
SCHEMES: dict[str, Dialect] = {
    "sqlite": "sqlite",
    "postgresql": "postgresql",
    "postgres": "postgresql",
}


class DatabaseUrl:
    """A parsed database URL; build one with `DatabaseUrl.parse` or `DatabaseUrl.sqlite`."""

    __slots__ = ("_shown", "_url", "dialect", "path")

    def __init__(self, url: str, dialect: Dialect, path: Path | None, shown: str) -> None:
        self._url = url
        self.dialect: Dialect = dialect
        #: The SQLite file (None for PostgreSQL).
        self.path = path
        self._shown = shown

    @classmethod
    def sqlite(cls, path: str | Path) -> DatabaseUrl:
        text = str(path)
        url = f"sqlite:///{text}"
        return cls(url, "sqlite", Path(text), url)

    @classmethod
    def parse(cls, raw: str) -> DatabaseUrl:
        """Check a URL's form (not whether the database is there: that is for start-up);
        raises ValueError with a message that names the accepted forms, without the
        password."""
        scheme, sep, rest = raw.partition("://")
        dialect = SCHEMES.get(scheme.lower()) if sep else None
        shown = _without_password(raw)
        if dialect is None:
            raise ValueError(
                f"{shown}: a database URL starts with sqlite:/// or postgresql://, e.g. "
                "sqlite:///data/mexican.db or postgresql://user:password@host:5432/mexican"
            )
        if dialect == "sqlite":
            if not rest.startswith("/") or rest in ("/", "//"):
                file = rest.strip("/")
                example = f"sqlite:///{file}" if file else "sqlite:///data/mexican.db"
                raise ValueError(
                    f"{shown}: a SQLite URL names its file after three slashes, e.g. "
                    f"{example} (relative to the working folder) or sqlite:////srv/mexican.db "
                    "(absolute)"
                )
            return cls(raw, "sqlite", Path(rest[1:]), raw)
        parts = urlsplit(raw)
        try:
            parts.port  # noqa: B018 -- raises ValueError on a port that is not a number
        except ValueError:
            raise ValueError(f"{shown}: the port after the server's name is not a number") from None
        if not parts.hostname and "host=" not in parts.query:
            raise ValueError(
                f"{shown}: the URL names no server, e.g. "
                "postgresql://user:password@localhost:5432/mexican"
            )
        if not parts.path.strip("/"):
            raise ValueError(
                f"{shown}: the URL names no database; add it after the server, e.g. "
                "postgresql://user:password@localhost:5432/mexican"
            )
        return cls(raw, "postgresql", None, _without_password(raw))

    @property
    def password(self) -> str | None:
        """The password as written in the URL (percent-encoded) and decoded, for
        scrubbing; None without one."""
        if self.dialect != "postgresql":
            return None
        return urlsplit(self._url).password

    def secrets(self) -> tuple[str, ...]:
        """Every form of the password a log line might carry."""
        raw = self.password
        if not raw:
            return ()
        return tuple({raw, unquote(raw)})

    def get_secret_value(self) -> str:
        return self._url

    def __str__(self) -> str:
        return self._shown

    def __repr__(self) -> str:
        return f"DatabaseUrl({self._shown!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DatabaseUrl) and other._url == self._url

    def __hash__(self) -> int:
        return hash(self._url)

    def __reduce__(self) -> tuple[object, ...]:
        # Pickling would be a way to leak the password into some store; refuse it.
        raise TypeError("DatabaseUrl values cannot be pickled")


def _without_password(raw: str) -> str:
    """The URL with its password (if any) replaced by ``***``."""
    scheme, sep, rest = raw.partition("://")
    if not sep:
        return raw
    authority, slash, tail = rest.partition("/")
    userinfo, at, host = authority.rpartition("@")
    if not at or ":" not in userinfo:
        return raw
    user = userinfo.split(":", 1)[0]
    return f"{scheme}://{user}:{HIDDEN}@{host}{slash}{tail}"
