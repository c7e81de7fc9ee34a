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
            created_at=made.created_at, version=0, data=made.data())
            .returning(tournaments.c.id))
        ).scalar_one()
        return made

    async def save_tournament(self, changed: Tournament) -> None:
        await self.conn.execute(update(tournaments).where(tournaments.c.id == changed.id)
                                .values(name=changed.name, status=changed.status,
                                        version=tournaments.c.version + 1,
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


async def forget_in_tournaments(conn: Any, keys: set[str], forgotten: str) -> None:
    """A person forgotten (`keys`: their account and the person it was linked to): in
    every tournament they are a player of no name (each keeps their place in its
    standings, under a key of nobody's), and gone from every night's list."""
    for row in (await conn.execute(select(tournaments))).all():
        t = _tournament(row)
        gone = f"{forgotten}:{t.id}"
        named = {e.member for e in t.entries} | {p.member for p in t.penalties}
        if not keys & (named | {t.by} | {s.player for r in t.played for x in r.tables
                                         for s in x.seats}):
            continue
        for entry in t.entries:
            if entry.member in keys:
                entry.member, entry.name = gone, "—"
        for round_ in t.played:
            for table in round_.tables:
                for seat in table.seats:
                    if seat.member in keys:
                        seat.member, seat.name = gone, "—"
                    if seat.player in keys:
                        seat.player, seat.player_name = gone, "—"
        for penalty in t.penalties:
            if penalty.member in keys:
                penalty.member = gone
            if penalty.by in keys:
                penalty.by = forgotten
        if t.by in keys:
            t.by = forgotten
        await conn.execute(update(tournaments).where(tournaments.c.id == t.id)
                           .values(data=t.data(), version=tournaments.c.version + 1))
    for row in (await conn.execute(select(club_nights))).all():
        night = Night.read(row.id, row.club_id, aware(row.started_at) or datetime.now(UTC),
                           row.data)
        if not keys & (set(night.present) | {night.by} | {m for s in night.seated
                                                          for t in s.tables for m in t}):
            continue
        for key in keys:
            night.present.pop(key, None)
            night.accounts.pop(key, None)
        night.by = forgotten if night.by in keys else night.by
        for seated in night.seated:
            seated.tables = [[forgotten if m in keys else m for m in t] for t in seated.tables]
        await conn.execute(update(club_nights).where(club_nights.c.id == night.id)
                           .values(data=night.data()))
