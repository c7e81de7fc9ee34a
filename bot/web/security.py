"""The headers of a page whose link is its key (W3C TAG, "Good Practices for Capability
URLs"): no referrer, no indexing, no third-party script or font (the pad's one exception:
Telegram's own Mini App script, which Telegram requires), nothing framed but the pad, in
Telegram's web clients."""

from __future__ import annotations

from collections.abc import MutableMapping

SERVER_NAME = "maalbot"  # the Server header: no library, no version
TELEGRAM_SCRIPT = "https://telegram.org"
TELEGRAM_FRAMES = "https://web.telegram.org https://*.telegram.org"


def policy(path: str) -> str:
    """The Content-Security-Policy of the page at `path`."""
    pad = path.startswith("/pad")
    scripts = f"'self' {TELEGRAM_SCRIPT}" if pad else "'self'"
    frames = TELEGRAM_FRAMES if pad else "'none'"
    return (f"default-src 'none'; script-src {scripts}; style-src 'self'; img-src 'self' "
            f"data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
            f"frame-ancestors {frames}")


def secure(headers: MutableMapping[str, str], path: str) -> None:
    """Every answer's headers, for the page at `path`."""
    headers["Content-Security-Policy"] = policy(path)
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Robots-Tag"] = "noindex, nofollow"
    headers["X-Content-Type-Options"] = "nosniff"
    headers.setdefault("Cache-Control", "no-store")
