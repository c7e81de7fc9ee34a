"""Posts to other chats than the one a command came from (a club's tables: a round's
standings at every table, the games a tournament's round starts there): each goes out
through its chat's platform, after the command is answered, a chat's posts in their
order; and the commands a handler leaves for other chats (Outcome.then), each run once
the command's transaction has committed, its answer posted there."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.core.command import Command, Reply
from bot.core.handlers.call import Outcome

log = logging.getLogger(__name__)


class Poster(Protocol):
    """A platform as the service posts to its chats (each adapter, the console): `reply`
    shown in chat `chat` as the answer to a command typed there."""

    async def post(self, chat: str, reply: Reply) -> None: ...


class Posts:
    def __init__(self) -> None:
        # each platform by its name (telegram, discord, console; "*": any other): where
        # posts go; a platform not here is not posted to
        self.posters: dict[str, Poster] = {}
        self._sending: set[asyncio.Task[None]] = set()
        self._order: dict[str, asyncio.Lock] = {}

    def later(self, reply: Reply) -> None:
        """The posts `reply` carries, sent after it (it is answered first, never held up by
        another platform)."""
        posts, reply.posts = reply.posts, []
        for chat, post in posts:
            self.to(chat, post)

    def to(self, chat: str, reply: Reply) -> None:
        """`reply` posted in `chat`, soon."""
        task = asyncio.create_task(self._post(chat, reply))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _post(self, chat: str, reply: Reply) -> None:
        poster = self.posters.get(chat.split(":", 1)[0]) or self.posters.get("*")
        if poster is None:
            log.info("no platform to post to %s", chat)
            return
        async with self._order.setdefault(chat, asyncio.Lock()):  # a fair lock: FIFO
            try:
                await poster.post(chat, reply)
            except Exception:  # the chat's own commands still work; only this post is lost
                log.exception("a post to %s failed", chat)

    async def sent(self) -> None:
        """Until every post made so far has gone out (tests; a process stopping)."""
        while self._sending:
            await asyncio.wait(set(self._sending))


async def follow(outcome: Outcome, reply: Reply,
                 handle: Callable[[Command], Awaitable[Reply]]) -> Reply:
    """`reply` with the outcome's posts, and the answers of the commands it left for other
    chats, each run now by `handle` (a refusal said under the reply, not posted)."""
    reply.posts.extend(outcome.posts)
    for then in outcome.then:
        done = await handle(then.command)
        reply.posts.extend(done.posts)
        done.posts = []
        if done.ok:
            reply.posts.append((then.command.chat, done))
        else:
            reply.text += f"\n{then.label}: {done.text}"
    return reply
