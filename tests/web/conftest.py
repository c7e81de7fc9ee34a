"""The web side against the real Telegram adapter and its fake Bot API, on both databases:
a WebServer on a free port of 127.0.0.1, as `python -m bot run` starts it with WEB_PORT,
WEB_URL and TELEGRAM_MINIAPP set."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.console import ConsoleFace, console_actor
from bot.core.service import Service
from bot.storage import SqlStore
from bot.web.server import WebServer
from tests.conftest import Table, running_telegram
from tests.telegram_helpers import Harness

PUBLIC = "https://maal.example.org"  # WEB_URL: what the links say
MINIAPP = "scorepad"  # TELEGRAM_MINIAPP


@dataclass
class Web:
    server: WebServer
    tg: Harness | None
    http: aiohttp.ClientSession
    out: io.StringIO | None = None  # the console's stdout

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def local(self, link: str) -> str:
        """A link the bot gave (WEB_URL...) as this test reaches it."""
        return link.replace(PUBLIC, self.base)

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.base + path, json=body) as response:
            return response.status, await response.json()


@asynccontextmanager
async def serving(store: SqlStore) -> AsyncIterator[Web]:
    """The pages of `store`'s bot, its Telegram adapter against the fake Bot API."""
    async with running_telegram(Service(store)) as tg:
        tg.adapter.miniapp = MINIAPP
        server = WebServer(tg.service, base_url=PUBLIC, secret=tg.service.secret, port=0,
                           faces={"telegram": tg.adapter}, telegram_token=tg.fake.token)
        await server.start()
        try:
            async with aiohttp.ClientSession() as http:
                yield Web(server, tg, http)
        finally:
            await server.stop()


@pytest.fixture
async def web(store: SqlStore) -> AsyncIterator[Web]:
    async with serving(store) as found:
        yield found


@pytest.fixture
async def console_web(store: SqlStore) -> AsyncIterator[Web]:
    """The console's pages: its one person uses the pad with the link alone."""
    async with console_serving(store) as found:
        yield found


@asynccontextmanager
async def console_serving(store: SqlStore) -> AsyncIterator[Web]:
    """The console's pages for `store`'s bot."""
    service = Service(store)
    out = io.StringIO()
    me = console_actor("host")
    server = WebServer(service, base_url="http://127.0.0.1:0", secret=service.secret, port=0,
                       faces={"console": ConsoleFace(out, False, me)}, local=("console", me))
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield Web(server, None, http, out)
    finally:
        await server.stop()


def console_table(web: Web) -> Table:
    return Table(web.server.service, chat="console", admin="host")
