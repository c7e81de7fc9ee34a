"""How long a kept reply lives (issue 27): its origin's id for good, its reply only while
its platform can deliver the same update again.

An origin's id guards against doing a message twice for as long as it is kept, which is
always (a second tap on an old button is a double too); its reply is only there to answer
the same update delivered again, so it is emptied once its platform can no longer deliver
that update again:

- Telegram keeps an update it was not told we received for 24 hours, and the inbox keeps a
  handled one for two days (bot/storage/inbox.py): its replies go after two days;
- Discord delivers an interaction again only while its token lives, 15 minutes: its
  replies, and the console's and anyone else's, go after an hour.

A command whose reply went is answered "Already recorded." (bot/core/service.py): still
never done twice. Emptying is an UPDATE of rows whose reply is still there, in small
batches, so several processes may prune at once: each row is emptied by whoever gets it
first, and no row is ever deleted."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, not_, null, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.tables import origins

log = logging.getLogger(__name__)

TELEGRAM_WINDOW = timedelta(days=2)
OTHER_WINDOW = timedelta(hours=1)  # Discord (15 minutes), the console, tests
BATCH = 500  # rows emptied in one transaction: a writer waits at most that long
EVERY = 600.0  # seconds between two prunes of a running bot
# What a kept reply reads as once it has gone: the hot path and the store say this for a
# known origin whose reply is NULL, and the service answers "Already recorded."
PRUNED: Mapping[str, Any] = {"ok": True, "pruned": True}
PRUNED_JSON = '{"ok":true,"pruned":true}'


def pruned(reply: Mapping[str, Any] | None) -> bool:
    return reply is not None and bool(reply.get("pruned"))


async def prune_replies(engine: AsyncEngine, now: datetime | None = None,
                        batch: int = BATCH) -> int:
    """Empty every kept reply past its platform's window; returns how many."""
    now = now or datetime.now(UTC)
    telegram = origins.c.origin_id.like("telegram:%")
    done = 0
    for which, window in ((telegram, TELEGRAM_WINDOW), (not_(telegram), OTHER_WINDOW)):
        while True:
            chosen = (select(origins.c.origin_id)
                      .where(origins.c.reply.is_not(None), origins.c.created_at < now - window,
                             which)
                      .limit(batch).scalar_subquery())
            async with engine.begin() as conn:
                result = await conn.execute(
                    update(origins)
                    .where(and_(origins.c.origin_id.in_(chosen), origins.c.reply.is_not(None)))
                    .values(reply=null()))  # SQL NULL, not JSON null
            done += max(result.rowcount, 0)
            if result.rowcount < batch:
                break
    return done


async def keep_pruning(engine: AsyncEngine, every: float = EVERY) -> None:
    """A running bot's loop: prune now and every `every` seconds until cancelled."""
    while True:
        with contextlib.suppress(Exception):
            emptied = await prune_replies(engine)
            if emptied:
                log.info("kept replies emptied: %d", emptied)
        await asyncio.sleep(every)
