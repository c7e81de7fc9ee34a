"""Rows as a bot before migration 16 wrote them (every hand with its rules and its summary),
and a file as its /export wrote it: for databases and backups of older versions."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, Text, column, insert, select, table, text

from bot.core import stored_json
from bot.core.i18n.text import encode
from bot.core.session import HandRecord

OLD_HANDS = table(
    "hands", column("id", Integer), column("session_id", Integer), column("no", Integer),
    column("players", JSON), column("inputs", JSON), column("rules", JSON),
    column("deltas", JSON), column("summary", Text), column("recorded_by", Text),
    column("recorded_by_name", Text), column("origin_id", Text),
    column("created_at", DateTime(timezone=True)), column("voided_at", DateTime(timezone=True)),
    column("voided_by", Text), column("void_reason", Text), column("replaced_by", Integer),
    column("state_before", Text))


async def add_old_hand(conn: Any, session_id: int, hand: HandRecord,
                       state_before: bool = True) -> None:
    """A hand as migrations before 16 kept it (`state_before`: the column exists, 2 on)."""
    values: dict[str, Any] = dict(
        session_id=session_id, no=hand.no, players=hand.players, inputs=hand.inputs,
        rules=hand.rules, deltas={str(k): v for k, v in hand.deltas.items()},
        summary=encode(hand.summary), recorded_by=hand.recorded_by,
        recorded_by_name=hand.recorded_by_name, origin_id=hand.origin_id,
        created_at=hand.created_at or datetime.now(UTC))
    if state_before:
        values["state_before"] = None if hand.state_before is None \
            else stored_json.dumps(hand.state_before)
    await conn.execute(insert(OLD_HANDS).values(**values))


async def old_export(conn: Any, chat: str, version: int) -> dict[str, Any]:
    """A chat's sessions and their hands as an /export of `version` wrote them: straight
    from the rows (hands with their rules and summaries), dates as ISO text."""
    def plain(row: Any) -> dict[str, Any]:
        data = dict(row._mapping)
        for key, value in data.items():
            if isinstance(value, datetime):
                data[key] = (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
        for key in ("game_state", "money", "state_before"):  # JSON kept as text
            if isinstance(data.get(key), str):
                data[key] = stored_json.loads(data[key])
        return data

    sessions = (await conn.execute(text("SELECT * FROM sessions WHERE chat = :c ORDER BY id"),
                                   {"c": chat})).all()
    out = {"format": "maalbot-backup", "version": version, "chat": chat, "sessions": []}
    for row in sessions:
        session = plain(row)
        for key in ("players", "rules", "pending", "totals"):
            if isinstance(session.get(key), str):
                session[key] = stored_json.loads(session[key])
        hands = (await conn.execute(select(OLD_HANDS).where(OLD_HANDS.c.session_id == row.id)
                                    .order_by(OLD_HANDS.c.id))).all()
        session["hands"] = [plain(h) for h in hands]
        if version >= 4:  # the event log (rules, seats) came with version 4
            events = (await conn.execute(text(
                "SELECT id, kind, data, by, by_name, after_hand, created_at "
                "FROM session_events WHERE session_id = :s ORDER BY id"), {"s": row.id})).all()
            session["events"] = [{**plain(e), "data": stored_json.loads(e.data)}
                                 for e in events]
        out["sessions"].append(session)
    return out
