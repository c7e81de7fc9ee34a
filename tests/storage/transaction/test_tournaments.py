"""A club's tournaments and nights kept (migration 23), both databases: what is written
reads back the same, saved changes stay, and a night is the club's latest."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from bot.core.club.night import Night, Seated
from bot.core.club.tournament import Entry, Penalty, Round, Seat, Table, Tournament
from bot.storage import SqlStore


async def test_a_tournament_and_a_night_read_back_as_written(store: SqlStore):
    made = Tournament(0, 7, "Dashain Cup", "riichi", "Riichi mahjong", 5, "wrc",
                      entries=[Entry("console:ana", "ana"), Entry("console:bo", "bo", 1)],
                      penalties=[Penalty("console:ana", Decimal("-20"), "late", 1, "x")])
    made.played = [Round(1, 42, [Table(1, "t1", [Seat("console:ana", "ana"),
                                                 Seat("console:bo", "bo", "console:cy",
                                                      "cy", sub=True)],
                                       9, [Decimal(31000), Decimal(29000)])], True)]
    async with store.transaction("t1") as tx:
        await tx.prefetch(None)
        added = await tx.clubs.add_tournament(made)
        assert added.id > 0
        night = await tx.clubs.add_night(Night(0, 7, datetime(2026, 3, 1, 19, tzinfo=UTC),
                                               "console:ana", {"console:ana": "ana"}))
        await tx.clubs.add_night(Night(0, 8, datetime(2026, 3, 1, 20, tzinfo=UTC)))
    async with store.transaction("t1") as tx:
        await tx.prefetch(None)
        [found] = await tx.clubs.tournaments(7)
        assert found.data() == made.data() and found.name == "Dashain Cup"
        found.status = "running"
        found.played[0].tables[0].points = None
        await tx.clubs.save_tournament(found)
        latest = await tx.clubs.night(7)
        assert latest is not None and latest.id == night.id
        assert latest.present == {"console:ana": "ana"}
        latest.seated.append(Seated("riichi", 3, [["console:ana", "console:bo"]]))
        await tx.clubs.save_night(latest)
    async with store.transaction("t1", write=False) as tx:
        [again] = await tx.clubs.tournaments(7)
        assert again.status == "running" and not again.played[0].tables[0].done
        assert (await tx.clubs.night(7)).seated[0].tables == [["console:ana", "console:bo"]]
        assert await tx.clubs.tournaments(8) == [] and await tx.clubs.night(9) is None
