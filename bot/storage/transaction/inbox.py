"""A durable inbox of platform updates (Telegram's): stored before the platform is told they
arrived, handled from here, marked done once answered. A process that dies mid-burst finds
its backlog here when it comes back; several processes never handle one update twice (a
row is claimed before it is handled)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage.engine.database import READ_ONLY
from bot.storage.engine.tables import inbox

NEW, WORKING, DONE, FAILED = "new", "working", "done", "failed"
STALE_AFTER = timedelta(minutes=2)  # a row "working" this long was left by a dead process
RETRY_AFTER = (timedelta(seconds=10), timedelta(minutes=1), timedelta(minutes=5),
               timedelta(minutes=30))  # a reply that could not be sent: tried again later
KEEP_DONE = timedelta(days=2)


def _now() -> datetime:
    return datetime.now(UTC)


class Inbox:
    def __init__(self, engine: AsyncEngine, bot_id: int) -> None:
        self.engine = engine
        self.bot_id = bot_id

    async def store(self, updates: list[tuple[int, str, Mapping[str, Any]]]) -> list[int]:
        """Keep (update_id, chat, payload) rows; return the ids that were new (an update
        delivered twice is kept once)."""
        if not updates:
            return []
        now = _now()
        rows = [{"bot_id": self.bot_id, "update_id": uid, "chat": chat,
                 "payload": dict(payload), "state": NEW, "attempts": 0, "not_before": now,
                 "updated_at": now} for uid, chat, payload in updates]
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(inbox).values(rows).on_conflict_do_nothing(
            index_elements=["bot_id", "update_id"]).returning(inbox.c.update_id)
        async with self.engine.begin() as conn:
            stored = (await conn.execute(statement)).scalars().all()
        return sorted(stored)

    async def next_offset(self) -> int | None:
        """The offset that confirms everything stored: the highest update id + 1."""
        async with self._reading() as conn:
            last = (await conn.execute(select(func.max(inbox.c.update_id)).where(
                inbox.c.bot_id == self.bot_id))).scalar()
        return None if last is None else int(last) + 1

    async def claim(self, update_id: int,
                    left_before: datetime | None = None) -> Mapping[str, Any] | None:
        """Take a row to handle it; None if someone else has it or it is finished. A row left
        "working" counts as abandoned after STALE_AFTER, or at once if it was left before
        `left_before` (the sole poller, just started, knows nobody else was handling it)."""
        now = _now()
        abandoned = now - STALE_AFTER
        if left_before is not None:
            abandoned = max(abandoned, left_before)
        takeable = or_(and_(inbox.c.state == NEW, inbox.c.not_before <= now),
                       and_(inbox.c.state == WORKING, inbox.c.updated_at < abandoned))
        async with self.engine.begin() as conn:
            row = (await conn.execute(
                update(inbox).where(inbox.c.bot_id == self.bot_id,
                                    inbox.c.update_id == update_id, takeable)
                .values(state=WORKING, attempts=inbox.c.attempts + 1, updated_at=now)
                .returning(inbox.c.payload, inbox.c.attempts))).first()
        return None if row is None else {"payload": row.payload, "attempts": row.attempts}

    async def finish(self, update_id: int) -> None:
        await self._set(update_id, state=DONE)

    async def later(self, update_id: int, attempts: int) -> bool:
        """Its answer could not be sent: try again later, or give up after the last try.
        Returns whether it will be tried again."""
        if attempts > len(RETRY_AFTER):
            await self._set(update_id, state=FAILED)
            return False
        await self._set(update_id, state=NEW, not_before=_now() + RETRY_AFTER[attempts - 1])
        return True

    async def unfinished(self) -> list[tuple[int, str, datetime]]:
        """(update_id, chat, not_before) of every row not finished, oldest first."""
        async with self._reading() as conn:
            rows = (await conn.execute(
                select(inbox.c.update_id, inbox.c.chat, inbox.c.not_before)
                .where(inbox.c.bot_id == self.bot_id, inbox.c.state.in_((NEW, WORKING)))
                .order_by(inbox.c.update_id))).all()
        return [(int(r.update_id), r.chat, _aware(r.not_before)) for r in rows]

    async def prune(self) -> None:
        """Updates handled (or given up on) more than KEEP_DONE ago go: they hold what
        people sent, and are kept only to survive a restart."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(inbox).where(
                inbox.c.bot_id == self.bot_id, inbox.c.state.in_((DONE, FAILED)),
                inbox.c.updated_at < _now() - KEEP_DONE))

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection that only reads: on SQLite it takes no write lock (a plain connection
        begins with BEGIN IMMEDIATE), so a read cut short (the poller stopped while it
        waited) leaves no lock behind for the inbox's next write to wait 15 s on."""
        async with self.engine.connect() as conn:
            await conn.execution_options(**{READ_ONLY: True})
            yield conn

    async def _set(self, update_id: int, **values: Any) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(inbox).where(
                inbox.c.bot_id == self.bot_id, inbox.c.update_id == update_id)
                .values(updated_at=_now(), **values))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
