"""Two processes on one database, two tables of one club ending games at the same moment:
the ratings each says are those of the games one after the other in the order they ended,
as a process that builds them from the first game says (both databases; PostgreSQL is the
one with several processes at once)."""

from __future__ import annotations

import asyncio

from bot.core.service import Service
from bot.storage import open_store
from tests.club_helpers import Tables


async def test_two_tables_ending_at_once_are_counted_one_after_the_other(database_url: str):
    first, second = await open_store(database_url), await open_store(database_url)
    try:
        one, two = Tables(Service(first)), Tables(Service(second))
        await one.club("Friday", "t1", "t2")
        for round_ in range(3):
            await one.ok("t1", "/newgame points players:@ana @ben @cy")
            await one.ok("t1", f"/round ana={round_} ben=5 cy=1")
            await two.ok("t2", "/newgame points players:@ana @ben @di")
            await two.ok("t2", f"/round ana=4 ben={round_} di=2")
            ended = await asyncio.gather(one.ok("t1", "/endgame"), two.ok("t2", "/endgame"))
            assert all("Friday ratings:" in e.text for e in ended)
        said = [await tables.ok(chat, "/rating") for tables, chat in ((one, "t1"),
                                                                     (two, "t2"))]
        fresh = await Tables(Service(first)).ok("t1", "/rating")
        assert said[0].table == said[1].table == fresh.table
    finally:
        await first.close()
        await second.close()
