"""`open_store`: the top of storage. The SQLite file checked (health.py), the tables
migrated (migrations.py), the store made (store/sql_store.py) and its file watched from then on
(sqlite_file.py)."""

from __future__ import annotations

from bot.storage.engine.database import create_engine, sqlite_path
from bot.storage.engine.sqlite_file import SqliteFile, held, lost
from bot.storage.store.health import check_sqlite_file, holds_hands
from bot.storage.store.sql_store import SqlStore
from bot.storage.transaction.migrations import upgrade


async def open_store(url: str, migrate: bool = True) -> SqlStore:
    path = sqlite_path(url)
    if path is not None:
        await check_sqlite_file(path, clear=True)
    engine = create_engine(url)
    try:
        if migrate:
            await upgrade(engine)
        has_hands = await holds_hands(engine) if path is not None else False
    except BaseException:
        await engine.dispose()  # no half-open pool left for the loop's end to trip on
        raise
    if path is not None and not has_hands and (since := held(path)) is not None:
        await engine.dispose()
        raise lost(path, since)  # tables there, every hand gone: replaced by a new file
    hot = create_engine(url, hot=True) if engine.dialect.name == "postgresql" else None
    store = SqlStore(engine, hot)
    try:
        await store.connections.warm()  # SQLite: the writer's link and a reader's, made now
    except BaseException:
        await store.close()
        raise
    if path is not None:
        store.file = SqliteFile(path)
        store.file.open()
        if has_hands:
            store.file.mark()
    return store
