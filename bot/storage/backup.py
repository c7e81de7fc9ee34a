"""Backup and restore of one chat's sessions (every hand, undone ones too) as JSON."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.core.i18n import _, _n
from bot.storage.events import export_events, import_events
from bot.storage.migrations import RUMMY_SCALE, scale_rummy_points
from bot.storage.tables import hands, payments, seasons, sessions
from bot.storage.validate import FORMAT, VERSION, RestoreError, check_backup

_DATES = ("created_at", "ended_at", "voided_at", "started_at")


def _plain(row: Any) -> dict[str, Any]:
    data = dict(row._mapping)
    for key in _DATES:
        moment = data.get(key)
        if isinstance(moment, datetime):
            data[key] = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()
    return data


def _dates(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (datetime.fromisoformat(v) if k in _DATES and isinstance(v, str) else v)
            for k, v in data.items()}


PAGE = 1_000  # hands read at a time: an export never holds a whole session's rows at once

# ("session", ...), ("hand", ...), ("events", {"events": [...]}) or ("ledger", ...)
Part = tuple[str, dict[str, Any]]


async def export_parts(conn: AsyncConnection, chat: str,
                       session_ids: list[int] | None = None,
                       ledger: bool | None = None) -> AsyncIterator[Part]:
    """The chat's sessions (all, or those listed) as a stream: each session (without its
    hands), then its hands in order, a page at a time; then, with `ledger` (by default when
    every session is exported), the payments (undone ones too) and seasons of the chat."""
    query = select(sessions).where(sessions.c.chat == chat).order_by(sessions.c.id)
    if session_ids is not None:
        query = query.where(sessions.c.id.in_(session_ids))
    for row in (await conn.execute(query)).all():
        yield "session", _plain(row)
        last = 0
        while True:
            page = (await conn.execute(
                select(hands).where(hands.c.session_id == row.id, hands.c.id > last)
                .order_by(hands.c.id).limit(PAGE))).all()
            for hand in page:
                yield "hand", _plain(hand)
            if len(page) < PAGE:
                break
            last = page[-1].id
        # its event log (rules, rates, seats): a few rows a game, read at once
        yield "events", {"events": await export_events(conn, row.id)}
    if ledger if ledger is not None else session_ids is None:
        rows = (await conn.execute(select(payments).where(payments.c.chat == chat)
                                   .order_by(payments.c.id))).all()
        paid = [{k: v for k, v in _plain(r).items() if k != "chat"} for r in rows]
        rows = (await conn.execute(select(seasons).where(seasons.c.chat == chat)
                                   .order_by(seasons.c.id))).all()
        held = [{k: v for k, v in _plain(r).items() if k != "chat"} for r in rows]
        yield "ledger", {"payments": paid, "seasons": held}


def head(chat: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "chat": chat}


async def json_chunks(parts: AsyncIterator[Part], chat: str,
                      extra: Mapping[str, Any] | None = None) -> AsyncIterator[str]:
    """An export as JSON text, piece by piece (what `export_sessions` returns, written out)."""
    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, default=str)

    yield dumps(head(chat))[:-1] + ', "sessions": ['
    sessions_seen = hands_seen = 0
    closing = "]}"  # what ends the session being written: its hands, or its events
    after: dict[str, Any] = {}  # the ledger's part comes last, after the sessions' array
    async for kind, value in parts:
        if kind == "session":
            if sessions_seen:
                yield closing + ", "
            yield dumps(value)[:-1] + ', "hands": ['
            sessions_seen, hands_seen, closing = sessions_seen + 1, 0, "]}"
        elif kind == "hand":
            yield (", " if hands_seen else "") + dumps(value)
            hands_seen += 1
        elif kind == "events":  # after the session's hands, inside the session
            yield '], "events": ' + dumps(value["events"])
            closing = "}"
        else:
            after.update(value)
    yield closing + "]" if sessions_seen else "]"
    after.update(extra or {})
    yield "".join(f", {dumps(k)}: {dumps(v)}" for k, v in after.items()) + "}"


async def export_sessions(conn: AsyncConnection, chat: str,
                          session_ids: list[int] | None = None,
                          ledger: bool | None = None) -> dict[str, Any]:
    """The export as JSON-ready data, whole (backups and tests; /export streams it)."""
    data: dict[str, Any] = {**head(chat), "sessions": []}
    async for kind, value in export_parts(conn, chat, session_ids, ledger):
        if kind == "session":
            data["sessions"].append({**value, "hands": []})
        elif kind == "hand":
            data["sessions"][-1]["hands"].append(value)
        elif kind == "events":
            data["sessions"][-1]["events"] = value["events"]
        else:
            data.update(value)
    return data


async def export_chat(engine: AsyncEngine, chat: str) -> dict[str, Any]:
    async with engine.connect() as conn:
        return await export_sessions(conn, chat)


async def import_chat(engine: AsyncEngine, data: dict[str, Any], chat: str | None = None) -> int:
    """Restore a backup into a chat with no sessions yet; returns the sessions restored."""
    async with engine.begin() as conn:
        return await import_sessions(conn, data, chat or data.get("chat"))


async def import_sessions(conn: AsyncConnection, data: Mapping[str, Any],
                          target: str | None) -> int:
    check_backup(data)  # all of it, before anything is written
    if not target:
        raise RestoreError(_("the backup names no chat; give one"))
    # points kept in the units of their time: a version 1 file had whole rummy points
    scale = RUMMY_SCALE if data.get("version") == 1 else 1
    existing = (await conn.execute(
        select(func.count()).select_from(sessions).where(sessions.c.chat == target)
    )).scalar_one()
    if existing:
        raise RestoreError(_n("chat {chat} already has {n} session; restore into an empty "
                              "chat", "chat {chat} already has {n} sessions; restore into an "
                              "empty chat", existing, chat=target))
    paid = (await conn.execute(
        select(func.count()).select_from(payments).where(payments.c.chat == target)
    )).scalar_one()
    if paid and data.get("payments"):
        raise RestoreError(_n("chat {chat} already has {n} payment in its ledger; restore "
                              "into an empty chat", "chat {chat} already has {n} payments in "
                              "its ledger; restore into an empty chat", paid, chat=target))
    held = (await conn.execute(
        select(func.count()).select_from(seasons).where(seasons.c.chat == target)
    )).scalar_one()
    if held and data.get("seasons"):
        raise RestoreError(_n("chat {chat} already has {n} season; restore into an empty "
                              "chat", "chat {chat} already has {n} seasons; restore into an "
                              "empty chat", held, chat=target))
    for session in data["sessions"]:
        values = _dates({k: v for k, v in session.items()
                         if k not in ("id", "hands", "events")})
        values["chat"] = target
        values["totals"] = scale_rummy_points(session["game"], session["totals"], scale)
        new_id = (await conn.execute(
            insert(sessions).values(**values).returning(sessions.c.id))).scalar_one()
        old_to_new: dict[int, int] = {}
        for hand in session["hands"]:
            row = _dates({k: v for k, v in hand.items() if k not in ("id",)})
            row["session_id"] = new_id
            row["deltas"] = scale_rummy_points(session["game"], hand["deltas"], scale)
            row["replaced_by"] = old_to_new.get(row.get("replaced_by") or -1)
            hand_id = (await conn.execute(
                insert(hands).values(**row).returning(hands.c.id))).scalar_one()
            old_to_new[hand["id"]] = hand_id
        await import_events(conn, new_id, session.get("events") or [])  # version 4 on
    for payment in data.get("payments") or []:  # version 3 on: the ledger's payments
        row = _dates({k: v for k, v in payment.items() if k != "id"})
        await conn.execute(insert(payments).values(chat=target, **row))
    for season in data.get("seasons") or []:  # version 3 on: the chat's seasons
        row = _dates({k: v for k, v in season.items() if k != "id"})
        await conn.execute(insert(seasons).values(chat=target, **row))
    return len(data["sessions"])
