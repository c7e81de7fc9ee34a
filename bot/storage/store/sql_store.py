"""The SQL store (`SqlStore`): one transaction per command, serialised per chat, on the
connections it owns (connections.py), with the hands it keeps per chat (hot.py); and what
a command reads and writes in its transaction (`SqlChatTransaction`)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.core.events import SessionEvent
from bot.core.i18n.text import encode
from bot.core.session import (
    OPEN,
    ChatSettings,
    Forgotten,
    HandRecord,
    PaymentRecord,
    SeasonRecord,
    SessionState,
    Void,
)
from bot.storage.chats import forget
from bot.storage.chats.backup import (
    Part,
    export_parts,
    export_sessions,
    import_sessions,
    json_chunks,
)
from bot.storage.chats.club_file import club_json
from bot.storage.chats.reading import parse_export
from bot.storage.engine import tables
from bot.storage.engine.database import READ_ONLY
from bot.storage.engine.problems import problem, unreadable
from bot.storage.engine.records import (
    hand_of,
    payment_of,
    season_of,
    session_of,
    settings_of,
)
from bot.storage.engine.sqlite_file import SqliteFile
from bot.storage.engine.tables import (
    KEPT,
    chat_settings,
    hand_rows,
    hands,
    origins,
    payments,
    seasons,
    sessions,
)
from bot.storage.transaction import hot, pages, rekey, rule_sets
from bot.storage.transaction.clubs import SqlClubBook
from bot.storage.transaction.connections import Connections
from bot.storage.transaction.damage import Damage, DamagedRecord, find, said
from bot.storage.transaction.events import add_event, events_of
from bot.storage.transaction.retention import PRUNED

log = logging.getLogger(__name__)
CHECKPOINT_EVERY = 100  # SQLite commits between WAL checkpoints (about 1,000 pages)


def _now() -> datetime:
    return datetime.now(UTC)


class SqlStore:
    def __init__(self, engine: AsyncEngine, hot_engine: AsyncEngine | None = None) -> None:
        self.engine = engine
        # the commands' connections (bot/storage/transaction/connections.py, hot.py)
        self.connections = Connections(engine, hot_engine)
        self.windows = hot.HandWindows()
        self.known_rules = rule_sets.Known()  # hands' rule sets stored (rule_sets.py)
        self._commits = 0
        # SQLite: its file, looked at before each command (bot/storage/engine/sqlite_file.py)
        self.file: SqliteFile | None = None
        # SQLite: records found damaged in the file (bot/storage/transaction/damage.py): nothing
        # more is recorded into it (its `.damaged` marker tells the other processes)
        self.stopped: list[Damage] | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        # In-process lock per chat so commands of one chat queue instead of contending in the
        # database; the database lock below does the same across processes.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    @asynccontextmanager
    async def transaction(self, chat: str,
                          write: bool = True) -> AsyncIterator[SqlChatTransaction]:
        """One command's transaction. Writers of a chat take turns (on SQLite, all writers:
        it has one at a time; queueing here beats its busy-wait, whose sleeps add whole
        milliseconds). A transaction that only reads waits for nobody and holds nobody up.
        A SQLite file that is no longer the one at its path is used no more (StoreProblem);
        one with a damaged record is only read (DamagedRecord)."""
        if self.file is not None:
            self.file.check()
            if write:
                self.check_writable(chat)
        if not write:
            async with self._hot(chat, write=False) as tx:
                yield tx
            return
        key = "*" if self.backend == "sqlite" else chat
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        async with lock, self._hot(chat, write=True) as tx:
            yield tx

    @asynccontextmanager
    async def _hot(self, chat: str, write: bool) -> AsyncIterator[SqlChatTransaction]:
        """A transaction the hot path begins and ends itself (bot/storage/transaction/hot.py); on
        PostgreSQL a writer's BEGIN takes the chat's advisory lock with it."""
        state = hot.HotState(self.connections, self.windows, chat, write, hand_of,
                             self._committed)
        try:
            tx = SqlChatTransaction(state, chat, self.known_rules, read_only=not write)
            yield tx
            await state.commit()
            self.known_rules.committed(tx.new_rules)  # rule sets written (rule_sets.py)
            for done in tx.after_commit:  # what keeps what this transaction wrote
                done()
        except (asyncio.CancelledError, TimeoutError):
            # Given up on (a timeout): a database that stopped answering won't answer
            # a ROLLBACK either. Drop the connection; the server rolls back for us.
            self.windows.put(chat, None)
            await state.invalidate()
            raise
        except BaseException as error:
            self.windows.put(chat, None)
            await state.rollback()
            hot.raise_duplicate(error)
            if unreadable(error):  # the database holds something damaged: name it
                raise await self._damaged(chat, error) from error
            raise
        finally:
            await state.close()

    def writable(self) -> bool:
        """False once a damaged record was found in the SQLite file (check_writable)."""
        try:
            self.check_writable("")
        except DamagedRecord:
            return False
        return True

    def check_writable(self, chat: str) -> None:
        """SQLite: a file with a damaged record, found by this process or another, is
        written no more (DamagedRecord, naming the chat's own)."""
        if self.file is None:
            return
        found = self.stopped
        if found is None and (marked := self.file.damage()) is not None:
            found = self.stopped = [Damage.from_json(d) for d in marked]
        if found is not None:
            raise DamagedRecord(said(found, chat, stopped=True), found)

    async def _damaged(self, chat: str, error: BaseException) -> DamagedRecord:
        """A command of `chat` met a value that does not read back: the chat's records read
        again, to say which (bot/storage/transaction/damage.py). On SQLite the file is written no
        more, by this process or another (its `.damaged` marker)."""
        try:
            found, _read = await find(self.engine, chat)
        except Exception:  # the search fails too: said without a name
            log.warning("could not look for the damaged record", exc_info=True)
            found = []
        if not found:
            found = [Damage("?", "a value read by a command did not read back", chat=chat)]
        found.sort(key=lambda d: not d.met(error))  # the one the command met, named first
        log.error("damaged records in the database: %s",
                  "; ".join(d.for_host() for d in found))
        if self.file is not None:
            if self.stopped is None:
                self.file.found([d.to_json() for d in found])
            self.stopped = (self.stopped or []) + found
        return DamagedRecord(said(found, chat, stopped=self.file is not None), found)

    @asynccontextmanager
    async def board_lock(self, chat: str) -> AsyncIterator[None]:
        """A chat's live board is edited by one process at a time (so the last edit shows the
        last change). No transaction is held meanwhile: the platform may be slow, and the
        chat's commands go on; on PostgreSQL a session-level advisory lock spans processes."""
        key = f"board:{chat}"
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        async with lock:
            if self.backend != "postgresql":
                yield None
                return
            async with self.engine.connect() as conn:
                await conn.execution_options(isolation_level="AUTOCOMMIT")
                await conn.execute(text("SELECT pg_advisory_lock(hashtextextended(:k, 0))"),
                                   {"k": key})
                try:
                    yield None
                finally:
                    await conn.execute(
                        text("SELECT pg_advisory_unlock(hashtextextended(:k, 0))"), {"k": key})

    async def origin_reply(self, origin_id: str) -> Mapping[str, Any] | None:
        """What a command of this origin answered, if it was recorded. Read without the
        write lock (on SQLite a plain BEGIN: a WAL reader never waits), so the check after
        a command that waited for the lock in vain says "not recorded" at once."""
        async with self.engine.connect() as conn:
            await conn.execution_options(**{READ_ONLY: True})
            return await _origin_reply(conn, origin_id)

    async def move_chat(self, old: str, new: str) -> bool:
        """Everything of chat `old` to `new`, once (bot/storage/transaction/rekey.py): True if it
        moved now, False if it had moved before."""
        return await rekey.move_chat(self, old, new) is not None

    async def forget_person(self, person: str, handle: str | None) -> Forgotten:
        """The account `person` and its @username out of every chat
        (bot/storage/chats/forget.py)."""
        done = await forget.forget_person(self, person, handle)
        return Forgotten(chats=done.chats, seats=done.seats)

    async def forget_chat(self, chat: str) -> Forgotten:
        """Every record of the chat and its topics deleted (bot/storage/chats/forget.py)."""
        done = await forget.forget_chat(self, chat)
        return Forgotten(games=done.games, payments=done.payments, seasons=done.seasons)

    async def page(self, digest: str) -> tuple[str, str] | None:
        """The table (chat) and kind of page a link opens, by the link's hash."""
        return await pages.page_of(self.engine, digest)

    async def versions(self, chats: list[str]) -> dict[str, pages.Version]:
        """What each chat's live pages watch: it changes with every change they show."""
        return await pages.versions(self.engine, chats)

    async def club_versions(self, keys: list[str]) -> dict[str, pages.ClubVersion]:
        """What each club's live page watches (by its row's chat, club:<id>)."""
        return await pages.club_versions(self.engine, keys)

    def problem(self, error: BaseException) -> Any:
        """What the host must mend, as a message, when `error` is the database's own
        failure (bot/storage/engine/problems.py); None for anything else."""
        return problem(error)

    async def import_file(self, chat: str, raw: bytes, origin_id: str | None,
                          reply_for: Any, step: Any) -> tuple[Mapping[str, Any], bool]:
        """A big /import, in batches beside the other chats (bot/storage/chats/importer.py)."""
        from bot.storage.chats.importer import import_file

        return await import_file(self, chat, raw, origin_id, reply_for, step)

    def _committed(self, chat: str = "", wrote_hands: bool = False) -> None:
        """SQLite: every CHECKPOINT_EVERY commits, the WAL is copied back into the database
        by another connection, on its own thread, beside the commands (PASSIVE: it waits for
        nobody, and nobody waits for it), instead of by the commit that crossed 1,000
        pages. The first hand a chat keeps has the file marked as holding hands (a staging
        import's are not kept until it is moved to its chat: bot/storage/chats/importer.py)."""
        if self.backend != "sqlite":
            return
        if wrote_hands and self.file is not None and not chat.startswith("import:"):
            self.file.mark()
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0 and (
                self._checkpointing is None or self._checkpointing.done()):
            self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            async with self.engine.connect() as conn:
                await conn.execution_options(isolation_level="AUTOCOMMIT")
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # the next one will do; a command never waits for it
            log.warning("WAL checkpoint failed", exc_info=True)

    async def close(self) -> None:
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)
        await self.connections.close()
        await self.engine.dispose()


async def _origin_reply(conn: AsyncConnection, origin_id: str) -> Mapping[str, Any] | None:
    row = (await conn.execute(
        select(origins.c.reply).where(origins.c.origin_id == origin_id)
    )).first()
    if row is None:
        return None
    return PRUNED if row.reply is None else row.reply  # its reply has gone (retention.py)


class SqlChatTransaction:
    """One command's transaction: the hot path's (bot/storage/transaction/hot.py), the only one. Its
    hands, session saves and origins are written there; the rest through SQLAlchemy on the
    same connection, in the same transaction (`conn`)."""

    def __init__(self, state: hot.HotState, chat: str, known_rules: rule_sets.Known,
                 read_only: bool = False) -> None:
        self.conn: Any = state.conn
        self.chat = chat
        self.read_only = read_only  # a write here is a bug in the command's spec
        self._hot = state
        # rule sets known to be stored (the store's), and those this transaction wrote
        self.known_rules = known_rules
        self.new_rules: set[tuple[int, int]] = set()
        self.after_commit: list[Callable[[], None]] = []
        self.clubs = SqlClubBook(self.conn, self.after_commit)  # bot/core/club/book.py

    async def prefetch(self, origin_id: str | None) -> None:
        """Begin, with the reads every command makes in the same round trip: the origin's
        reply, the settings and the open session (origin_reply, settings, open_session
        then answer from memory)."""
        await self._hot.begin(origin_id)

    def _writable(self) -> None:
        if self.read_only:
            raise RuntimeError("a command declared read-only tried to write")

    async def open_session(self) -> SessionState | None:
        await self._hot.begin()
        if self._hot.session_fresh:
            row = self._hot.session_row
            return session_of(row) if row is not None else None
        row = (await self.conn.execute(
            select(sessions).where(sessions.c.chat == self.chat, sessions.c.status == OPEN)
        )).first()
        return session_of(row) if row else None

    async def save_session(self, state: SessionState) -> SessionState:
        self._writable()
        values = {
            "game": state.game,
            "status": state.status,
            "players": [p.to_json() for p in state.players],
            "rules": state.rules,
            "pending": state.pending.to_json() if state.pending else None,
            "totals": {str(k): v for k, v in state.totals.items()},
            "hand_count": state.hand_count,
            "version": state.version + 1,
            "ended_at": None if state.status == OPEN else state.ended_at or _now(),
            "game_state": state.game_state,
            "money": state.money,
        }
        state.ended_at = values["ended_at"]  # as kept: a club counts the game from it
        if state.id is None:
            self._hot.session_fresh = False
            result = await self.conn.execute(
                insert(sessions).values(
                    chat=state.chat, created_by=state.created_by, created_at=_now(), **values
                ).returning(sessions.c.id)
            )
            state.id = result.scalar_one()
        else:
            # kept for the commit's round trip, checked there against the version read
            hot_state = self._hot
            hot_state.queue(hot.Write("sessions", [
                *hot_state.codec.bind("sessions", hot.SESSION_UPDATE, values), state.id],
                check=state.version))
            hot_state.session_fresh = False
            hot_state.versions[state.id] = state.version + 1
            hot_state.hands_dirty.discard(state.id)
        state.version += 1
        return state

    async def add_hand(self, session_id: int, hand: HandRecord) -> HandRecord:
        self._writable()
        created = _now()
        # its rules by key, kept once per change; its summary kept, left out later where it
        # derives (issue 27: bot/storage/transaction/retention.py's derive_summaries, off this path)
        rules_key = await rule_sets.keep(self._hot, session_id, hand.rules, self.known_rules,
                                         self.new_rules)
        hot_state = self._hot
        hand.created_at = created
        params = hot_state.codec.bind("hands", hot.HAND_INSERT, {
            "session_id": session_id, "no": hand.no, "players": hand.players,
            "inputs": hand.inputs, "rules_key": rules_key,
            "deltas": {str(k): v for k, v in hand.deltas.items()},
            "summary": encode(hand.summary),
            "recorded_by": hand.recorded_by,
            "recorded_by_name": hand.recorded_by_name, "origin_id": hand.origin_id,
            "created_at": created, "state_before": hand.state_before})
        stored = hot.stored_hand(hand, params)
        hot_state.queue(hot.Write("hands", params, hands=[hand, stored]))
        hot_state.hands_dirty.add(session_id)
        window = hot_state.window
        if window is not None and window.session_id == session_id \
                and not window.added(stored):
            hot_state.window = None
        return hand

    async def void_hand(self, session_id: int, no: int, by: str, void: Void) -> None:
        self._writable()
        await self.conn.execute(
            update(hands)
            .where(hands.c.session_id == session_id, hands.c.no == no,
                   hands.c.voided_at.is_(None))
            .values(voided_at=_now(), voided_by=by, void_reason=void.to_text())
        )

    async def discard_log(self, session_id: int) -> None:
        """A game closed with no hand recorded (DROPPED): its undone hands, their rules
        and its events, which nothing shows any more. Its row stays, so its number is
        never given again; so do the replies kept for its commands (redelivery)."""
        self._writable()
        for table in (tables.hands, tables.rule_sets, tables.session_events):
            await self.conn.execute(delete(table).where(table.c.session_id == session_id))

    async def hand(self, session_id: int, no: int) -> HandRecord | None:
        window = await self._window(session_id, 1)
        known, found = window.get(no)
        if known:
            return found
        row = (await self.conn.execute(
            select(hand_rows).where(hand_rows.c.session_id == session_id, hand_rows.c.no == no,
                                    hand_rows.c.voided_at.is_(None))
        )).first()
        return hand_of(row) if row else None

    async def last_hands(self, session_id: int, count: int) -> list[HandRecord]:
        window = await self._window(session_id, count)
        last = window.last(count)
        if last is None:
            last = (await self._hot.load_window(session_id, count)).last(count)
        assert last is not None
        return last

    async def _window(self, session_id: int, count: int) -> hot.Window:
        """The session's last hands as this transaction has them (kept, or read now)."""
        await self._hot.begin()
        window = self._hot.window
        if window is None or window.session_id != session_id:
            window = await self._hot.load_window(session_id, count)
        return window

    async def all_hands(self, session_id: int) -> list[HandRecord]:
        rows = (await self.conn.execute(
            select(hand_rows)
            .where(hand_rows.c.session_id == session_id, hand_rows.c.voided_at.is_(None))
            .order_by(hand_rows.c.no)
        )).all()
        return [hand_of(r) for r in rows]

    async def origin_reply(self, origin_id: str) -> Mapping[str, Any] | None:
        await self._hot.begin(origin_id)
        if self._hot.reply_fresh and self._hot.pre_origin == origin_id:
            assert self._hot.pre is not None
            return self._hot.pre.reply
        return await _origin_reply(self.conn, origin_id)

    async def history(self, session_id: int) -> list[HandRecord]:
        """Every entry of the hand log, undone and replaced ones too, oldest first."""
        rows = (await self.conn.execute(
            select(hand_rows).where(hand_rows.c.session_id == session_id)
            .order_by(hand_rows.c.id)
        )).all()
        return [hand_of(r) for r in rows]

    async def session(self, session_id: int) -> SessionState | None:
        row = (await self.conn.execute(
            select(sessions).where(sessions.c.chat == self.chat, sessions.c.id == session_id)
        )).first()
        return session_of(row) if row else None

    async def set_board_ref(self, session_id: int, ref: str | None) -> None:
        """Where the live board is: kept apart from the session's version, so moving the
        board never makes a command that read the session retry."""
        self._writable()
        await self.conn.execute(update(sessions).where(sessions.c.id == session_id)
                                .values(board_ref=ref))

    async def chat_sessions(self) -> list[SessionState]:
        """Every kept session of the chat, open and ended, oldest first (not one closed
        with no hand recorded)."""
        rows = (await self.conn.execute(
            select(sessions).where(sessions.c.chat == self.chat, KEPT).order_by(sessions.c.id)
        )).all()
        return [session_of(r) for r in rows]

    async def export(self, session_ids: list[int], ledger: bool = False) -> dict[str, Any]:
        return await export_sessions(self.conn, self.chat, session_ids, ledger)

    def export_parts(self, session_ids: list[int], ledger: bool = False
                     ) -> AsyncIterator[Part]:
        return export_parts(self.conn, self.chat, session_ids, ledger)

    def export_json(self, session_ids: list[int], ledger: bool = False,
                    extra: Mapping[str, Any] | None = None) -> AsyncIterator[str]:
        return json_chunks(export_parts(self.conn, self.chat, session_ids, ledger),
                           self.chat, extra)

    def export_club(self, club: Mapping[str, Any], chats: list[str]) -> AsyncIterator[str]:
        """A club's file: its tables' games, every chat's shape, and the club beside them
        (bot/storage/chats/club_file.py)."""
        return club_json(self.conn, club, chats)

    async def restore(self, data: Mapping[str, Any] | bytes) -> int:
        """A file (its bytes, read here) or its data, into this chat, in this transaction."""
        self._writable()
        if isinstance(data, bytes):
            data = parse_export(data)
        return await import_sessions(self.conn, data, self.chat)

    async def settings(self) -> ChatSettings:
        await self._hot.begin()
        if self._hot.settings_fresh:
            assert self._hot.pre is not None
            return settings_of(self._hot.pre.settings)
        row = (await self.conn.execute(
            select(chat_settings.c.data).where(chat_settings.c.chat == self.chat))).first()
        return settings_of(row.data if row else None)

    async def save_settings(self, values: ChatSettings) -> None:
        self._writable()
        self._hot.settings_fresh = False
        data = values.to_json()
        updated = await self.conn.execute(
            update(chat_settings).where(chat_settings.c.chat == self.chat).values(data=data))
        if updated.rowcount == 0:
            await self.conn.execute(insert(chat_settings).values(chat=self.chat, data=data))

    async def set_page(self, kind: str, digest: str | None) -> None:
        """The chat's page of `kind` is opened by the link hashed `digest` (None: none)."""
        self._writable()
        await pages.set_page(self.conn, self.chat, kind, digest)

    async def set_page_of(self, chat: str, kind: str, digest: str | None) -> None:
        """A page that is not this chat's own (a club's: `chat` names it club:ID)."""
        self._writable()
        await pages.set_page(self.conn, chat, kind, digest)

    async def page_digest_of(self, chat: str, kind: str) -> str | None:
        return await pages.digest_of_page(self.conn, chat, kind)

    async def page_digest(self, kind: str) -> str | None:
        """The hash of the link that opens the chat's page of `kind` (None: none does)."""
        return await pages.digest_of_page(self.conn, self.chat, kind)

    async def payments(self) -> list[PaymentRecord]:
        """Every payment of the chat's ledger, undone ones too, oldest first."""
        rows = (await self.conn.execute(
            select(payments).where(payments.c.chat == self.chat).order_by(payments.c.id)
        )).all()
        return [payment_of(r) for r in rows]

    async def add_payment(self, payment: PaymentRecord) -> PaymentRecord:
        self._writable()
        created = _now()
        result = await self.conn.execute(insert(payments).values(
            chat=self.chat, payer=payment.payer, payer_name=payment.payer_name,
            payee=payment.payee, payee_name=payment.payee_name, amount=str(payment.amount),
            currency=payment.currency, recorded_by=payment.recorded_by,
            recorded_by_name=payment.recorded_by_name, origin_id=payment.origin_id,
            created_at=created).returning(payments.c.id))
        payment.id, payment.created_at = result.scalar_one(), created
        return payment

    async def void_payment(self, payment_id: int, by: str) -> None:
        self._writable()
        await self.conn.execute(
            update(payments)
            .where(payments.c.chat == self.chat, payments.c.id == payment_id,
                   payments.c.voided_at.is_(None))
            .values(voided_at=_now(), voided_by=by))

    async def seasons(self) -> list[SeasonRecord]:
        """The chat's seasons, oldest first."""
        rows = (await self.conn.execute(
            select(seasons).where(seasons.c.chat == self.chat).order_by(seasons.c.id)
        )).all()
        return [season_of(r) for r in rows]

    async def add_season(self, season: SeasonRecord) -> SeasonRecord:
        self._writable()
        started = _now()
        result = await self.conn.execute(insert(seasons).values(
            chat=self.chat, name=season.name, started_at=started,
            started_by=season.started_by, started_by_name=season.started_by_name,
        ).returning(seasons.c.id))
        season.id, season.started_at = result.scalar_one(), started
        return season

    async def end_season(self, season_id: int, by: str) -> None:
        self._writable()
        await self.conn.execute(
            update(seasons)
            .where(seasons.c.chat == self.chat, seasons.c.id == season_id,
                   seasons.c.ended_at.is_(None))
            .values(ended_at=_now(), ended_by=by))

    async def add_event(self, session_id: int, event: SessionEvent) -> SessionEvent:
        self._writable()
        return await add_event(self.conn, session_id, event)

    async def events(self, session_id: int) -> list[SessionEvent]:
        return await events_of(self.conn, session_id)

    async def record_origin(self, origin_id: str, reply: Mapping[str, Any]) -> None:
        self._writable()
        self._hot.reply_fresh = False
        self._hot.queue(hot.Write("origins", self._hot.codec.bind(
            "origins", hot.ORIGIN_INSERT, {"origin_id": origin_id, "chat": self.chat,
                                           "reply": dict(reply), "created_at": _now()})))
