"""One SQLite connection of the commands' (bot/storage/transaction/hot.py), with a thread of its
own.

A `SqliteLink` owns a sqlite3.Connection and one thread that runs functions on it, taken
from a queue one at a time, their results handed back to the event loop as futures. The
hot path also calls the connection on the loop's own thread (`now`): a hop to the thread
costs more (about 80 us of hand-offs) than the few statements a command runs, which never
wait (WAL readers don't; a writer's statements come after its BEGIN IMMEDIATE took the
lock). Both are safe because one transaction uses a link at a time, awaiting each call
before the next (`check_same_thread=False`).

SQLAlchemy's statements run on the thread, through a SQLAlchemy engine of the plain
sqlite3 dialect whose only connection is this one (`sa`): in AUTOCOMMIT mode, with commit
and rollback left to the hot path, which began the transaction; their cursors are read
whole on the thread, so the loop never steps a statement.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import sqlalchemy
from sqlalchemy.pool import StaticPool

from bot.core import stored_json
from bot.storage.engine import problems

T = TypeVar("T")
_STOP = object()


class SqliteLink:
    """A sqlite3 connection and the thread that serves it."""

    def __init__(self) -> None:
        self.db: sqlite3.Connection | None = None
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="maalbot-sqlite",
                                        daemon=True)
        self._engine: sqlalchemy.Engine | None = None
        self._sa: sqlalchemy.Connection | None = None
        self.closed = False
        self.busy_ms = 0  # the connection's busy timeout, as opened

    @classmethod
    async def open(cls, path: str, timeout: float) -> SqliteLink:
        """Connect on the link's thread (opening a file may wait for its lock)."""
        link = cls()
        link._thread.start()
        try:
            link.db = await link._call(functools.partial(_connect, path, timeout))
            link.busy_ms = int(timeout * 1000)
        except BaseException:
            link.close()
            raise
        return link

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is _STOP:
                return
            loop, future, fn = job
            try:
                result = fn()
            except BaseException as error:  # handed to the awaiting task, if any
                if loop is not None:
                    _hand_back(loop, _fail, future, error)
            else:
                if loop is not None:
                    _hand_back(loop, _succeed, future, result)

    async def _call(self, fn: Callable[[], Any]) -> Any:
        if self.closed:
            raise sqlite3.ProgrammingError("the connection is closed")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((loop, future, fn))
        return await future

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(connection, *args) on the link's thread."""
        return await self._call(lambda: fn(self._conn(), *args))

    def now(self, fn: Callable[..., T], *args: Any) -> T:
        """fn(connection, *args) here, on the caller's thread: only what cannot wait."""
        return fn(self._conn(), *args)

    async def sa(self, method: str, statement: Any, *args: Any, **kwargs: Any) -> Any:
        """A SQLAlchemy Connection's method (execute, scalar, ...) on this connection, in
        the transaction the hot path began."""
        return await self._call(lambda: getattr(self._sa_connection(), method)(
            statement, *args, **kwargs))

    def _conn(self) -> sqlite3.Connection:
        if self.db is None:
            raise sqlite3.ProgrammingError("the connection is closed")
        return self.db

    def _sa_connection(self) -> sqlalchemy.Connection:
        if self._sa is None:
            view = _ForSqlAlchemy(self._conn())
            self._engine = sqlalchemy.create_engine(
                "sqlite://", creator=lambda: view, poolclass=StaticPool,
                isolation_level="AUTOCOMMIT", json_serializer=stored_json.dumps,
                json_deserializer=problems.loads)
            self._sa = self._engine.connect()
        return self._sa

    def in_transaction(self) -> bool:
        return self.db is not None and self.db.in_transaction

    def close(self) -> None:
        """Close the connection on its thread, after whatever it is doing, and end the
        thread; nothing waits for it (a statement that is stuck keeps only the thread)."""
        if self.closed:
            return
        self.closed = True
        self._jobs.put((None, None, self._shut))
        self._jobs.put(_STOP)

    def _shut(self) -> None:
        try:
            if self._sa is not None:
                self._sa.close()
            if self._engine is not None:
                self._engine.dispose()
        finally:
            if self.db is not None:
                db, self.db = self.db, None
                db.close()

    async def aclose(self) -> None:
        """Close, and wait until the connection is closed."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.closed = True
        self._jobs.put((loop, future, self._shut))
        self._jobs.put(_STOP)
        await future


def _connect(path: str, timeout: float) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                         check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        # the commands' commits don't copy the WAL back (a few ms every hundred hands, with
        # fsyncs): the store does that beside them (SqlStore._checkpoint)
        db.execute("PRAGMA wal_autocheckpoint=0")
    except BaseException:
        db.close()
        raise
    return db


def _hand_back(loop: asyncio.AbstractEventLoop, how: Callable[..., None], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nobody waits
        loop.call_soon_threadsafe(how, *args)


def _succeed(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():  # the awaiting task may have been cancelled (a timeout)
        future.set_result(result)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


class _ForSqlAlchemy:
    """The connection as SQLAlchemy's DBAPI connection: its cursors read whole where they
    run, and the transaction not SQLAlchemy's to end (it is in AUTOCOMMIT mode, and may
    reset or close what it thinks its own)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def cursor(self) -> _ReadWhole:
        return _ReadWhole(self._db.cursor())

    def commit(self) -> None:
        pass

    def rollback(self) -> None:
        pass

    def close(self) -> None:
        pass

    @property
    def isolation_level(self) -> str | None:
        return self._db.isolation_level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        pass  # always None: the hot path begins and ends the transactions by hand

    def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._db.create_function(*args, **kwargs)


class _ReadWhole:
    """A DBAPI cursor whose rows are fetched as soon as it has run."""

    arraysize = 1

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor
        self._rows: list[Any] = []
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None

    def _ran(self) -> None:
        cursor = self._cursor
        self.description = cursor.description
        self._rows = cursor.fetchall() if cursor.description is not None else []
        self.rowcount, self.lastrowid = cursor.rowcount, cursor.lastrowid
        self._rows.reverse()  # popped from the end
        cursor.close()  # here, on the link's thread

    def execute(self, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()) -> _ReadWhole:
        self._cursor.execute(sql, parameters)
        self._ran()
        return self

    def executemany(self, sql: str, parameters: Any) -> _ReadWhole:
        self._cursor.executemany(sql, parameters)
        self._ran()
        return self

    def fetchone(self) -> Any:
        return self._rows.pop() if self._rows else None

    def fetchmany(self, size: int | None = None) -> list[Any]:
        count = self.arraysize if size is None else size
        taken = self._rows[-count:] if count else []
        del self._rows[len(self._rows) - len(taken):]
        taken.reverse()
        return taken

    def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        rows.reverse()
        return rows

    def close(self) -> None:
        self._rows = []
