"""The scoreboard's routes: the page (`/s/TOKEN`, `?tv` for a TV), its data, and its live
feed of Server-Sent Events.

A link that opens nothing (made up, replaced, turned off, its chat forgotten) answers 404
and says nothing of what was there. The feed sends the whole table as one event whenever it
changes (bot/web/watch.py); the event's id is a hash of the table's version, so a page that
reconnects (EventSource sends Last-Event-ID) is sent nothing it has already. Every open page
of a table shares one build of its data per version and language.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging

from aiohttp import web
from aiohttp_sse import sse_response

from bot.core import i18n, pages
from bot.core.i18n import _
from bot.web.app import page, server_of
from bot.web.security import secure

log = logging.getLogger(__name__)

PING_SECONDS = 15  # a comment line this often keeps proxies from closing the feed
RETRY_MS = 1000  # how soon a browser reconnects after the feed drops
# what any link that opens nothing says, turned off, replaced or made up alike
OPENS_NOTHING = _("This scoreboard link opens nothing. /scoreboard in the group gives the "
                  "current one.")
TOO_MANY_FEEDS = _("Too many live scoreboards are open: close one, or try again in a minute.")


def locale_of(request: web.Request) -> str | None:
    """The reader's language, for a table that has not chosen one."""
    header = request.headers.get("Accept-Language", "")
    return header.split(",")[0].split(";")[0].strip() or None


async def table_of(request: web.Request) -> str:
    """The chat whose scoreboard the link opens; 404 for any other link."""
    token = request.match_info["token"]
    found = await server_of(request).service.store.page(pages.digest_of(token)) \
        if pages.looks_like_token(token) else None
    if found is None or found[1] != pages.BOARD:
        said = i18n.translator(i18n.choose(None, locale_of(request))).render(OPENS_NOTHING)
        raise web.HTTPNotFound(text=said)
    return found[0]


async def page_(request: web.Request) -> web.StreamResponse:
    await table_of(request)
    return page("board.html")


async def data(request: web.Request) -> web.Response:
    server = server_of(request)
    chat = await table_of(request)
    built = await server.builds.get(server.service, chat, None, locale_of(request))
    return web.Response(text=built, content_type="application/json", charset="utf-8")


def event_id(version: object) -> str:
    return hashlib.sha256(repr(version).encode()).hexdigest()[:16]


async def events(request: web.Request) -> web.StreamResponse:
    """The table, whenever it changes, until the page goes (the server cancels the handler
    of a connection that closed: the feed is let go at once) or its link stops opening it.
    At most `limits.feeds` in all and `limits.per_address` from one address: past that, 503
    and a sentence (the page tries again later)."""
    server = server_of(request)
    chat = await table_of(request)
    address = server.addresses.of(request)
    if server.feeds.total >= server.limits.feeds \
            or server.feeds.of(address) >= server.limits.per_address:
        said = i18n.translator(i18n.choose(None, locale_of(request))).render(TOO_MANY_FEEDS)
        raise web.HTTPServiceUnavailable(text=said, headers={"Retry-After": "30"})
    with server.feeds.holding(address):
        return await _feed(request, chat)


async def _feed(request: web.Request, chat: str) -> web.StreamResponse:
    server = server_of(request)
    digest = pages.digest_of(request.match_info["token"])
    locale = locale_of(request)
    watch = server.watcher.watch(chat)
    try:
        if watch.version is None:  # the first page of this table here: read it now, before
            await server.watcher.check()  # the feed starts (a failing database: a 503)
        headers: dict[str, str] = {}
        secure(headers, request.path)  # sent as the feed starts, before any middleware could
        async with sse_response(request, ping_interval=PING_SECONDS,
                                headers=headers) as feed:
            sent = feed.last_event_id
            while feed.is_connected():
                version = watch.version
                watch.changed.clear()
                if version is not None and event_id(version) != sent:
                    try:
                        if not await server.builds.opens(server.service, digest, version):
                            await feed.send("{}", event="gone")
                            break
                        built = await server.builds.get(server.service, chat, version, locale)
                    except Exception:  # the page keeps what it shows; tried at the next change
                        log.warning("web: the scoreboard of %s could not be read", chat,
                                    exc_info=True)
                    else:
                        sent = event_id(version)
                        await feed.send(built, id=sent, event="table", retry=RETRY_MS)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watch.changed.wait(), PING_SECONDS)
            return feed
    except ConnectionResetError:  # the page went while we wrote to it
        return web.Response()
    finally:
        server.watcher.unwatch(watch)


def routes(app: web.Application) -> None:
    app.router.add_get("/s/{token}", page_)
    app.router.add_get("/s/{token}/data", data)
    app.router.add_get("/s/{token}/events", events)

