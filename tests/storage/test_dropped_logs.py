"""Migration 20: the undone hands, rule sets and events that games closed with no hand
recorded left before (issue 38) go; every other game's log stays whole (both backends)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from bot.core.service import Service
from bot.storage.engine import tables
from bot.storage.transaction import migrations
from tests.conftest import Table, store_at_version

BEFORE = len([m for m in migrations.MIGRATIONS if m[0] < 20])  # the migrations up to 20


async def _rows(engine, session_id: int) -> dict[str, int]:
    counts = {}
    async with engine.connect() as conn:
        for table in (tables.hands, tables.rule_sets, tables.session_events):
            counts[table.name] = (await conn.execute(
                select(func.count()).where(table.c.session_id == session_id))).scalar_one()
    return counts


async def test_migration_20_lets_the_log_of_a_game_closed_empty_go(
        database_url: str, monkeypatch: pytest.MonkeyPatch):
    store = await store_at_version(database_url, BEFORE, monkeypatch)
    try:
        table = Table(Service(store))
        await table.ok("/newgame marriage players:asha bikash chetan")
        await table.ok("/hand winner:asha seen:bikash maal:asha=3 bikash=1")
        kept = (await table.ok("/endgame")).board.session
        await table.ok("/newgame marriage players:asha bikash chetan")
        await table.ok("/rules seen:4")
        await table.ok("/hand winner:bikash seen:asha maal:asha=2 bikash=5")
        await table.ok("/undo")
        dropped = (await table.ok("/board")).board.session
        # closed as a bot before this one closed it: the status, and its log left behind
        async with store.engine.begin() as conn:
            await conn.execute(text("UPDATE sessions SET status = 'dropped' WHERE id = :id"),
                               {"id": dropped})
        left = await _rows(store.engine, dropped)
        assert left["hands"] == 1 and left["rule_sets"] == 1 and left["session_events"] == 1
        whole = await _rows(store.engine, kept)
        assert whole["hands"] == 1

        # 20 first, then any after it the test's store did not have
        applied = await migrations.upgrade(store.engine)
        assert applied[0] == 20 and applied == sorted(applied)
        assert await _rows(store.engine, dropped) == {"hands": 0, "rule_sets": 0,
                                                      "session_events": 0}
        assert await _rows(store.engine, kept) == whole
        assert (await table.ok("/board last")).board.session == kept
    finally:
        await store.close()
