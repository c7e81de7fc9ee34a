"""SQLite's connections (bot/storage/database.py): a connection made while the loop is busy
waits at each of its hops to aiosqlite's thread (a /board under load took up to 0.4 s), so
the writer's and a reader's are made when the store opens, and readers' connections are
kept, not closed and made again at the next burst (issue 18)."""

from __future__ import annotations

import asyncio

from sqlalchemy import event

from bot.storage import open_store
from bot.storage.database import SQLITE_READERS_KEPT


async def counted_store(path):
    store = await open_store(f"sqlite:///{path}/bot.db")
    made: list[int] = []
    event.listen(store.hot_engine.sync_engine, "connect", lambda *_: made.append(1))
    return store, made


async def read(store, hold: float = 0.0) -> None:
    async with store.transaction("chat", write=False) as tx:
        await tx.prefetch(None)
        await asyncio.sleep(hold)  # a reader that waits meanwhile (a chart, the platform)


async def test_the_first_writer_and_reader_find_their_connections_made(tmp_path):
    store, made = await counted_store(tmp_path)
    try:
        async with store.transaction("chat", write=True) as tx:
            await tx.prefetch(None)
        await read(store)
        assert made == []
    finally:
        await store.close()


async def test_readers_at_once_keep_their_connections_for_the_next_burst(tmp_path):
    store, made = await counted_store(tmp_path)
    readers = SQLITE_READERS_KEPT - 1  # beside the writer's
    try:
        await asyncio.gather(*(read(store, 0.01) for _ in range(readers)))
        after_first = len(made)
        assert after_first > 0  # the burst needed more than the one made at the start
        await asyncio.gather(*(read(store, 0.01) for _ in range(readers)))
        assert len(made) == after_first  # none made again
    finally:
        await store.close()
