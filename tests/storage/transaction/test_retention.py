"""Kept replies go once their platform can no longer deliver the update again; the origin's
id stays, so the message is still never done twice. A hand's summary is left out by a
background pass where it derives, each hand checked once (bot/storage/transaction/retention.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select, update

from bot.core.summaries import DERIVED, can_derive
from bot.storage.engine.tables import hands, origins, summaries_checked
from bot.storage.transaction import retention
from bot.storage.transaction.retention import derive_summaries, keep_pruning, prune_replies
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
    await table.ok(HAND, origin="discord:6")
    await _age(store, "discord:5", timedelta(hours=2))
    async with store.engine.begin() as conn:  # and its summary left out, once settled
        await conn.execute(update(hands).values(
            created_at=datetime.now(UTC) - timedelta(minutes=2)))
    pruning = asyncio.create_task(keep_pruning(store.engine, every=0.01))
    try:
        for _ in range(500):
            if not (await _replies(store))["discord:5"] and await _summaries(store) == [DERIVED]:
                break
            await asyncio.sleep(0.01)
        assert await _replies(store) == {"discord:5": False, "discord:6": True}
        assert await _summaries(store) == [DERIVED]
    finally:
        pruning.cancel()
        await asyncio.gather(pruning, return_exceptions=True)


# Summaries left out where they derive, by the same loop (issue 27: off /hand's path)

LATER = datetime.now(UTC) + timedelta(days=1)  # every hand past SETTLED


async def _summaries(store) -> list[str]:
    async with store.engine.connect() as conn:
        return list((await conn.execute(select(hands.c.summary).order_by(hands.c.id)))
                    .scalars())


async def _checked(store) -> int:
    async with store.engine.connect() as conn:
        return (await conn.execute(select(summaries_checked.c.last_hand))).scalar_one()


async def test_a_hand_keeps_its_summary_until_the_pass_leaves_it_out(store, service):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol")
    await table.ok(HAND)
    await table.ok(HAND)
    # Marriage's words for HAND, as the rules say them: alice won, bob seen, their maal
    assert all("alice" in s and "bob" in s for s in await _summaries(store))
    # a hand younger than a minute may still have a transaction open beside it: not yet
    assert await derive_summaries(store.engine) == 0 and await _checked(store) == 0
    assert await derive_summaries(store.engine, now=LATER) == 2
    assert await _summaries(store) == [DERIVED, DERIVED]
    assert await _checked(store) == 2


async def test_the_pass_checks_each_hand_once(store, service, monkeypatch):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol")
    for _ in range(3):
        await table.ok(HAND)
    async with store.engine.begin() as conn:  # a summary the hand no longer scores to
        await conn.execute(update(hands).where(hands.c.no == 2).values(summary="alice won"))
    checked: list[str] = []

    def counting(game, players, hand):
        checked.append(hand["summary"])
        return can_derive(game, players, hand)

    monkeypatch.setattr(retention, "can_derive", counting)
    assert await derive_summaries(store.engine, now=LATER, batch=2) == 2
    assert len(checked) == 3
    summaries = await _summaries(store)
    assert summaries[1] == "alice won" and summaries[0] == summaries[2] == DERIVED
    # the kept one is not scored again; a new hand is
    assert await derive_summaries(store.engine, now=LATER) == 0 and len(checked) == 3
    await table.ok(HAND)
    assert await derive_summaries(store.engine, now=LATER) == 1 and len(checked) == 4


async def test_several_processes_derive_at_once(store, service):
    table = Table(service)
    await table.ok("/newgame players:alice bob carol")
    for _ in range(30):
        await table.ok(HAND)
    counts = await asyncio.gather(*(derive_summaries(store.engine, now=LATER, batch=7)
                                    for _ in range(3)))
    assert sum(counts) == 30  # each hand emptied once, by whoever got it first
    assert await _summaries(store) == [DERIVED] * 30
    assert await _checked(store) == 30
