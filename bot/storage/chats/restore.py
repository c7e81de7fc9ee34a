"""`python -m bot restore`: a backup (one chat's, or every chat's) put back into empty chats.

The file is never held whole: it is read twice as /import reads a big file (reading.py),
once for its shape without the hands, once for the hands, each checked as /import checks
it (validate.SessionCheck) and written a batch at a time. Unlike /import it is all one
transaction: every chat restored or none, and a hand found bad late in the file leaves
nothing written. A restore is run by the host, most often into a new database; on SQLite
the bot's commands, if it runs meanwhile, wait for it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.core.i18n import _
from bot.storage.chats.backup import ALL_FORMAT, Writer, check_empty, restore_settings
from bot.storage.chats.club_file import checked_club, restore_club
from bot.storage.chats.reading import Outline, changed, walk_every, walk_hands
from bot.storage.chats.validate import Checked, RestoreError, SessionCheck, heads, tail
from bot.storage.transaction.clubs import chats_changed

BATCH = 1_000  # hands an executemany

# (hands written, hands to write): told after every batch (the command line's progress)
Told = Callable[[int, int], None]


@dataclass
class _Chat:
    """One chat of the file to restore: where it is in the file, its shape, its target."""

    index: int
    shape: Outline
    target: str
    every: bool  # from a file of every chat: errors name the chat
    checked: Checked | None = None
    checks: list[SessionCheck] | None = None

    def named(self, error: RestoreError) -> RestoreError:
        if not self.every:
            return error
        return RestoreError(_("chat {chat}: {why}", chat=str(self.shape.data.get("chat"))[:60],
                              why=error.message))


def is_every(shape: Outline) -> bool:
    """Whether the file is a backup of every chat (`python -m bot backup` with no --chat)."""
    return isinstance(shape.data, Mapping) and shape.data.get("format") == ALL_FORMAT


def _chats(shape: Outline, only: str | None) -> list[_Chat]:
    """The chats to restore, each checked but for its hands, payments and seasons."""
    if not is_every(shape):
        data = shape.data
        chat = _Chat(0, shape, only or (data.get("chat") if isinstance(data, Mapping)
                                        else None) or "", False)
        chat.checked, chat.checks = heads(data, shape.counts)
        if not chat.target:
            raise RestoreError(_("the backup names no chat; give one"))
        return [chat]
    found = shape.data.get("chats")
    if not isinstance(found, list) or not all(isinstance(c, Mapping) for c in found):
        raise RestoreError(_("`chats` must be a list of exports"))
    chats = [_Chat(i, c, str(c.data.get("chat")), True) for i, c in enumerate(shape.chats)
             if only is None or c.data.get("chat") == only]
    if only is not None and not chats:
        raise RestoreError(_("the file has no chat {chat}", chat=only))
    for chat in chats:
        try:
            chat.checked, chat.checks = heads(chat.shape.data, chat.shape.counts)
            if not isinstance(chat.shape.data.get("chat"), str) or not chat.target:
                raise RestoreError(_("the backup names no chat; give one"))
        except RestoreError as error:
            raise chat.named(error) from None
    return chats


def _exhaust(steps: Iterator[Any]) -> None:
    for _step in steps:
        pass


async def restore_file(engine: AsyncEngine, path: Path, shape: Outline,
                       only: str | None, told: Told | None = None) -> tuple[list[str], int]:
    """Restore the file `shape` outlined (reading.outline(path, every=True)): a file of
    every chat into the chats of their names (`only`: that one), a one-chat file into its
    chat or `only`; `told` hears of every batch written. Returns (chats, sessions).
    RestoreError names what is wrong; then nothing is written."""
    chats = _chats(shape, only)
    every = is_every(shape)
    # a club's file: its club checked whole now, made again once its tables are written
    club = checked_club(shape.data["club"], [c.target for c in chats]) \
        if every and only is None and "club" in shape.data else None
    total = sum(sum(c.shape.counts) for c in chats)
    done = 0

    def wrote(count: int) -> None:
        nonlocal done
        done += count
        if told is not None and count:
            told(done, total)

    walk = _again(path, every)
    try:
        async with engine.begin() as conn:
            for chat in chats:  # said before anything is read again
                await check_empty(conn, chat.target, chat.shape.data)
            for chat in chats:
                try:
                    await _write(conn, chat, walk, wrote)
                except RestoreError as error:
                    raise chat.named(error) from None
            if club is not None:
                await restore_club(conn, club)
            await chats_changed(conn, [c.target for c in chats])  # their clubs count them
            chosen = {c.index for c in chats}
            if any(at in chosen for at, _index, _hand in walk):  # more than first read
                raise changed()
    finally:
        walk.close()
    return [c.target for c in chats], sum(len(c.shape.data["sessions"]) for c in chats)


def _again(path: Path, every: bool) -> Generator[tuple[int, int, Any], None, None]:
    """The file's hands, read again, as (chat index, session index, hand)."""
    try:
        if every:
            yield from walk_every(path)
        else:
            for index, hand in walk_hands(path):
                yield 0, index, hand
    except OSError:  # gone or unreadable since the first read: not the file it was
        raise changed() from None


def _next_hand(walk: Iterator[tuple[int, int, Any]], chat: int, session: int) -> Any:
    """The next hand of session `session` of chat `chat`; other chats' hands passed over
    (`--chat`: one chat of the file). The first read counted them."""
    for at, index, hand in walk:
        if at < chat:
            continue
        if (at, index) != (chat, session):
            break
        return hand
    raise changed()


async def _write(conn: AsyncConnection, chat: _Chat, walk: Iterator[tuple[int, int, Any]],
                 wrote: Callable[[int], None]) -> None:
    data, checked, checks = chat.shape.data, chat.checked, chat.checks
    assert checked is not None and checks is not None
    writer = Writer(data, checked, chat.target)
    for index, (session, check) in enumerate(zip(data["sessions"], checks, strict=True)):
        await writer.begin(conn, session, chat.shape.named[index])
        batch: list[Any] = []
        for _no in range(chat.shape.counts[index]):
            hand = _next_hand(walk, chat.index, index)
            check.hand(hand)
            batch.append(hand)
            if len(batch) == BATCH:
                await writer.hands(conn, session, batch)
                wrote(len(batch))
                batch = []
        derived = check.finish()
        checked.sessions.append(derived)
        await writer.hands(conn, session, batch)
        wrote(len(batch))
        await writer.end(conn, session, derived)
    _exhaust(tail(data, checked))
    await writer.rest(conn)
    await restore_settings(conn, chat.target, data)
