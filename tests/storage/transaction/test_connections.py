"""The commands' connections when the store closes under a command still in its transaction
(a reply still being made as the bot stops): the command ends as it would have, and its
connection is then closed for good, never kept in a closed store's idle list, where nobody
would close it (on PostgreSQL SQLAlchemy's garbage collector found it never given back:
"non-checked-in connection", seen in the Discord adapter's tests)."""

from __future__ import annotations

import asyncio
import gc
import warnings

from sqlalchemy.exc import SAWarning

from bot.storage import SqlStore, open_store


async def closed_meanwhile(store: SqlStore, write: bool, work) -> None:  # type: ignore[no-untyped-def]
    """`work(tx)` in a command's transaction, the store closed while it is in there."""
    inside, closed = asyncio.Event(), asyncio.Event()

    async def command() -> None:
        async with store.transaction("chat-1", write=write) as tx:
            await work(tx)
            inside.set()
            await closed.wait()

    running = asyncio.create_task(command())
    await inside.wait()
    await store.close()
    closed.set()
    await running


def closed_for_good(driver) -> bool:  # type: ignore[no-untyped-def]
    if driver.name == "sqlite":
        return driver.link.closed
    return driver.pg.is_closed() and driver.sa_conn.closed


async def test_a_reader_ending_after_the_close_closes_its_connection(database_url: str):
    store = await open_store(database_url)
    taken = []

    async def read(tx) -> None:  # type: ignore[no-untyped-def]
        await tx.open_session()  # the hot path's reads: the connection stays clean
        taken.append(tx._hot.driver)

    await closed_meanwhile(store, False, read)
    connections = store.connections
    left = (len(connections.idle), connections.writer)
    closed = closed_for_good(taken[0])
    taken.clear()
    del store, connections
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        gc.collect()  # the store gone: a connection it kept and never gave back is told of
    assert not [w for w in said if issubclass(w.category, SAWarning)], said[0].message
    assert left == (0, None)
    assert closed


async def test_a_writer_the_close_finds_in_its_transaction_still_commits(
        store: SqlStore, database_url: str):
    async def write(tx) -> None:  # type: ignore[no-untyped-def]
        await tx.open_session()  # begun, as every command's transaction is
        await tx.record_origin("origin-1", {"text": "kept"})

    await closed_meanwhile(store, True, write)  # SQLite: its writer's link not closed under it
    assert store.connections.writer is None and store.connections.idle == []
    again = await open_store(database_url)
    try:
        assert await again.origin_reply("origin-1") == {"text": "kept"}
    finally:
        await again.close()
