"""The tables as queries see them. Their DDL lives in the numbered migrations only."""

from sqlalchemy import JSON, DateTime, Integer, Text, column, table

sessions = table(
    "sessions",
    column("id", Integer),
    column("chat", Text),
    column("game", Text),
    column("status", Text),
    column("players", JSON),
    column("rules", JSON),
    column("pending", JSON),
    column("totals", JSON),
    column("hand_count", Integer),
    column("version", Integer),
    column("created_by", Text),
    column("created_at", DateTime(timezone=True)),
    column("ended_at", DateTime(timezone=True)),
)

hands = table(
    "hands",
    column("id", Integer),
    column("session_id", Integer),
    column("no", Integer),
    column("players", JSON),
    column("inputs", JSON),
    column("rules", JSON),
    column("deltas", JSON),
    column("summary", Text),
    column("recorded_by", Text),
    column("recorded_by_name", Text),
    column("origin_id", Text),
    column("created_at", DateTime(timezone=True)),
    column("voided_at", DateTime(timezone=True)),
    column("voided_by", Text),
    column("void_reason", Text),
    column("replaced_by", Integer),
)

origins = table(
    "origins",
    column("origin_id", Text),
    column("chat", Text),
    column("reply", JSON),
    column("created_at", DateTime(timezone=True)),
)
