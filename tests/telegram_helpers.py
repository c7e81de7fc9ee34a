"""Real update JSON for the fake Bot API, and a harness around the real Application."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bot.core.service import Service
from bot.telegram_adapter import TelegramAdapter
from tests.fakes.telegram_api import BOT_ID, FakeTelegram, user

GROUP = -1001234567890


def person(user_id: int, first_name: str, username: str | None = None) -> dict[str, Any]:
    return user(user_id, first_name, username)


ALICE = person(101, "Alice", "alice")
BOB = person(102, "Bob")  # no @username, like many users
CAROL = person(103, "Carol", "carol")
STRANGER = person(199, "Mallory", "mallory")


@dataclass
class Harness:
    fake: FakeTelegram
    adapter: TelegramAdapter
    service: Service

    async def say(self, who: dict[str, Any], text: str, *, chat_id: int = GROUP,
                  entities: list[dict] | None = None, reply_to: dict | None = None,
                  message_id: int | None = None, update_id: int | None = None,
                  edited: bool = False, thread: int | None = None) -> dict[str, Any]:
        """Queue a message update as Telegram would deliver it; returns the update. `thread`:
        a forum topic's message_thread_id (the chat is made a forum with it)."""
        if thread is not None:
            self.fake.forum(chat_id, thread)
        message: dict[str, Any] = {
            "message_id": message_id or self.fake.next_message_id(),
            "date": int(time.time()),
            "chat": self.fake.chat(chat_id).to_json(),
            "from": who,
            "text": text,
        }
        if thread is not None:
            message["message_thread_id"], message["is_topic_message"] = thread, True
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0,
                                    "length": len(command.encode("utf-16-le")) // 2}]
        if entities:
            message.setdefault("entities", []).extend(entities)
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        if edited:
            message["edit_date"] = int(time.time())
        update = {"update_id": update_id or self.fake.next_update_id(),
                  "edited_message" if edited else "message": message}
        await self.fake.push(update)
        return update

    async def tap(self, who: dict[str, Any], message: dict[str, Any], data: str,
                  query_id: str | None = None) -> None:
        await self.fake.push({
            "update_id": self.fake.next_update_id(),
            "callback_query": {"id": query_id or f"q{self.fake.next_update_id()}",
                               "from": who, "chat_instance": "ci", "data": data,
                               "message": message},
        })

    async def said(self, text: str, chat_id: int = GROUP,
                   method: str = "sendMessage") -> dict[str, Any]:
        """The first message the bot sent (or edited) in the chat that contains `text`."""
        return await self.fake.wait_until(lambda: next(
            (p for p in self.fake.sent(method, chat_id) if text in p.get("text", "")), None))

    async def live_board(self, chat_id: int = GROUP) -> dict[str, Any]:
        """The chat's live board as it is now: the pinned message."""
        message_id = await self.fake.wait_until(lambda: self.fake.pinned.get(chat_id))
        return self.fake.messages[(chat_id, message_id)]

    async def reply_to(self, update: dict[str, Any]) -> dict[str, Any]:
        """The bot's (first) message quoting the message of `update`: its answer to it,
        whatever else (a live board) was sent in the chat meanwhile."""
        message = update["message"]
        chat_id, message_id = message["chat"]["id"], message["message_id"]
        return await self.fake.wait_until(lambda: next(
            (p for p in self.fake.sent("sendMessage", chat_id)
             if (p.get("reply_parameters") or {}).get("message_id") == message_id), None))

    async def replies(self, count: int, chat_id: int = GROUP) -> list[dict[str, Any]]:
        return await self.fake.wait_for("sendMessage", count, chat_id=chat_id)

    def sent_message(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.fake.messages[(int(params["chat_id"]), params["_message_id"])]

    def buttons(self, params: dict[str, Any]) -> dict[str, str]:
        markup = params.get("reply_markup") or {}
        return {b["text"]: b["callback_data"] for row in markup.get("inline_keyboard", [])
                for b in row}


def bot_id() -> int:
    return BOT_ID
