"""A chat's records moved to a new key, once: a Telegram group upgraded to a supergroup gets
a new chat id, and its games, hands, ledger, seasons, settings and the rest go with it.

Everything keyed by chat moves: sessions (and so their hands), payments, seasons, the
settings, the kept replies of origins, and the inbox's updates of the chat; a forum topic's
records (`old:THREAD`) go to `new:THREAD`. The old key keeps one row, its settings, saying
where the chat went (`ChatSettings.moved_to`): a command still arriving there is answered
under the new key (Service), and a second move of the same chat finds it and does nothing.
That row and the move are one transaction, under the old chat's lock and then the new
one's (PostgreSQL; SQLite has one writer), so two processes told of the same upgrade at once
(the two service messages, a 400 for a reply) move it exactly once.

A live board's message and a maal prompt's are in the old chat, which is gone: they are
forgotten, and the next change posts the board in the new chat. If the new chat has an open
game already (a command there came in before the move), the one with more hands stays open
and the other is ended as it stands (nothing is lost: /board last shows it); of two open
seasons the older ends where the newer began, so seasons still follow one another.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, or_, select, text, update

from bot.core.session import OPEN, ChatSettings, WaitingHand
from bot.storage.engine.tables import (
    chat_settings,
    inbox,
    origins,
    pages,
    payments,
    seasons,
    sessions,
)
from bot.storage.transaction.clubs import move_club_table

MOVED_BY = "moved"  # who ended a game or season a move left with two open (never an actor)
CHAT_TABLES = (sessions, payments, seasons, origins, chat_settings)


@dataclass
class Moved:
    """What a move took along."""

    sessions: int = 0
    payments: int = 0
    seasons: int = 0
    keys: int = 0  # the chat and its topics with records


def topic_keys(key: str) -> Any:
    """A condition on a table's chat column: the chat `key` or one of its topics."""
    def where(column: Any) -> Any:
        pattern = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ":%"
        return or_(column == key, column.like(pattern, escape="\\"))
    return where


async def chat_keys(conn: Any, key: str) -> list[str]:
    """The chat `key` and every topic of it (`key:THREAD`) that has any record."""
    within = topic_keys(key)
    found: set[str] = set()
    for table in CHAT_TABLES:
        rows = await conn.execute(select(table.c.chat).where(within(table.c.chat)).distinct())
        found |= {row[0] for row in rows}
    return sorted(found)


async def lock(conn: Any, keys: list[str]) -> None:
    """PostgreSQL: the chats' locks, as their commands take them (migration 10), in one
    order so two movers can't wait on each other."""
    if conn.dialect.name != "postgresql":
        return
    for key in sorted(set(keys)):
        await conn.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                           {"k": key})


async def move_chat(store: Any, old: str, new: str) -> Moved | None:
    """Move everything of chat `old` (and its topics) to `new`; None if it had moved
    already (by this process or another)."""
    async with store.transaction(old) as tx:
        conn = tx.conn
        await tx.prefetch(None)  # the old chat's lock first, as its commands take it
        if (await read_settings(conn, old)).moved_to:
            return None
        keys = await chat_keys(conn, old)
        pairs = [(key, new + key[len(old):]) for key in keys if key != old]
        await lock(conn, [new, *(n for _, n in pairs)])
        moved = Moved(keys=len(keys))
        for o, n in [(old, new), *pairs]:
            await _move_key(conn, o, n, moved)
        await _move_inbox(conn, old, new)
    for key in [old, new, *(k for pair in pairs for k in pair)]:
        store.windows.put(key, None)  # this process's cached hands of either
    return moved


async def _move_key(conn: Any, old: str, new: str, moved: Moved) -> None:
    now = datetime.now(UTC)
    # the games: at most one open per chat
    open_old = (await conn.execute(select(sessions.c.id, sessions.c.hand_count).where(
        sessions.c.chat == old, sessions.c.status == OPEN))).first()
    open_new = (await conn.execute(select(sessions.c.id, sessions.c.hand_count).where(
        sessions.c.chat == new, sessions.c.status == OPEN))).first()
    if open_old is not None and open_new is not None:
        ending = open_old.id if open_new.hand_count > open_old.hand_count else open_new.id
        await conn.execute(update(sessions).where(sessions.c.id == ending).values(
            status="ended", ended_at=now, version=sessions.c.version + 1))
    # a waiting hand's prompts are messages of the old chat: a reply there can't come
    for row in (await conn.execute(select(sessions.c.id, sessions.c.pending).where(
            sessions.c.chat == old, sessions.c.pending.is_not(None)))).all():
        waiting = WaitingHand.from_json(row.pending)
        if waiting is not None and waiting.prompts:
            waiting.prompts = []
            await conn.execute(update(sessions).where(sessions.c.id == row.id)
                               .values(pending=waiting.to_json()))
    result = await conn.execute(update(sessions).where(sessions.c.chat == old).values(
        chat=new, board_ref=None, version=sessions.c.version + 1))
    moved.sessions += result.rowcount
    # seasons: at most one open per chat
    open_seasons = (await conn.execute(
        select(seasons.c.id, seasons.c.chat, seasons.c.started_at)
        .where(seasons.c.chat.in_((old, new)), seasons.c.ended_at.is_(None))
        .order_by(seasons.c.started_at, seasons.c.id))).all()
    if len(open_seasons) == 2:  # the older ends where the newer began: seasons never overlap
        older, newer = open_seasons
        await conn.execute(update(seasons).where(seasons.c.id == older.id)
                           .values(ended_at=newer.started_at, ended_by=MOVED_BY))
    result = await conn.execute(update(seasons).where(seasons.c.chat == old)
                                .values(chat=new))
    moved.seasons += result.rowcount
    result = await conn.execute(update(payments).where(payments.c.chat == old)
                                .values(chat=new))
    moved.payments += result.rowcount
    await conn.execute(update(origins).where(origins.c.chat == old).values(chat=new))
    await move_club_table(conn, old, new)
    # the settings: the new chat's own choices over the old chat's; the old key says where
    before, after = await read_settings(conn, old), await read_settings(conn, new)
    # the old chat's page links open the moved table, but for a page the new one has
    for kind in before.pages:
        if kind in after.pages:
            await conn.execute(delete(pages).where(pages.c.chat == old, pages.c.kind == kind))
    await conn.execute(update(pages).where(pages.c.chat == old).values(chat=new))
    merged = _merge(before, after)
    await write_settings(conn, new, merged)
    await write_settings(conn, old, ChatSettings(moved_to=new))


def _merge(old: ChatSettings, new: ChatSettings) -> ChatSettings:
    default = ChatSettings()
    merged = ChatSettings(old.timezone, old.language, old.board, {**old.links, **new.links},
                          pages={**old.pages, **new.pages})
    for name in ("timezone", "language", "board"):
        if getattr(new, name) != getattr(default, name):
            setattr(merged, name, getattr(new, name))
    return merged


async def read_settings(conn: Any, chat: str) -> ChatSettings:
    row = (await conn.execute(select(chat_settings.c.data)
                              .where(chat_settings.c.chat == chat))).first()
    return ChatSettings.from_json(row[0] if row else None)


async def write_settings(conn: Any, chat: str, values: ChatSettings) -> None:
    data = values.to_json()
    updated = await conn.execute(update(chat_settings).where(chat_settings.c.chat == chat)
                                 .values(data=data))
    if updated.rowcount == 0:
        await conn.execute(insert(chat_settings).values(chat=chat, data=data))


def inbox_chat(key: str) -> str | None:
    """The inbox keeps Telegram's updates by their bare chat id (bot/telegram_adapter/
    intake.py): a whole Telegram chat's, for its key "telegram:ID"."""
    platform, _, rest = key.partition(":")
    return rest if platform == "telegram" and rest and ":" not in rest else None


async def _move_inbox(conn: Any, old: str, new: str) -> None:
    """Updates of the old chat not handled yet are handled in the new chat's turn."""
    before, after = inbox_chat(old), inbox_chat(new)
    if before is not None and after is not None:
        await conn.execute(update(inbox).where(inbox.c.chat == before).values(chat=after))
