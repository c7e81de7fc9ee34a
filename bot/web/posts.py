"""A post to the scorepad's API as the server takes it: JSON (`application/json` in UTF-8),
from the pages' own address or Telegram's, its body whole within the body timeout and the
size limit, and read without running out of recursion. Anything else is refused with a 4xx
and one sentence in the reader's language, before any of it is looked at.

The type matters: a cross-site form can post text/plain, a form or multipart without asking
first, never JSON; a browser names the page a request comes from in `Origin`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.core import i18n
from bot.core.i18n import Msg, _

TELEGRAM = "telegram.org"  # its web clients (web.telegram.org) and their subdomains

NOT_JSON = _("The scorepad's server takes JSON only (Content-Type: application/json).")
NOT_UTF8 = _("The scorepad's server reads JSON written in UTF-8 only.")
NOT_AN_OBJECT = _("The scorepad's server expects a JSON object.")
ELSEWHERE = _("This request comes from another site: the scorepad sends only from its own "
              "page.")
TOO_SLOW = _("The request took too long to arrive: send it again.")
TOO_BIG = _("The request is too big for the scorepad.")


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


class Refusal(web.HTTPException):
    """A request that records nothing: its status and a sentence in the person's language."""

    def __init__(self, status: int, text: str, close: bool = False) -> None:
        self.status_code = status
        super().__init__(text=dumps({"ok": False, "error": text}),
                         content_type="application/json",
                         headers={"Connection": "close"} if close else None)


def asked_language(request: web.BaseRequest) -> str | None:
    """The browser's first language (Accept-Language), for a refusal."""
    header = request.headers.get("Accept-Language", "")
    return header.split(",")[0].split(";")[0].strip()[:35] or None


def said(message: Msg, locale: str | None) -> str:
    return i18n.translator(i18n.choose(None, locale)).render(message)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def from_here(request: web.BaseRequest, base_url: str) -> bool:
    """Whether the request's Origin, if it names one, is the pages' (WEB_URL, or the
    address it was sent to) or Telegram's. No Origin: not a browser's cross-site request
    (a browser names it on every POST)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    origin = origin.strip().lower()
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # "null": a sandboxed frame, a file, a redirect across sites
    if origin == _origin(base_url) or parts.netloc == request.host.lower():
        return True
    host = parts.hostname
    return parts.scheme == "https" and (host == TELEGRAM or host.endswith("." + TELEGRAM))


async def json_object(request: web.Request, base_url: str, body_seconds: float,
                      locale: str | None = None) -> dict[str, Any]:
    """The post's JSON object, or a Refusal: 415 for another type or charset, 403 from
    another site, 408 for a body slower than `body_seconds`, 413 past the size limit, 400
    for anything that is no JSON object."""
    locale = locale or asked_language(request)
    if request.content_type != "application/json":
        raise Refusal(415, said(NOT_JSON, locale))
    if (request.charset or "utf-8").lower() not in ("utf-8", "utf8"):
        raise Refusal(415, said(NOT_UTF8, locale))
    if not from_here(request, base_url):
        raise Refusal(403, said(ELSEWHERE, locale))
    try:
        async with asyncio.timeout(body_seconds):
            raw = await request.read()
    except TimeoutError:
        raise Refusal(408, said(TOO_SLOW, locale), close=True) from None
    except web.HTTPRequestEntityTooLarge:
        raise Refusal(413, said(TOO_BIG, locale), close=True) from None
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refusal(400, said(NOT_UTF8, locale)) from None
    except (ValueError, RecursionError):  # RecursionError: arrays nested a thousand deep
        body = None
    if not isinstance(body, dict):
        raise Refusal(400, said(NOT_AN_OBJECT, locale))
    return body
