"""Where a command was sent and where its answers go: a chat, or one topic of a forum.

Each forum topic is a table of its own (two topics can play two games at once): its key is
`telegram:CHAT:THREAD`; the General topic, and every chat that is no forum, is the plain
`telegram:CHAT`. Only a message with `is_topic_message` is in a topic: in a supergroup that
is no forum, a reply also carries a message_thread_id (its reply thread), which is no table.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Message


def chat_key(chat_id: int, thread_id: int | None = None) -> str:
    """The core's session key for a Telegram chat, or a forum topic of it."""
    return f"telegram:{chat_id}" if thread_id is None else f"telegram:{chat_id}:{thread_id}"


def place_of(key: str) -> Place:
    """The place a table's key names ("telegram:CHAT" or "telegram:CHAT:THREAD")."""
    _platform, chat, *thread = key.split(":")
    topic = int(thread[0]) if thread else None
    return Place(int(chat), topic, forum=topic is not None)


@dataclass(frozen=True)
class Place:
    chat_id: int
    thread_id: int | None = None  # a forum topic's message_thread_id; None: the chat
    forum: bool = False  # the chat is a forum (its menu can't follow one topic's game)

    @property
    def key(self) -> str:
        return chat_key(self.chat_id, self.thread_id)

    @classmethod
    def of(cls, message: Message) -> Place:
        thread = message.message_thread_id if message.is_topic_message else None
        return cls(message.chat_id, thread, bool(message.chat.is_forum))
