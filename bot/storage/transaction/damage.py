"""A damaged record found, and said as such: which chat, game and hand (or payment,
season, settings...), to the chat that met it, to the host, and by
`python -m bot health --deep`.

A stored value that does not read back (bot/storage/engine/problems.py, `unreadable`) fails the
read that met it, and says nothing of which row it was. `find` reads the records again,
each value as it is stored (SQLite: as bytes, so that text which is not UTF-8 is caught
here, row by row, rather than by the driver for a whole query) and each row through its
own decoder (bot/storage/engine/records.py), and names those that do not read. A chat's records
are read when one of its commands meets damage; every record, by `health --deep`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import Any

from sqlalchemy import JSON, DateTime, Integer, LargeBinary, Text, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql import ColumnElement, TableClause

from bot.core.games.registry import GAMES
from bot.core.i18n import Msg, _
from bot.core.i18n.words import placeholders
from bot.storage.engine import records
from bot.storage.engine.problems import DAMAGED, StoreProblem, Unreadable, causes, loads
from bot.storage.engine.tables import (
    KEPT,
    JSONText,
    chat_settings,
    hands,
    inbox,
    origins,
    payments,
    rule_sets,
    seasons,
    session_events,
    sessions,
)

NUMBERED = {"hands": "hand", "payments": "payment", "seasons": "season"}
MAX_FOUND = 20  # records named at most: one is enough to say, a few to see how far it goes


@dataclass(frozen=True)
class Damage:
    """One record that does not read back. `game` is its game's number in its chat, as
    people name it (/board game:6); `no` the hand's number, or the payment's or season's
    among the chat's; `row` its id in its table."""

    table: str
    why: str
    chat: str | None = None
    game: int | None = None
    no: int | None = None
    row: int | str | None = None
    game_key: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Damage:
        known = {k: data.get(k) for k in cls.__dataclass_fields__}
        return cls(**{**known, "table": str(known["table"] or "?"),
                      "why": str(known["why"] or "?")})

    def what(self) -> Msg | None:
        """The record, as its chat names it; None where it can't be named (pages that
        don't read, a row whose game is not known)."""
        game, no, table = self.game, self.no, self.table
        if table == "chat_settings":
            return _("this chat's settings")
        if table == "origins" and self.row is not None:
            return _("a reply kept for one of this chat's messages")
        if table in ("payments", "seasons") and no is not None:
            return _("payment {no}", no=no) if table == "payments" else \
                _("season {no}", no=no)
        if game is None:
            return None
        if table == "hands" and no is not None:
            game_of = GAMES.get(self.game_key or "")
            words = placeholders(game_of.hand_word if game_of is not None else "hand")
            return _("{hand} {no} of game {game}", no=no, game=game, **words)
        if table == "sessions":
            return _("game {game}", game=game)
        if table == "rule_sets":
            return _("the rules of game {game}", game=game)
        if table == "session_events":
            return _("the log of game {game}", game=game)
        return None

    def for_host(self) -> str:
        """One line for the host: where it is, and what does not read."""
        where = [f"chat {self.chat}" if self.chat else None,
                 f"game {self.game}" if self.game is not None else None,
                 f"{NUMBERED.get(self.table, 'number')} {self.no}"
                 if self.no is not None else None,
                 f"{self.table} row {self.row}" if self.row is not None else self.table]
        return f"{', '.join(w for w in where if w)}: {self.why}"

    def met(self, error: BaseException) -> bool:
        """This is the record whose reading raised `error` (as far as it says)."""
        for found in causes(error):
            if isinstance(found, Unreadable) and found.table is not None:
                return found.table == self.table and found.row in (None, self.row)
        return False


class DamagedRecord(StoreProblem):
    """A command met a damaged record: `message` names it to the chat (StoreProblem: the
    service says it as it is); `found` is what was found."""

    def __init__(self, message: Msg, found: list[Damage]) -> None:
        super().__init__(message)
        self.found = found


def said(found: list[Damage], chat: str, stopped: bool) -> Msg:
    """What the chat is told: its own damaged record by name (another chat's is not its
    business); `stopped`: nothing more is recorded (a damaged SQLite file)."""
    own = next((d for d in found if d.chat == chat and d.what() is not None), None)
    if own is None:  # another chat's, or not one that can be named
        return DAMAGED
    if stopped:
        return _("The database holds {what} damaged: it can't be read, so nothing more is "
                 "recorded. The host must stop me and restore the database from a backup.",
                 what=own.what())
    return _("The database holds {what} damaged: it can't be read, and nothing was "
             "recorded. The host must restore it from a backup.", what=own.what())


# --- reading every record again ---------------------------------------------------------

Decode = Callable[[Any], object]


@dataclass(frozen=True)
class Scan:
    table: TableClause
    decode: Decode  # the row (its values read) through its record's decoder
    key: str  # what a row is named by (its id, or its key)
    by_chat: bool  # has a chat column (else: by its session)


def _hand(row: Any) -> object:
    row.rules = {}  # kept apart, once per change (rule_sets, read on their own)
    return records.hand_of(row)


def _payload(data: Any) -> object:
    if not isinstance(data, Mapping):
        raise Unreadable("not an update")
    return data


SCANS = (
    Scan(chat_settings, lambda row: records.settings_of(row.data), "chat", True),
    Scan(sessions, records.session_of, "id", True),
    Scan(hands, _hand, "id", False),
    Scan(rule_sets, lambda row: records.rules_of(loads(row.rules)), "rules_key", False),
    Scan(session_events, records.event_of, "id", False),
    Scan(payments, records.payment_of, "id", True),
    Scan(seasons, records.season_of, "id", True),
    Scan(origins, lambda row: records.reply_of(row.reply), "origin_id", True),
    Scan(inbox, lambda row: _payload(row.payload), "update_id", True),
)


def _stored(conn: AsyncConnection, scan: Scan) -> list[ColumnElement[Any]]:
    """Each column as stored: on SQLite every one but integers as bytes (text that is not
    UTF-8 is then ours to find, not the driver's to fail on); on PostgreSQL, JSON as its
    text (a JSON column holds only JSON there: what is read is whether it makes its
    record)."""
    sqlite = conn.dialect.name == "sqlite"
    out: list[ColumnElement[Any]] = []
    for column in scan.table.c:
        kind = column.type
        if isinstance(kind, Integer):
            out.append(column)
        elif sqlite:
            out.append(cast(column, LargeBinary).label(column.name))
        elif isinstance(kind, JSON | JSONText):
            out.append(cast(column, Text).label(column.name))
        else:
            out.append(column)
    return out


def _values(conn: AsyncConnection, scan: Scan, raw: Any) -> SimpleNamespace:
    """A row's values read back as the commands read them, or Unreadable: which column."""
    dates = DateTime().dialect_impl(conn.dialect).result_processor(conn.dialect, None)
    values: dict[str, Any] = {}
    for column in scan.table.c:
        value = raw._mapping[column.name]
        kind = column.type
        try:
            if isinstance(value, bytes | memoryview):
                value = bytes(value).decode("utf-8")
            if value is None:
                pass
            elif isinstance(kind, Integer):
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError("not a number")
            elif isinstance(kind, JSON | JSONText):
                value = loads(value)
            elif isinstance(kind, DateTime) and isinstance(value, str) and dates is not None:
                value = dates(value)
        except Exception as error:
            reason = "not UTF-8" if isinstance(error, UnicodeDecodeError) else \
                str(error) if isinstance(error, Unreadable) else \
                f"{type(error).__name__}: {str(error)[:60]}"
            raise Unreadable(f"{column.name}: {reason}") from error
        values[column.name] = value
    return SimpleNamespace(**values)


async def _scan(conn: AsyncConnection, scan: Scan, chat: str | None,
                found: list[Damage]) -> int:
    """Every row of one table (of one chat's, with `chat`) read back; the damaged added to
    `found`. Returns how many rows were read."""
    query = select(*_stored(conn, scan))
    if chat is not None:
        if scan.by_chat:
            query = query.where(scan.table.c.chat == chat)
        else:
            query = query.where(scan.table.c.session_id.in_(
                select(sessions.c.id).where(sessions.c.chat == chat)))
    read = 0
    last: Any = None
    bad: list[tuple[Mapping[str, Any], str]] = []  # named once the stream is closed
    try:
        result = await conn.stream(query.execution_options(yield_per=500))
        try:
            async for raw in result:
                read += 1
                last = raw._mapping[scan.key]
                try:
                    scan.decode(_values(conn, scan, raw))
                except Unreadable as error:
                    bad.append((dict(raw._mapping), str(error)))
                if len(found) + len(bad) >= MAX_FOUND:
                    break
        finally:
            await result.close()
    except Exception as error:  # pages that don't read: the rows past them are not seen
        found.append(Damage(scan.table.name, f"{type(error).__name__}: {str(error)[:80]} "
                            f"(read {read} rows{f', the last {last!r}' if read else ''})",
                            chat=chat))
    for values, why in bad:
        try:
            found.append(await _named(conn, scan, values, why))
        except Exception:  # where it is does not read either: what it is, at least
            found.append(Damage(scan.table.name, why, chat=chat))
    return read


async def _named(conn: AsyncConnection, scan: Scan, values: Mapping[str, Any],
                 why: str) -> Damage:
    """Where a damaged row is: its chat, its game's number there, its own number."""
    key = values[scan.key]
    key = bytes(key).decode("utf-8", "replace") if isinstance(key, bytes | memoryview) \
        else key
    session_id = values.get("session_id") if not scan.by_chat else \
        values.get("id") if scan.table is sessions else None
    chat = _text(values.get("chat"))
    game = game_key = None
    if isinstance(session_id, int):
        row = (await conn.execute(select(
            cast(sessions.c.chat, LargeBinary) if conn.dialect.name == "sqlite"
            else sessions.c.chat, sessions.c.game).where(sessions.c.id == session_id))).first()
        if row is not None:
            chat = _text(row[0])
            game_key = _text(row[1])
            game = (await conn.execute(select(func.count()).select_from(sessions).where(
                sessions.c.chat == chat, KEPT, sessions.c.id <= session_id))).scalar()
    no = values.get("no") if scan.table is hands else None
    if scan.table in (payments, seasons) and isinstance(key, int) and chat is not None:
        table = scan.table
        no = (await conn.execute(select(func.count()).select_from(table).where(
            table.c.chat == chat, table.c.id <= key))).scalar()
    return Damage(scan.table.name, why, chat=chat, game=game or None,
                  no=no if isinstance(no, int) else None, row=key, game_key=game_key)


def _text(value: Any) -> str | None:
    if isinstance(value, bytes | memoryview):
        return bytes(value).decode("utf-8", "replace")
    return value if isinstance(value, str) else None


async def find(engine: AsyncEngine, chat: str | None = None) -> tuple[list[Damage], int]:
    """The records (of `chat`, or every one) that do not read back, at most MAX_FOUND;
    and how many records were read."""
    found: list[Damage] = []
    read = 0
    async with engine.connect() as conn:
        for scan in SCANS:
            read += await _scan(conn, scan, chat, found)
            if len(found) >= MAX_FOUND:
                break
    return found, read
