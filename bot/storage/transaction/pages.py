"""A table's web pages in the database (migration 18): a link's hash to its table, and what
the live pages watch to know a table changed.

The token itself is never kept (bot/core/pages.py): a page's row is its token's hash, its
chat and its kind. A chat keeps at most one row of each kind."""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Text, cast, delete, func, insert, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.engine.database import READ_ONLY
from bot.storage.engine.tables import pages, payments, seasons, sessions

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
