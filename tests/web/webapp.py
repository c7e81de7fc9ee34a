"""Telegram's side of a Mini App, for the tests: init data signed as Telegram's docs say
(core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app), written here
from the docs rather than from the bot's own code, and the launch hash a Mini App opens with."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any
from urllib.parse import quote, urlencode


def init_data(user: dict[str, Any], token: str, start_param: str | None = None,
              auth_date: int | None = None, **extra: str) -> str:
    """The query string Telegram.WebApp.initData holds, signed for the bot `token`."""
    fields = {"user": json.dumps(user, separators=(",", ":"), ensure_ascii=False),
              "auth_date": str(int(time.time()) if auth_date is None else auth_date),
              "query_id": "AAHdF6IQAAAAAN0XohDhrOrc", **extra}
    if start_param is not None:
        fields["start_param"] = start_param
    # data-check-string: every field but hash, sorted by key, key=value, joined by \n
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields, quote_via=quote)


def webapp_user(user_id: int, first_name: str, username: str | None = None,
                language_code: str = "en") -> dict[str, Any]:
    found: dict[str, Any] = {"id": user_id, "first_name": first_name,
                             "language_code": language_code, "allows_write_to_pm": True}
    if username:
        found["username"] = username
    return found


def launch_hash(data: str, theme: dict[str, str] | None = None) -> str:
    """The hash Telegram opens a Mini App's URL with."""
    params = {"tgWebAppData": data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "android",
              "tgWebAppThemeParams": json.dumps(theme or {})}
    return "#" + urlencode(params, quote_via=quote)
