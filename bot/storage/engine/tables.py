"""The tables as queries see them. Their DDL lives in the numbered migrations only."""

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Integer,
    Text,
    TypeDecorator,
    column,
    table,
)
from sqlalchemy.sql.expression import ColumnClause

from bot.core import stored_json
from bot.core.session import DROPPED
from bot.storage.engine.problems import loads


class JSONText(TypeDecorator[object]):
    """JSON kept in a TEXT column (columns added by ALTER TABLE, the same on both backends)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: object, dialect: object) -> str | None:
        return None if value is None else stored_json.dumps(value)

    def process_result_value(self, value: str | None, dialect: object) -> object:
        return None if value is None else loads(value)  # Unreadable if it doesn't read


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
    column("game_state", JSONText),
    column("money", JSONText),
    column("board_ref", Text),
)

# The chat's games as every list of them sees them (its games, the export, a backup): a
# game closed with no hand recorded is not kept (bot/core/session.py, DROPPED)
KEPT = sessions.c.status != DROPPED


def _hand_columns(rules: ColumnClause[Any]) -> list[ColumnClause[Any]]:
    """A hand's columns, as written (`rules_key`) or read (`rules`): the same but for its
    rules, so the table and the view can't drift apart."""
    return [
        column("id", Integer),
        column("session_id", Integer),
        column("no", Integer),
        column("players", JSON),
        column("inputs", JSON),
        rules,
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
        column("state_before", JSONText),
    ]


# Written: a hand's rules are a rule set's key (its rules are kept once per session and
# change, in rule_sets, migration 16); its summary is "" when derived when shown
# (bot/core/summaries.py).
hands = table("hands", *_hand_columns(column("rules_key", BigInteger)))

# Read: the hands as they were before migration 16, their rules joined from rule_sets
# (a view of the same name); files carry hands in this shape.
hand_rows = table("hand_rows", *_hand_columns(column("rules", JSONText)))

rule_sets = table(
    "rule_sets",
    column("session_id", Integer),
    column("rules_key", BigInteger),
    column("rules", Text),  # JSON, as first kept (bot/storage/transaction/rule_sets.py)
)

# The highest hand id whose summary the background pass has checked (one row, migration
# 17; bot/storage/transaction/retention.py)
summaries_checked = table(
    "summaries_checked",
    column("last_hand", BigInteger),
)

origins = table(
    "origins",
    column("origin_id", Text),
    column("chat", Text),
    column("reply", JSON),
    column("created_at", DateTime(timezone=True)),
)

pages = table(
    "pages",
    column("digest", Text),
    column("chat", Text),
    column("kind", Text),
    column("created_at", DateTime(timezone=True)),
)

chat_settings = table(
    "chat_settings",
    column("chat", Text),
    column("data", JSONText),
)

inbox = table(
    "inbox",
    column("bot_id", Integer),
    column("update_id", Integer),
    column("chat", Text),
    column("payload", JSON),
    column("state", Text),
    column("attempts", Integer),
    column("not_before", DateTime(timezone=True)),
    column("updated_at", DateTime(timezone=True)),
)

payments = table(
    "payments",
    column("id", Integer),
    column("chat", Text),
    column("payer", Text),
    column("payer_name", Text),
    column("payee", Text),
    column("payee_name", Text),
    column("amount", Text),
    column("currency", Text),
    column("recorded_by", Text),
    column("recorded_by_name", Text),
    column("origin_id", Text),
    column("created_at", DateTime(timezone=True)),
    column("voided_at", DateTime(timezone=True)),
    column("voided_by", Text),
)

seasons = table(
    "seasons",
    column("id", Integer),
    column("chat", Text),
    column("name", Text),
    column("started_at", DateTime(timezone=True)),
    column("started_by", Text),
    column("started_by_name", Text),
    column("ended_at", DateTime(timezone=True)),
    column("ended_by", Text),
)

session_events = table(
    "session_events",
    column("id", Integer),
    column("session_id", Integer),
    column("kind", Text),
    column("data", JSONText),
    column("by", Text),
    column("by_name", Text),
    column("after_hand", Integer),
    column("created_at", DateTime(timezone=True)),
)


# A club of tables (migration 22, bot/storage/transaction/clubs.py)
clubs = table(
    "clubs",
    column("id", Integer),
    column("name", Text),
    column("owner", Text),
    column("created_at", DateTime(timezone=True)),
    column("epoch", Integer),
    column("data", JSONText),
)

club_tables = table(
    "club_tables",
    column("chat", Text),
    column("club_id", Integer),
    column("name", Text),
    column("joined_at", DateTime(timezone=True)),
    column("joined_by", Text),
)

club_codes = table(
    "club_codes",
    column("digest", Text),
    column("kind", Text),
    column("subject", Text),
    column("made_by", Text),
    column("expires_at", DateTime(timezone=True)),
    column("used_at", DateTime(timezone=True)),
    column("used_by", Text),
)

account_links = table(
    "account_links",
    column("account", Text),
    column("person", Text),
    column("linked_at", DateTime(timezone=True)),
)

club_seasons = table(
    "club_seasons",
    column("id", Integer),
    column("club_id", Integer),
    column("name", Text),
    column("started_at", DateTime(timezone=True)),
    column("started_by", Text),
    column("started_by_name", Text),
    column("ended_at", DateTime(timezone=True)),
    column("ended_by", Text),
)

game_summaries = table(
    "game_summaries",
    column("id", Integer),
    column("session_id", Integer),
    column("chat", Text),
    column("ended_at", DateTime(timezone=True)),
    column("data", JSONText),
)

# A club's tournaments and nights (migration 23, bot/storage/transaction/tournaments.py)
tournaments = table(
    "tournaments",
    column("id", Integer),
    column("club_id", Integer),
    column("name", Text),
    column("status", Text),
    column("created_at", DateTime(timezone=True)),
    column("version", Integer),
    column("data", JSONText),
)

club_nights = table(
    "club_nights",
    column("id", Integer),
    column("club_id", Integer),
    column("started_at", DateTime(timezone=True)),
    column("data", JSONText),
)
