"""A club's rows (migration 22), read and written in a command's transaction, on its
connection: the club and its tables, one-time codes (only their hash), accounts linked as
one person, the club's seasons, and the finished games as the club counts them
(bot/core/club/summary.py; one row a game, written at /endgame, or the first time the club
looks at a game that has none). `SqlClubBook` is bot/core/club/book.py's `ClubBook`.

What changes a club's figures other than a game's end raises its `epoch` (`changed`), so
every process builds them again; a game's end only adds a row, which they count in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, text, tuple_, update

from bot.core.club.book import Club, ClubTable, CodeUse
from bot.core.club.figures import ClubSeason
from bot.core.club.summary import GameSummary
from bot.core.session import ENDED, ChatSettings, HandRecord, SessionState
from bot.storage.engine.records import aware, hand_of, payment_of, session_of, settings_of
from bot.storage.engine.tables import (
    KEPT,
    account_links,
    chat_settings,
    club_codes,
    club_seasons,
    club_tables,
    clubs,
    game_summaries,
    hand_rows,
    payments,
    sessions,
)
from bot.storage.transaction.tournaments import TournamentRows, forget_in_tournaments


def _now() -> datetime:
    return datetime.now(UTC)


def _club(row: Any) -> Club:
    return Club.read(row.id, row.name, row.owner, aware(row.created_at), row.epoch, row.data)


class SqlClubBook(TournamentRows):
    def __init__(self, conn: Any, after: list[Callable[[], None]]) -> None:
        self.conn = conn
        self._after = after  # run by the store once the transaction has committed

    def after_commit(self, done: Callable[[], None]) -> None:
        self._after.append(done)

    # --- the club and its tables --------------------------------------------------------

    async def club_of(self, chat: str) -> Club | None:
        row = (await self.conn.execute(
            select(clubs).join(club_tables, club_tables.c.club_id == clubs.c.id)
            .where(club_tables.c.chat == chat))).first()
        return _club(row) if row is not None else None

    async def club(self, club_id: int) -> Club | None:
        row = (await self.conn.execute(select(clubs).where(clubs.c.id == club_id))).first()
        return _club(row) if row is not None else None

    async def new_club(self, name: str, owner: str, owner_name: str) -> Club:
        club = Club(0, name, owner, _now(), 0, {}, owner_name)
        club.id = (await self.conn.execute(insert(clubs).values(
            name=name, owner=owner, created_at=club.created_at, epoch=0,
            data=club.data()).returning(clubs.c.id))).scalar_one()
        return club

    async def save_club(self, club: Club) -> None:
        await self.conn.execute(update(clubs).where(clubs.c.id == club.id).values(
            name=club.name, owner=club.owner, data=club.data()))

    async def changed(self, club_id: int) -> None:
        await self.conn.execute(update(clubs).where(clubs.c.id == club_id)
                                .values(epoch=clubs.c.epoch + 1))

    async def games_changed(self, chat: str) -> None:
        """The chat's games are counted again (a guest /link'ed: who its seats are)."""
        await chats_changed(self.conn, [chat], forget_games=True)

    async def all_changed(self) -> None:
        await self.conn.execute(update(clubs).values(epoch=clubs.c.epoch + 1))

    async def tables(self, club_id: int) -> list[ClubTable]:
        rows = (await self.conn.execute(
            select(club_tables).where(club_tables.c.club_id == club_id)
            .order_by(club_tables.c.joined_at, club_tables.c.chat))).all()
        return [ClubTable(r.chat, r.club_id, r.name, r.joined_by, aware(r.joined_at))
                for r in rows]

    async def add_table(self, table: ClubTable) -> None:
        await self.conn.execute(insert(club_tables).values(
            chat=table.chat, club_id=table.club_id, name=table.name,
            joined_at=table.joined_at or _now(), joined_by=table.joined_by))
        await self.changed(table.club_id)

    async def remove_table(self, chat: str) -> None:
        club = await self.club_of(chat)
        await self.conn.execute(delete(club_tables).where(club_tables.c.chat == chat))
        if club is not None:
            await self.changed(club.id)

    async def lock(self, club_id: int) -> None:
        """The club's games are added one transaction at a time, in the order they end
        (PostgreSQL: until this transaction ends; SQLite has one writer already)."""
        if self.conn.dialect.name == "postgresql":
            await self.conn.execute(
                text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                {"k": f"club:{club_id}"})

    # --- one-time codes -----------------------------------------------------------------

    async def add_code(self, digest: str, kind: str, subject: str, made_by: str,
                       expires_at: datetime) -> None:
        # a person's or a club's earlier codes of the kind, unused, go: one good code each
        await self.conn.execute(delete(club_codes).where(
            club_codes.c.kind == kind, club_codes.c.subject == subject,
            club_codes.c.used_at.is_(None)))
        await self.conn.execute(insert(club_codes).values(
            digest=digest, kind=kind, subject=subject, made_by=made_by,
            expires_at=expires_at))

    async def use_code(self, digest: str, kind: str, used_by: str, now: datetime) -> CodeUse:
        """The code used up now, if it is good: one statement, so two people typing it at
        once can't both have it."""
        done = await self.conn.execute(update(club_codes).where(
            club_codes.c.digest == digest, club_codes.c.kind == kind,
            club_codes.c.used_at.is_(None), club_codes.c.expires_at > now,
        ).values(used_at=now, used_by=used_by).returning(club_codes.c.subject))
        subject = done.scalar()
        if subject is not None:
            return CodeUse(str(subject))
        row = (await self.conn.execute(select(club_codes).where(
            club_codes.c.digest == digest))).first()
        if row is None:
            return CodeUse(None, "unknown")
        if row.kind != kind:
            return CodeUse(None, "kind")
        if row.used_at is not None:
            return CodeUse(None, "used")
        return CodeUse(None, "expired")

    # --- people -------------------------------------------------------------------------

    async def persons(self) -> dict[str, str]:
        rows = (await self.conn.execute(select(account_links.c.account,
                                               account_links.c.person))).all()
        return {r.account: r.person for r in rows}

    async def link(self, account: str, person: str) -> None:
        now = _now()
        for who in {account, person}:
            await self.conn.execute(delete(account_links).where(account_links.c.account == who))
            await self.conn.execute(insert(account_links).values(account=who, person=person,
                                                                 linked_at=now))
        await self.all_changed()

    async def unlink(self, person: str) -> None:
        await self.conn.execute(delete(account_links).where(account_links.c.person == person))
        await self.all_changed()

    # --- seasons ------------------------------------------------------------------------

    async def seasons(self, club_id: int) -> list[ClubSeason]:
        rows = (await self.conn.execute(select(club_seasons).where(
            club_seasons.c.club_id == club_id).order_by(club_seasons.c.id))).all()
        return [ClubSeason(r.id, r.name, aware(r.started_at) or _now(), aware(r.ended_at))
                for r in rows]

    async def add_season(self, club_id: int, name: str, by: str, by_name: str) -> ClubSeason:
        started = _now()
        season_id = (await self.conn.execute(insert(club_seasons).values(
            club_id=club_id, name=name, started_at=started, started_by=by,
            started_by_name=by_name).returning(club_seasons.c.id))).scalar_one()
        await self.changed(club_id)
        return ClubSeason(season_id, name, started)

    async def end_season(self, season_id: int, by: str) -> None:
        club_id = (await self.conn.execute(update(club_seasons).where(
            club_seasons.c.id == season_id, club_seasons.c.ended_at.is_(None)).values(
            ended_at=_now(), ended_by=by).returning(club_seasons.c.club_id))).scalar()
        if club_id is not None:
            await self.changed(club_id)

    # --- the finished games -------------------------------------------------------------

    async def summaries(self, club_id: int, after: int = 0) -> list[tuple[int, GameSummary]]:
        rows = (await self.conn.execute(
            select(game_summaries.c.id, game_summaries.c.data)
            .join(club_tables, club_tables.c.chat == game_summaries.c.chat)
            .where(club_tables.c.club_id == club_id, game_summaries.c.id > after)
            .order_by(game_summaries.c.id))).all()
        return [(r.id, GameSummary.from_json(r.data)) for r in rows]

    async def in_order(self, club_id: int, chunk: int = 2000
                       ) -> AsyncIterator[list[tuple[int, GameSummary]]]:
        """Every game of the club in the order they ended, a chunk at a time (a club of
        50,000 games is never held whole)."""
        chats = [t.chat for t in await self.tables(club_id)]
        after: tuple[Any, int] | None = None
        while True:  # by the index of the end order, the club's tables picked out of it
            query = (select(game_summaries.c.id, game_summaries.c.session_id,
                            game_summaries.c.ended_at, game_summaries.c.data)
                     .where(game_summaries.c.chat.in_(chats))
                     .order_by(game_summaries.c.ended_at, game_summaries.c.session_id)
                     .limit(chunk))
            if after is not None:
                query = query.where(tuple_(game_summaries.c.ended_at,
                                           game_summaries.c.session_id) > after)
            rows = (await self.conn.execute(query)).all()
            if not rows:
                return
            yield [(r.id, GameSummary.from_json(r.data)) for r in rows]
            after = (rows[-1].ended_at, rows[-1].session_id)

    async def add_summary(self, summary: GameSummary) -> int | None:
        """The game's row, unless it has one (None then)."""
        found = (await self.conn.execute(select(game_summaries.c.id).where(
            game_summaries.c.session_id == summary.session_id))).scalar()
        if found is not None:
            return None
        return (await self.conn.execute(insert(game_summaries).values(
            session_id=summary.session_id, chat=summary.chat, ended_at=summary.ended_at,
            data=summary.to_json()).returning(game_summaries.c.id))).scalar_one()

    async def unsummarised(self, club_id: int) -> dict[str, list[int]]:
        """The club's finished games that have no row yet, chat by chat."""
        rows = (await self.conn.execute(
            select(sessions.c.chat, sessions.c.id)
            .join(club_tables, club_tables.c.chat == sessions.c.chat)
            .outerjoin(game_summaries, game_summaries.c.session_id == sessions.c.id)
            .where(club_tables.c.club_id == club_id, sessions.c.status == ENDED,
                   sessions.c.hand_count > 0, game_summaries.c.id.is_(None))
            .order_by(sessions.c.id))).all()
        found: dict[str, list[int]] = {}
        for row in rows:
            found.setdefault(row.chat, []).append(row.id)
        return found

    async def chat_games(self, chat: str) -> tuple[list[SessionState], ChatSettings]:
        rows = (await self.conn.execute(select(sessions).where(
            sessions.c.chat == chat, KEPT).order_by(sessions.c.id))).all()
        settings = (await self.conn.execute(select(chat_settings.c.data).where(
            chat_settings.c.chat == chat))).scalar()
        return [session_of(r) for r in rows], settings_of(settings)

    async def hands_of(self, session_id: int) -> list[HandRecord]:
        rows = (await self.conn.execute(select(hand_rows).where(
            hand_rows.c.session_id == session_id, hand_rows.c.voided_at.is_(None))
            .order_by(hand_rows.c.no))).all()
        return [hand_of(r) for r in rows]

    async def payments(self, club_id: int) -> list[tuple[str, Any]]:
        rows = (await self.conn.execute(
            select(payments).join(club_tables, club_tables.c.chat == payments.c.chat)
            .where(club_tables.c.club_id == club_id, payments.c.voided_at.is_(None))
            .order_by(payments.c.id))).all()
        return [(r.chat, payment_of(r)) for r in rows]


async def chats_changed(conn: Any, chats: list[str], forget_games: bool = False) -> None:
    """Whatever changed these chats' games (an import, a restore, /link, /forget): the
    clubs they are in build their figures again; `forget_games`: their games' rows go too,
    to be written again from the games as they are now."""
    if not chats:
        return
    if forget_games:
        await conn.execute(delete(game_summaries).where(game_summaries.c.chat.in_(chats)))
    club_ids = select(club_tables.c.club_id).where(club_tables.c.chat.in_(chats))
    await conn.execute(update(clubs).where(clubs.c.id.in_(club_ids))
                       .values(epoch=clubs.c.epoch + 1))


async def move_club_table(conn: Any, old: str, new: str) -> None:
    """A chat moved to a new key (a Telegram group upgraded): its club table and its
    games' rows go with it (where the new key is a table of its own already, that one
    stays and the old chat's table goes)."""
    await conn.execute(update(game_summaries).where(game_summaries.c.chat == old)
                       .values(chat=new))
    taken = (await conn.execute(select(club_tables.c.chat).where(
        club_tables.c.chat == new))).scalar()
    if taken is None:
        await conn.execute(update(club_tables).where(club_tables.c.chat == old)
                           .values(chat=new))
    else:
        await conn.execute(delete(club_tables).where(club_tables.c.chat == old))
    await chats_changed(conn, [new])


async def forget_club_table(conn: Any, chat: str) -> None:
    """A chat forgotten: out of its club, its games' rows gone."""
    await chats_changed(conn, [chat], forget_games=True)
    await conn.execute(delete(club_tables).where(club_tables.c.chat == chat))


async def forget_in_clubs(conn: Any, person: str, forgotten: str) -> None:
    """A person forgotten: their accounts' links, their codes, their say in clubs."""
    linked = (await conn.execute(select(account_links.c.person).where(
        account_links.c.account == person))).scalar()
    await forget_in_tournaments(conn, {person} | ({linked} if linked else set()), forgotten)
    if linked is not None:
        await conn.execute(delete(account_links).where(account_links.c.person == linked))
    await conn.execute(delete(club_codes).where(club_codes.c.subject == person))
    await conn.execute(update(club_codes).where(club_codes.c.made_by == person)
                       .values(made_by=forgotten))
    await conn.execute(update(club_codes).where(club_codes.c.used_by == person)
                       .values(used_by=forgotten))
    for row in (await conn.execute(select(clubs))).all():
        club = _club(row)
        if club.owner == person or person in club.admins:
            club.admins.pop(person, None)
            if club.owner == person:
                club.owner, club.owner_name = forgotten, ""
            await conn.execute(update(clubs).where(clubs.c.id == club.id).values(
                owner=club.owner, data=club.data()))
    await conn.execute(update(clubs).values(epoch=clubs.c.epoch + 1))
