"""A chat moved to a new key (a Telegram group upgraded to a supergroup): everything goes,
once, exactly, also with two stores (two processes) told at the same moment, on both
backends.

The evening (Marriage, ../shared/rules/marriage.md; n players, P the sum of maal: the
exchange is n*s_i - P, a seen loser pays the winner 3, an unseen one 10 with maal 0):
HAND_A maal 10, 2, 0 (carol unseen), P = 12: alice +31, bob -9, carol -22.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from bot.core.service import Service
from bot.storage import SqlStore, open_store
from bot.storage.engine.tables import chat_settings, hands, origins, payments, seasons, sessions
from tests.conftest import Table

OLD, NEW = "telegram:-4000000001", "telegram:-1004000000001"
HAND_A = "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0"


async def evening(service: Service, chat: str = OLD) -> Table:
    """Two finished games at 10 Rs a point, a payment, a season, settings, and a third game
    open with one hand: what a group has after a few nights."""
    table = Table(service, chat)
    await table.ok("/settings timezone:Asia/Kathmandu")
    await table.ok("/season start name:Autumn")
    for _night in range(2):
        await table.ok("/newgame players:alice bob carol")
        await table.ok("/rules rate:10 currency:Rs")
        await table.ok(HAND_A)
        await table.ok("/endgame")
    await table.ok("/paid bob 90 to:alice currency:Rs", by="alice")
    await table.ok("/newgame players:alice bob carol")
    await table.ok(HAND_A)
    return table


async def counts(store: SqlStore, chat: str) -> dict[str, int]:
    async with store.engine.connect() as conn:
        found = {}
        for name, table in (("sessions", sessions), ("payments", payments),
                            ("seasons", seasons), ("origins", origins)):
            found[name] = (await conn.execute(select(func.count()).select_from(table)
                                              .where(table.c.chat == chat))).scalar_one()
        found["hands"] = (await conn.execute(
            select(func.count()).select_from(
                hands.join(sessions, hands.c.session_id == sessions.c.id))
            .where(sessions.c.chat == chat))).scalar_one()
        found["settings"] = (await conn.execute(select(func.count()).select_from(
            chat_settings).where(chat_settings.c.chat == chat))).scalar_one()
    return found


async def test_everything_of_a_chat_moves_and_commands_follow(service: Service):
    await evening(service)
    before = await counts(service.store, OLD)
    assert before == {"sessions": 3, "payments": 1, "seasons": 1, "origins": before["origins"],
                      "hands": 3, "settings": 1}
    assert await service.move_chat(OLD, NEW) is True
    assert await service.move_chat(OLD, NEW) is False  # once
    after = await counts(service.store, NEW)
    assert after == before
    # the old key keeps only where it went
    assert await counts(service.store, OLD) == {"sessions": 0, "payments": 0, "seasons": 0,
                                                "origins": 0, "hands": 0, "settings": 1}
    new = Table(service, NEW)
    board = await new.board()
    assert board["hand_count"] == 1 and board["totals"] == {"alice": 31, "bob": -9, "carol": -22}
    # two nights at 10 Rs: alice +620, bob -180, carol -440; bob paid alice 90 of it
    ledger = (await new.ok("/ledger")).text
    assert "alice +530 Rs" in ledger and "bob -90 Rs" in ledger and "carol -440 Rs" in ledger
    assert "Autumn" in (await new.ok("/season")).text
    assert "Asia/Kathmandu" in (await new.ok("/settings")).text
    # a command still sent to the old id is answered in the new chat, recorded there once
    old = Table(service, OLD)
    await old.ok(HAND_A)
    assert (await new.board())["hand_count"] == 2
    assert (await counts(service.store, OLD))["hands"] == 0


async def test_a_topic_moves_with_its_chat(service: Service):
    topic = Table(service, OLD + ":7")
    await topic.ok("/newgame players:alice bob carol")
    await topic.ok(HAND_A)
    assert await service.move_chat(OLD, NEW)
    assert (await Table(service, NEW + ":7").board())["hand_count"] == 1


async def test_a_game_opened_in_the_new_chat_first_is_kept(service: Service):
    """A command in the new chat came in before the move: two open games meet. The one
    with more hands stays open, the other ends as it stands; no hand is lost. Of two open
    seasons the older ends where the newer began."""
    await evening(service)
    new = Table(service, NEW)
    await new.ok("/newgame players:dev esh")
    await new.ok("/season start name:Spring")
    assert await service.move_chat(OLD, NEW)
    assert (await new.board())["hand_count"] == 1  # the old chat's game, with its hand
    assert "Season Spring" in (await new.ok("/season")).text
    async with service.store.transaction(NEW) as tx:
        autumn, spring = await tx.seasons()
    assert autumn.ended_at == spring.started_at and spring.ended_at is None
    after = await counts(service.store, NEW)
    assert (after["sessions"], after["hands"], after["seasons"]) == (4, 3, 2)


async def _mover(url: str, start: asyncio.Event) -> tuple[SqlStore, list[bool]]:
    store = await open_store(url)
    await start.wait()
    return store, await asyncio.gather(*(Service(store).move_chat(OLD, NEW)
                                         for _ in range(3)))


async def test_two_processes_told_at_once_move_it_exactly_once(database_url: str):
    first = await open_store(database_url)
    try:
        await evening(Service(first))
        before = await counts(first, OLD)
        start = asyncio.Event()
        movers = [asyncio.create_task(_mover(database_url, start)) for _ in range(2)]
        await asyncio.sleep(0.2)
        start.set()
        results = await asyncio.gather(*movers)
        try:
            assert sorted(r for _store, told in results for r in told) == [False] * 5 + [True]
        finally:
            for store, _told in results:
                await store.close()
        assert await counts(first, NEW) == before
        assert (await Table(Service(first), NEW).board())["hand_count"] == 1
    finally:
        await first.close()
