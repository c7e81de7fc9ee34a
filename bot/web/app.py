"""What the pages' routes share of the app: the WebServer a request came to, and the files
they serve from the package (its scripts and styles: no CDN)."""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from bot.web.server import WebServer

STATIC = resources.files("bot.web") / "static"
SERVER: web.AppKey[WebServer] = web.AppKey("server")
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}


def server_of(request: web.Request) -> WebServer:
    """The WebServer this request came to (bot/web/server.py)."""
    return request.app[SERVER]


async def static(request: web.Request) -> web.StreamResponse:
    """GET /static/NAME: a script or a style of the pages."""
    name = request.match_info["name"]
    kind = next((t for suffix, t in TYPES.items() if name.endswith(suffix)), None)
    if kind is None or "/" in name or name.startswith("."):
        raise web.HTTPNotFound()
    file = STATIC / name
    if not file.is_file():
        raise web.HTTPNotFound()
    return web.Response(body=file.read_bytes(), content_type=kind, charset="utf-8",
                        headers={"Cache-Control": "public, max-age=300"})


def page(name: str) -> web.Response:
    """A page of the package (pad.html, board.html)."""
    return web.Response(body=(STATIC / name).read_bytes(), content_type="text/html",
                        charset="utf-8")
