"""Replies as Discord messages: the board as an embed with a monospace table."""

from __future__ import annotations

import re

import discord

from bot.core.bidi import for_chat
from bot.core.command import Reply
from bot.core.i18n import translator

CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
MESSAGE_EMBEDS = 6000  # the characters of all the embeds of one message together
PAGE = 4000  # a long text's embed: a little under EMBED_LIMIT
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
        if len(text) > CONTENT_LIMIT:  # a long text (/help) is sent whole, never cut
            return None, long_text(reply)[0]
        return text, []
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


def long_text(reply: Reply) -> list[list[discord.Embed]]:
    """A plain reply longer than a message's content as embeds, whole: split between lines
    into embeds of PAGE characters at most, as many to a message as fit MESSAGE_EMBEDS (and
    Discord's 10). One list per message; the first goes where the reply would, the others
    follow it (`more_messages`)."""
    pages: list[str] = []
    for line in escape(reply.text).split("\n"):
        while len(line) > PAGE:  # a line longer than an embed: cut (none are, in practice)
            pages.append(line[:PAGE])
            line = line[PAGE:]
        if pages and len(pages[-1]) + 1 + len(line) <= PAGE:
            pages[-1] += "\n" + line
        else:
            pages.append(line)
    messages: list[list[discord.Embed]] = []
    size = 0
    for page in pages:
        if not messages or size + len(page) > MESSAGE_EMBEDS or len(messages[-1]) == 10:
            messages.append([])
            size = 0
        messages[-1].append(discord.Embed(description=page or "\u200b", colour=COLOUR))
        size += len(page)
    return messages


def more_messages(reply: Reply) -> list[list[discord.Embed]]:
    """What a reply sends after its first message: the rest of a long text."""
    if not reply.ok or reply.table is not None or len(escape(reply.text)) <= CONTENT_LIMIT:
        return []
    return long_text(reply)[1:]


_MARKDOWN = re.compile(r"([\\*_~|`>\[\]])")
_HEADING = re.compile(r"^(#+|-# )", re.MULTILINE)


def escape(text: str) -> str:
    """Every Markdown character escaped (Discord shows the character and drops the
    backslash): no masked link, bold, spoiler, quote or heading from what people typed;
    right-to-left names isolated (bot/core/bidi.py: Discord keeps U+2068 and U+2069)."""
    return _HEADING.sub(lambda m: "\\" + m.group(1), _MARKDOWN.sub(r"\\\1", for_chat(text)))


def _code_block(table: str, limit: int) -> str:
    """The table in a code block; when too long, its newest rows are kept."""
    limit = max(limit, 200)
    lines = for_chat(table).replace("```", "'''").split("\n")
    while len(lines) > 3 and len("```\n" + "\n".join(lines) + "\n```") > limit:
        del lines[1]  # drop the oldest hand row, keep the heading
    return "```\n" + "\n".join(lines) + "\n```"


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
