"""The commands' connections, owned by the store: which one a transaction takes, which are
kept between commands, and how they are closed (bot/storage/transaction/hot.py uses them).

- SQLite: links of our own (bot/storage/engine/sqlite_link.py), one thread each. It has one writer
  at a time and a process's writers queue on one lock (SqlStore.transaction), so they share
  one link, kept open; readers take an idle one or open another.
- PostgreSQL: asyncpg connections from SQLAlchemy's pool of the hot engine (AUTOCOMMIT:
  the hot path begins and ends the transactions); the ones a command leaves clean are kept
  here, out of the pool, for the next (no checkout and checkin: a greenlet switch each,
  about a tenth of a /hand's CPU).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.engine import database
from bot.storage.engine.sqlite_link import SqliteLink
from bot.storage.transaction.hot import Codec, Driver, PostgresDriver, SqliteDriver

IDLE_KEPT = 4  # PostgreSQL: connections kept between commands, out of SQLAlchemy's pool
READERS_KEPT = 8  # SQLite: readers' links kept between commands (a thread each)


class Connections:
    """Who owns the commands' connections: the SQLite writer, the idle ones, the codec."""

    def __init__(self, engine: AsyncEngine, hot_engine: AsyncEngine | None = None) -> None:
        self.name = engine.dialect.name
        self.codec = Codec(engine.dialect)
        self.path = str(Path(engine.url.database or "").expanduser()) \
            if self.name == "sqlite" else None
        # PostgreSQL: the commands' pool, in AUTOCOMMIT mode (one of its own if given)
        self.hot_engine = hot_engine or engine.execution_options(isolation_level="AUTOCOMMIT")
        self._own_hot = hot_engine is not None
        self.writer: Driver | None = None  # SQLite: the writers' link
        self.idle: list[Driver] = []
        # taken and not given back yet: a command's, in its transaction; `close` leaves
        # them to their commands, which close them as they end
        self.busy: set[Driver] = set()
        self.closed = False

    async def take(self, write: bool) -> Driver:
        """A connection for one command's transaction."""
        if self.name == "sqlite" and write:
            if self.writer is None:
                self.writer = await self._open()
            driver = self.writer
        elif self.idle:
            driver = self.idle.pop()
        else:
            driver = await self._open()
        self.busy.add(driver)
        return driver

    async def _open(self) -> Driver:
        if self.name == "sqlite":
            assert self.path is not None
            return SqliteDriver(await SqliteLink.open(self.path, database.STATEMENT_SECONDS))
        sa = await self.hot_engine.connect()
        try:
            raw = await sa.get_raw_connection()
        except BaseException:
            await sa.close()
            raise
        return PostgresDriver(sa, raw.driver_connection)

    async def give_back(self, driver: Driver) -> None:
        """After a command: kept for the next if it is clean, else closed. Once the store
        is closed, closed for good whatever it is: kept, nobody would close it (on
        PostgreSQL a pooled connection never given back), and given back to the pool the
        store disposed of, it would stay open there."""
        self.busy.discard(driver)
        if self.closed:
            await self.discard(driver)
            return
        if driver is self.writer:
            if not driver.reusable():
                self.writer = None
                await driver.close()
            return
        kept = READERS_KEPT if self.name == "sqlite" else IDLE_KEPT
        if driver.reusable() and len(self.idle) < kept:
            self.idle.append(driver)
            return
        await driver.close()

    async def discard(self, driver: Driver) -> None:
        """Given up on (a timeout, a lost connection): closed without a word."""
        self.busy.discard(driver)
        if driver is self.writer:
            self.writer = None
        await driver.discard()

    async def drop_idle(self) -> None:
        idle, self.idle = self.idle, []
        for driver in idle:
            await driver.discard()

    async def warm(self) -> None:
        """SQLite: the writer's link and a reader's, made now, while the loop is idle: one
        made while it is busy waits at each hop to its thread, and while it is being made
        the next reader makes another (16 /boards at once after a start took 0.5-0.9 s)."""
        if self.name != "sqlite":
            return
        await self.give_back(await self.take(write=True))
        await self.give_back(await self.take(write=False))

    async def close(self) -> None:
        """The store closes: its idle connections now; one a command is still in the
        transaction of (a reply still being made as the bot stops) when the command ends,
        not under it (its commit would fail)."""
        self.closed = True
        if self.writer is not None and self.writer not in self.busy:
            writer, self.writer = self.writer, None
            await writer.close()
        idle, self.idle = self.idle, []
        for driver in idle:
            await driver.close()
        if self._own_hot:
            await self.hot_engine.dispose()
