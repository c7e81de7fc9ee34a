"""Kept replies go once their platform can no longer deliver the update again; the origin's
id stays, so the message is still never done twice (bot/storage/retention.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update

from bot.storage.retention import keep_pruning, prune_replies
from bot.storage.tables import origins
from tests.conftest import Table

HAND = "/hand winner:alice seen:alice bob maal:alice=3 bob=2 carol=0"


async def _age(store, origin: str, age: timedelta) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(update(origins).where(origins.c.origin_id == origin)
                           .values(created_at=datetime.now(UTC) - age))


async def _replies(store) -> dict[str, bool]:
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(origins.c.origin_id, origins.c.reply))).all()
    return {r.origin_id: r.reply is not None for r in rows}


async def test_replies_go_after_their_platforms_window_and_the_ids_stay(store, service):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol", origin="telegram:1:1")
    await table.ok(HAND, origin="telegram:1:2")
    await table.ok(HAND, origin="discord:77")
    await table.ok(HAND, origin="discord:78")
    # Telegram: 2 days; Discord and the rest: an hour
    await _age(store, "telegram:1:1", timedelta(days=2, minutes=1))
    await _age(store, "telegram:1:2", timedelta(hours=30))
    await _age(store, "discord:77", timedelta(minutes=61))
    await _age(store, "discord:78", timedelta(minutes=50))
    assert await prune_replies(store.engine) == 2
    assert await _replies(store) == {"telegram:1:1": False, "telegram:1:2": True,
                                     "discord:77": False, "discord:78": True}
    assert await prune_replies(store.engine) == 0  # nothing more to do


async def test_a_message_whose_reply_went_is_still_not_done_twice(store, service):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol", origin="telegram:1:1")
    first = await table.ok(HAND, origin="telegram:1:2")
    again = await table.ok(HAND, origin="telegram:1:2")
    assert again.duplicate and again.text == first.text  # within the window: the same answer
    await _age(store, "telegram:1:2", timedelta(days=3))
    assert await prune_replies(store.engine) == 1
    late = await table.ok(HAND, origin="telegram:1:2")
    assert late.duplicate and late.text == "Already recorded."
    assert (await table.board())["hand_count"] == 1


async def test_several_processes_prune_at_once_without_losing_an_id(store, service):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol", origin="discord:1")
    for no in range(2, 32):
        await table.ok(HAND, origin=f"discord:{no}")
    async with store.engine.begin() as conn:
        await conn.execute(update(origins).values(
            created_at=datetime.now(UTC) - timedelta(hours=2)))
    counts = await asyncio.gather(*(prune_replies(store.engine, batch=7) for _ in range(3)))
    assert sum(counts) == 31
    async with store.engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(origins))).scalar() == 31
    assert not any((await _replies(store)).values())


async def test_a_running_bot_prunes_as_it_goes(store, service):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol", origin="discord:5")
    await _age(store, "discord:5", timedelta(hours=2))
    pruning = asyncio.create_task(keep_pruning(store.engine, every=0.01))
    try:
        for _ in range(500):
            if not (await _replies(store))["discord:5"]:
                break
            await asyncio.sleep(0.01)
        assert await _replies(store) == {"discord:5": False}
    finally:
        pruning.cancel()
        await asyncio.gather(pruning, return_exceptions=True)
