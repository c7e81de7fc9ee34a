"""A scoring session as the core sees it, the typed records around it, and the store
interface the core needs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.core.i18n.text import Text, decode, encode
from bot.core.money import book_add
from bot.core.players import Player, Roster

OPEN, ENDED = "open", "ended"
# Ended with no hand recorded (none, or every one undone): closed, never archived. Its row
# stays (the log is append-only, and a stale button names its id, never reused), but no
# list of the chat's games holds it: not /history, /board N, /stats, seasons, the ledger,
# /export or a backup (bot/storage: the chat's sessions are the kept ones).
DROPPED = "dropped"


@dataclass
class WaitingHand:
    """A hand entered but not complete yet (Marriage: maal still to come; Tranca: a side's
    round; Riichi: sticks declared). `entry` is the game's own record of it."""

    by: str  # who started it: they recorded it, whoever completes it
    by_name: str
    origin: str | None  # the message that started it
    entry: dict[str, Any]
    prompts: list[str] = field(default_factory=list)  # platform messages that ask for input

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"by": self.by, "by_name": self.by_name,
                                "origin": self.origin, "entry": self.entry}
        if self.prompts:
            data["prompts"] = self.prompts
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> WaitingHand | None:
        if not data:
            return None
        return cls(str(data["by"]), str(data.get("by_name", "")), data.get("origin"),
                   dict(data["entry"]), list(data.get("prompts", [])))


@dataclass
class SessionState:
    chat: str
    game: str
    players: list[Player]
    rules: dict[str, Any]
    created_by: str
    id: int | None = None
    status: str = OPEN
    pending: WaitingHand | None = None
    totals: dict[int, int] = field(default_factory=dict)  # column -> sum of live hands' deltas
    hand_count: int = 0  # live hands, numbered 1..hand_count
    version: int = 0
    game_state: dict[str, Any] | None = None  # what the game carries between hands
    created_at: datetime | None = None
    # Money of the live hands, each at its own rate: {currency: {column: "12.50"}}; None
    # for a session from before this was kept (derived from its hands when first needed).
    money: dict[str, dict[str, str]] | None = None
    board_ref: str | None = None  # the platform message that is this game's live board
    ended_at: datetime | None = None

    @property
    def roster(self) -> Roster:
        return Roster(self.players)

    # A session's totals, money book and hand count change here only, and together.
    # `places`: the game's decimal places of points (its money is per point).

    def apply(self, hand: HandRecord, places: int) -> None:
        """The next hand played: its points and money counted in."""
        assert hand.no == self.hand_count + 1, "hands are numbered without gaps"
        self._count(hand, +1, places)
        self.hand_count = hand.no

    def take_back(self, hand: HandRecord, places: int) -> None:
        """The last hand undone: its points and money counted out."""
        assert hand.no == self.hand_count, "only the last hand is taken back"
        self._count(hand, -1, places)
        self.hand_count -= 1

    def replace(self, old: HandRecord, new: HandRecord, places: int) -> None:
        """A hand re-entered in its place (an /edit): the count stays."""
        assert old.no == new.no <= self.hand_count, "a live hand is replaced by its own no"
        self._count(old, -1, places)
        self._count(new, +1, places)

    def _count(self, hand: HandRecord, sign: int, places: int) -> None:
        for key, value in hand.deltas.items():
            self.totals[key] = self.totals.get(key, 0) + sign * value
        # a session from before the book was kept gets it from its hands when first needed
        # (bot/core/handlers/board.py, money_of): these are among them then
        if self.money is not None:
            book_add(self.money, hand.deltas, hand.rules, places, sign)


@dataclass
class HandRecord:
    no: int
    players: list[int]
    inputs: dict[str, Any]
    rules: dict[str, Any]
    deltas: dict[int, int]
    summary: Text  # a message, shown in the language of whoever reads it
    recorded_by: str
    recorded_by_name: str
    origin_id: str | None = None
    created_at: datetime | None = None
    id: int | None = None
    state_before: dict[str, Any] | None = None  # the game state this hand started from
    voided_at: datetime | None = None  # undone or replaced by an edit (kept in the log)
    voided_by: str | None = None
    void: Void | None = None
    # The board's row for this hand, per columns, places and language, once written: a
    # recorded hand never changes (an edit is a new record), and each /hand shows the last
    # dozen again
    board_rows: dict[tuple[Any, ...], list[str]] = field(
        default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Void:
    """Why a hand left the live log: undone, or replaced by an edit; with the reason given."""

    edited: bool
    reason: Text | None = None  # as typed, or the bot's own (a message, in any language)

    def to_text(self) -> str:
        """As the hand log keeps it."""
        reason = encode(self.reason) if self.reason else None
        if self.edited:
            return f"edited: {reason}" if reason else "edited"
        if reason is not None and reason.startswith(_MARKED):
            return f"undone: {reason}"  # a reason typed as "edited: typo" stays an undo's
        return reason or "undone"

    @classmethod
    def from_text(cls, text: str | None) -> Void:
        if text is None or text == "undone":
            return cls(False)
        if text.startswith("undone: "):
            return cls(False, decode(text.partition(": ")[2]))
        if text == "edited" or text.startswith("edited: "):
            return cls(True, decode(text.partition(": ")[2]) or None)
        return cls(False, decode(text))


# How the hand log marks a void: an undo's reason that starts so is kept with "undone: "
_MARKED = ("edited", "undone")


@dataclass
class SessionEvent:
    """One change kept in a game's event log (what it means: bot/core/events.py)."""

    kind: str  # one of KINDS (bot/core/events.py)
    data: dict[str, Any]  # what changed, JSON-ready (see events.describe)
    by: str  # who made the change (an actor id)
    by_name: str
    after_hand: int  # live hands when it happened: it applies from the next one
    id: int | None = None
    created_at: datetime | None = field(default=None)


@dataclass
class PaymentRecord:
    """One payment in a chat's ledger: `payer` paid `payee` (people keyed as /stats keys
    them). Append-only: /undo voids it, it is never deleted."""

    payer: str
    payer_name: str
    payee: str
    payee_name: str
    amount: Decimal
    currency: str
    recorded_by: str
    recorded_by_name: str
    origin_id: str | None = None
    id: int | None = None
    created_at: datetime | None = None
    voided_at: datetime | None = None
    voided_by: str | None = None


@dataclass
class SeasonRecord:
    """A named stretch of a chat's games: a game is in the season it ended in (a game still
    open: in the season open now)."""

    name: str
    started_by: str
    started_by_name: str
    id: int | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    ended_by: str | None = None

    def holds(self, session: SessionState) -> bool:
        if session.status != ENDED or session.ended_at is None:
            return self.ended_at is None
        assert self.started_at is not None
        return self.started_at <= session.ended_at and (
            self.ended_at is None or session.ended_at < self.ended_at)


DEFAULT_TIMEZONE, DEFAULT_LANGUAGE = "UTC", "auto"  # auto: each person in their own language
LIVE, NEW_EACH = "live", "new"  # one board message kept up to date, or a new one each change


@dataclass
class ChatSettings:
    """What a chat keeps across its sessions, with the defaults in one place."""

    timezone: str = DEFAULT_TIMEZONE
    language: str = DEFAULT_LANGUAGE
    board: str = LIVE
    # guest name (lower case) -> the account it counts as in /stats: {"id", "name"}
    links: dict[str, dict[str, str]] = field(default_factory=dict)
    # The chat moved (a Telegram group upgraded to a supergroup): its records are under this
    # key now, and a command here is answered there (bot/storage/transaction/rekey.py)
    moved_to: str | None = None
    # The maal prompts of the last hands that stopped waiting (scored, dropped or their game
    # ended), oldest first: [{"session": id, "hand": no, "prompts": [message ids],
    # "dropped": bool}], so a late reply to one is told what became of its hand
    # (bot/core/service/prompts.py). Never exported, and a moved chat starts without it.
    answered: list[dict[str, Any]] = field(default_factory=list)
    # The nonces of the table's web pages, kind -> nonce (bot/core/pages.py): the link is
    # made from it with the bot's secret. Never exported: a file opens no page.
    pages: dict[str, str] = field(default_factory=dict)

    @property
    def zone(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo(DEFAULT_TIMEZONE)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"timezone": self.timezone, "language": self.language,
                                "board": self.board, "links": self.links}
        if self.moved_to:
            data["moved_to"] = self.moved_to
        if self.answered:
            data["answered"] = self.answered
        if self.pages:
            data["pages"] = self.pages
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> ChatSettings:
        data = data or {}
        return cls(str(data.get("timezone") or DEFAULT_TIMEZONE),
                   str(data.get("language") or DEFAULT_LANGUAGE),
                   str(data.get("board") or LIVE),
                   {str(k): dict(v) for k, v in (data.get("links") or {}).items()},
                   str(data["moved_to"]) if data.get("moved_to") else None,
                   _answered(data.get("answered")),
                   {str(k): str(v) for k, v in (data.get("pages") or {}).items()})


def _answered(kept: Any) -> list[dict[str, Any]]:
    """ChatSettings.answered as stored: a list, or one hand's alone (as kept before)."""
    if not kept:
        return []
    return [dict(entry) for entry in ([kept] if isinstance(kept, Mapping) else kept)]


class ChatTransaction(Protocol):
    """Everything the service reads and writes for one chat, inside one transaction."""

    async def prefetch(self, origin_id: str | None) -> None: ...

    async def open_session(self) -> SessionState | None: ...
    async def save_session(self, state: SessionState) -> SessionState: ...
    async def add_hand(self, session_id: int, hand: HandRecord) -> HandRecord: ...
    async def void_hand(self, session_id: int, no: int, by: str, void: Void) -> None: ...
    # a game closed with no hand recorded: its log (undone hands, their rules, its events)
    # has nothing left to show, and goes
    async def discard_log(self, session_id: int) -> None: ...
    async def hand(self, session_id: int, no: int) -> HandRecord | None: ...
    async def last_hands(self, session_id: int, count: int) -> list[HandRecord]: ...
    async def all_hands(self, session_id: int) -> list[HandRecord]: ...
    async def history(self, session_id: int) -> list[HandRecord]: ...
    async def chat_sessions(self) -> list[SessionState]: ...
    async def session(self, session_id: int) -> SessionState | None: ...
    async def set_board_ref(self, session_id: int, ref: str | None) -> None: ...
    def export_parts(self, session_ids: list[int], ledger: bool = False
                     ) -> AsyncIterator[tuple[str, dict[str, Any]]]: ...
    def export_json(self, session_ids: list[int], ledger: bool = False,
                    extra: Mapping[str, Any] | None = None) -> AsyncIterator[str]: ...
    async def export(self, session_ids: list[int], ledger: bool = False) -> dict[str, Any]: ...
    async def restore(self, data: Mapping[str, Any] | bytes) -> int: ...
    def export_club(self, club: Mapping[str, Any], chats: list[str]) -> AsyncIterator[str]: ...
    async def settings(self) -> ChatSettings: ...
    async def save_settings(self, values: ChatSettings) -> None: ...
    async def set_page(self, kind: str, digest: str | None) -> None: ...
    async def page_digest(self, kind: str) -> str | None: ...
    async def set_page_of(self, chat: str, kind: str, digest: str | None) -> None: ...
    async def page_digest_of(self, chat: str, kind: str) -> str | None: ...
    clubs: Any  # the club's book in this transaction (bot/core/club/book.py, ClubBook)
    async def origin_reply(self, origin_id: str) -> Mapping[str, Any] | None: ...
    async def payments(self) -> list[PaymentRecord]: ...
    async def add_payment(self, payment: PaymentRecord) -> PaymentRecord: ...
    async def void_payment(self, payment_id: int, by: str) -> None: ...
    async def seasons(self) -> list[SeasonRecord]: ...
    async def add_season(self, season: SeasonRecord) -> SeasonRecord: ...
    async def end_season(self, season_id: int, by: str) -> None: ...
    async def record_origin(self, origin_id: str, reply: Mapping[str, Any]) -> None: ...
    async def add_event(self, session_id: int, event: SessionEvent) -> SessionEvent: ...
    async def events(self, session_id: int) -> list[SessionEvent]: ...


class Store(Protocol):
    def transaction(self, chat: str, write: bool = True
                    ) -> AbstractAsyncContextManager[ChatTransaction]: ...
    def board_lock(self, chat: str) -> AbstractAsyncContextManager[None]: ...
    async def origin_reply(self, origin_id: str) -> Mapping[str, Any] | None: ...
    async def close(self) -> None: ...
    # a big /import, written a batch at a time beside the other chats' commands: the reply
    # kept for it (reply_for(sessions, open)) and whether it was given before
    async def import_file(self, chat: str, raw: bytes | Path, origin_id: str | None,
                          reply_for: Callable[[int, bool], Mapping[str, Any]],
                          step: Callable[[int, int | None, str], Awaitable[None]]
                          ) -> tuple[Mapping[str, Any], bool]: ...
    # Across chats, each in its own chat's transaction (bot/storage/transaction/rekey.py, forget.py)
    async def move_chat(self, old: str, new: str) -> bool: ...
    async def forget_person(self, person: str, handle: str | None) -> Forgotten: ...
    async def forget_chat(self, chat: str) -> Forgotten: ...


@dataclass
class Forgotten:
    """What /forget took out: `chats` and `seats` (a person: the chats they were in and
    their seats, guests now), or the chat's `games`, `payments` and `seasons`."""

    chats: int = 0
    seats: int = 0
    games: int = 0
    payments: int = 0
    seasons: int = 0


class DuplicateOrigin(Exception):
    """Another process recorded the same origin id first; its reply is the answer."""
