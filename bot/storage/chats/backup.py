"""Backup and restore of one chat's sessions (every hand, undone ones too) as JSON."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.core.i18n import _, _n
from bot.core.summaries import DERIVED, can_derive, stored_text
from bot.storage.chats.validate import (
    FORMAT,
    SETTINGS_KEYS,
    VERSION,
    Checked,
    Derived,
    RestoreError,
    check_backup,
)
from bot.storage.engine.database import READ_ONLY
from bot.storage.engine.tables import (
    KEPT,
    chat_settings,
    hand_rows,
    hands,
    payments,
    seasons,
    sessions,
)
from bot.storage.transaction.clubs import chats_changed
from bot.storage.transaction.events import export_events, import_events
from bot.storage.transaction.migrations import RUMMY_SCALE, scale_rummy_points
from bot.storage.transaction.rule_sets import insert_ignoring, key_of

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
    every session is exported), the payments (undone ones too) and seasons of the chat.
    A game closed with no hand recorded is not kept: never in a file."""
    query = select(sessions).where(sessions.c.chat == chat, KEPT).order_by(sessions.c.id)
    if session_ids is not None:
        query = query.where(sessions.c.id.in_(session_ids))
    for row in (await conn.execute(query)).all():
        yield "session", _plain(row)
        last = 0
        while True:
            page = (await conn.execute(
                select(hand_rows).where(hand_rows.c.session_id == row.id, hand_rows.c.id > last)
                .order_by(hand_rows.c.id).limit(PAGE))).all()
            for hand in page:
                data = _plain(hand)
                # a file carries every summary whole: one derived when shown is derived now
                data["summary"] = stored_text(row.game, row.players, data)
                yield "hand", data
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
        part: dict[str, Any] = {"payments": paid, "seasons": held}
        row = (await conn.execute(select(chat_settings.c.data)
                                  .where(chat_settings.c.chat == chat))).first()
        if row is not None and isinstance(row[0], Mapping):  # where it moved stays here
            part["settings"] = {k: v for k, v in row[0].items() if k in SETTINGS_KEYS}
        yield "ledger", part


IMPORTED = "import"  # a recorder or starter who sat at none of the file's games


def seated(person: str, checked: Checked) -> str:
    """`person` if they sat at the file's games, else nobody (IMPORTED): an import never
    gives an account the file names, but who never played, a say over what it brings (the
    recorder may undo a hand or a payment, the starter may do anything in the game)."""
    return person if person in checked.people else IMPORTED


def session_values(session: Mapping[str, Any], derived: Derived, checked: Checked,
                   chat: str) -> dict[str, Any]:
    """What a session's row takes from the file beside its own fields: the chat, and what
    its hands make of it (never the file's word; rummy points in tenths, whatever the
    file's version): totals, hand count and money book. Its
    live board stays with the chat it was in. Its starter is kept only if they sat at the
    file's games, and so is who started a hand still waiting (they may drop it)."""
    pending = session.get("pending")
    if pending is not None:
        pending = {**pending, "by": seated(pending["by"], checked)}
    return {"chat": chat, "created_by": seated(session["created_by"], checked),
            "totals": {str(k): v for k, v in derived.totals.items()},
            "hand_count": derived.hand_count, "money": derived.money, "board_ref": None,
            "version": session.get("version") or 0, "pending": pending}


def payment_values(payment: Mapping[str, Any], checked: Checked) -> dict[str, Any]:
    """A payment's row: its recorder as the file says only if they sat at the file's games;
    anyone else becomes nobody's (IMPORTED), so only an admin may undo it, never an account
    the file names."""
    row = _dates({k: v for k, v in payment.items() if k != "id"})
    row["recorded_by"] = seated(row["recorded_by"], checked)
    return row


async def restore_settings(conn: AsyncConnection | Any, chat: str,
                           data: Mapping[str, Any]) -> None:
    """The file's chat settings (version 5 on), where the chat has none of its own yet,
    its links too: a linked account counts as the guest in /stats and the ledger, and may
    act on the guest's payments, as the admin who linked it said (/link is an admin's, as
    /import is), whether or not it ever sat at a game itself."""
    settings = data.get("settings")
    if not settings:
        return
    had = (await conn.execute(select(func.count()).select_from(chat_settings)
                              .where(chat_settings.c.chat == chat))).scalar_one()
    if had:
        return
    kept = {k: v for k, v in settings.items() if k != "links"}
    kept["links"] = {name: dict(to) for name, to in (settings.get("links") or {}).items()}
    await conn.execute(insert(chat_settings).values(chat=chat, data=kept))


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


ALL_FORMAT = "maalbot-all-chats"  # `python -m bot backup` with no --chat: every chat


async def every_chat(conn: AsyncConnection) -> list[str]:
    """The chats with anything to keep (kept games, payments, seasons), an import being
    written (importer.py's staging chats) left out."""
    found: set[str] = set()
    for table in (sessions, payments, seasons):
        query = select(func.distinct(table.c.chat))
        rows = await conn.execute(query.where(KEPT) if table is sessions else query)
        found |= {r[0] for r in rows if not str(r[0]).startswith("import:")}
    return sorted(found)


async def _snapshot(conn: AsyncConnection) -> None:
    """Every statement of this connection's transaction reads one moment."""
    if conn.dialect.name == "postgresql":  # one snapshot for every statement
        await conn.execution_options(isolation_level="REPEATABLE READ")
    else:  # a plain BEGIN: a WAL reader's snapshot, no write lock taken
        await conn.execution_options(**{READ_ONLY: True})


# (hands written, hands to write): told every PAGE hands (the command line's progress)
Told = Callable[[int, int], None]


class _Tally:
    """The hands of a backup written so far, told every PAGE of them."""

    def __init__(self, told: Told | None, total: int) -> None:
        self.told, self.total, self.done = told, total, 0

    async def parts(self, parts: AsyncIterator[Part]) -> AsyncIterator[Part]:
        async for kind, value in parts:
            yield kind, value
            if kind == "hand":
                self.done += 1
                if self.told is not None and self.done % PAGE == 0:
                    self.told(self.done, self.total)


async def _hands_of(conn: AsyncConnection, chat: str | None) -> int:
    """The hands (undone ones too) a backup writes: of the chat, or (None) of every chat
    but an import being written (as every_chat)."""
    query = select(func.count()).select_from(hands).join(
        sessions, hands.c.session_id == sessions.c.id)
    if chat is None:
        query = query.where(sessions.c.chat.not_like("import:%"))
    else:
        query = query.where(sessions.c.chat == chat)
    return int((await conn.execute(query)).scalar_one())


async def backup_all(engine: AsyncEngine, write: Callable[[str], None],
                     told: Told | None = None) -> tuple[int, int]:
    """Every chat, each as /export all writes it (a file /import or restore takes), in one
    file, written piece by piece with `write`; all read in one transaction, so the chats
    are as they were at one moment; `told` hears of the hands written. Returns (chats,
    sessions)."""
    async with engine.connect() as conn:
        await _snapshot(conn)
        chats = await every_chat(conn)
        tally = _Tally(told, await _hands_of(conn, None) if told is not None else 0)
        write(json.dumps({"format": ALL_FORMAT, "version": VERSION,
                          "created_at": datetime.now(UTC).isoformat()})[:-1] + ', "chats": [')
        count = 0
        for i, chat in enumerate(chats):
            if i:
                write(", ")
            async for chunk in json_chunks(tally.parts(export_parts(conn, chat)), chat):
                write(chunk)
            count += await _sessions_of(conn, chat)
        write("]}")
    return len(chats), count


async def _sessions_of(conn: AsyncConnection, chat: str) -> int:
    return int((await conn.execute(select(func.count()).select_from(sessions)
                                   .where(sessions.c.chat == chat, KEPT))).scalar_one())


async def backup_chat(engine: AsyncEngine, chat: str, write: Callable[[str], None],
                      told: Told | None = None) -> int:
    """One chat as /export all writes it, piece by piece with `write` (a page of hands at
    a time, never the chat whole), read at one moment; nothing written when it has no
    sessions; `told` hears of the hands written. Returns its sessions."""
    async with engine.connect() as conn:
        await _snapshot(conn)
        count = await _sessions_of(conn, chat)
        if count:
            tally = _Tally(told, await _hands_of(conn, chat) if told is not None else 0)
            async for chunk in json_chunks(tally.parts(export_parts(conn, chat)), chat):
                write(chunk)
    return count


async def import_sessions(conn: AsyncConnection, data: Mapping[str, Any],
                          target: str | None) -> int:
    """Check the whole file, then write it into an empty chat in this transaction."""
    checked = check_backup(data)  # all of it, before anything is written
    if not target:
        raise RestoreError(_("the backup names no chat; give one"))
    await check_empty(conn, target, data)
    writer = Writer(data, checked, target)
    await writer.write(conn)
    await restore_settings(conn, target, data)
    await chats_changed(conn, [target])  # its club counts the games it brought
    return len(data["sessions"])


async def check_empty(conn: AsyncConnection | Any, target: str,
                      data: Mapping[str, Any]) -> None:
    """RestoreError unless the chat has no sessions, and no payments or seasons where the
    file brings some."""
    existing = (await conn.execute(
        select(func.count()).select_from(sessions).where(sessions.c.chat == target, KEPT)
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


class Writer:
    """A checked file's rows written into `chat`: a session's row (`begin`), its hands a
    batch at a time (`hands`), what they make of it (`end`), and at last the payments and
    seasons (`rest`). Each step may be a transaction of its own (importer.py), and the
    hands need not be in `data` (an import streams them)."""

    def __init__(self, data: Mapping[str, Any], checked: Checked, chat: str) -> None:
        self.data, self.checked, self.chat = data, checked, chat
        # points kept in the units of their time: a version 1 file had whole rummy points
        self.scale = RUMMY_SCALE if data.get("version") == 1 else 1
        self.session_id: int | None = None  # the row of the session whose hands are going
        self.old_to_new: dict[int, int] = {}
        self.named: set[int] = set()
        self.hands_written = 0

    async def write(self, conn: AsyncConnection | Any) -> None:
        """Everything, in this transaction (the file whole in `data`, hands and all)."""
        for session, derived in zip(self.data["sessions"], self.checked.sessions,
                                    strict=True):
            named = {h["replaced_by"] for h in session["hands"]
                     if h.get("replaced_by") is not None}
            await self.begin(conn, session, named, derived)
            await self.hands(conn, session, session["hands"])
            await self.end(conn, session)
        await self.rest(conn)

    async def begin(self, conn: AsyncConnection | Any, session: Mapping[str, Any],
                    named: set[int], derived: Derived | None = None) -> None:
        """The session's row: with what its hands make of it, or, while they are still to
        come, with nothing yet (`end` writes it). `named`: the ids of its hands another
        hand names as its replacement (the bot names none; a file may)."""
        values = _dates({k: v for k, v in session.items()
                         if k not in ("id", "hands", "events")})
        values.update(session_values(session, derived or Derived({}, 0, {}), self.checked,
                                     self.chat))
        self.session_id = (await conn.execute(
            insert(sessions).values(**values).returning(sessions.c.id))).scalar_one()
        self.old_to_new, self.named = {}, named

    async def end(self, conn: AsyncConnection | Any, session: Mapping[str, Any],
                  derived: Derived | None = None) -> None:
        """The session's hands are in: what they make of it (unless `begin` had it), then
        its events (version 4 on: rules, seats)."""
        if derived is not None:
            values = session_values(session, derived, self.checked, self.chat)
            await conn.execute(update(sessions).where(sessions.c.id == self.session_id).values(
                totals=values["totals"], hand_count=values["hand_count"],
                money=values["money"]))
        await import_events(conn, self.session_id, session.get("events") or [])
        self.session_id = None

    async def rest(self, conn: AsyncConnection | Any) -> None:
        for payment in self.data.get("payments") or []:  # version 3 on: the ledger
            row = payment_values(payment, self.checked)
            await conn.execute(insert(payments).values(chat=self.chat, **row))
        for season in self.data.get("seasons") or []:  # version 3 on: the seasons
            row = _dates({k: v for k, v in season.items() if k != "id"})
            await conn.execute(insert(seasons).values(chat=self.chat, **row))

    async def hands(self, conn: AsyncConnection | Any, session: Mapping[str, Any],
                    batch: list[Mapping[str, Any]]) -> None:
        """The next hands of the session `begin` wrote: named ones one by one (their new
        ids are read back), the rest in one executemany."""
        rows: list[dict[str, Any]] = []
        sets: dict[int, str] = {}  # the batch's rule sets, kept once (rule_sets.py)
        for hand in batch:
            row = _dates({k: v for k, v in hand.items() if k not in ("id", "session_id")})
            row["session_id"] = self.session_id
            row["rules_key"], kept = key_of(hand["rules"])
            sets.setdefault(row["rules_key"], kept)
            if can_derive(session["game"], session["players"], hand):
                row["summary"] = DERIVED  # what scoring it again says: derived when shown
            row["deltas"] = scale_rummy_points(session["game"], hand["deltas"], self.scale)
            row["replaced_by"] = self.old_to_new.get(row.get("replaced_by") or -1)
            row["recorded_by"] = seated(row["recorded_by"], self.checked)  # as a payment's
            row = {c: row.get(c) for c in HAND_ROW}
            if hand["id"] in self.named:
                if rows:
                    await conn.execute(insert(hands), rows)
                    rows = []
                self.old_to_new[hand["id"]] = (await conn.execute(
                    insert(hands).values(**row).returning(hands.c.id))).scalar_one()
            else:
                rows.append(row)
        if rows:
            await conn.execute(insert(hands), rows)  # one executemany for the batch
        if sets:
            await conn.execute(insert_ignoring(conn.dialect.name, [
                {"session_id": self.session_id, "rules_key": k, "rules": r}
                for k, r in sets.items()]))
        self.hands_written += len(batch)


HAND_ROW = [c.name for c in hands.columns if c.name != "id"]
