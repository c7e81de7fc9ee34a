"""Replies as Telegram HTML: every user-supplied string escaped, right-to-left names
isolated (bot/core/bidi.py: Telegram keeps U+2068 and U+2069), the board in <pre>."""

from __future__ import annotations

from html import escape

from bot.core.bidi import for_chat
from bot.core.command import Reply
from bot.core.i18n import translator

# Telegram allows 4096 characters a message; stay clear of it after escaping.
LIMIT = 4000


def html(text: str) -> str:
    """Text of the bot's as Telegram HTML."""
    return escape(for_chat(text), quote=False)


def reply_chunks(reply: Reply, limit: int = LIMIT) -> list[str]:
    """The reply as one or more HTML messages, each well-formed and under `limit`."""
    text = reply.text if reply.ok else f"⚠️ {reply.text}"
    blocks = _split_lines(html(text), limit) if text else []
    if reply.table:
        blocks += [f"<pre>{part}</pre>" for part in _split_lines(html(reply.table),
                                                                limit - len("<pre></pre>"))]
    # Pack blocks into as few messages as fit.
    chunks: list[str] = []
    for block in blocks:
        if chunks and len(chunks[-1]) + 1 + len(block) <= limit:
            chunks[-1] += "\n" + block
        else:
            chunks.append(block)
    return chunks or [html(translator(reply.language)("(nothing to say)"))]


def _split_lines(text: str, limit: int) -> list[str]:
    """Lines packed into parts under `limit`; a longer line is cut."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        for piece in _cut(line, limit):
            candidate = f"{current}\n{piece}" if current else piece
            if current and len(candidate) > limit:
                parts.append(current)
                current = piece
            else:
                current = candidate
    if current:
        parts.append(current)
    return parts


def _cut(line: str, limit: int) -> list[str]:
    """Cut a line into pieces under `limit`, never inside an HTML entity like &amp;."""
    pieces = []
    while len(line) > limit:
        cut = limit
        amp = line.rfind("&", limit - 8, limit)
        if amp > 0 and ";" not in line[amp:limit]:
            cut = amp
        pieces.append(line[:cut])
        line = line[cut:]
    pieces.append(line)
    return pieces
