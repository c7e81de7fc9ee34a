"""A table's web pages in the database (migration 18): a link's hash to its table, and what
the live pages watch to know a table changed; a club's page likewise (its row's chat is
`club:<id>`), watching its club.

The token itself is never kept (bot/core/pages.py): a page's row is its token's hash, its
chat and its kind. A chat keeps at most one row of each kind."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Text, cast, delete, func, insert, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.engine.database import READ_ONLY
from bot.storage.engine.tables import (
    club_tables,
    clubs,
    game_summaries,
    pages,
    payments,
    seasons,
    sessions,
    tournaments,
)

# What a table's pages show changed when this changed: its games (every save of a game
# raises its version; a new game adds one), its payments, its seasons and its pages' links
# (a link turned off or replaced closes the pages open with it)
Version = tuple[object, ...]


async def set_page(conn: Any, chat: str, kind: str, digest: str | None) -> None:
    """The chat's page of `kind` is now the link whose hash is `digest` (None: it has none);
    the link it had opens nothing from now on."""
    await conn.execute(delete(pages).where(pages.c.chat == chat, pages.c.kind == kind))
    if digest is not None:
        await conn.execute(insert(pages).values(digest=digest, chat=chat, kind=kind,
                                                created_at=datetime.now(UTC)))


async def digest_of_page(conn: Any, chat: str, kind: str) -> str | None:
    """The hash of the link that opens the chat's page of `kind`, or None."""
    return (await conn.execute(select(pages.c.digest).where(
        pages.c.chat == chat, pages.c.kind == kind))).scalar()


async def page_of(engine: AsyncEngine, digest: str) -> tuple[str, str] | None:
    """The (chat, kind) a link's hash opens, or None."""
    async with engine.connect() as conn:
        await conn.execution_options(**{READ_ONLY: True})
        row = (await conn.execute(select(pages.c.chat, pages.c.kind)
                                  .where(pages.c.digest == digest))).first()
    return (row.chat, row.kind) if row is not None else None


async def versions(engine: AsyncEngine, chats: Collection[str]) -> dict[str, Version]:
    """Each chat's version as its pages see it, in one round trip: changed whenever a hand,
    an undo, an edit, a rule, a seat, a game, a payment, a season or a page's link
    changed."""
    if not chats:
        return {}
    keys = sorted(chats)

    def counted(table: Any, changed: Any, part: int) -> Any:
        return (select(table.c.chat, literal(part).label("part"), func.count().label("n"),
                       changed.label("v"))
                .where(table.c.chat.in_(keys)).group_by(table.c.chat))

    text = Text()
    query = union_all(
        counted(sessions, cast(func.coalesce(func.sum(sessions.c.version), 0), text), 0),
        counted(payments, cast(func.count(payments.c.voided_at), text), 1),
        counted(seasons, cast(func.count(seasons.c.ended_at), text), 2),
        counted(pages, func.coalesce(func.max(pages.c.digest), ""), 3))
    found: dict[str, list[object]] = {key: [0, ""] * 4 for key in keys}
    async with engine.connect() as conn:
        await conn.execution_options(**{READ_ONLY: True})
        for row in (await conn.execute(query)).all():
            found[row.chat][2 * row.part:2 * row.part + 2] = [int(row.n), str(row.v)]
    return {key: tuple(value) for key, value in found.items()}


CLUB_PAGE, CLUB_KIND = "club:", "club"  # a club's page: its row's chat (club:<id>), kind


class ClubVersion(NamedTuple):
    """What a club's page shows changed when this changed: its epoch (whatever has its
    figures built again), its name and settings, its tables, its games' rows (a game's end
    adds one) and its page's link. `table`: the chat of its first table, which the page
    reads through (None: it has no table left)."""

    table: str | None
    epoch: int
    club: str
    tables: str
    games: int
    last: int
    link: str
    tournaments: str = ""  # each tournament's id and version: one changed, the page too


async def club_versions(engine: AsyncEngine, keys: Collection[str]) -> dict[str, ClubVersion]:
    """Each club page's version, by its row's chat (club:<id>); a club that is no more is
    one with no table and epoch -1."""
    ids = {int(key[len(CLUB_PAGE):]): key for key in keys
           if key.startswith(CLUB_PAGE) and key[len(CLUB_PAGE):].isdecimal()}
    found: dict[str, ClubVersion] = {key: ClubVersion(None, -1, "", "", 0, 0, "")
                                     for key in keys}
    if not ids:
        return found
    wanted = sorted(ids)
    async with engine.connect() as conn:
        await conn.execution_options(**{READ_ONLY: True})
        made = {r.id: r for r in (await conn.execute(
            select(clubs.c.id, clubs.c.epoch, clubs.c.name, cast(clubs.c.data, Text()))
            .where(clubs.c.id.in_(wanted)))).all()}
        tables: dict[int, list[str]] = {}
        for row in (await conn.execute(
                select(club_tables.c.club_id, club_tables.c.chat)
                .where(club_tables.c.club_id.in_(wanted))
                .order_by(club_tables.c.joined_at, club_tables.c.chat))).all():
            tables.setdefault(row.club_id, []).append(row.chat)
        games = {r.club_id: (int(r.n), int(r.last or 0)) for r in (await conn.execute(
            select(club_tables.c.club_id, func.count(game_summaries.c.id).label("n"),
                   func.max(game_summaries.c.id).label("last"))
            .join(game_summaries, game_summaries.c.chat == club_tables.c.chat)
            .where(club_tables.c.club_id.in_(wanted))
            .group_by(club_tables.c.club_id))).all()}
        held: dict[int, list[str]] = {}
        for row in (await conn.execute(
                select(tournaments.c.club_id, tournaments.c.id, tournaments.c.version)
                .where(tournaments.c.club_id.in_(wanted)).order_by(tournaments.c.id))).all():
            held.setdefault(row.club_id, []).append(f"{row.id}:{row.version}")
        links = {r.chat: r.digest for r in (await conn.execute(
            select(pages.c.chat, pages.c.digest).where(pages.c.chat.in_(list(ids.values())),
                                                       pages.c.kind == CLUB_KIND))).all()}
    for club_id, key in ids.items():
        row = made.get(club_id)
        if row is None:
            continue
        chats = tables.get(club_id, [])
        n, last = games.get(club_id, (0, 0))
        found[key] = ClubVersion(chats[0] if chats else None, int(row.epoch),
                                 f"{row.name}\n{row[3]}", "\n".join(chats), n, last,
                                 links.get(key) or "", " ".join(held.get(club_id, [])))
    return found
