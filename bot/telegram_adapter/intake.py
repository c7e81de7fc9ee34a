"""How Telegram's updates come in: stored in the inbox before Telegram is told they arrived
(the next getUpdates offset, or the webhook's 200), then handled from there, each chat in
order and different chats side by side.

python-telegram-bot's own Updater confirms a batch as soon as it asks for the next one and
keeps it in memory, so a process killed mid-burst loses the batch; this intake keeps it in
the database instead. An update whose reply could not be sent is tried again later, and the
earlier answer is sent then (the core never records it twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.error import NetworkError, RetryAfter
from telegram.ext import Application

from bot.core.pages import conceal
from bot.storage.transaction.inbox import Inbox

log = logging.getLogger(__name__)
MAX_CHATS_AT_ONCE = 32
BODY_SECONDS = 10.0  # a webhook POST's body arrives within this, or is answered 408
RETRY_TICK = 5.0  # seconds between looks for updates due to be tried again


@dataclass
class Delivery:
    """What the adapter learns while handling one update from the inbox."""

    redelivery: bool  # handled before, its reply never confirmed sent: send it again
    failed: bool = False  # a reply could not be sent, even after retries


delivery: ContextVar[Delivery | None] = ContextVar("delivery", default=None)


def chat_of(payload: Mapping[str, Any]) -> str:
    """The chat an update belongs to, for ordering: its message's, its button's, or the
    chat whose member the bot is (my_chat_member)."""
    for key in ("message", "edited_message", "channel_post", "my_chat_member"):
        if isinstance(payload.get(key), Mapping):
            return str(payload[key].get("chat", {}).get("id", "-"))
    query = payload.get("callback_query")
    if isinstance(query, Mapping) and isinstance(query.get("message"), Mapping):
        return str(query["message"].get("chat", {}).get("id", "-"))
    return "-"


class Intake:
    def __init__(self, app: Application, inbox: Inbox, allowed: list[str],
                 poll_timeout: int) -> None:
        self.app = app
        self.inbox = inbox
        self.allowed = allowed
        self.poll_timeout = poll_timeout
        self._chains: dict[str, asyncio.Task[None]] = {}  # a chat's last queued update
        self._in_flight: set[int] = set()
        self._slots = asyncio.Semaphore(MAX_CHATS_AT_ONCE)
        self._tasks: list[asyncio.Task[None]] = []
        self._running = False
        self._runner: web.AppRunner | None = None
        self._secret = ""
        self._left_before: datetime | None = None

    # --- running -------------------------------------------------------------------------

    async def start_polling(self) -> None:
        # Telegram allows one poller per token: a row "working" from before now was left by a
        # process that died (this one's predecessor) and is taken again at once
        self._left_before = datetime.now(UTC)
        await self._start()
        self._tasks.append(asyncio.create_task(self._poll(), name="telegram-poll"))

    async def start_webhook(self, listen: str, port: int, secret: str,
                            path: str = "/telegram") -> None:
        """Take Telegram's POSTs on a listener of our own at `path` (and /telegram)."""
        await self._start()
        self._secret = secret
        app = web.Application()
        for route in dict.fromkeys(("/telegram", path)):
            app.router.add_post(route, self.received)
        self._runner = web.AppRunner(app, keepalive_timeout=75.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, listen, port).start()

    async def start_shared(self, secret: str) -> None:
        """Take Telegram's POSTs through another server's route (the web pages', when they
        share the host's one port): `received` is that route's handler."""
        await self._start()
        self._secret = secret

    @property
    def taking(self) -> bool:
        return self._running and bool(self._secret)

    async def _start(self) -> None:
        self._running = True
        await self._backlog()  # what a process before this one left unfinished, first
        self._tasks.append(asyncio.create_task(self._retries(), name="telegram-retries"))

    async def stop(self) -> None:
        """Stop taking updates in; let those in hand finish."""
        self._running = False
        if self._runner is not None:
            await self._runner.cleanup()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        chains = list(self._chains.values())
        if chains:
            await asyncio.wait(chains, timeout=30)

    # --- in ------------------------------------------------------------------------------

    async def _poll(self) -> None:
        offset = await self.inbox.next_offset()
        delay = 0.5
        while self._running:
            try:
                updates = await self.app.bot.get_updates(
                    offset=offset, timeout=self.poll_timeout, allowed_updates=self.allowed,
                    read_timeout=self.poll_timeout + 10)
            except RetryAfter as error:
                await asyncio.sleep(_seconds(error.retry_after))
                continue
            except NetworkError as error:
                log.warning("telegram: getUpdates failed (%s); again in %.1fs", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30)
                continue
            delay = 0.5
            if not updates:
                continue
            rows = [(u.update_id, chat_of(u.to_dict()), u.to_dict()) for u in updates]
            await self._keep(rows)
            # only now does the next getUpdates (offset past them) confirm them to Telegram
            offset = updates[-1].update_id + 1

    async def received(self, request: web.Request) -> web.Response:
        """A webhook POST: kept, then 200; 403 without the secret, 400 for what is no
        update, 408 for a body slower than BODY_SECONDS (Telegram sends it again)."""
        if not self.taking:
            return web.Response(status=503, text="Not taking updates yet.")
        if not hmac.compare_digest(
                request.headers.get("X-Telegram-Bot-Api-Secret-Token", ""), self._secret):
            return web.Response(status=403)
        try:
            async with asyncio.timeout(BODY_SECONDS):
                raw = await request.read()
        except TimeoutError:
            return web.Response(status=408, text="The update took too long to arrive.")
        try:
            payload = json.loads(raw)
            update_id = int(payload["update_id"])
        except (ValueError, KeyError, TypeError, RecursionError):
            return web.Response(status=400, text="That is no Telegram update.")
        await self._keep([(update_id, chat_of(payload), payload)])
        return web.Response()  # 200 only once it is stored: Telegram re-sends otherwise

    async def _keep(self, rows: list[tuple[int, str, Mapping[str, Any]]]) -> None:
        # an update carries the bot's own message it answers (a tap's, a reply's), with its
        # links and its Scorepad button: kept without their tokens (bot/core/pages.py)
        rows = [(update_id, chat, conceal(payload)) for update_id, chat, payload in rows]
        stored = set(await self.inbox.store(rows))
        for update_id, chat, _ in rows:
            if update_id in stored:
                self._schedule(update_id, chat)

    async def _backlog(self) -> None:
        now = datetime.now(UTC)
        for update_id, chat, not_before in await self.inbox.unfinished():
            if not_before <= now:
                self._schedule(update_id, chat)

    async def _retries(self) -> None:
        while self._running:
            await asyncio.sleep(RETRY_TICK)
            with contextlib.suppress(Exception):
                await self._backlog()
                await self.inbox.prune()

    # --- handling ------------------------------------------------------------------------

    def _schedule(self, update_id: int, chat: str) -> None:
        """After the chat's previous update: in order within a chat, chats side by side."""
        if update_id in self._in_flight:
            return
        self._in_flight.add(update_id)
        before = self._chains.get(chat)
        task = asyncio.create_task(self._after(before, update_id))
        self._chains[chat] = task
        task.add_done_callback(lambda done: self._forget(chat, done))

    def _forget(self, chat: str, task: asyncio.Task[None]) -> None:
        if self._chains.get(chat) is task:
            del self._chains[chat]

    async def _after(self, before: asyncio.Task[None] | None, update_id: int) -> None:
        try:
            if before is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await before
            async with self._slots:
                await self._handle(update_id)
        except Exception:
            log.exception("telegram: update %s failed", update_id)
        finally:
            self._in_flight.discard(update_id)

    async def _handle(self, update_id: int) -> None:
        claimed = await self.inbox.claim(update_id, self._left_before)
        if claimed is None:
            return  # finished, waiting for its retry, or another process has it
        outcome = Delivery(redelivery=claimed["attempts"] > 1)
        token = delivery.set(outcome)
        try:
            await self.app.process_update(Update.de_json(claimed["payload"], self.app.bot))
        finally:
            delivery.reset(token)
        if outcome.failed:
            again = await self.inbox.later(update_id, claimed["attempts"])
            log.warning("telegram: a reply to update %s was not sent; %s", update_id,
                        "will try again" if again else "giving up")
        else:
            await self.inbox.finish(update_id)


def _seconds(value: Any) -> float:
    return float(value.total_seconds() if hasattr(value, "total_seconds") else value)
