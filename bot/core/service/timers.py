"""A running bot's clock for the clubs' tournaments: every so often, the timers' posts that
are due (15 and 5 minutes left, and "last hand" at 0) go to their tournament's tables, each
said once however many processes look (marked in the tournament, under its club's lock)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core.handlers.club.tournaments import timers_due
from bot.core.service.posts import Posts
from bot.core.session import Store

EVERY = 20.0  # seconds between looks: a post comes at most this late
CLOCK_CHAT = "clubs:clock"  # the transaction's key (a timer belongs to no one table)


async def tick(store: Store, posts: Posts, now: datetime | None = None) -> int:
    """The posts due by `now`, sent; how many."""
    async with store.transaction(CLOCK_CHAT) as tx:
        await tx.prefetch(None)
        due = await timers_due(tx.clubs, now or datetime.now(UTC))  # type: ignore[attr-defined]
    for chat, reply in due:
        posts.to(chat, reply)
    return len(due)
