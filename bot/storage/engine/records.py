"""A stored row read back as the record the core uses: a session, a hand, a payment, a
season, an event, a chat's settings, a kept reply. The one decoder of each, for the
commands and for the deep check (bot/storage/transaction/damage.py) alike: a row that does not make
its record is `Unreadable`, never a KeyError in whatever read it."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from bot.core.command import Reply
from bot.core.events import SessionEvent
from bot.core.games.registry import GAMES
from bot.core.i18n.text import kept
from bot.core.players import Player
from bot.core.session import (
    ChatSettings,
    HandRecord,
    PaymentRecord,
    SeasonRecord,
    SessionState,
    Void,
    WaitingHand,
)
from bot.storage.engine.problems import Unreadable


def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def session_of(row: Any) -> SessionState:
    try:
        if row.game not in GAMES:
            raise ValueError(f"no game {str(row.game)[:20]!r}")
        state = SessionState(
            id=row.id,
            chat=row.chat,
            game=row.game,
            status=row.status,
            players=[Player.from_json(p) for p in row.players],
            rules=dict(row.rules),
            pending=WaitingHand.from_json(row.pending),
            totals={int(k): v for k, v in row.totals.items()},
            hand_count=row.hand_count,
            version=row.version,
            created_by=row.created_by,
            game_state=row.game_state,
            money=row.money,
            board_ref=row.board_ref,
        )
        state.created_at = aware(row.created_at)
        state.ended_at = aware(row.ended_at)
    except Exception as error:  # the row is not a session: said as damage, not a crash
        raise Unreadable(_why(error), "sessions", row.id) from error
    return state


def hand_of(row: Any) -> HandRecord:
    try:
        return HandRecord(
            id=row.id,
            no=row.no,
            players=list(row.players),
            inputs=_mapping(row.inputs),
            rules=row.rules,
            deltas={int(k): v for k, v in row.deltas.items()},
            # messages, read back when shown, in the reader's language
            summary=kept(row.summary),
            recorded_by=row.recorded_by,
            recorded_by_name=row.recorded_by_name,
            origin_id=row.origin_id,
            created_at=aware(row.created_at),
            state_before=row.state_before,
            voided_at=aware(row.voided_at),
            voided_by=row.voided_by,
            void=Void.from_text(row.void_reason) if row.voided_at is not None else None,
        )
    except Exception as error:
        raise Unreadable(_why(error), "hands", row.id) from error


def payment_of(row: Any) -> PaymentRecord:
    try:
        return PaymentRecord(
            id=row.id, payer=row.payer, payer_name=row.payer_name, payee=row.payee,
            payee_name=row.payee_name, amount=Decimal(row.amount), currency=row.currency,
            recorded_by=row.recorded_by, recorded_by_name=row.recorded_by_name,
            origin_id=row.origin_id, created_at=aware(row.created_at),
            voided_at=aware(row.voided_at), voided_by=row.voided_by)
    except Exception as error:
        raise Unreadable(_why(error), "payments", row.id) from error


def season_of(row: Any) -> SeasonRecord:
    try:
        return SeasonRecord(
            id=row.id, name=row.name, started_by=row.started_by,
            started_by_name=row.started_by_name, started_at=aware(row.started_at),
            ended_at=aware(row.ended_at), ended_by=row.ended_by)
    except Exception as error:
        raise Unreadable(_why(error), "seasons", row.id) from error


def event_of(row: Any) -> SessionEvent:
    try:
        return SessionEvent(row.kind, dict(row.data or {}), row.by, row.by_name,
                            row.after_hand, row.id, aware(row.created_at))
    except Exception as error:
        raise Unreadable(_why(error), "session_events", row.id) from error


def settings_of(data: Mapping[str, Any] | None) -> ChatSettings:
    try:
        return ChatSettings.from_json(data)
    except Exception as error:
        raise Unreadable(_why(error), "chat_settings") from error


def reply_of(data: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """A kept reply as the service reads it back (None: none kept)."""
    if data is None:
        return None
    try:
        Reply.from_json(data)
    except Exception as error:
        raise Unreadable(_why(error), "origins") from error
    return data


def rules_of(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise Unreadable("not a mapping", "rule_sets")
    return dict(data)


def _mapping(value: Any) -> Any:
    if not isinstance(value, Mapping):
        raise TypeError("not a mapping")
    return value


def _why(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error)[:80]}"
