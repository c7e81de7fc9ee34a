"""The club's page: `/c/TOKEN` (`?tv` for a TV; `#member=ID`, a member's page within it),
its data (`/c/TOKEN/data`; `?member=ID`, a member's) and its live feed of Server-Sent
Events (`/c/TOKEN/events`).

The page is the club's figures (bot/core/club/view.py), read through a read transaction of
the club's first table, in the club's language (else that table's, else the reader's). Its
version is the club's (bot/storage/transaction/pages.py, ClubVersion: its epoch, tables,
games' rows and page's link), polled per club as the scoreboard's tables are
(bot/web/watch.py): a game that ends at any of its tables, on any process, is on the page
within a second and a build. Every open page of a club shares one build per version and
language. A link that opens nothing (made up, replaced, turned off, its club without a
table) answers 404 with one sentence; an open page is told `gone`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

from aiohttp import web
from aiohttp_sse import sse_response

from bot.core import i18n, pages
from bot.core.club.view import club_view, find, member_view, words
from bot.core.handlers.call import Call
from bot.core.handlers.club.page import CLUB_PAGE
from bot.core.i18n import _
from bot.core.service import Service
from bot.core.views import read_view
from bot.web.app import SERVER, page, server_of
from bot.web.scoreboard import PING_SECONDS, RETRY_MS, event_id, locale_of
from bot.web.security import secure
from bot.web.watch import Watcher

log = logging.getLogger(__name__)

BUILDS_KEPT = 128  # (club, version, language, member) builds kept for the pages sharing them
OPENS_NOTHING = _("This club page link opens nothing. /club page at any of the club's "
                  "tables gives the current one.")


class Version(Protocol):
    """What the page reads of a club's version (bot/storage/transaction/pages.py)."""

    table: str | None  # the club's first table: read through it (None: it has none)
    link: str  # the hash of the link that opens the page now


class ClubPages:
    """The club pages of one server: who watches which club, and the builds they share."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.watcher = Watcher(service.store.club_versions)  # type: ignore[attr-defined]
        self._kept: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._building: dict[tuple[object, ...], asyncio.Task[str]] = {}

    async def version(self, key: str) -> Version:
        found = await self.service.store.club_versions([key])  # type: ignore[attr-defined]
        return cast(Version, found[key])

    async def get(self, key: str, version: Version, locale: str | None,
                  member: str | None = None) -> str:
        """The JSON of the page (or of a member's), built once per version and shared."""
        wanted = (key, version, locale, member)
        found = self._kept.get(wanted)
        if found is not None:
            self._kept.move_to_end(wanted)
            return found
        task = self._building.get(wanted)
        if task is None:
            task = asyncio.ensure_future(self._build(key, version, locale, member))
            self._building[wanted] = task
        try:
            built = await asyncio.shield(task)
        finally:
            self._building.pop(wanted, None)
        self._kept[wanted] = built
        while len(self._kept) > BUILDS_KEPT:
            self._kept.popitem(last=False)
        return built

    def ref(self, club_id: int) -> Callable[[str], str]:
        """A member's id on the page: an HMAC of their key under the bot's secret, so the
        page names nobody's account and the same member keeps the same id."""
        secret = self.service.secret

        def of(member: str) -> str:
            return hmac.new(secret, f"maalbot-club-member:{club_id}:{member}".encode(),
                            hashlib.sha256).hexdigest()[:12]

        return of

    async def _build(self, key: str, version: Version, locale: str | None,
                     member: str | None) -> str:
        assert version.table is not None
        club_id = int(key.partition(":")[2])
        service, ref = self.service, self.ref(club_id)

        def view(write: bool) -> Callable[[Call], Awaitable[dict[str, Any] | None]]:
            async def build(call: Call) -> dict[str, Any] | None:
                book = call.tx.clubs  # type: ignore[attr-defined]
                club = await book.club(club_id)
                if club is None:
                    return {}
                if not write and not service.clubs.fresh(club) \
                        and await book.unsummarised(club.id):
                    return None  # games with no summary yet: written as a command would
                figures = await service.clubs.figures(book, club)
                tables = await book.tables(club.id)
                tr = i18n.translator(i18n.choose(club.language or None, call.tr.language))
                if member is None:
                    return club_view(club.name, tables, figures, tr, ref,
                                     await book.tournaments(club.id))
                found = find(figures, ref, member)
                return {"language": tr.language, "words": words(tr),
                        "member": None if found is None
                        else member_view(figures, tables, found, tr, ref)}
            return build

        built = await read_view(service, version.table, locale, view(False))
        if built is None:
            built = await read_view(service, version.table, locale, view(True), write=True)
        return json.dumps(built, ensure_ascii=False)

    async def stop(self) -> None:
        await self.watcher.stop()


CLUB_PAGES: web.AppKey[ClubPages] = web.AppKey("club_pages")


def pages_of(request: web.Request) -> ClubPages:
    return request.app[CLUB_PAGES]


def _nothing(request: web.Request) -> web.HTTPNotFound:
    said = i18n.translator(i18n.choose(None, locale_of(request))).render(OPENS_NOTHING)
    return web.HTTPNotFound(text=said)


async def club_of(request: web.Request) -> tuple[str, Version]:
    """The club whose page the link opens (its page's key, club:<id>) and its version;
    404 for any other link."""
    token = request.match_info["token"]
    found = await server_of(request).service.store.page(pages.digest_of(token)) \
        if pages.looks_like_token(token) else None
    if found is None or found[1] != CLUB_PAGE:
        raise _nothing(request)
    version = await pages_of(request).version(found[0])
    if version.table is None:  # its tables all gone (forgotten): nothing to show
        raise _nothing(request)
    return found[0], version


async def page_(request: web.Request) -> web.StreamResponse:
    await club_of(request)
    return page("club.html")


async def data(request: web.Request) -> web.Response:
    key, version = await club_of(request)
    member = request.query.get("member")
    if member is not None and not (len(member) == 12 and member.isalnum()):
        member = "-"  # no member's id: found nowhere
    built = await pages_of(request).get(key, version, locale_of(request), member)
    return web.Response(text=built, content_type="application/json", charset="utf-8")


async def events(request: web.Request) -> web.StreamResponse:
    """The club's page, whenever it changes, until the page goes or its link stops
    opening it."""
    club_pages = pages_of(request)
    key, _version = await club_of(request)
    digest = pages.digest_of(request.match_info["token"])
    locale = locale_of(request)
    watch = club_pages.watcher.watch(key)
    try:
        if watch.version is None:  # the first page of this club here: read it now, before
            await club_pages.watcher.check()  # the feed starts (a failing database: a 503)
        headers: dict[str, str] = {}
        secure(headers, request.path)  # sent as the feed starts, before any middleware could
        async with sse_response(request, ping_interval=PING_SECONDS,
                                headers=headers) as feed:
            sent = feed.last_event_id
            while feed.is_connected():
                version = cast(Version | None, watch.version)
                watch.changed.clear()
                if version is not None and event_id(version) != sent:
                    if version.link != digest or version.table is None:
                        await feed.send("{}", event="gone")
                        break
                    try:
                        built = await club_pages.get(key, version, locale)
                    except Exception:  # the page keeps what it shows; tried at the next change
                        log.warning("web: the page of %s could not be read", key,
                                    exc_info=True)
                    else:
                        sent = event_id(version)
                        await feed.send(built, id=sent, event="club", retry=RETRY_MS)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watch.changed.wait(), PING_SECONDS)
            return feed
    except ConnectionResetError:  # the page went while we wrote to it
        return web.Response()
    finally:
        club_pages.watcher.unwatch(watch)


def routes(app: web.Application) -> None:
    """The club page's routes, and its watcher (stopped with the app)."""
    club_pages = ClubPages(app[SERVER].service)
    app[CLUB_PAGES] = club_pages

    async def stop(_app: web.Application) -> None:
        await club_pages.stop()

    app.on_shutdown.append(stop)
    app.router.add_get("/c/{token}", page_)
    app.router.add_get("/c/{token}/data", data)
    app.router.add_get("/c/{token}/events", events)

