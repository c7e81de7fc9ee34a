"""A table's web pages, its scorepad and its scoreboard, and the links that are their keys.

A link is a capability (W3C TAG, "Good Practices for Capability URLs"): whoever has it
opens the page, and nothing else does. Its token is an HMAC, under the bot's secret, of a
random nonce the chat's settings keep; the database keeps the nonce and the token's hash
(to find the table a link opens), never the token: the database alone opens nothing. A new
nonce replaces the link, after which the old one opens nothing.

Nor is a token kept in what is kept beside a command (the reply kept for exactly-once, a
platform's update in the inbox): `conceal` puts a mark of its page's kind where a link's
token stood, and `reveal` puts back the table's current token when a kept reply is sent
again.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PAD = "pad"  # the scorepad: a whole hand on one screen (Telegram's Mini App, the console)
BOARD = "board"  # the scoreboard: the table's live page, on a phone or a TV
KINDS = (PAD, BOARD)


def token_of(secret: bytes, kind: str, nonce: str) -> str:
    """The link's token: 43 characters of A-Z a-z 0-9 _ - (Telegram's startapp takes them)."""
    mac = hmac.new(secret, f"maalbot-page:{kind}:{nonce}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def digest_of(token: str) -> str:
    """What the database keeps of a token, to find its table."""
    return hashlib.sha256(token.encode()).hexdigest()


def fingerprint(secret: bytes) -> str:
    """Which secret a nonce's link was made with, as the settings may say it: an HMAC
    under it of a constant, 8 hex digits, from which the secret can't be had."""
    return hmac.new(secret, b"maalbot-page-secret", hashlib.sha256).hexdigest()[:8]


def new_nonce(secret: bytes) -> str:
    """A random nonce, and the fingerprint of the secret its link is made with: a board
    can tell its Scorepad button would open nothing (the host changed the secret, or a
    token of the bot's that it comes from) without asking the database."""
    return f"{secrets.token_urlsafe(16)}.{fingerprint(secret)}"


def made_with(nonce: str, secret: bytes) -> bool:
    """Whether the link of `nonce` is made with `secret` (a nonce kept before fingerprints
    says nothing: the database's hash decides, bot/core/handlers/pages.live_token)."""
    _, dot, said = nonce.rpartition(".")
    return not dot or hmac.compare_digest(said, fingerprint(secret))


def looks_like_token(text: str) -> bool:
    """A token as token_of makes them: anything else is refused before any look-up."""
    return len(text) == 43 and all(c.isalnum() or c in "-_" for c in text) and text.isascii()


@dataclass(frozen=True)
class WebSide:
    """The bot's web server as the core needs to know it: where its pages are, the secret
    its links are made with, and the platforms whose chats open a scorepad (Telegram, when a
    Mini App is registered; the console)."""

    base_url: str  # https://maal.example.org, or the console's http://127.0.0.1:PORT
    secret: bytes
    pad_platforms: frozenset[str] = frozenset()

    def board_url(self, token: str) -> str:
        return f"{self.base_url.rstrip('/')}/s/{token}"

    def pad_url(self, token: str) -> str:
        """The pad in a browser (the console's); Telegram opens it as a Mini App."""
        return f"{self.base_url.rstrip('/')}/pad#t={token}"

    def opens_pad(self, chat: str) -> bool:
        return chat.split(":", 1)[0] in self.pad_platforms


# a token where a link carries one: the scoreboard's /s/TOKEN, the pad's #t=TOKEN (a
# browser's) and startapp=TOKEN (Telegram's Mini App button)
_IN_LINK = re.compile(r"(/s/|#t=|startapp=)([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])")
MARKS = {BOARD: "\u27e6board\u27e7", PAD: "\u27e6pad\u27e7"}  # ⟦board⟧, ⟦pad⟧
_MARKED = re.compile("|".join(map(re.escape, MARKS.values())))


def conceal(value: Any) -> Any:
    """`value` (text, or JSON made of it) with every link's token replaced by its mark."""
    if isinstance(value, str):
        if "/s/" not in value and "#t=" not in value and "startapp=" not in value:
            return value
        return _IN_LINK.sub(lambda m: m.group(1) + MARKS[BOARD if m.group(1) == "/s/" else PAD],
                            value)
    if isinstance(value, Mapping):
        return {key: conceal(item) for key, item in value.items()}
    if isinstance(value, list):
        return [conceal(item) for item in value]
    return value


def marked(text: str) -> bool:
    """Whether `text` holds a mark where a link's token stood."""
    return bool(_MARKED.search(text))


def reveal(value: Any, tokens: Mapping[str, str | None]) -> Any:
    """`value` with each mark replaced by the table's current token of its kind (`tokens`);
    a kind it has none of now keeps its mark: that link would open nothing anyway."""
    if isinstance(value, str):
        found = {MARKS[kind]: token for kind, token in tokens.items() if token}
        return _MARKED.sub(lambda m: found.get(m.group(0), m.group(0)), value)
    if isinstance(value, Mapping):
        return {key: reveal(item, tokens) for key, item in value.items()}
    if isinstance(value, list):
        return [reveal(item, tokens) for item in value]
    return value


def current_tokens(web: WebSide | None, nonces: Mapping[str, str]) -> dict[str, str | None]:
    """The tokens the table's kept nonces make with the bot's secret, by kind."""
    if web is None:
        return {}
    return {kind: token_of(web.secret, kind, nonce) if made_with(nonce, web.secret) else None
            for kind, nonce in nonces.items() if kind in KINDS}
