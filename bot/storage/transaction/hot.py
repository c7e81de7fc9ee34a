"""The hot path of the store: one command's transaction (`HotState`), the one interface
of the two drivers (`Driver`: SQLite's and PostgreSQL's, with their SQL), and the last
hands kept per open session (`HandWindows`). What every command does, in as few round
trips as it can.

A command's transaction is begun by hand on the driver's own connection (SQLAlchemy's
side, where it has one, is in AUTOCOMMIT mode, so it never begins or ends one itself). It
is the commands' only transaction path, with the one copy of the write SQL:

- its first round trip takes the chat's lock (a writer) and reads the origin id's reply,
  the chat's settings and the open session (`prefetch`), in a transaction begun with it
  (SQLite) or with the last command's commit (PostgreSQL, see PostgresDriver);
- the writes of a hand (the hand, the session, the origin's reply) are kept until the
  commit and sent with it: on SQLite in one call on our own connection (sqlite_link.py), on
  PostgreSQL as one statement, then COMMIT;
- the last hands of each open session are kept per process (`HandWindows`), checked by the
  session's id and version, which every change to a session's hands increments, in any
  process; so the board and "the same as the last hand" read nothing more.

Statements are plain SQL strings, written once, with SQLAlchemy's own type processors for
what goes in and out, so a row is stored exactly as SQLAlchemy stores it and the other
paths read it alike. Everything else still goes through SQLAlchemy, on the same connection
and in the same transaction (`Conn`: the pending writes are sent first).
"""

from __future__ import annotations

import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.core import stored_json
from bot.core.session import DuplicateOrigin, HandRecord
from bot.storage.engine.problems import loads
from bot.storage.engine.tables import hand_rows, hands, origins, sessions
from bot.storage.transaction.retention import PRUNED_JSON

if TYPE_CHECKING:
    from bot.storage.engine.sqlite_link import SqliteLink

SESSION_COLUMNS = [c.name for c in sessions.c]
HAND_COLUMNS = [c.name for c in hand_rows.c]  # read: rules joined back (migration 16)
HAND_INSERT = ["session_id", "no", "players", "inputs", "rules_key", "deltas", "summary",
               "recorded_by", "recorded_by_name", "origin_id", "created_at", "state_before"]
SESSION_UPDATE = ["game", "status", "players", "rules", "pending", "totals", "hand_count",
                  "version", "ended_at", "game_state", "money"]
ORIGIN_INSERT = ["origin_id", "chat", "reply", "created_at"]
WINDOW = 12  # hands kept per open session: a board's rows and the one before
CACHED_CHATS = 256  # open sessions whose last hands are kept (least recently used go)


class Row:
    """A row as the records' builders read it (row.name)."""

    __slots__ = ("__dict__",)

    def __init__(self, names: Sequence[str], values: Sequence[Any]) -> None:
        self.__dict__.update(zip(names, values, strict=True))


class Codec:
    """SQLAlchemy's own bind and result processors of one dialect, for plain SQL."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect

        def binds(table: Any) -> dict[str, Callable[[Any], Any] | None]:
            return {c.name: c.type.dialect_impl(dialect).bind_processor(dialect)
                    for c in table.c}

        def results(table: Any) -> list[Callable[[Any], Any] | None]:
            return [c.type.dialect_impl(dialect).result_processor(dialect, None)
                    for c in table.c]

        self._binds = {"sessions": binds(sessions), "hands": binds(hands),
                       "origins": binds(origins)}
        self._session_results = results(sessions)
        self._hand_results = results(hand_rows)

    def bind(self, table: str, names: Sequence[str], values: dict[str, Any]) -> list[Any]:
        processors = self._binds[table]
        out = []
        for name in names:
            value, process = values[name], processors[name]
            out.append(process(value) if process is not None else value)
        return out

    def session_row(self, raw: Sequence[Any]) -> Row:
        return Row(SESSION_COLUMNS, [p(v) if p is not None else v
                                     for p, v in zip(self._session_results, raw, strict=True)])

    def hand_row(self, raw: Sequence[Any]) -> Row:
        return Row(HAND_COLUMNS, [p(v) if p is not None else v
                                  for p, v in zip(self._hand_results, raw, strict=True)])


def stored_hand(hand: HandRecord, bound: list[Any]) -> HandRecord:
    """The hand as reading it back would give it (JSON turns tuples into lists, int keys
    into strings): what a later command sees must not depend on whether it was cached."""
    values = dict(zip(HAND_INSERT, bound, strict=True))
    return HandRecord(
        id=hand.id, no=hand.no, players=list(stored_json.loads(values["players"])),
        inputs=stored_json.loads(values["inputs"]),
        rules=stored_json.loads(stored_json.dumps(hand.rules)),  # kept apart (rule_sets.py)
        deltas={int(k): v for k, v in stored_json.loads(values["deltas"]).items()},
        summary=hand.summary, recorded_by=hand.recorded_by,
        recorded_by_name=hand.recorded_by_name, origin_id=hand.origin_id,
        created_at=hand.created_at,
        state_before=None if values["state_before"] is None
        else stored_json.loads(values["state_before"]))


@dataclass
class Window:
    """The last live hands of one session, oldest first, numbered without gaps;
    `whole` when it starts at hand 1. Its records are shared: read them, never change them."""

    session_id: int
    version: int
    hands: list[HandRecord] = field(default_factory=list)
    whole: bool = False

    def last(self, count: int) -> list[HandRecord] | None:
        if count <= len(self.hands) or self.whole:
            return self.hands[-count:] if count > 0 else []
        return None

    def get(self, no: int) -> tuple[bool, HandRecord | None]:
        """(known, hand): known is False when the window can't tell."""
        if self.hands and self.hands[0].no <= no <= self.hands[-1].no:
            return True, self.hands[no - self.hands[0].no]
        if self.whole:
            return True, None
        return False, None

    def added(self, hand: HandRecord) -> bool:
        """False when the hand does not follow the window (it is then dropped)."""
        top = self.hands[-1].no if self.hands else 0
        if hand.no != top + 1 or (not self.hands and not self.whole):
            return False
        self.hands.append(hand)
        if len(self.hands) > WINDOW:
            del self.hands[: len(self.hands) - WINDOW]
            self.whole = False
        return True

    def voided(self, no: int) -> bool:
        """False when the window can't follow (a hand below its top: it is then dropped)."""
        if self.hands and self.hands[-1].no == no:
            self.hands.pop()
            return True
        return False

    def copy(self) -> Window:
        return Window(self.session_id, self.version, list(self.hands), self.whole)


class HandWindows:
    """Per process: chat -> the window of its open session, least recently used dropped."""

    def __init__(self, size: int = CACHED_CHATS) -> None:
        self.size = size
        self._windows: OrderedDict[str, Window] = OrderedDict()

    def get(self, chat: str, session_id: int, version: int) -> Window | None:
        window = self._windows.get(chat)
        if window is None or window.session_id != session_id or window.version != version:
            return None
        self._windows.move_to_end(chat)
        return window.copy()

    def put(self, chat: str, window: Window | None) -> None:
        if window is None:
            self._windows.pop(chat, None)
            return
        self._windows[chat] = window
        self._windows.move_to_end(chat)
        while len(self._windows) > self.size:
            self._windows.popitem(last=False)


def duplicate_origin(error: BaseException) -> bool:
    """A unique violation of the origins table: another process recorded it first."""
    if isinstance(error, IntegrityError):
        return "origin" in str(error.orig).lower()
    if isinstance(error, sqlite3.IntegrityError):
        return "origin" in str(error).lower()
    try:
        import asyncpg
    except ImportError:  # pragma: no cover
        return False
    return isinstance(error, asyncpg.UniqueViolationError) and "origin" in str(error).lower()


def raise_duplicate(error: BaseException) -> None:
    if duplicate_origin(error):
        raise DuplicateOrigin from error


# --- the drivers -------------------------------------------------------------------------

@dataclass
class Write:
    table: str  # hands | sessions | origins
    params: list[Any]
    check: int | None = None  # sessions: the version the row must still have
    hands: list[HandRecord] = field(default_factory=list)  # hands: get the new id


@dataclass
class Prefetched:
    reply: Any  # the origin's reply (decoded), or None
    settings: Any  # chat_settings.data (decoded), or None
    session: Sequence[Any] | None  # the open session's row as read (SESSION_COLUMNS)


def _placeholders(dialect: str, count: int, start: int = 1) -> list[str]:
    return ["?"] * count if dialect == "sqlite" else [f"${i}" for i in
                                                       range(start, start + count)]


class Driver(Protocol):
    """One of the commands' connections, as the hot path uses it: SQLite's (a link of our
    own, bot/storage/engine/sqlite_link.py) or PostgreSQL's (asyncpg, under SQLAlchemy's pool).
    The store owns them (bot/storage/transaction/connections.py)."""

    name: str  # the dialect: sqlite | postgresql

    async def begin(self, chat: str, write: bool, origin: str | None) -> Prefetched:
        """BEGIN (a writer takes the chat's lock) and the reads every command makes."""
        ...

    async def flush(self, writes: list[Write], commit: bool) -> None:
        """Send the writes kept for the commit; then COMMIT, if asked."""
        ...

    async def end(self, commit: bool) -> None:
        """End the transaction (if one is open)."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]: ...

    async def sa(self, method: str, statement: Any, *args: Any, **kwargs: Any) -> Any:
        """A SQLAlchemy Connection's method (execute, scalar, ...) in this transaction."""
        ...

    def reusable(self) -> bool:
        """Clean for the next command: no transaction of the last one left open."""
        ...

    async def close(self) -> None:
        """End what is open and close (or give back to SQLAlchemy's pool)."""
        ...

    async def discard(self) -> None:
        """Close without a word to the database (it may not answer): it rolls back."""
        ...


class SqliteDriver:
    """A link's connection: each `run` is one hop to its thread, however many statements
    it runs there; `now` runs them here, on the event loop's thread.

    A hop costs more (about 80 us of thread hand-offs, measured) than what a command's
    statements do (about 20 us to begin and read, 60 us to write and commit: WAL with
    synchronous=NORMAL does not fsync a commit, and checkpoints are done beside, on
    another connection), so the hot path's statements run here. Only waiting may not
    happen here: the first round trip is tried without a busy timeout, and when another
    process holds the write lock, it is rolled back and waits on the link's thread.
    SQLAlchemy's statements run on the thread."""

    name = "sqlite"

    def __init__(self, link: SqliteLink) -> None:
        self.link = link

    async def begin(self, chat: str, write: bool, origin: str | None) -> Prefetched:
        try:
            return self.link.now(_sqlite_begin, write, chat, origin, self.link.busy_ms)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                raise
        return await self.link.run(_sqlite_begin, write, chat, origin)

    async def flush(self, writes: list[Write], commit: bool) -> None:
        self.link.now(_sqlite_flush, writes, commit)

    async def end(self, commit: bool) -> None:
        self.link.now(_sqlite_end, commit)

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]:
        return self.link.now(_sqlite_fetch, sql, params)

    async def sa(self, method: str, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return await self.link.sa(method, statement, *args, **kwargs)

    def reusable(self) -> bool:
        return not self.link.closed and not self.link.in_transaction()

    async def close(self) -> None:
        try:
            if self.link.in_transaction():
                self.link.now(_sqlite_end, False)
        finally:
            await self.link.aclose()

    async def discard(self) -> None:
        self.link.close()  # after whatever its thread is doing; nothing waits for it


# a known origin whose reply has gone (bot/storage/transaction/retention.py) reads as PRUNED_JSON
ORIGIN_REPLY = (f"SELECT coalesce(reply, '{PRUNED_JSON}') AS reply FROM origins "
                "WHERE origin_id = ?")
SQLITE_SESSION = (f"SELECT {', '.join(SESSION_COLUMNS)} FROM sessions "
                  "WHERE chat = ? AND status = 'open'")
SQLITE_WRITES = {
    "hands": f"INSERT INTO hands ({', '.join(HAND_INSERT)}) "
             f"VALUES ({', '.join(_placeholders('sqlite', len(HAND_INSERT)))})",
    "sessions": f"UPDATE sessions SET {', '.join(f'{c} = ?' for c in SESSION_UPDATE)} "
                "WHERE id = ? AND version = ?",
    "origins": f"INSERT INTO origins ({', '.join(ORIGIN_INSERT)}) VALUES (?, ?, ?, ?)",
}
LAST_HANDS = (f"SELECT {', '.join(HAND_COLUMNS)} FROM hand_rows WHERE session_id = {{0}} "
              "AND voided_at IS NULL ORDER BY no DESC LIMIT {1}")


def _sqlite_begin(db: sqlite3.Connection, write: bool, chat: str,
                  origin: str | None, busy_ms: int | None = None) -> Prefetched:
    """Begin and read. With `busy_ms` (the connection's busy timeout, put back after), the
    begin does not wait for another process's lock: it fails at once with SQLITE_BUSY."""
    if busy_ms is None:
        return _sqlite_begin_reads(db, write, chat, origin)
    db.execute("PRAGMA busy_timeout = 0")
    try:
        return _sqlite_begin_reads(db, write, chat, origin)
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(busy_ms)}")


def _sqlite_begin_reads(db: sqlite3.Connection, write: bool, chat: str,
                        origin: str | None) -> Prefetched:
    db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    reply = None
    if origin is not None:
        row = _named(db, ORIGIN_REPLY, (origin,))
        reply = loads(row["reply"]) if row else None
    row = _named(db, "SELECT data FROM chat_settings WHERE chat = ?", (chat,))
    settings = loads(row["data"]) if row and row["data"] is not None else None
    session = db.execute(SQLITE_SESSION, (chat,)).fetchone()
    return Prefetched(reply, settings, session)


def _named(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> sqlite3.Row | None:
    """The first row, read by column name."""
    cursor = db.cursor()
    cursor.row_factory = sqlite3.Row
    return cursor.execute(sql, params).fetchone()


def _sqlite_flush(db: sqlite3.Connection, writes: list[Write], commit: bool) -> None:
    for write in writes:
        if write.table == "sessions":
            cursor = db.execute(SQLITE_WRITES["sessions"], (*write.params, write.check))
            if cursor.rowcount != 1:
                raise RuntimeError("session changed under us; the command was not applied")
            continue
        cursor = db.execute(SQLITE_WRITES[write.table], write.params)
        for hand in write.hands:
            hand.id = cursor.lastrowid
    if commit:
        db.execute("COMMIT")


def _sqlite_end(db: sqlite3.Connection, commit: bool) -> None:
    if db.in_transaction:
        db.execute("COMMIT" if commit else "ROLLBACK")


def _sqlite_fetch(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Any]:
    return db.execute(sql, params).fetchall()


class PostgresDriver:
    """asyncpg: one statement, one round trip; a writer's command in three.

    The connection is kept inside a transaction that is begun ahead, with the last
    command's COMMIT ("COMMIT; BEGIN", one round trip): a command's first statement then
    takes its chat's lock and reads, in one round trip too (`maalbot_prefetch`, migration
    10: the reads come after the lock, each with a snapshot of its own, so they see what
    the last holder committed). Every command ends its transaction, a reader's too, so the
    one waiting between commands has done nothing: it holds no lock and no snapshot."""

    name = "postgresql"

    def __init__(self, sa: AsyncConnection, pg: Any) -> None:
        self.sa_conn = sa  # SQLAlchemy's (AUTOCOMMIT: it never begins nor ends one)
        self.pg = pg  # its asyncpg.Connection
        self.in_tx = False  # a writer's transaction: its lock held, its writes not committed
        self.begun = False  # a transaction open on the connection

    async def begin(self, chat: str, write: bool, origin: str | None) -> Prefetched:
        import asyncpg

        if not self.begun:  # a connection new to us, or after a rollback
            await self.pg.execute(BEGIN)
            self.begun = True
        # Set first: if the statement fails after taking the lock, the connection is not
        # kept as clean (HotState.close rolls it back)
        self.in_tx = write
        try:
            row = await self.pg.fetchrow(PG_PREFETCH, origin, chat, write)
        except asyncpg.InFailedSQLTransactionError:
            # an error earlier in this transaction that was not rolled back: start clean
            await self.pg.execute(f"ROLLBACK; {BEGIN}")
            row = await self.pg.fetchrow(PG_PREFETCH, origin, chat, write)
        session = None if row["id"] is None else tuple(row[c] for c in SESSION_COLUMNS)
        settings = row["settings"]
        return Prefetched(row["reply"], None if settings is None else loads(settings),
                          session)

    async def flush(self, writes: list[Write], commit: bool) -> None:
        if writes:
            sql, params = _pg_batch(writes)
            row = await self.pg.fetchrow(sql, *params)
            for i, write in enumerate(writes):
                if write.table == "sessions" and row[i] != 1:
                    raise RuntimeError("session changed under us; the command was not applied")
                for hand in write.hands:
                    hand.id = row[i]
        if commit:
            await self.end(commit=True)

    async def end(self, commit: bool) -> None:
        """Commit, beginning the next command's transaction with it, or roll back. A
        reader's ends too: a transaction that has read holds its tables' share locks and
        keeps VACUUM from what it might still see, until it ends."""
        if not self.begun:
            return
        self.in_tx = self.begun = False  # until the statement is known to have been done
        if commit:
            await self.pg.execute(f"COMMIT; {BEGIN}")
            self.begun = True
        else:
            await self.pg.execute("ROLLBACK")

    async def fetch(self, sql: str, params: Sequence[Any]) -> list[Sequence[Any]]:
        return [tuple(r) for r in await self.pg.fetch(sql, *params)]

    async def sa(self, method: str, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return await getattr(self.sa_conn, method)(statement, *args, **kwargs)

    def clean(self) -> bool:
        """Ready for the next command: no writer's transaction left open, and the server in
        the state we think it in."""
        return not self.in_tx and not self.pg.is_closed() \
            and self.pg.is_in_transaction() == self.begun

    def reusable(self) -> bool:
        # a connection SQLAlchemy was used on (its AUTOCOMMIT transaction) goes back to
        # its pool: kept ones are the hot path's alone
        sa = self.sa_conn
        return self.clean() and not sa.invalidated and not sa.in_transaction()

    async def close(self) -> None:
        sa = self.sa_conn
        try:
            if self.begun and not sa.invalidated:
                # back to the pool with no transaction open (the one begun ahead)
                await self.end(commit=False)
        except Exception:
            await sa.invalidate()  # in a state unknown: not for reuse
        except BaseException:
            await sa.invalidate()
            raise  # cancelled (a timeout): the connection is closed below
        finally:
            await sa.close()

    async def discard(self) -> None:
        sa = self.sa_conn
        try:
            await sa.invalidate()
        finally:
            await sa.close()


# READ COMMITTED whatever the server's default: each statement, the prefetch's reads after
# the lock among them, sees what was committed when it began
BEGIN = "BEGIN ISOLATION LEVEL READ COMMITTED"
PG_PREFETCH = (
    "SELECT p.reply, p.settings, "
    + ", ".join(f"(p.open_session).{c}" for c in SESSION_COLUMNS)
    + " FROM maalbot_prefetch($1, $2, $3) AS p")


def _pg_batch(writes: list[Write]) -> tuple[str, list[Any]]:
    """The writes as one statement: data-modifying WITHs, one result column each (a hand's
    id, a session's updated row count, 1 for an origin)."""
    parts, columns, params = [], [], []
    for i, write in enumerate(writes):
        n = len(params) + 1
        if write.table == "hands":
            marks = _placeholders("postgresql", len(HAND_INSERT), n)
            parts.append(f"w{i} AS (INSERT INTO hands ({', '.join(HAND_INSERT)}) "
                         f"VALUES ({', '.join(marks)}) RETURNING id)")
            columns.append(f"(SELECT id FROM w{i})")
            params += write.params
        elif write.table == "sessions":
            sets = ", ".join(f"{c} = ${n + j}" for j, c in enumerate(SESSION_UPDATE))
            k = n + len(SESSION_UPDATE)
            parts.append(f"w{i} AS (UPDATE sessions SET {sets} WHERE id = ${k} "
                         f"AND version = ${k + 1} RETURNING 1)")
            columns.append(f"(SELECT count(*) FROM w{i})")
            params += [*write.params, write.check]
        else:
            marks = _placeholders("postgresql", len(ORIGIN_INSERT), n)
            parts.append(f"w{i} AS (INSERT INTO origins ({', '.join(ORIGIN_INSERT)}) "
                         f"VALUES ({', '.join(marks)}) RETURNING 1)")
            columns.append(f"(SELECT count(*) FROM w{i})")
            params += write.params
    return f"WITH {', '.join(parts)} SELECT {', '.join(columns)}", params


def last_hands_sql(dialect: str, session_id: int, count: int) -> tuple[str, list[Any]]:
    if dialect == "sqlite":
        return LAST_HANDS.format("?", "?"), [session_id, count]
    return LAST_HANDS.format("$1", "$2"), [session_id, count]


# --- one transaction ---------------------------------------------------------------------

def disconnected(error: BaseException) -> bool:
    """The connection was dead before anything was done on it (a restarted server)."""
    if isinstance(error, (OSError, ConnectionError)):
        return True
    try:
        import asyncpg
    except ImportError:  # pragma: no cover
        return False
    return isinstance(error, (asyncpg.ConnectionDoesNotExistError, asyncpg.InterfaceError))


class Pool(Protocol):
    """Where a transaction takes its connection and gives it back: the store's
    `Connections` (bot/storage/transaction/connections.py)."""

    codec: Codec

    async def take(self, write: bool) -> Driver: ...
    async def give_back(self, driver: Driver) -> None: ...
    async def discard(self, driver: Driver) -> None: ...
    async def drop_idle(self) -> None: ...


class HotState:
    """The hot path's side of one command's transaction: the connection (taken from the
    store's `Connections`), what was read up front, the writes waiting for the commit, and
    the open session's last hands."""

    def __init__(self, connections: Pool, windows: HandWindows, chat: str,
                 write: bool, hand_of: Callable[[Row], HandRecord],
                 committed: Callable[[str, bool], None]) -> None:
        self.connections, self.windows = connections, windows
        self.chat, self.write = chat, write
        self.codec: Codec = connections.codec
        self.hand_of = hand_of  # a hands row as the store's record
        self.committed = committed  # told of each writer's commit (chat, wrote hands)
        self.driver: Driver | None = None
        self.begun = False
        self.pre: Prefetched | None = None
        self.pre_origin: str | None = None
        self.session_row: Row | None = None  # pre.session, decoded
        self.session_fresh = self.settings_fresh = self.reply_fresh = False
        self.pending: list[Write] = []
        self.window: Window | None = None
        self.versions: dict[int, int] = {}  # session id -> its version as this tx left it
        self.hands_dirty: set[int] = set()  # sessions with hand writes since their save
        self.sa_wrote_hands = False
        self.wrote_hands = False  # a hand queued: the SQLite file holds hands once committed
        self.conn = Conn(self)

    async def begin(self, origin: str | None = None) -> None:
        """The first round trip: BEGIN (a writer takes the chat's lock) and the reads every
        command makes. Idempotent."""
        if self.begun:
            return
        if self.driver is None:
            self.driver = await self.connections.take(self.write)
        try:
            pre = await self.driver.begin(self.chat, self.write, origin)
        except Exception as error:
            if not disconnected(error):
                raise
            # a kept connection that died meanwhile: once more, on a new one (the other
            # kept ones may have died with it)
            await self.invalidate()
            await self.connections.drop_idle()
            self.driver = await self.connections.take(self.write)
            pre = await self.driver.begin(self.chat, self.write, origin)
        self.begun = True
        self.pre, self.pre_origin = pre, origin
        self.session_fresh = self.settings_fresh = self.reply_fresh = True
        if pre.session is not None:
            row = self.session_row = self.codec.session_row(pre.session)
            self.versions[row.id] = row.version
            self.window = self.windows.get(self.chat, row.id, row.version)

    async def flush(self) -> None:
        """Send the waiting writes (before anything else reads or writes)."""
        await self.begin()
        if self.pending:
            writes, self.pending = self.pending, []
            assert self.driver is not None
            await self.driver.flush(writes, commit=False)

    async def sa(self, method: str, statement: Any, *args: Any, **kwargs: Any) -> Any:
        """A SQLAlchemy statement, inside this transaction, with the writes sent first."""
        await self.flush()
        if not getattr(statement, "is_select", False):
            table = getattr(statement, "table", None)
            if table is None or getattr(table, "name", None) == "hands":
                self.sa_wrote_hands = True  # a hand changed where the window can't see
                self.window = None
        assert self.driver is not None
        return await self.driver.sa(method, statement, *args, **kwargs)

    def queue(self, write: Write) -> None:
        self.wrote_hands |= write.table == "hands"
        if write.table == "sessions":
            # a session saved twice: its last values, checked against the first version
            # (one PostgreSQL statement sees the row only as it was before it)
            for i, earlier in enumerate(self.pending):
                if earlier.table == "sessions" and earlier.params[-1] == write.params[-1]:
                    write.check = earlier.check
                    del self.pending[i]
                    break
        self.pending.append(write)

    async def load_window(self, session_id: int, count: int) -> Window:
        await self.flush()
        assert self.driver is not None
        limit = max(count, WINDOW)
        sql, params = last_hands_sql(self.driver.name, session_id, limit)
        rows = await self.driver.fetch(sql, params)
        records = [self.hand_of(self.codec.hand_row(r)) for r in reversed(rows)]
        self.window = Window(session_id, -1, records, whole=len(rows) < limit)
        return self.window

    async def commit(self) -> None:
        if not self.begun:
            return
        writes, self.pending = self.pending, []
        assert self.driver is not None
        await self.driver.flush(writes, commit=True)
        if self.write:
            self.committed(self.chat, self.wrote_hands or self.sa_wrote_hands)
        window = self.window
        if not self.write:
            return  # a reader's hands may be newer than the version it read (PostgreSQL)
        if window is not None and not self.sa_wrote_hands \
                and window.session_id not in self.hands_dirty \
                and window.session_id in self.versions:
            window.version = self.versions[window.session_id]
            self.windows.put(self.chat, window)
        else:
            self.windows.put(self.chat, None)

    async def rollback(self) -> None:
        if self.begun and self.driver is not None:
            try:
                await self.driver.end(commit=False)
            except Exception:
                await self.invalidate()

    async def invalidate(self) -> None:
        """The connection is given up on (closed: the database rolls back for us)."""
        if self.driver is not None:
            driver, self.driver = self.driver, None
            await self.connections.discard(driver)

    async def close(self) -> None:
        if self.driver is not None:
            driver, self.driver = self.driver, None
            await self.connections.give_back(driver)


class Conn:
    """What the store's SQLAlchemy code takes for a connection: the transaction's own, with
    its waiting writes sent first."""

    def __init__(self, state: HotState) -> None:
        self._state = state

    async def execute(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return await self._state.sa("execute", statement, *args, **kwargs)

    async def scalar(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return await self._state.sa("scalar", statement, *args, **kwargs)

    async def scalars(self, statement: Any, *args: Any, **kwargs: Any) -> Any:
        return await self._state.sa("scalars", statement, *args, **kwargs)

    async def exec_driver_sql(self, statement: str, *args: Any, **kwargs: Any) -> Any:
        return await self._state.sa("exec_driver_sql", statement, *args, **kwargs)

    @property
    def dialect(self) -> Dialect:
        return self._state.codec.dialect
