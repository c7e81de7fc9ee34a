"""Telegram's flood limits, with a 429 holding up only the chat it was for.

PTB's AIORateLimiter keeps the same limits (30 messages a second in all, 20 a minute in a
group) but stops *every* request after any 429 until its retry_after has passed: with chats
handled at once, one busy group told to wait most of a minute would hold up every other
chat's replies just as the serial handling did. Here a 429 for a chat pauses that chat's
requests; one for a request without a chat (getUpdates, setMyCommands) pauses all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.constants import FloodLimit
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)
ALL = "*"  # the pause of requests for no chat, which every request waits out


class ChatRateLimiter(BaseRateLimiter[int]):
    def __init__(
        self,
        overall_max_rate: float = FloodLimit.MESSAGES_PER_SECOND,
        group_max_rate: float = FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP,
        max_retries: int = 3,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._overall = AsyncLimiter(overall_max_rate, 1) if overall_max_rate else None
        self._group_max_rate = group_max_rate
        self._groups: dict[int | str, AsyncLimiter] = {}
        self.max_retries = max_retries
        self._sleep = sleep  # the tests hold a pause with an event instead of a clock
        self._paused: dict[int | str, float] = {}  # chat (or ALL) -> monotonic end of pause

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    def paused(self, chat: int | str) -> bool:
        return self._paused.get(chat, 0.0) > time.monotonic()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, bool | dict[str, Any] | list[dict[str, Any]]]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> bool | dict[str, Any] | list[dict[str, Any]]:
        chat: int | str | None = data.get("chat_id")
        with contextlib.suppress(TypeError, ValueError):
            chat = int(chat)  # type: ignore[arg-type]
        # As AIORateLimiter: a negative id (or an @name) is a group or channel.
        group = chat if isinstance(chat, str) or (isinstance(chat, int) and chat < 0) \
            else None
        retries = self.max_retries if rate_limit_args is None else rate_limit_args
        for attempt in range(retries + 1):
            await self._wait_out(chat)
            try:
                async with contextlib.AsyncExitStack() as limits:
                    if group is not None and self._group_max_rate:
                        await limits.enter_async_context(self._group(group))
                    if chat is not None and self._overall is not None:
                        await limits.enter_async_context(self._overall)
                    return await callback(*args, **kwargs)
            except RetryAfter as error:
                if attempt == retries:
                    raise
                wait = error.retry_after if isinstance(error.retry_after, int | float) \
                    else error.retry_after.total_seconds()
                key = ALL if chat is None else chat
                self._paused[key] = max(self._paused.get(key, 0.0),
                                        time.monotonic() + float(wait) + 0.1)
                log.info("telegram: 429 for %s; it waits %.1fs", key, wait)
        raise AssertionError("unreachable")

    def _group(self, group: int | str) -> AsyncLimiter:
        limiter = self._groups.get(group)
        if limiter is None:
            limiter = self._groups[group] = AsyncLimiter(self._group_max_rate, 60)
        return limiter

    async def _wait_out(self, chat: int | str | None) -> None:
        """Until neither this chat nor everything is paused."""
        while True:
            ends = max(self._paused.get(ALL, 0.0),
                       self._paused.get(chat, 0.0) if chat is not None else 0.0)
            left = ends - time.monotonic()
            if left <= 0:
                return
            await self._sleep(left)
