"""How long a kept reply lives (issue 27): its origin's id for good, its reply only while
its platform can deliver the same update again.

An origin's id guards against doing a message twice for as long as it is kept, which is
always (a second tap on an old button is a double too); its reply is only there to answer
the same update delivered again, so it is emptied once its platform can no longer deliver
that update again:

- Telegram keeps an update it was not told we received for 24 hours, and the inbox keeps a
  handled one for two days (bot/storage/transaction/inbox.py): its replies go after two days;
- Discord delivers an interaction again only while its token lives, 15 minutes: its
  replies, and the console's and anyone else's, go after an hour.

A command whose reply went is answered "Already recorded." (bot/core/service/failures.py): still
never done twice. Emptying is an UPDATE of rows whose reply is still there, in small
batches, so several processes may prune at once: each row is emptied by whoever gets it
first, and no row is ever deleted.

The same loop leaves out a hand's summary where scoring the hand again gives exactly the
same text (`derive_summaries`, bot/core/summaries.py): that check is a second scoring of
the hand, kept off /hand's path (issue 27: no command slower).

Pruning and deriving both work in small batches, one transaction each, so several
processes may run them at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, not_, null, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.core.summaries import DERIVED, can_derive
from bot.storage.engine.tables import hand_rows, hands, origins, sessions, summaries_checked

log = logging.getLogger(__name__)

TELEGRAM_WINDOW = timedelta(days=2)
OTHER_WINDOW = timedelta(hours=1)  # Discord (15 minutes), the console, tests
BATCH = 500  # rows emptied in one transaction: a writer waits at most that long
EVERY = 600.0  # seconds between two prunes of a running bot
# A hand is checked once it is this old: ids are taken in order but may commit out of it
# (PostgreSQL), and a hand passed over while its transaction was open is never checked
# (its summary stays kept: the same text, more bytes)
SETTLED = timedelta(minutes=1)
DERIVE_BATCH = 200  # hands scored again between two transactions
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


async def derive_summaries(engine: AsyncEngine, now: datetime | None = None,
                           batch: int = DERIVE_BATCH) -> int:
    """Leave out the kept summary of each hand recorded since the last pass (the highest
    hand id checked is kept in summaries_checked, migration 17) where scoring it again
    gives exactly the same text, as migration 16 did for the hands before it; returns how
    many. A summary that differs is kept for good and never checked again."""
    now = now or datetime.now(UTC)
    done = 0
    while True:
        async with engine.connect() as conn:  # read, then score outside any transaction
            last = (await conn.execute(select(summaries_checked.c.last_hand))).scalar_one()
            rows = (await conn.execute(
                select(hand_rows.c.id, hand_rows.c.players, hand_rows.c.inputs,
                       hand_rows.c.rules, hand_rows.c.summary, hand_rows.c.state_before,
                       sessions.c.game, sessions.c.players.label("seats"))
                .join(sessions, sessions.c.id == hand_rows.c.session_id)
                .where(hand_rows.c.id > last, hand_rows.c.created_at < now - SETTLED)
                .order_by(hand_rows.c.id).limit(batch))).all()
        if not rows:
            return done
        same = [row.id for row in rows if row.summary != DERIVED and can_derive(
            row.game, row.seats or [], {"players": row.players, "inputs": row.inputs,
                                        "rules": row.rules, "summary": row.summary,
                                        "state_before": row.state_before})]
        highest = rows[-1].id
        async with engine.begin() as conn:
            if same:
                # whoever gets a row first empties it; a hand row's summary changes nowhere else
                result = await conn.execute(
                    update(hands).where(hands.c.id.in_(same), hands.c.summary != DERIVED)
                    .values(summary=DERIVED))
                done += max(result.rowcount, 0)
            await conn.execute(update(summaries_checked)
                               .where(summaries_checked.c.last_hand < highest)
                               .values(last_hand=highest))
        if len(rows) < batch:
            return done


async def keep_pruning(engine: AsyncEngine, every: float = EVERY,
                       writable: Callable[[], bool] = lambda: True) -> None:
    """A running bot's loop: prune and derive now and every `every` seconds until
    cancelled; not while the database may not be written (`writable`: a SQLite file with a
    damaged record, bot/storage/transaction/damage.py)."""
    while True:
        if not writable():
            await asyncio.sleep(every)
            continue
        with contextlib.suppress(Exception):
            emptied = await prune_replies(engine)
            if emptied:
                log.info("kept replies emptied: %d", emptied)
        with contextlib.suppress(Exception):
            derived = await derive_summaries(engine)
            if derived:
                log.info("summaries left out, derived when shown: %d", derived)
        await asyncio.sleep(every)
