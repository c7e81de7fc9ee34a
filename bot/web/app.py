"""What the pages' routes share of the app: the server a request came to (as `Site`: what
the routes use of bot/web/server.py's WebServer, which imports them), and the files they
serve from the package (its scripts and styles: no CDN)."""

from __future__ import annotations

from importlib import resources
from typing import Protocol

from aiohttp import web

from bot.core.command import Actor, Reply
from bot.core.pages import WebSide
from bot.core.service import Service
from bot.web.builds import Builds
from bot.web.faces import Face
from bot.web.limits import Addresses, Limits, Strikes, Tally
from bot.web.watch import Watcher


class Site(Protocol):
    """What a page's route uses of the server that took its request."""

    service: Service
    faces: dict[str, Face]
    telegram_token: str | None
    local: tuple[str, Actor] | None  # the console's chat and person
    watcher: Watcher
    builds: Builds
    web: WebSide  # the pages' address (WEB_URL) and the secret of their links
    limits: Limits
    addresses: Addresses  # who a request comes from (a trusted proxy's X-Forwarded-For)
    strikes: Strikes  # refused init data, per address
    feeds: Tally  # the live feeds open, per address

    def post_later(self, face: Face, chat: str, reply: Reply) -> None: ...


STATIC = resources.files("bot.web") / "static"
SERVER: web.AppKey[Site] = web.AppKey("server")
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
LONGEST_NAME = 64  # the package's files have short names; a longer one is none of them


def server_of(request: web.Request) -> Site:
    """The server this request came to (bot/web/server.py)."""
    return request.app[SERVER]


async def static(request: web.Request) -> web.StreamResponse:
    """GET /static/NAME: a script or a style of the pages."""
    name = request.match_info["name"]
    kind = next((t for suffix, t in TYPES.items() if name.endswith(suffix)), None)
    if kind is None or "/" in name or name.startswith(".") or len(name) > LONGEST_NAME:
        raise web.HTTPNotFound()
    file = STATIC / name
    try:
        body = file.read_bytes()
    except OSError:  # none such (or a name the file system refuses)
        raise web.HTTPNotFound() from None
    return web.Response(body=body, content_type=kind, charset="utf-8",
                        headers={"Cache-Control": "public, max-age=300"})


def page(name: str) -> web.Response:
    """A page of the package (pad.html, board.html)."""
    return web.Response(body=(STATIC / name).read_bytes(), content_type="text/html",
                        charset="utf-8")
