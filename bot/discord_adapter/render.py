"""Replies as Discord messages: the board as an embed with a monospace table."""

from __future__ import annotations

import re

import discord

from bot.core.command import Reply
from bot.core.i18n import translator

CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
COLOUR = discord.Colour.dark_gold()

# Nobody is ever pinged by a reply: not @everyone, not a role, not a player.
NO_PINGS = discord.AllowedMentions.none()


def message_parts(reply: Reply) -> tuple[str | None, list[discord.Embed]]:
    """(content, embeds) for a reply. The core's text is plain: names people chose may hold
    Markdown (`[text](https://...)`, `**`), so it is shown as typed, never rendered."""
    text = escape(reply.text)
    if not reply.ok:
        return _clip(f"⚠️ {text}", CONTENT_LIMIT), []
    if reply.table is None:
        return _clip(text, CONTENT_LIMIT), []
    table = _code_block(reply.table, EMBED_LIMIT - len(text) - 2)
    tr = translator(reply.language)
    title = tr("Final standings") if reply.board is not None and reply.board.ended \
        else tr("Board")
    description = f"{text}\n{table}" if text else table
    if len(description) > EMBED_LIMIT:
        return _clip(text, CONTENT_LIMIT), [
            discord.Embed(title=title, description=_code_block(reply.table, EMBED_LIMIT),
                          colour=COLOUR)]
    return None, [discord.Embed(title=title, description=description, colour=COLOUR)]


_MARKDOWN = re.compile(r"([\\*_~|`>\[\]])")
_HEADING = re.compile(r"^(#+|-# )", re.MULTILINE)


def escape(text: str) -> str:
    """Every Markdown character escaped (Discord shows the character and drops the
    backslash): no masked link, bold, spoiler, quote or heading from what people typed."""
    return _HEADING.sub(lambda m: "\\" + m.group(1), _MARKDOWN.sub(r"\\\1", text))


def _code_block(table: str, limit: int) -> str:
    """The table in a code block; when too long, its newest rows are kept."""
    limit = max(limit, 200)
    lines = table.replace("```", "'''").split("\n")
    while len(lines) > 3 and len("```\n" + "\n".join(lines) + "\n```") > limit:
        del lines[1]  # drop the oldest hand row, keep the heading
    return "```\n" + "\n".join(lines) + "\n```"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
