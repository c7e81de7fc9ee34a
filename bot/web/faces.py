"""What the web side needs of a chat platform ("face"): a page's person is one of its people,
is or is not an admin of the chat, and what their command answered is posted to the chat as
if they had typed it there."""

from __future__ import annotations

from typing import Protocol

from bot.core.command import Actor, Reply


class Face(Protocol):
    async def post(self, chat: str, reply: Reply) -> None:
        """Show `reply` in chat `chat` (a table's key) as the answer to a typed command."""

    async def is_admin(self, chat: str, actor: Actor) -> bool:
        """Whether `actor` is an admin of chat `chat`."""


def platform_of(chat: str) -> str:
    """"telegram" for "telegram:-100123:7": the face a table's chat belongs to."""
    return chat.split(":", 1)[0]
