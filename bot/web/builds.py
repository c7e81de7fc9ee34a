"""The JSON of a table's scoreboard, built once per (chat, version, language) and shared by
every open page that shows it (bot/web/scoreboard.py)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict

from bot.core.scoreboard import scoreboard_view
from bot.core.service import Service
from bot.core.views import read_view

BUILDS_KEPT = 256  # (table, version, language) builds kept for the pages that share them


class Builds:
    """The JSON of a table's page per (chat, version, language): built once, sent to every
    page that shows it."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._building: dict[tuple[object, ...], asyncio.Task[str]] = {}

    async def get(self, service: Service, chat: str, version: object, locale: str | None) -> str:
        key = (chat, version, locale)
        found = self._kept.get(key)
        if found is not None and version is not None:
            self._kept.move_to_end(key)
            return found
        task = self._building.get(key)
        if task is None:
            task = asyncio.ensure_future(self._build(service, chat, locale))
            self._building[key] = task
        try:
            built = await asyncio.shield(task)
        finally:
            self._building.pop(key, None)
        if version is not None:
            self._keep(key, built)
        return built

    def _keep(self, key: tuple[object, ...], value: str) -> None:
        self._kept[key] = value
        while len(self._kept) > BUILDS_KEPT:
            self._kept.popitem(last=False)

    async def opens(self, service: Service, digest: str, version: object) -> bool:
        """Whether the link hashed `digest` still opens its page at this version of its
        table (a page's link turned off or replaced changes the version): asked of the
        database once, however many of its pages ask at once."""
        key = ("link", digest, version)
        found = self._kept.get(key)
        if found is None:
            task = self._building.get(key)
            if task is None:
                task = asyncio.ensure_future(self._opens(service, digest))
                self._building[key] = task
            try:
                found = await asyncio.shield(task)
            finally:
                self._building.pop(key, None)
            self._keep(key, found)
        return found == "1"

    @staticmethod
    async def _opens(service: Service, digest: str) -> str:
        return "1" if await service.store.page(digest) is not None else ""

    @staticmethod
    async def _build(service: Service, chat: str, locale: str | None) -> str:
        view = await read_view(service, chat, locale, scoreboard_view)
        return json.dumps(view, ensure_ascii=False)
