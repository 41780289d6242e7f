"""A TCP proxy between the bot and PostgreSQL that can fail the way networks do.

The outage tests (README, Running at scale: While the database is down) need failures
a real server does not make on demand: a connection cut while a COMMIT is under way,
and a database that refuses every connection for a while. The proxy forwards bytes both
ways and reads the client's side as PostgreSQL protocol messages (the untyped start-up
messages first, then type byte and length), so it can see a simple-query ``Q`` message
whose text is COMMIT (what asyncpg sends to end a transaction) and:

- ``cut_commit("before")``: drop that COMMIT and cut both connections, so the server
  never gets it and rolls the transaction back;
- ``cut_commit("after")``: forward it, wait for the server's answer (so the commit is
  done), drop the answer and cut the client's connection: the client can't know.

Each is a one-shot for the next COMMIT on any connection. ``go_down()`` stops listening
(new connections are refused) and cuts every live one; ``come_back()`` listens again on
the same port. Nothing here touches the server itself, so the session's shared
PostgreSQL server keeps serving the other tests.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

Cut = Literal["before", "after"]
#: The untyped requests a client may send before its start-up message: SSL, GSS encryption.
_NEGOTIATION_CODES = (80877103, 80877104)


@dataclass(eq=False)
class _Link:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    #: A COMMIT was forwarded; its answer is dropped and the link cut.
    swallow: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def cut(self) -> None:
        self.client.transport.abort()
        self.server.transport.abort()


class PgProxy:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.target_port = host, port
        self.port = 0
        self.down = False
        self._server: asyncio.Server | None = None
        self._links: set[_Link] = set()
        self._serving: set[asyncio.Task[None]] = set()
        self._cut: Cut | None = None
        self._down_after_cut = False
        #: The COMMIT cuts done, in order (a test checks its cut happened).
        self.cuts: list[Cut] = []
        #: Connections the proxy has accepted (and, while down, refused by not listening).
        self.accepted = 0

    @classmethod
    def for_url(cls, url: str) -> PgProxy:
        parts = urlsplit(url)
        return cls(parts.hostname or "127.0.0.1", parts.port or 5432)

    def url(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        auth = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        return urlunsplit(parts._replace(netloc=f"{auth}127.0.0.1:{self.port}"))

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        self.down = False

    async def stop(self) -> None:
        await self.go_down()
        for task in list(self._serving):
            task.cancel()
        await asyncio.gather(*self._serving, return_exceptions=True)

    def cut_commit(self, how: Cut, *, then_down: bool = False) -> None:
        """Cut the connection at the next COMMIT any client sends, ``how`` says where;
        ``then_down``: and refuse connections from then on, until `come_back`."""
        self._cut, self._down_after_cut = how, then_down

    async def go_down(self) -> None:
        """Refuse new connections (the port no longer listens) and cut the live ones."""
        self._go_down()

    def _go_down(self) -> None:
        self.down = True
        if self._server is not None:
            self._server.close()
            self._server = None
        for link in list(self._links):
            link.cut()
        self._links.clear()

    async def come_back(self) -> None:
        await self.start()

    async def _serve(self, creader: asyncio.StreamReader, cwriter: asyncio.StreamWriter) -> None:
        if self.down:
            cwriter.transport.abort()
            return
        task = asyncio.current_task()
        assert task is not None
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)
        try:
            sreader, swriter = await asyncio.open_connection(self.host, self.target_port)
        except OSError:
            cwriter.transport.abort()
            return
        self.accepted += 1
        link = _Link(cwriter, swriter)
        self._links.add(link)
        try:
            await asyncio.gather(
                self._upstream(creader, link),
                self._downstream(sreader, link),
                return_exceptions=True,
            )
        finally:
            self._links.discard(link)
            link.cut()

    async def _upstream(self, reader: asyncio.StreamReader, link: _Link) -> None:
        """Client to server, a protocol message at a time."""
        starting = True
        while True:
            if starting:  # untyped: length, then the request code or protocol version
                head = await reader.readexactly(4)
                body = await reader.readexactly(int.from_bytes(head, "big") - 4)
                starting = int.from_bytes(body[:4], "big") in _NEGOTIATION_CODES
            else:
                head = await reader.readexactly(5)
                body = await reader.readexactly(int.from_bytes(head[1:], "big") - 4)
                if head[:1] == b"Q" and self._cut and _is_commit(body):
                    how, self._cut = self._cut, None
                    self.cuts.append(how)
                    if how == "before":
                        link.cut()
                        if self._down_after_cut:
                            self._go_down()
                        return
                    link.swallow = True
                    link.server.write(head + body)
                    await link.server.drain()
                    return  # the client's side is cut once the answer comes
            link.server.write(head + body)
            await link.server.drain()

    async def _downstream(self, reader: asyncio.StreamReader, link: _Link) -> None:
        """Server to client, as it comes; after a forwarded COMMIT its answer is dropped."""
        while data := await reader.read(65536):
            if link.swallow:
                link.cut()
                if self._down_after_cut:
                    self._go_down()
                return
            link.client.write(data)
            await link.client.drain()
        link.cut()


def _is_commit(body: bytes) -> bool:
    text = body.rstrip(b"\0").strip().rstrip(b";").strip().upper()
    return text in (b"COMMIT", b"END", b"COMMIT TRANSACTION", b"COMMIT WORK")


async def started(url: str) -> PgProxy:
    """A running proxy to the server ``url`` names."""
    proxy = PgProxy.for_url(url)
    await proxy.start()
    return proxy


__all__ = ["Cut", "PgProxy", "started"]
