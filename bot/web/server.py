"""The bot's web server: one aiohttp app in the bot's process, serving the scorepad
(bot/web/pad.py) and the scoreboard (bot/web/scoreboard.py) on WEB_PORT, its links made
with WEB_URL; on a host that routes one port, also /health and Telegram's webhook (`routes`).

Every answer carries the headers of bot/web/security.py and a Server header with no version
in it. It is bounded as bot/web/limits.py says: connections idle or half-sent for longer
than the idle timeout are closed (aiohttp's keep-alive timer, which also runs from the
moment a connection opens), bodies slower than the body timeout are refused, connections
and live feeds are counted in all and per address, and a handler whose connection closed is
cancelled (aiohttp's handler_cancellation) so a feed is let go at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

from aiohttp import web, web_response

from bot.core import i18n
from bot.core.command import Actor, Reply
from bot.core.i18n import _
from bot.core.pages import WebSide
from bot.core.service import Service
from bot.core.service.failures import FAILED
from bot.web import club, pad, scoreboard
from bot.web.app import SERVER, static
from bot.web.builds import Builds
from bot.web.faces import Face, platform_of
from bot.web.limits import Addresses, Gate, Limits, Strikes, Tally
from bot.web.posts import asked_language
from bot.web.security import SERVER_NAME, secure
from bot.web.watch import Watcher

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Route = tuple[str, str, Handler]  # (method, path, handler): /health, the webhook
LINGER_SECONDS = 2.0  # after an answer, the rest of a body not read is waited for this long
BUSY = _("The bot's pages are busy: try again in a minute.")


@web.middleware
async def headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:  # a 404 says no more than a page does
        secure(error.headers, request.path)
        raise
    except Exception as error:  # the database away, damaged, or a bug: a sentence, logged
        response = trouble(request, error)
    secure(response.headers, request.path)
    return response


@web.middleware
async def in_flight(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Behind a trusted proxy every connection is the proxy's: requests in flight are
    counted per client address there, as connections are elsewhere (bot/web/limits.py)."""
    server = request.app[SERVER]
    if not server.addresses.trusts(request.remote):
        return await handler(request)
    address = server.addresses.of(request)
    if server.requests.of(address) >= server.limits.per_address:
        language = i18n.choose(None, asked_language(request))
        raise web.HTTPServiceUnavailable(text=i18n.translator(language).render(BUSY),
                                         headers={"Retry-After": "30"})
    with server.requests.holding(address):
        return await handler(request)


def no_version() -> None:
    """aiohttp names itself and its version in every answer's Server header, its own answers
    to a malformed request included (they are made before any route or middleware, with no
    hook): its default name is set to the bot's, for every aiohttp server of the process."""
    web_response.SERVER_SOFTWARE = SERVER_NAME


class OneLine(logging.Filter):
    """aiohttp's server logs a malformed request (a line or header too long, no HTTP at
    all) with its traceback: one line of what it was is enough, and at INFO."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()}: {str(record.exc_info[1])[:160]}"
            record.args, record.exc_info, record.exc_text = (), None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


HTTP_LOG = logging.getLogger("bot.web.http")
HTTP_LOG.addFilter(OneLine())


def trouble(request: web.Request, error: Exception) -> web.Response:
    """503 and what the host must mend (the store's own words), or that it went wrong, in
    the reader's language; the traceback goes to the log, never to the page."""
    server = request.app[SERVER]
    explain = getattr(server.service.store, "problem", None)
    known = explain(error) if explain is not None else None
    log.error("web: %s %s failed: %s: %s", request.method, request.path,
              type(error).__name__, str(error)[:200], exc_info=known is None)
    header = request.headers.get("Accept-Language", "")
    language = i18n.choose(None, header.split(",")[0].split(";")[0].strip() or None)
    text = i18n.translator(language).render(known or FAILED)
    if request.path.startswith("/pad/api/"):
        return web.json_response({"ok": False, "error": text}, status=503)
    return web.Response(text=text, status=503)


class WebServer:
    """The app and its listener. `faces`: each chat platform by its name (telegram,
    console); `telegram_token`: checks a Mini App's init data; `local`: the console's chat
    and person, who may use that chat's pad with the link alone (the console listens on
    127.0.0.1 only); `limits`: its bounds; `trusted_proxies`: the reverse proxies (addresses
    or networks) whose X-Forwarded-For names the client (WEB_TRUSTED_PROXY); `routes`: more
    routes on the same port (/health, Telegram's webhook)."""

    def __init__(self, service: Service, *, base_url: str, secret: bytes,
                 host: str = "127.0.0.1", port: int = 8080,
                 faces: dict[str, Face] | None = None, telegram_token: str | None = None,
                 local: tuple[str, Actor] | None = None, limits: Limits | None = None,
                 trusted_proxies: Collection[str] = (), routes: Sequence[Route] = ()) -> None:
        self.service = service
        self.host, self.port = host, port
        self.limits = limits or Limits()
        self.addresses = Addresses(trusted_proxies)
        self.strikes = Strikes(self.limits.strikes, self.limits.strike_seconds)
        self.feeds = Tally()
        self.requests = Tally()  # in flight behind a trusted proxy, per client address
        self.gate = Gate(self.limits, self.addresses, i18n.translator("en").render(BUSY))
        self.routes = list(routes)
        self.faces: dict[str, Face] = dict(faces or {})
        self.telegram_token = telegram_token
        self.local = local
        pad_platforms = frozenset({*(["telegram"] if telegram_token else []),
                                   *([platform_of(local[0])] if local else [])})
        self.web = WebSide(base_url.rstrip("/"), secret, pad_platforms)
        self.watcher = Watcher(service.store.versions)  # type: ignore[attr-defined]
        self.builds = Builds()
        self._posting: set[asyncio.Task[None]] = set()
        self._post_order: dict[str, asyncio.Lock] = {}
        self.app = self.build()
        self._runner: web.AppRunner | None = None

    def build(self) -> web.Application:
        app = web.Application(middlewares=[headers, in_flight], client_max_size=64 * 1024)
        app[SERVER] = self
        app.router.add_get("/static/{name}", static)
        pad.routes(app)
        scoreboard.routes(app)
        club.routes(app)
        for method, path, handler in self.routes:
            app.router.add_route(method, path, handler)
        return app

    async def start(self) -> None:
        """Listen, and let the core make links to the pages."""
        self._runner = web.AppRunner(
            self.app, access_log=None, shutdown_timeout=2.0, handler_cancellation=True,
            keepalive_timeout=self.limits.idle_seconds, lingering_time=LINGER_SECONDS,
            logger=HTTP_LOG)
        no_version()
        await self._runner.setup()
        assert self._runner.server is not None
        self.gate.watch(self._runner.server)
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # a port the system chose: the links say which
            sockets: Any = site._server.sockets  # type: ignore[union-attr]
            self.port = sockets[0].getsockname()[1]
            base = self.web.base_url
            if base.endswith(":0"):
                self.web = WebSide(base[:-2] + f":{self.port}", self.web.secret,
                                   self.web.pad_platforms)
        self.service.web = self.web
        log.info("web: pages on %s:%d, linked as %s", self.host, self.port, self.web.base_url)

    def post_later(self, face: Face, chat: str, reply: Reply) -> None:
        """Post a pad's recorded hand to its chat after the pad has its answer: the pad
        waits for the bot, never for the platform (a round trip to Telegram, its rate
        limits). A chat's posts go out in the order their hands were recorded."""
        task = asyncio.create_task(self._post(face, chat, reply))
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    async def _post(self, face: Face, chat: str, reply: Reply) -> None:
        async with self._post_order.setdefault(chat, asyncio.Lock()):  # a fair lock: FIFO
            try:
                await face.post(chat, reply)
            except Exception:  # recorded all the same: the group's board catches up
                log.exception("web: a pad's answer was not posted to %s", chat)

    async def stop(self) -> None:
        if self._posting:  # what was recorded is posted before the bot stops
            await asyncio.wait(set(self._posting), timeout=5.0)
        self.service.web = None
        await self.watcher.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
