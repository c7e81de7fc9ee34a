"""SQLite's connections (bot/storage/database.py): one made while the loop is busy waits at
each of its hops to aiosqlite's thread, and while it is being made the next reader makes
another (16 /boards at once after a start took 0.5-0.9 s), so the writer's and a reader's
are made when the store opens (issue 18)."""

from __future__ import annotations

from sqlalchemy import event

from bot.storage import open_store


async def test_the_first_writer_and_reader_find_their_connections_made(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path}/bot.db")
    made: list[int] = []
    event.listen(store.hot_engine.sync_engine, "connect", lambda *_: made.append(1))
    try:
        async with store.transaction("chat", write=True) as tx:
            await tx.prefetch(None)
        async with store.transaction("chat", write=False) as tx:
            await tx.prefetch(None)
        assert made == []
    finally:
        await store.close()
