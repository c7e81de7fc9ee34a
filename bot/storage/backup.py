"""Backup and restore of one chat's sessions (every hand, undone ones too) as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

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


async def export_sessions(conn: AsyncConnection, chat: str,
                          session_ids: list[int] | None = None,
                          ledger: bool | None = None) -> dict[str, Any]:
    """The chat's sessions (all, or those listed) with every hand, as JSON-ready data; with
    the ledger's payments (undone ones too) for the whole chat (`ledger`, by default when
    every session is exported)."""
    query = select(sessions).where(sessions.c.chat == chat).order_by(sessions.c.id)
    if session_ids is not None:
        query = query.where(sessions.c.id.in_(session_ids))
    exported = []
    for row in (await conn.execute(query)).all():
        session = _plain(row)
        hand_rows = (await conn.execute(
            select(hands).where(hands.c.session_id == row.id).order_by(hands.c.id))).all()
        session["hands"] = [_plain(h) for h in hand_rows]
        exported.append(session)
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "chat": chat,
                            "sessions": exported}
    if ledger if ledger is not None else session_ids is None:
        rows = (await conn.execute(select(payments).where(payments.c.chat == chat)
                                   .order_by(payments.c.id))).all()
        data["payments"] = [{k: v for k, v in _plain(r).items() if k != "chat"}
                            for r in rows]
        rows = (await conn.execute(select(seasons).where(seasons.c.chat == chat)
                                   .order_by(seasons.c.id))).all()
        data["seasons"] = [{k: v for k, v in _plain(r).items() if k != "chat"}
                           for r in rows]
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
        raise RestoreError("the backup names no chat; give one")
    # points kept in the units of their time: a version 1 file had whole rummy points
    scale = RUMMY_SCALE if data.get("version") == 1 else 1
    existing = (await conn.execute(
        select(func.count()).select_from(sessions).where(sessions.c.chat == target)
    )).scalar_one()
    if existing:
        raise RestoreError(f"chat {target} already has {existing} session(s); "
                           "restore into an empty chat")
    paid = (await conn.execute(
        select(func.count()).select_from(payments).where(payments.c.chat == target)
    )).scalar_one()
    if paid and data.get("payments"):
        raise RestoreError(f"chat {target} already has {paid} payment(s) in its ledger; "
                           "restore into an empty chat")
    held = (await conn.execute(
        select(func.count()).select_from(seasons).where(seasons.c.chat == target)
    )).scalar_one()
    if held and data.get("seasons"):
        raise RestoreError(f"chat {target} already has {held} season(s); restore into an "
                           "empty chat")
    for session in data["sessions"]:
        values = _dates({k: v for k, v in session.items() if k not in ("id", "hands")})
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
    for payment in data.get("payments") or []:  # version 3 on: the ledger's payments
        row = _dates({k: v for k, v in payment.items() if k != "id"})
        await conn.execute(insert(payments).values(chat=target, **row))
    for season in data.get("seasons") or []:  # version 3 on: the chat's seasons
        row = _dates({k: v for k, v in season.items() if k != "id"})
        await conn.execute(insert(seasons).values(chat=target, **row))
    return len(data["sessions"])
