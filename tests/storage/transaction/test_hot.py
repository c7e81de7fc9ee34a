"""PostgreSQL's hot path (bot/storage/transaction/hot.py, PostgresDriver): a connection is kept
inside a transaction begun ahead with the last COMMIT, and a command's lock and reads come in one
round trip (migration 10). Between commands that transaction must hold no lock, a
connection given back to the pool none at all, and a transaction an error spoiled must not
spoil the next command (issue 18)."""

from __future__ import annotations

import asyncpg
import pytest

from bot.core.service import Service
from bot.storage import SqlStore
from bot.storage.transaction import connections
from tests.conftest import Table


@pytest.fixture
def postgres(store: SqlStore) -> SqlStore:
    if store.backend != "postgresql":
        pytest.skip("PostgreSQL's driver only")
    return store


async def other_connection(store: SqlStore) -> asyncpg.Connection:
    url = store.engine.url
    schema = url.query.get("search_path")
    return await asyncpg.connect(
        user=url.username, host=url.host, port=url.port, database=url.database,
        server_settings={"search_path": str(schema)} if schema else None)


async def test_between_commands_the_chat_is_not_locked(postgres: SqlStore):
    table = Table(Service(postgres), chat="locks")
    await table.ok("/newgame players:asha bikash chandra")
    await table.ok("/hand winner:asha seen:asha bikash maal:asha=3 bikash=2")
    assert postgres.connections.idle and all(
        driver.begun for driver in postgres.connections.idle)
    other = await other_connection(postgres)
    try:
        # another process takes the chat's lock at once: the last command's went with its
        # COMMIT, though its connection is in the transaction begun after it
        assert await other.fetchval(
            "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", "locks")
    finally:
        await other.close()


async def test_between_commands_a_connection_holds_no_table_and_no_snapshot(
        postgres: SqlStore):
    """A transaction that has read keeps its tables' share locks (an ALTER TABLE, a
    migration, would wait, and every command behind it) and holds back VACUUM, until it
    ends: a reader's command ends its own as a writer's does."""
    table = Table(Service(postgres), chat="readers")
    await table.ok("/newgame players:asha bikash chandra")
    await table.ok("/hand winner:asha seen:asha bikash maal:asha=3 bikash=2")
    await table.ok("/history")  # read through SQLAlchemy: its connection goes to the pool
    await table.ok("/board")  # read on the hot path: its connection is kept
    assert postgres.connections.idle
    other = await other_connection(postgres)
    try:
        for driver in postgres.connections.idle:
            pid = driver.pg.get_server_pid()
            assert await other.fetchval(
                "SELECT count(*) FROM pg_locks WHERE pid = $1 AND locktype = 'relation'",
                pid) == 0
            assert await other.fetchval(
                "SELECT backend_xmin FROM pg_stat_activity WHERE pid = $1", pid) is None
    finally:
        await other.close()


async def test_a_spoiled_transaction_does_not_spoil_the_next_command(postgres: SqlStore):
    table = Table(Service(postgres), chat="spoiled")
    await table.ok("/newgame players:asha bikash chandra")
    await table.ok("/hand winner:asha seen:asha bikash maal:asha=3 bikash=2")
    assert postgres.connections.idle
    for driver in postgres.connections.idle:
        with pytest.raises(asyncpg.DivisionByZeroError):
            await driver.pg.execute("SELECT 1 / 0")  # the transaction begun ahead: failed
    reply = await table.ok("/hand winner:bikash seen:asha bikash maal:asha=3 bikash=2")
    assert reply.board.hand_count == 2


async def test_a_connection_back_in_the_pool_has_no_transaction_open(
        postgres: SqlStore, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(connections, "IDLE_KEPT", 0)  # none kept: each goes back to the pool
    table = Table(Service(postgres), chat="pool")
    await table.ok("/newgame players:asha bikash chandra")
    await table.ok("/hand winner:asha seen:asha bikash maal:asha=3 bikash=2")
    assert not postgres.connections.idle
    async with postgres.connections.hot_engine.connect() as sa:
        raw = await sa.get_raw_connection()
        assert not raw.driver_connection.is_in_transaction()


async def test_a_server_that_ends_idle_transactions_costs_a_new_connection_only(
        postgres: SqlStore):
    """Hosted servers often set idle_in_transaction_session_timeout: the server then closes
    the connections kept between commands, and the next command opens another."""
    import asyncio

    table = Table(Service(postgres), chat="timeout")
    await table.ok("/newgame players:asha bikash chandra")
    await table.ok("/hand winner:asha seen:asha bikash maal:asha=3 bikash=2")
    assert postgres.connections.idle
    for driver in postgres.connections.idle:
        # for this session only, as a server-wide setting would be; it applies from the
        # next idle moment in the transaction
        await driver.pg.execute("SET idle_in_transaction_session_timeout = 50")
    await asyncio.sleep(0.5)
    reply = await table.ok("/hand winner:bikash seen:asha bikash maal:asha=3 bikash=2")
    assert reply.board.hand_count == 2
