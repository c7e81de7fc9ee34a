"""Telegram's Mini App init data, checked as Telegram says
(core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app).

The page hands over `Telegram.WebApp.initData` as Telegram gave it: a query string whose
`hash` is HMAC-SHA256, under the key HMAC-SHA256("WebAppData", bot token), of every other
field, sorted, `key=value` joined by newlines, values URL-decoded as sent (never JSON read
and written again). Telegram gives no freshness window: `auth_date` older than MAX_AGE is
refused, so init data copied off a phone stops working after an evening.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

MAX_AGE = 6 * 3600  # seconds: a game night with the pad left open; reopening renews it
MAX_LENGTH = 4096  # init data is a few hundred bytes; anything far longer is not Telegram's
SKEW = 300  # an auth_date this far in the future is the phone's clock, not a forgery


class Refused(Exception):
    """Init data that proves nothing (a 401), or that Telegram signed but that is not as
    its docs say (`malformed`: a 400), `reason` saying which for the log."""

    def __init__(self, reason: str, malformed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.malformed = malformed


@dataclass(frozen=True)
class WebAppUser:
    id: int
    first_name: str
    last_name: str = ""
    username: str | None = None
    language_code: str | None = None

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass(frozen=True)
class InitData:
    user: WebAppUser
    start_param: str | None  # the link's startapp: our table's token
    auth_date: int


def secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The hash Telegram would put beside `fields` (the tests' Telegram signs with it)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    return hmac.new(secret_key(bot_token), check.encode(), hashlib.sha256).hexdigest()


def check(raw: str, bot_token: str, now: float | None = None,
          max_age: int = MAX_AGE) -> InitData:
    """The init data `raw`, if Telegram signed it for this bot and it is fresh."""
    if not raw or len(raw) > MAX_LENGTH:
        raise Refused("no init data")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError as error:
        raise Refused("init data that is no query string") from error
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Refused("a field given twice")
    given = fields.pop("hash", "")
    if not hmac.compare_digest(sign(fields, bot_token), given.lower()):
        raise Refused("init data not signed by Telegram for this bot")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError as error:
        raise Refused("no auth_date") from error
    now = time.time() if now is None else now
    if auth_date > now + SKEW:
        raise Refused("auth_date in the future")
    if now - auth_date > max_age:
        raise Refused("stale")
    try:
        user = json.loads(fields["user"])
    except (KeyError, ValueError, RecursionError) as error:
        raise Refused("no user", malformed=True) from error
    return InitData(_user(user), fields.get("start_param") or None, auth_date)


def _user(user: object) -> WebAppUser:
    """The WebAppUser of Telegram's docs: an integer id, and text (or nothing) for the
    rest; anything else is refused, as no Telegram client sends it."""
    if not isinstance(user, dict) or type(user.get("id")) is not int:
        raise Refused("no user id", malformed=True)
    texts = {}
    for key in ("first_name", "last_name", "username", "language_code"):
        value = user.get(key)
        if value is not None and not isinstance(value, str):
            raise Refused(f"user's {key} is no text", malformed=True)
        texts[key] = value or None
    return WebAppUser(user["id"], texts["first_name"] or "", texts["last_name"] or "",
                      texts["username"], texts["language_code"])
