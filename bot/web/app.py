"""The web companion's HTTP side (README, Web companion): aiohttp routes that find the
server a link's token opens, ask bot/web/pages.py for the page and fill a Jinja2 template.

Nothing of a server is served unless it opted in: every page under ``/s/<token>/`` looks
its token up first, and an unknown token, a server that turned its pages off, a game
still running or of another server all get the same 404. The token is the only secret
of a link, so pages tell the browser to send no Referer (it would carry the token to
any site a page linked to) and ask search engines not to index them.
"""

from __future__ import annotations

import datetime
import logging
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from aiohttp import web
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from bot import __version__
from bot.league.service import League
from bot.present.i18n import Talk, talk
from bot.present.message import Reply
from bot.storage import DatabaseDownError, Storage
from bot.web.build import PART, Built
from bot.web.lang import language_for
from bot.web.names import NameCache
from bot.web.pages import BOARDS, PERIODS, Reader
from bot.web.replays import Replays

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
#: A token as `new_token` makes them (and no longer than one could be).
TOKEN = r"[A-Za-z0-9_-]{32,64}"
#: The highest page number a board's address may ask for.
MAX_PAGE = 100_000
#: A token wherever it stands in a log line (a request line quoted in an error too).
SECRET = re.compile(r"/s/[A-Za-z0-9_-]{8,}")
#: A page number or an id as an address may write it: ASCII digits only (``str.isdigit``
#: takes "²"), and short enough for a 64-bit integer.
PAGE_NUMBER = re.compile(r"[0-9]{1,6}")
ID_MAX = 2**63 - 1
HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Cache-Control": "private, max-age=30",
}

STORAGE: web.AppKey[Storage] = web.AppKey("storage", Storage)
LEAGUE: web.AppKey[League] = web.AppKey("league", League)
NAMES: web.AppKey[NameCache] = web.AppKey("names", NameCache)
REPLAYS: web.AppKey[Replays] = web.AppKey("replays", Replays)
TEMPLATES: web.AppKey[Environment] = web.AppKey("templates", Environment)

Handler = Callable[[web.Request, Reader], Awaitable[web.StreamResponse]]


def templates() -> Environment:
    """Jinja2 with autoescaping on for every template: a player's name is never HTML."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["version"] = __version__  # in every page's footer (CHANGELOG.md)
    env.filters["date"] = lambda stamp: datetime.datetime.fromtimestamp(
        stamp, datetime.UTC
    ).strftime("%Y-%m-%d %H:%M")
    return env


def make_app(storage: Storage, league: League | None = None) -> web.Application:
    """The companion's application over an open storage (the bot's own, or one of its
    own in `python -m bot web`)."""
    hide_tokens_in_logs()
    app = web.Application(middlewares=[_headers])
    app[STORAGE] = storage
    app[LEAGUE] = league or League(storage)
    app[NAMES] = NameCache()
    app[REPLAYS] = Replays()
    app[TEMPLATES] = templates()
    app.add_routes(
        [
            web.get(f"/s/{{token:{TOKEN}}}/", _page(_server)),
            web.get(f"/s/{{token:{TOKEN}}}/board/{{stat:[a-z_]{{1,20}}}}", _page(_board)),
            web.get(f"/s/{{token:{TOKEN}}}/season", _page(_season)),
            web.get(f"/s/{{token:{TOKEN}}}/p/{{user:-?[0-9]{{1,20}}}}", _page(_profile)),
            web.get(f"/s/{{token:{TOKEN}}}/g/{{game:[0-9]{{1,18}}}}", _page(_replay)),
            web.get(
                f"/s/{{token:{TOKEN}}}/g/{{game:[0-9]{{1,18}}}}/part/{{part:[0-9]{{1,5}}}}",
                _page(_replay_part),
            ),
            web.get("/", _root),
            web.get("/health", health),
            web.static("/static", HERE / "static"),
        ]
    )
    return app


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every answer, whatever its status, carries the same headers; an error becomes a
    plain answer here, and one nobody expected is logged without the path (its token)."""
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        response = _not_found(request)
    except web.HTTPException as exc:
        response = web.Response(status=exc.status, text=exc.text, headers=exc.headers)
    except Exception:
        log.exception("a web page failed (%s %s)", request.method, redact(request.path))
        response = web.Response(status=500, text="500: something went wrong on our side")
    response.headers.update(HEADERS)
    return response


def redact(text: str) -> str:
    """A path or log line with each link's token replaced: the token is a link's only
    secret, and logs are read by more people than the servers that opted in."""
    return SECRET.sub("/s/…", text)


class RedactTokens(logging.Filter):
    """Takes the tokens out of aiohttp's own log lines (its access log, and its errors,
    which quote the start of a request line too long to read) before any handler sees
    them."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg, record.args = redact(text), ()
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def hide_tokens_in_logs() -> None:
    """Puts `RedactTokens` on the loggers aiohttp writes requests and errors to."""
    for name in ("aiohttp.access", "aiohttp.server", "aiohttp.web", __name__):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def _talk(request: web.Request) -> Talk:
    return talk(language_for(request.headers.get("Accept-Language")))


async def _root(request: web.Request) -> web.Response:
    """What the site is, for anyone who opens its address: no server's pages, no link."""
    t = _talk(request)
    html = request.app[TEMPLATES].get_template("root.html").render(t=t, lang=t.language)
    return web.Response(text=html, content_type="text/html")


def _not_found(request: web.Request) -> web.Response:
    t = _talk(request)
    html = request.app[TEMPLATES].get_template("not_found.html").render(t=t, lang=t.language)
    return web.Response(status=404, text=html, content_type="text/html")


def _page(handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """A page of one server: its token looked up first, a 404 for any token that opens
    nothing, a 503 while the database is down."""

    async def serve(request: web.Request) -> web.StreamResponse:
        storage = request.app[STORAGE]
        started = time.perf_counter()
        try:
            guild_id = await storage.web_guild(request.match_info["token"])
            if guild_id is None:
                return _not_found(request)
            reader = await Reader.open(
                storage, request.app[LEAGUE], guild_id, _talk(request), request.app[NAMES]
            )
            response = await handler(request, reader)
        except DatabaseDownError:
            return web.Response(status=503, text="the database is not answering; try again")
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1e3:.1f}"
        return response

    return serve


def _render(request: web.Request, reader: Reader, template: str, **values: Any) -> web.Response:
    token = request.match_info["token"]
    base = f"/s/{token}/"

    def say(text: str) -> Markup:
        return reader.names.html(text, f"{base}p/")

    html = (
        request.app[TEMPLATES]
        .get_template(template)
        .render(
            t=reader.t,
            lang=reader.t.language,
            base=base,
            name=reader.names,
            say=say,
            embed=lambda reply: reply_html(reply, say),
            **values,
        )
    )
    return web.Response(text=html, content_type="text/html")


async def _server(request: web.Request, reader: Reader) -> web.StreamResponse:
    board = await reader.board("rating", "all", 0)
    return _render(
        request, reader, "server.html", board=board, games=await reader.games(), boards=BOARDS
    )


async def _board(request: web.Request, reader: Reader) -> web.StreamResponse:
    stat = request.match_info["stat"]
    period = request.query.get("period", "all")
    page = request.query.get("page", "1")
    if stat not in BOARDS or period not in PERIODS or not PAGE_NUMBER.fullmatch(page):
        raise web.HTTPNotFound()
    number = int(page) - 1
    if not 0 <= number < MAX_PAGE:
        raise web.HTTPNotFound()
    board = await reader.board(stat, period, number)
    return _render(request, reader, "board.html", board=board, boards=BOARDS, periods=PERIODS)


async def _season(request: web.Request, reader: Reader) -> web.StreamResponse:
    return _render(request, reader, "season.html", reply=await reader.season())


async def _profile(request: web.Request, reader: Reader) -> web.StreamResponse:
    user = int(request.match_info["user"])
    if not -ID_MAX <= user <= ID_MAX:
        raise web.HTTPNotFound()
    profile = await reader.profile(user)
    return _render(request, reader, "profile.html", profile=profile)


async def _replay(request: web.Request, reader: Reader) -> web.StreamResponse:
    """A replay's first view: the part of its steps the address asks for (the first one
    unless ``?part=N``), in the page, and the page's script asks for the others."""
    part = request.query.get("part", "1")
    built = await _built(request, reader)
    if built is None or not PAGE_NUMBER.fullmatch(part) or not 1 <= int(part) <= len(built.parts):
        raise web.HTTPNotFound()
    number = int(part) - 1
    # A replay's page is the same for every reader of the same link and language: kept.
    page = built.pages.get((request.match_info["token"], number))
    if page is None:
        shown = built.parts[number]
        made = _render(
            request,
            reader,
            "replay.html",
            ruleset=built.ruleset,
            game_id=int(request.match_info["game"]),
            total=built.total,
            part=number,
            parts=len(built.parts),
            size=PART,
            steps=orjson.loads(shown)["steps"],
            data=Markup(shown.decode()),
        ).body
        assert isinstance(made, bytes)
        page = built.pages[(request.match_info["token"], number)] = made
    return web.Response(body=page, content_type="text/html")


async def _replay_part(request: web.Request, reader: Reader) -> web.StreamResponse:
    """One part of a replay's steps, as JSON for the page's script."""
    built = await _built(request, reader)
    number = int(request.match_info["part"])
    if built is None or not 0 <= number < len(built.parts):
        raise web.HTTPNotFound()
    return web.Response(body=built.parts[number], content_type="application/json")


async def _built(request: web.Request, reader: Reader) -> Built | None:
    link = f"/s/{request.match_info['token']}/p/"
    return await reader.replay(int(request.match_info["game"]), link, request.app[REPLAYS])


def reply_html(reply: Reply, say: Callable[[str], Markup]) -> dict[str, Any]:
    """A bot reply (its embed) as the templates show one."""
    embed = reply.embed
    if embed is None:
        return {"title": "", "description": say(reply.content), "fields": [], "footer": ""}
    return {
        "title": say(embed.title),
        "description": say(embed.description),
        "fields": [(say(name), say(value)) for name, value in embed.fields],
        "footer": say(embed.footer),
    }


async def health(request: web.Request) -> web.Response:
    """The database answers (README, Web companion: the same check as the bot's)."""
    try:
        await request.app[STORAGE].ping()
    except Exception:
        return web.json_response({"status": "fail", "checks": {"database": False}}, status=503)
    return web.json_response({"status": "ok", "checks": {"database": True}})
