"""The scorepad's routes: the page, what it shows (`state`) and what it sends (`send`).

Who taps is the person Telegram's init data names (checked, bot/web/initdata.py), never
the page; in the console, its one person. The table is the one the link's token names (the
`startapp` of the group's button, inside the signed init data). A hand sent is the command
a person types, with the same checks and permissions, in their language; once recorded, the
bot posts the same answer and board to the group. The page's `submit` id makes its origin:
a retry or a double tap is recorded once.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.core import pad, pages
from bot.core.command import Actor, Command, Reply
from bot.core.i18n import _
from bot.core.views import read_view
from bot.web import initdata
from bot.web.app import page, server_of
from bot.web.faces import platform_of
from bot.web.initdata import MAX_LENGTH
from bot.web.posts import Refusal, asked_language, json_object
from bot.web.posts import dumps as _json
from bot.web.posts import said as _said

log = logging.getLogger(__name__)

SUBMIT = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
MAX_OPTIONS, MAX_VALUE = 24, 2000

NOT_OPENED = _("Open the scorepad from the Scorepad button in the group.")
NOT_TELEGRAM = _("This scorepad didn't come from Telegram, or was opened too long ago: "
                 "close it and open it again from the group's Scorepad button.")
ANOTHER_TABLE = _("This scorepad was opened for another table: open it again from this "
                  "group's Scorepad button.")
GONE = _("This scorepad link opens nothing. /scorepad in the group gives the current one.")
NOT_A_PAD_COMMAND = _("The scorepad sends results only.")
TOO_MANY_REFUSED = _("Too many refused attempts from here: wait a minute, then open the "
                     "scorepad again from the group's Scorepad button.")
NOT_OPTIONS = _("The scorepad's options are an object of text.")
NOT_A_SUBMIT = _("The scorepad's submit is 8 to 64 letters, digits, - or _.")


@dataclass(frozen=True)
class Person:
    chat: str
    actor: Actor
    locale: str | None
    token: str


def _hinted_locale(raw: str, request: web.Request) -> str | None:
    """The person's language for a refusal, before their init data is trusted: what it
    says, else what the browser asks for. It only picks the words of the refusal."""
    import json
    from urllib.parse import parse_qsl

    try:
        user = json.loads(dict(parse_qsl(raw[:MAX_LENGTH])).get("user", "{}"))
        if isinstance(user, dict) and isinstance(user.get("language_code"), str):
            return user["language_code"][:35]
    except (ValueError, RecursionError):
        pass
    return asked_language(request)


async def person(request: web.Request, body: Mapping[str, Any]) -> Person:
    """Who is tapping, at which table; refused with 401 (unproven), 400 (signed but not as
    Telegram sends it), 403 (another table's), 404 (a link that opens nothing) or 429 (an
    address whose init data was refused too often of late)."""
    server = server_of(request)
    raw = body.get("init_data")
    asked = body.get("table")
    if isinstance(raw, str) and raw:
        locale = _hinted_locale(raw, request)
        address = server.addresses.of(request)
        if server.strikes.barred(address):
            raise Refusal(429, _said(TOO_MANY_REFUSED, locale))
        if not server.telegram_token:
            raise Refusal(401, _said(NOT_TELEGRAM, locale))
        try:
            data = initdata.check(raw, server.telegram_token)
        except initdata.Refused as refused:
            log.info("web: init data refused: %s", refused.reason)
            if not refused.malformed:  # signed by Telegram: no guess, but a client's bug
                server.strikes.strike(address)
            raise Refusal(400 if refused.malformed else 401,
                          _said(NOT_TELEGRAM, locale)) from refused
        user = data.user
        actor = Actor(f"telegram:{user.id}", user.full_name or str(user.id),
                      handles=(user.username,) if user.username else ())
        token, platform, locale = data.start_param or "", "telegram", user.language_code
    elif server.local is not None and isinstance(asked, str):
        local_chat, actor = server.local
        token, locale, platform = asked, None, platform_of(local_chat)
    else:
        raise Refusal(401, _said(NOT_OPENED, _hinted_locale("", request)))
    if isinstance(asked, str) and asked and asked != token:
        raise Refusal(403, _said(ANOTHER_TABLE, locale))
    found = await server.service.store.page(pages.digest_of(token)) \
        if pages.looks_like_token(token) else None
    if found is None or found[1] != pages.PAD:
        raise Refusal(404, _said(GONE, locale))
    chat = found[0]
    if platform_of(chat) != platform:
        raise Refusal(403, _said(ANOTHER_TABLE, locale))
    return Person(chat, actor, locale, token)


async def body_of(request: web.Request) -> dict[str, Any]:
    server = server_of(request)
    return await json_object(request, server.web.base_url, server.limits.body_seconds)


async def page_(request: web.Request) -> web.StreamResponse:
    return page("pad.html")


async def state(request: web.Request) -> web.Response:
    server = server_of(request)
    who = await person(request, await body_of(request))
    view = await read_view(server.service, who.chat, who.locale, pad.pad_view, who.actor)
    view["table"] = who.token
    view["you"] = who.actor.name
    return web.json_response(view, dumps=_json)


def _options(raw: object, locale: str | None) -> dict[str, str]:
    if not isinstance(raw, dict) or len(raw) > MAX_OPTIONS:
        raise Refusal(400, _said(NOT_OPTIONS, locale))
    options = {}
    for key, value in raw.items():
        if not isinstance(key, str) or not isinstance(value, str) or len(value) > MAX_VALUE:
            raise Refusal(400, _said(NOT_OPTIONS, locale))
        if value.strip():
            options[key] = value.strip()
    return options


def pad_command_names(server: Any) -> frozenset[str]:
    return frozenset([*(spec.name for game in server.service.table.games.values()
                        for spec in pad.pad_commands(game)), *pad.ALSO])


def _expect(raw: object) -> dict[str, int] | None:
    """The table a confirmation answers (pad.answer's `expect`), or None."""
    if not isinstance(raw, dict) or set(raw) != {"session", "hand", "version"} \
            or not all(type(v) is int for v in raw.values()):
        return None
    return dict(raw)


async def send(request: web.Request) -> web.Response:
    server = server_of(request)
    body = await body_of(request)
    who = await person(request, body)
    name, submit = body.get("command"), body.get("submit")
    if not isinstance(name, str) or name not in pad_command_names(server):
        raise Refusal(400, _said(NOT_A_PAD_COMMAND, who.locale))
    if not isinstance(submit, str) or not SUBMIT.match(submit):
        raise Refusal(400, _said(NOT_A_SUBMIT, who.locale))
    platform = platform_of(who.chat)
    face = server.faces.get(platform)
    command = Command(chat=who.chat, actor=who.actor, name=name,
                      options=_options(body.get("options"), who.locale),
                      # exactly once per table: the same submit id at another table is
                      # another hand
                      origin_id=f"pad:{who.chat}:{who.actor.id}:{submit}",
                      # /undo asks first, as a tap does: the pad answers with the Yes
                      buttons=platform == "telegram" or name in pad.ALSO,
                      expect=_expect(body.get("expect")),
                      form=True,
                      locale=who.locale)

    async def admin() -> bool:
        return face is not None and await face.is_admin(who.chat, who.actor)

    async def record() -> Reply:
        reply = await server.service.handle(command, admin)
        if reply.ok and not reply.duplicate and not pad.asks(reply):
            server.watcher.poke()
            if face is not None:
                server.post_later(face, who.chat, reply)
        return reply

    # a page that goes mid-way (its handler is cancelled then) leaves the hand to finish:
    # recorded and posted to the group, or not recorded at all
    reply: Reply = await asyncio.shield(record())
    return web.json_response(pad.answer(reply), status=200 if reply.ok else 422,
                             dumps=_json)


def routes(app: web.Application) -> None:
    app.router.add_get("/pad", page_)
    app.router.add_post("/pad/api/state", state)
    app.router.add_post("/pad/api/send", send)

