"""A table's web pages, its scorepad and its scoreboard, and the links that are their keys.

A link is a capability (W3C TAG, "Good Practices for Capability URLs"): whoever has it
opens the page, and nothing else does. Its token is an HMAC, under the bot's secret, of a
random nonce the chat's settings keep; the database keeps the nonce and the token's hash
(to find the table a link opens), never the token: the database alone opens nothing. A new
nonce replaces the link, after which the old one opens nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

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
