"""Every request into a chat goes through here, and meets what Telegram does to chats.

- A network failure is retried (a 429 was retried by the rate limiter already); what still
  fails marks the update for the inbox to try again later.
- A group upgraded to a supergroup answers 400 with its new id (PTB's ChatMigrated): the
  chat's records move (`on_moved`) and the request goes to the new chat, and every later one
  straight there.
- A chat that removed or muted the bot (403 Forbidden, "not enough rights to send", or its
  my_chat_member update) is noted as unreachable, with one log line, until the bot hears
  from it again (told by my_chat_member: until another one lets it speak, since people in
  a chat that muted the bot still write); nothing is sent into it meanwhile, and nothing is
  retried.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from bot.telegram_adapter.intake import delivery
from bot.telegram_adapter.places import Place

log = logging.getLogger(__name__)
T = TypeVar("T")
SEND_ATTEMPTS = 4
# 400s that mean the bot can't speak in the chat at all (muted, or the chat is gone); the
# right to pin is another matter (the live board is then just not pinned)
MUTED = ("not enough rights to send", "have no rights to send", "chat_write_forbidden",
         "chat not found")
# a forum topic closed or deleted under a command: that topic can't be answered, the chat can
TOPIC_GONE = ("topic_closed", "topic_deleted", "message thread not found")


def cannot_speak(error: Exception) -> bool:
    """Does this refusal mean nothing can be sent into the chat now?"""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and any(m in str(error).lower() for m in MUTED)


def seconds(value: object) -> float:
    """A RetryAfter's wait: an int or, from PTB 22.2 on, a timedelta."""
    total = getattr(value, "total_seconds", None)
    return float(total() if total is not None else value)  # type: ignore[arg-type]


class Outbox:
    def __init__(self, on_moved: Callable[[int, int], Awaitable[None]]) -> None:
        self.on_moved = on_moved
        self.moves: dict[int, int] = {}  # an upgraded group's old id -> its new one
        self.unreachable: dict[int, str] = {}  # chat id -> why (kicked, muted, ...)
        # chats whose my_chat_member said the bot can't speak: only another one says it can
        # (people there still write; the bot still can't answer)
        self._by_status: set[int] = set()

    def where(self, place: Place) -> Place:
        """The place as it is now: an upgraded group's messages go to its supergroup (a
        group has no topics)."""
        moved = self.moves.get(place.chat_id)
        return place if moved is None else replace(place, chat_id=moved, thread_id=None)

    def heard(self, chat_id: int, status: bool = False) -> None:
        """The chat wrote to the bot (`status`: its my_chat_member let the bot speak): it
        can be answered again."""
        if chat_id in self._by_status and not status:
            return
        self._by_status.discard(chat_id)
        if self.unreachable.pop(chat_id, None) is not None:
            log.info("telegram: chat %s is reachable again", chat_id)

    def lost(self, chat_id: int, why: str, status: bool = False) -> None:
        """One line in the log when a chat stops taking the bot's messages (`status`: its
        my_chat_member said so)."""
        if chat_id not in self.unreachable:
            log.warning("telegram: chat %s does not take the bot's messages (%s); nothing is "
                        "sent there until %s", chat_id, why,
                        "the bot may speak there again" if status else "it writes again")
        self.unreachable[chat_id] = why
        if status:
            self._by_status.add(chat_id)

    async def send(self, place: Place, request: Callable[[Place], Awaitable[T]]) -> T | None:
        """`request(place)` into the chat as it is now; None if the chat can't be reached
        (then it is noted, not raised)."""
        for _hop in range(2):  # the request, and once more in an upgraded group's new chat
            place = self.where(place)
            if place.chat_id in self.unreachable:
                log.debug("telegram: not sent into unreachable chat %s", place.chat_id)
                return None
            try:
                return await self.retry(lambda place=place: request(place))
            except ChatMigrated as moved:
                self.moves[place.chat_id] = int(moved.new_chat_id)
                await self.on_moved(place.chat_id, int(moved.new_chat_id))
            except (Forbidden, BadRequest) as error:
                if place.thread_id is not None and any(
                        gone in str(error).lower() for gone in TOPIC_GONE):
                    log.warning("telegram: topic %s of chat %s is closed or gone (%s); not "
                                "sent", place.thread_id, place.chat_id, error)
                    return None
                if not cannot_speak(error):
                    raise
                self.lost(place.chat_id, str(error))
                return None
        return None

    @staticmethod
    async def retry(call: Callable[[], Awaitable[T]]) -> T:
        """Retry a network failure; 429s are retried by the rate limiter before this sees
        them. What can't be sent marks the update for the inbox to try again later."""
        delay = 0.5
        for attempt in range(SEND_ATTEMPTS):
            try:
                return await call()
            except RetryAfter as error:
                if attempt == SEND_ATTEMPTS - 1:
                    _failed()
                    raise
                await asyncio.sleep(seconds(error.retry_after))
            except NetworkError as error:
                if isinstance(error, BadRequest) or attempt == SEND_ATTEMPTS - 1:
                    if not isinstance(error, BadRequest):
                        _failed()
                    raise
                log.warning("telegram: %s; retrying in %.1fs", error, delay)
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")


def _failed() -> None:
    handling = delivery.get()
    if handling is not None:
        handling.failed = True  # the inbox tries the update again later
