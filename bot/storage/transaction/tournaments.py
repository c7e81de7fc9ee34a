"""A club's tournaments and nights (migration 23), read and written in a command's
transaction: one row each, its JSON the core's (bot/core/club/tournament.py, night.py).
A command that changes one takes the club's lock first (SqlClubBook.lock), so two tables
ending their games at once both count, one after the other."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update

from bot.core.club.night import Night
from bot.core.club.tournament import ENDED, Tournament
from bot.storage.engine.records import aware
from bot.storage.engine.tables import club_nights, tournaments


def _tournament(row: Any) -> Tournament:
    return Tournament.read(row.id, row.club_id, row.name, row.status, aware(row.created_at),
                           row.data)


class TournamentRows:
    conn: Any

    async def tournaments(self, club_id: int) -> list[Tournament]:
        rows = (await self.conn.execute(select(tournaments).where(
            tournaments.c.club_id == club_id).order_by(tournaments.c.id))).all()
        return [_tournament(r) for r in rows]

    async def add_tournament(self, made: Tournament) -> Tournament:
        made.created_at = made.created_at or datetime.now(UTC)
        made.id = (await self.conn.execute(insert(tournaments).values(
            club_id=made.club_id, name=made.name, status=made.status,
            created_at=made.created_at, data=made.data()).returning(tournaments.c.id))
        ).scalar_one()
        return made

    async def save_tournament(self, changed: Tournament) -> None:
        await self.conn.execute(update(tournaments).where(tournaments.c.id == changed.id)
                                .values(name=changed.name, status=changed.status,
                                        data=changed.data()))

    async def timed_tournaments(self) -> list[Tournament]:
        """Every tournament not ended with a timer running (any club's: the timer's posts)."""
        rows = (await self.conn.execute(select(tournaments).where(
            tournaments.c.status != ENDED).order_by(tournaments.c.id))).all()
        return [t for t in map(_tournament, rows) if t.timer]

    async def night(self, club_id: int) -> Night | None:
        """The club's latest night."""
        row = (await self.conn.execute(select(club_nights).where(
            club_nights.c.club_id == club_id).order_by(club_nights.c.id.desc()).limit(1))
        ).first()
        if row is None:
            return None
        return Night.read(row.id, row.club_id, aware(row.started_at) or datetime.now(UTC),
                          row.data)

    async def add_night(self, night: Night) -> Night:
        night.id = (await self.conn.execute(insert(club_nights).values(
            club_id=night.club_id, started_at=night.started_at, data=night.data())
            .returning(club_nights.c.id))).scalar_one()
        return night

    async def save_night(self, night: Night) -> None:
        await self.conn.execute(update(club_nights).where(club_nights.c.id == night.id)
                                .values(data=night.data()))
