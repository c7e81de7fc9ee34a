"""A scoring session as the core sees it, and the store interface it needs."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from bot.core.players import Player, Roster

OPEN, ENDED = "open", "ended"


@dataclass
class SessionState:
    chat: str
    game: str
    players: list[Player]
    rules: dict[str, Any]
    created_by: str
    id: int | None = None
    status: str = OPEN
    pending: dict[str, Any] | None = None  # {"by", "by_name", "origin", "entry"} of a waiting hand
    totals: dict[int, int] = field(default_factory=dict)  # column -> sum of live hands' deltas
    hand_count: int = 0  # live hands, numbered 1..hand_count
    version: int = 0
    game_state: dict[str, Any] | None = None  # what the game carries between hands
    created_at: datetime | None = None

    @property
    def roster(self) -> Roster:
        return Roster(self.players)


@dataclass
class HandRecord:
    no: int
    players: list[int]
    inputs: dict[str, Any]
    rules: dict[str, Any]
    deltas: dict[int, int]
    summary: str
    recorded_by: str
    recorded_by_name: str
    origin_id: str | None = None
    created_at: datetime | None = None
    id: int | None = None
    state_before: dict[str, Any] | None = None  # the game state this hand started from
    voided_at: datetime | None = None  # undone or replaced by an edit (kept in the log)
    voided_by: str | None = None
    void_reason: str | None = None


class ChatTransaction(Protocol):
    """Everything the service reads and writes for one chat, inside one transaction."""

    async def open_session(self) -> SessionState | None: ...
    async def save_session(self, state: SessionState) -> SessionState: ...
    async def add_hand(self, session_id: int, hand: HandRecord) -> HandRecord: ...
    async def void_hand(self, session_id: int, no: int, by: str, reason: str | None,
                        replaced_by: int | None = None) -> None: ...
    async def hand(self, session_id: int, no: int) -> HandRecord | None: ...
    async def last_hands(self, session_id: int, count: int) -> list[HandRecord]: ...
    async def all_hands(self, session_id: int) -> list[HandRecord]: ...
    async def history(self, session_id: int) -> list[HandRecord]: ...
    async def chat_sessions(self) -> list[SessionState]: ...
    async def export(self, session_ids: list[int]) -> dict[str, Any]: ...
    async def restore(self, data: Mapping[str, Any]) -> int: ...
    async def settings(self) -> dict[str, Any]: ...
    async def save_settings(self, values: Mapping[str, Any]) -> None: ...
    async def origin_reply(self, origin_id: str) -> Mapping[str, Any] | None: ...
    async def record_origin(self, origin_id: str, reply: Mapping[str, Any]) -> None: ...


class Store(Protocol):
    def transaction(self, chat: str) -> AbstractAsyncContextManager[ChatTransaction]: ...
    async def origin_reply(self, origin_id: str) -> Mapping[str, Any] | None: ...
    async def close(self) -> None: ...


class DuplicateOrigin(Exception):
    """Another process recorded the same origin id first; its reply is the answer."""


