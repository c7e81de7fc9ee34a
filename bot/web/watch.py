"""Which tables changed, for the live pages: a poll of the watched tables' versions.

Every EVERY seconds one query reads the version of every table that has a page open in this
process (bot/storage/transaction/pages.py: its games' versions, its payments, its seasons), and
wakes the pages of those that changed. A poll, not PostgreSQL's LISTEN/NOTIFY: it sees a change
made by any process on either database (SQLite's several processes included) with no
channel to keep alive or to miss while reconnecting, and one small query a second costs
nothing; a command of this process (the pad's) also wakes the poll at once (`poke`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection

log = logging.getLogger(__name__)

EVERY = 1.0  # seconds between two polls: a change shows within this and a page's build
Versions = Callable[[Collection[str]], Awaitable[dict[str, tuple[object, ...]]]]


class Watch:
    """One open page's view of its table: `changed` is set when the table changed."""

    def __init__(self, chat: str) -> None:
        self.chat = chat
        self.changed = asyncio.Event()
        self.version: tuple[object, ...] | None = None


class Watcher:
    def __init__(self, versions: Versions, every: float = EVERY) -> None:
        self._versions = versions
        self.every = every
        self._watches: dict[str, set[Watch]] = {}
        self._known: dict[str, tuple[object, ...]] = {}
        self._poked = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def watch(self, chat: str) -> Watch:
        watch = Watch(chat)
        watch.version = self._known.get(chat)
        self._watches.setdefault(chat, set()).add(watch)
        self._start()
        return watch

    def unwatch(self, watch: Watch) -> None:
        watching = self._watches.get(watch.chat)
        if watching is not None:
            watching.discard(watch)
            if not watching:
                del self._watches[watch.chat]
                self._known.pop(watch.chat, None)

    def version(self, chat: str) -> tuple[object, ...] | None:
        return self._known.get(chat)

    def poke(self) -> None:
        """Something changed here: look now rather than at the next tick."""
        self._poked.set()

    @property
    def pages(self) -> int:
        return sum(len(w) for w in self._watches.values())

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._watches:
            try:
                await self.check()
            except Exception:  # the database is away: the pages keep what they show
                log.warning("web: could not read the tables' versions", exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self.every)
            self._poked.clear()

    async def check(self) -> None:
        """Read the watched tables' versions once and wake the pages of those that
        changed."""
        chats = list(self._watches)
        if not chats:
            return
        found = await self._versions(chats)
        for chat, version in found.items():
            self._known[chat] = version
            for watch in list(self._watches.get(chat, ())):
                if watch.version != version:
                    watch.version = version
                    watch.changed.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._watches.clear()
