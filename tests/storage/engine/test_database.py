"""SQLite's connections (bot/storage/transaction/connections.py): one made while the loop is busy
waits at each of its hops to its thread, and while it is being made the next reader makes
another (16 /boards at once after a start took 0.5-0.9 s), so the writer's and a reader's
are made when the store opens (issue 18)."""

from __future__ import annotations

import pytest

from bot.storage import open_store
from bot.storage.engine.sqlite_link import SqliteLink


async def test_the_first_writer_and_reader_find_their_connections_made(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    store = await open_store(f"sqlite:///{tmp_path}/bot.db")
    made: list[str] = []
    opened = SqliteLink.open

    async def counted(path: str, timeout: float) -> SqliteLink:
        made.append(path)
        return await opened(path, timeout)

    monkeypatch.setattr(SqliteLink, "open", counted)
    try:
        async with store.transaction("chat", write=True) as tx:
            await tx.prefetch(None)
        async with store.transaction("chat", write=False) as tx:
            await tx.prefetch(None)
        assert made == []
    finally:
        await store.close()
