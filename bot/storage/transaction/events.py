"""The session event log in the database (migration 13): kept, read back, and carried by
backups and exports (each session's `events`, beside its `hands`; files from before have
none and read as before)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.core.events import KINDS, SessionEvent
from bot.core.i18n import Text, _
from bot.storage.engine.records import event_of
from bot.storage.engine.tables import session_events

EVENT_KEYS = {c.name for c in session_events.columns} - {"session_id"}
MAX_EVENTS = 100_000  # in one file


async def add_event(conn: Any, session_id: int, event: SessionEvent) -> SessionEvent:
    created = datetime.now(UTC)
    result = await conn.execute(insert(session_events).values(
        session_id=session_id, kind=event.kind, data=event.data, by=event.by,
        by_name=event.by_name, after_hand=event.after_hand, created_at=created,
    ).returning(session_events.c.id))
    event.id, event.created_at = result.scalar_one(), created
    return event


async def events_of(conn: Any, session_id: int) -> list[SessionEvent]:
    """A session's events, oldest first."""
    rows = (await conn.execute(
        select(session_events).where(session_events.c.session_id == session_id)
        .order_by(session_events.c.id))).all()
    return [event_of(r) for r in rows]


async def export_events(conn: AsyncConnection, session_id: int) -> list[dict[str, Any]]:
    """A session's events as a file carries them (JSON-ready)."""
    return [{"id": e.id, "kind": e.kind, "data": e.data, "by": e.by, "by_name": e.by_name,
             "after_hand": e.after_hand,
             "created_at": e.created_at.isoformat() if e.created_at else None}
            for e in await events_of(conn, session_id)]


async def import_events(conn: AsyncConnection, session_id: int,
                        rows: list[Mapping[str, Any]]) -> None:
    for row in rows:
        await conn.execute(insert(session_events).values(
            session_id=session_id, kind=row["kind"], data=dict(row["data"]), by=row["by"],
            by_name=row["by_name"], after_hand=row["after_hand"],
            created_at=datetime.fromisoformat(row["created_at"])))


def check_events(rows: Any, where: Text) -> Text | None:
    """What is wrong with a session's `events` in a file, or None (lazy text: the caller
    raises it as its RestoreError)."""
    if not isinstance(rows, list) or len(rows) > MAX_EVENTS:
        return _("{where}: `events` must be a list of at most {n}", where=where,
                 n=f"{MAX_EVENTS:,}")
    for i, row in enumerate(rows, 1):
        at = _("{where}, event {no}", where=where, no=i)
        if not isinstance(row, Mapping) or set(row) - EVENT_KEYS:
            return _("{where} is not an event", where=at)
        if row.get("kind") not in KINDS or not isinstance(row.get("data"), Mapping):
            return _("{where}: the kind is one of {kinds}, with its data", where=at,
                     kinds=", ".join(KINDS))
        if not all(isinstance(row.get(k), str) for k in ("by", "by_name")):
            return _("{where}: who made it is missing", where=at)
        after = row.get("after_hand")
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            return _("{where}: after_hand is a number of hands", where=at)
        try:
            datetime.fromisoformat(row.get("created_at"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return _("{where}: created_at is not a date", where=at)
    return None
