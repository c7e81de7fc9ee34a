"""An /import too big for one command's transaction, done beside the other chats' commands.

The file is never held whole: it is read twice from what was sent (its bytes, gzipped or
not, or the console's file), unpacked a chunk at a time (bot/storage/chats/reading.py). The first
read checks its shape and keeps it without the hands; the second checks the hands one at a
time (validate.SessionCheck) and writes them a batch at a time, each batch a transaction of
its own, under a staging chat key nobody uses ("import:<time>:<id>"), so no chat shows half
an import; the last transaction checks the chat is still empty and moves the rows to it at
once. An import that fails or is given up is taken away; one left by a process that died
is swept away by the next big import a day later. Between steps the event loop runs other
chats' commands; on SQLite, whose writers take turns, they queue between batches.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Generator, Iterator, Mapping
from typing import Any

from sqlalchemy import delete, func, select, update

from bot.storage.chats.backup import Writer, check_empty, restore_settings
from bot.storage.chats.reading import STEP, Source, changed, outline, walk_hands
from bot.storage.chats.validate import heads, tail
from bot.storage.engine.tables import hands, payments, seasons, sessions
from bot.storage.transaction.clubs import chats_changed
from bot.storage.transaction.retention import pruned

BATCH = 1_000  # hands a transaction
STAGING = "import:"  # the chat key prefix of an import being written
LEFT_AFTER = 24 * 3600  # seconds: a staging chat this old was left by a process that died

# (done, total or None while reading, phase "reading" | "writing"): told after every step
Step = Callable[[int, int | None, str], Awaitable[None]]


async def _stepped(steps: Generator[int, None, Any], step: Step, total: int | None,
                   phase: str) -> Any:
    while True:
        try:
            done = next(steps)
        except StopIteration as finished:
            return finished.value
        await step(done, total, phase)
        await asyncio.sleep(0)  # the other chats' turn


def _next_hand(walk: Iterator[tuple[int, Any]], index: int) -> Any:
    """The next hand of session `index` on the second read: the first read counted it."""
    found = next(walk, None)
    if found is None or found[0] != index:
        raise changed()
    return found[1]


async def import_file(store: Any, chat: str, source: Source, origin_id: str | None,
                      reply_for: Callable[[int, bool], Mapping[str, Any]],
                      step: Step) -> tuple[Mapping[str, Any], bool]:
    """Import `source` into an empty `chat`: (the reply kept for it, whether it was already
    given: the same message handled before). RestoreError says what is wrong with the file;
    nothing is then left anywhere. `reply_for(sessions, open)` makes the reply, which is
    kept with the origin in the transaction that shows the import."""
    shape = await _stepped(outline(source), step, None, "reading")
    data = shape.data
    checked, checks = heads(data, shape.counts)  # all but the hands, payments and seasons
    total = sum(shape.counts)
    await _sweep(store)
    staging = f"{STAGING}{int(time.time())}:{uuid.uuid4().hex}"
    writer = Writer(data, checked, staging)

    async def written(session: Mapping[str, Any], batch: list[Any], first: bool,
                      named: set[int], last: bool) -> None:
        async with store.transaction(staging) as tx:
            if first:
                await writer.begin(tx.conn, session, named)
            await writer.hands(tx.conn, session, batch)
            if last:
                await writer.end(tx.conn, session, checked.sessions[-1])
        await step(writer.hands_written, total, "writing")

    walk = walk_hands(source)
    try:
        for index, (session, check) in enumerate(zip(data["sessions"], checks, strict=True)):
            batch: list[Any] = []
            first = True
            for _no in range(shape.counts[index]):
                hand = _next_hand(walk, index)
                check.hand(hand)
                batch.append(hand)
                if len(batch) == BATCH:
                    await written(session, batch, first, shape.named[index], False)
                    batch, first = [], False
                elif checked.hands % STEP == 0:
                    await step(writer.hands_written, total, "writing")
                    await asyncio.sleep(0)  # the other chats' turn
            checked.sessions.append(check.finish())
            await written(session, batch, first, shape.named[index], True)
        if next(walk, None) is not None:
            raise changed()
        await _stepped(tail(data, checked), step, total, "writing")
        async with store.transaction(staging) as tx:
            await writer.rest(tx.conn)
        async with store.transaction(chat) as tx:
            if origin_id is not None:
                previous = await tx.origin_reply(origin_id)
                if previous is not None:  # handled already (a redelivered message)
                    await _discard(tx.conn, staging)
                    if pruned(previous):  # its kept reply went (retention.py): said again
                        previous = reply_for(len(data["sessions"]), any(
                            s["status"] == "open" for s in data["sessions"]))
                    return previous, True
            await check_empty(tx.conn, chat, data)  # a /newgame meanwhile wins
            for table in (sessions, payments, seasons):
                await tx.conn.execute(update(table).where(table.c.chat == staging)
                                      .values(chat=chat))
            await restore_settings(tx.conn, chat, data)
            await chats_changed(tx.conn, [chat])  # its club counts the games it brought
            opened = any(s["status"] == "open" for s in data["sessions"])
            reply = reply_for(len(data["sessions"]), opened)
            if origin_id is not None:
                await tx.record_origin(origin_id, reply)
        if getattr(store, "file", None) is not None and checked.hands:
            store.file.mark()  # the chat's hands now: the SQLite file holds hands
        return reply, False
    except BaseException:
        # given up (an error, a timeout, a cancel): what was written goes, whatever happens
        await asyncio.shield(_discard_in(store, staging))
        raise
    finally:
        walk.close()  # the file, closed now, not when the reader is collected


async def _discard_in(store: Any, staging: str) -> None:
    async with store.transaction(staging) as tx:
        await _discard(tx.conn, staging)


async def _discard(conn: Any, staging: str) -> None:
    await conn.execute(delete(hands).where(hands.c.session_id.in_(
        select(sessions.c.id).where(sessions.c.chat == staging))))
    for table in (sessions, payments, seasons):
        await conn.execute(delete(table).where(table.c.chat == staging))


async def _sweep(store: Any) -> None:
    """Staging chats left by a process that died mid-import, a day on."""
    async with store.transaction(STAGING, write=False) as tx:
        found = set()
        for table in (sessions, payments, seasons):
            rows = await tx.conn.execute(select(func.distinct(table.c.chat))
                                         .where(table.c.chat.like(f"{STAGING}%")))
            found |= {r[0] for r in rows}
    now = time.time()
    for staging in found:
        started = staging[len(STAGING):].partition(":")[0]
        if started.isdecimal() and now - int(started) > LEFT_AFTER:
            await _discard_in(store, staging)
