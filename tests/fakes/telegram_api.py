"""A Bot API server on 127.0.0.1 for python-telegram-bot to talk to in tests, as strict as
Telegram.

Every request is checked against the published Bot API (tests/fakes/telegram_spec.py: the
methods, their fields and types, and the limits the prose states); one Telegram would refuse
is answered 400 as Telegram answers it and kept in `refused`, and `stop()` fails the test
that made it. Every update a test pushes and every object the fake answers with is checked
against the same types, so the tests' own Telegram is real Telegram too.

It plays what real groups do: a group upgraded to a supergroup (the service messages, then
400 with `migrate_to_chat_id` for the old id), forum topics (a message without
`message_thread_id` lands in General), the bot added, kicked or muted (`my_chat_member`, then
403s or "not enough rights"), no right to pin, and 429s with `retry_after`. It long-polls
getUpdates over a queue and records every call.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes import serve
from tests.fakes.telegram_spec import Refused, bot_api

BOT_ID = 700000001
BOT_USERNAME = "MaalTestBot"
BOT = {"id": BOT_ID, "is_bot": True, "first_name": "Maal", "username": BOT_USERNAME}
# member statuses in which the bot is in the chat (restricted: in it, maybe unable to speak)
PRESENT = ("creator", "administrator", "member", "restricted")
SENDS = {"sendMessage": "text messages", "sendPhoto": "photos", "sendDocument": "documents"}


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.perf_counter)


@dataclass
class Chat:
    """A chat as Telegram keeps it, and the bot's place in it."""

    id: int
    type: str  # private, group, supergroup
    title: str = "Game night"
    is_forum: bool = False
    topics: set[int] = field(default_factory=set)  # forum topics' message_thread_id
    upgraded_to: int | None = None  # a group upgraded to this supergroup
    bot: str = "member"  # the bot's status: member, administrator, restricted, left, kicked
    can_send: bool = True  # restricted: may it send messages?

    def to_json(self) -> dict[str, Any]:
        if self.type == "private":
            return {"id": self.id, "type": "private", "first_name": "X"}
        data: dict[str, Any] = {"id": self.id, "type": self.type, "title": self.title}
        if self.is_forum:
            data["is_forum"] = True
        return data


def chat_type(chat_id: int) -> str:
    """A positive id is a person's chat; -100... a supergroup; other negative ids groups."""
    if chat_id > 0:
        return "private"
    return "supergroup" if str(chat_id).startswith("-100") else "group"


@dataclass
class FakeTelegram:
    token: str = "123456:TEST-TOKEN"
    calls: list[Call] = field(default_factory=list)
    admins: dict[int, list[int]] = field(default_factory=dict)  # chat id -> admin user ids
    failures: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    webhook: dict[str, Any] = field(default_factory=dict)
    # a chat whose messages Telegram is slow to take: chat id -> an event that lets them go
    held: dict[int, asyncio.Event] = field(default_factory=dict)
    pinned: dict[int, int] = field(default_factory=dict)  # chat id -> its pinned message
    # a forum topic's pinned message: (chat id, message_thread_id) -> message id
    topic_pins: dict[tuple[int, int], int] = field(default_factory=dict)
    no_pin: set[int] = field(default_factory=set)  # chats where the bot may not pin
    # requests Telegram would refuse: (method, parameters as sent, why); stop() fails on any
    refused: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Updates wait here until a getUpdates with a higher offset confirms them, as on
        # Telegram: an update fetched but never confirmed is delivered again.
        self.pending: list[dict[str, Any]] = []
        self.api = bot_api()
        self.chats: dict[int, Chat] = {}
        self._arrived = asyncio.Event()
        self._closing = False
        self._update_ids = itertools.count(1000)
        self._message_ids = itertools.count(5000)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # every message seen
        self.files: dict[str, bytes] = {}  # file_id -> content, for getFile and downloads
        # the command menus set: (scope, language_code) -> commands; scope "default" or, for
        # one chat, "chat:ID"; language "" for everyone without a menu of their own
        self.menus: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.allowed_updates: list[str] | None = None  # as the last getUpdates/setWebhook
        self.base = ""

    # --- running ---------------------------------------------------------------------------

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.*}", self._download)
        self._runner, self.base = await serve(app)
        return self.base

    async def stop(self) -> None:
        """Close; fail the test if the bot sent anything Telegram would have refused."""
        self.release()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.refused:
            refused, self.refused = self.refused, []
            raise AssertionError("requests Telegram would refuse:\n" + "\n".join(
                f"{method}: {why}\n  {params}" for method, params, why in refused))

    # --- the chats, as tests set them up ------------------------------------------------

    def chat(self, chat_id: int) -> Chat:
        found = self.chats.get(chat_id)
        if found is None:
            found = self.chats[chat_id] = Chat(chat_id, chat_type(chat_id))
        return found

    def forum(self, chat_id: int, *topics: int) -> Chat:
        """Make `chat_id` a forum supergroup with these topics."""
        chat = self.chat(chat_id)
        chat.type, chat.is_forum = "supergroup", True
        chat.topics.update(topics)
        return chat

    async def upgrade(self, group_id: int, new_id: int, by: dict[str, Any],
                      deliver: bool = True) -> None:
        """Telegram upgrades a group to a supergroup: its id changes. With `deliver`, the
        two service messages (migrate_to_chat_id in the old chat, migrate_from_chat_id in
        the new one) arrive as updates; without, the bot learns only from a 400."""
        old = self.chat(group_id)
        assert old.type == "group", "only a (basic) group is upgraded"
        old.upgraded_to = new_id
        new = self.chat(new_id)
        new.type, new.title, new.bot = "supergroup", old.title, old.bot
        if deliver:
            await self.push_message(group_id, by, migrate_to_chat_id=new_id)
            await self.push_message(new_id, by, migrate_from_chat_id=group_id)

    async def bot_status(self, chat_id: int, status: str, by: dict[str, Any],
                         can_send: bool = True) -> dict[str, Any]:
        """The bot is added (member, administrator), kicked, leaves or is muted
        (restricted, can_send False) by `by`: the my_chat_member update arrives."""
        chat = self.chat(chat_id)
        before = self._member(chat.bot, chat.can_send)
        chat.bot, chat.can_send = status, can_send
        update = {"update_id": self.next_update_id(), "my_chat_member": {
            "chat": chat.to_json(), "from": by, "date": int(time.time()),
            "old_chat_member": before, "new_chat_member": self._member(status, can_send)}}
        await self.push(update)
        return update

    def _member(self, status: str, can_send: bool = True) -> dict[str, Any]:
        """The bot as a ChatMember of the Bot API, with the fields its kind requires."""
        member: dict[str, Any] = {"status": status, "user": BOT}
        if status == "administrator":
            member |= {"can_be_edited": False, "is_anonymous": False,
                       "can_manage_chat": True, "can_delete_messages": True,
                       "can_manage_video_chats": False, "can_restrict_members": False,
                       "can_promote_members": False, "can_change_info": False,
                       "can_invite_users": True, "can_post_stories": False,
                       "can_edit_stories": False, "can_delete_stories": False,
                       "can_pin_messages": True}
        elif status == "restricted":
            kind = self.api.types["ChatMemberRestricted"]
            member |= {name: can_send for name, f in kind.items()
                       if f.required and f.types == ("Boolean",)}
            member |= {"is_member": True, "until_date": 0}
        elif status == "kicked":
            member["until_date"] = 0
        return member

    # --- what tests do ---------------------------------------------------------------------

    def fail_next(self, method: str, times: int = 1, *, code: int = 429,
                  retry_after: int = 1, chat_id: int | None = None) -> None:
        """Fail the next calls of `method` (in `chat_id` only, if given)."""
        error = {"ok": False, "error_code": code,
                 "description": f"Too Many Requests: retry after {retry_after}"
                 if code == 429 else "Bad Request: failed on purpose"}
        if code == 429:
            error["parameters"] = {"retry_after": retry_after}
        key = method if chat_id is None else f"{method}:{chat_id}"
        self.failures.setdefault(key, []).extend([error] * times)

    def next_update_id(self) -> int:
        return next(self._update_ids)

    def next_message_id(self) -> int:
        return next(self._message_ids)

    async def push(self, update: dict[str, Any]) -> None:
        """An update for the bot, checked against the Bot API's Update first."""
        try:
            self.api.check("Update", update)
        except Refused as problem:
            raise AssertionError(f"a test's update is not one Telegram sends: {problem}") \
                from None
        message = update.get("message") or update.get("edited_message")
        if message:
            self.messages[(message["chat"]["id"], message["message_id"])] = message
            self.chat(message["chat"]["id"])  # known from now on
        self.pending.append(update)
        self._arrived.set()

    async def push_message(self, chat_id: int, sender: dict[str, Any],
                           **fields: Any) -> dict[str, Any]:
        """A message (a service message: `migrate_to_chat_id=...`) in the chat."""
        update = {"update_id": self.next_update_id(), "message": {
            "message_id": self.next_message_id(), "date": int(time.time()),
            "chat": self.chat(chat_id).to_json(), "from": sender, **fields}}
        await self.push(update)
        return update

    def sent(self, method: str = "sendMessage", chat_id: int | None = None) -> list[dict]:
        return [c.params for c in self.calls if c.method == method
                and (chat_id is None or int(c.params.get("chat_id", 0)) == chat_id)]

    async def wait_until(self, check: Any, timeout: float = 10.0) -> Any:
        """Wait until `check()` gives something (not None, not False) and return it."""
        deadline = time.monotonic() + timeout
        async with self._changed:
            while not (found := check()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; calls: {[c.method for c in self.calls]}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
        return found

    async def wait_for(self, method: str, count: int, timeout: float = 10.0,
                       chat_id: int | None = None) -> list[dict]:
        """Wait until `method` has been called at least `count` times in all."""
        deadline = time.monotonic() + timeout
        async with self._changed:
            while len(self.sent(method, chat_id)) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"{method} called {len(self.sent(method, chat_id))} times, "
                        f"wanted {count}; calls: {[c.method for c in self.calls]}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)
        return self.sent(method, chat_id)

    # --- the API -------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response({"ok": False, "error_code": 401,
                                      "description": "Unauthorized"}, status=401)
        try:
            return await self._answer(request.match_info["method"], await _params(request))
        finally:
            # only now: a test that sees the call sees it answered (its _message_id)
            await self._notify()

    async def _answer(self, method: str, raw: dict[str, Any]) -> web.Response:
        try:
            params = self.api.request(method, raw)
        except KeyError:
            return web.json_response({"ok": False, "error_code": 404,
                                      "description": "Not Found"}, status=404)
        except Refused as problem:
            self.refused.append((method, raw, str(problem)))
            self.calls.append(Call(method, raw))
            return _error(400, f"Bad Request: {problem}")
        if method != "getUpdates":
            self.calls.append(Call(method, params))
        queued = self.failures.get(f"{method}:{params.get('chat_id')}") \
            or self.failures.get(method)
        if queued:
            error = queued.pop(0)
            return web.json_response(error, status=error["error_code"])
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            raise AssertionError(f"the fake does not play {method} yet")
        try:
            result = await handler(params)
        except _Answer as answer:
            return answer.response
        if isinstance(result, web.Response):
            return result
        return web.json_response({"ok": True, "result": result})

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def _reachable(self, method: str, params: dict[str, Any]) -> Chat:
        """The chat a request is for, as Telegram checks it before anything else: a group
        upgraded (400 with the new id), the bot not in it (403), muted (400), a topic that
        is not there (400)."""
        chat = self.chat(int(params["chat_id"]))
        kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
        if chat.upgraded_to is not None:
            raise _Answer(_error(400, "Bad Request: group chat was upgraded to a supergroup "
                                      "chat", {"migrate_to_chat_id": chat.upgraded_to}))
        if chat.bot == "kicked":
            raise _Answer(_error(403, "Forbidden: bot was blocked by the user"
                                 if chat.type == "private"
                                 else f"Forbidden: bot was kicked from the {kind}"))
        if chat.bot == "left":
            raise _Answer(_error(403, f"Forbidden: bot is not a member of the {kind}"))
        if method in SENDS and chat.bot == "restricted" and not chat.can_send:
            raise _Answer(_error(400, f"Bad Request: not enough rights to send "
                                      f"{SENDS[method]} to the chat"))
        thread = params.get("message_thread_id")
        if thread is not None and not (chat.is_forum and thread in chat.topics):
            raise _Answer(_error(400, "Bad Request: message thread not found"))
        return chat

    async def _m_getMe(self, _: dict) -> dict:
        return self.api.check("User", {**BOT, "can_join_groups": True,
                                       "can_read_all_group_messages": False,
                                       "supports_inline_queries": False})

    async def _m_deleteWebhook(self, _: dict) -> bool:
        self.webhook = {}
        return True

    async def _m_setWebhook(self, params: dict) -> bool:
        self.webhook = params
        self.allowed_updates = params.get("allowed_updates")
        return True

    async def _m_getUpdates(self, params: dict) -> list[dict]:
        """Long polling as the Bot API documents it: `offset` confirms every update below
        it (they are forgotten); the answer is the updates from the offset on, waiting up
        to `timeout` seconds for one to arrive."""
        if "allowed_updates" in params:
            self.allowed_updates = params["allowed_updates"]
        offset = int(params.get("offset") or 0)
        if offset:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]
        limit = int(params.get("limit") or 100)
        deadline = time.monotonic() + float(params.get("timeout") or 0)
        while not self._closing:
            ready = [u for u in self.pending if u["update_id"] >= offset
                     and self._wanted(u)][:limit]
            if ready:
                return ready
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)
        return []

    def _wanted(self, update: dict[str, Any]) -> bool:
        """As Telegram: an update kind not in allowed_updates is not delivered (by default,
        everything but chat_member and the reactions)."""
        kind = next(k for k in update if k != "update_id")
        if self.allowed_updates:
            return kind in self.allowed_updates
        return kind not in ("chat_member", "message_reaction", "message_reaction_count")

    def release(self) -> None:
        """End every long poll now (the tests' teardown need not wait one out)."""
        self._closing = True
        self._arrived.set()

    def confirmed(self) -> bool:
        """Has every update pushed been confirmed (by an offset past it)?"""
        return not self.pending

    async def _m_setMyCommands(self, params: dict) -> Any:
        key = _menu_key(params)
        commands = params["commands"]
        if len({c["command"] for c in commands}) != len(commands):
            return _error(400, "Bad Request: BOT_COMMAND_INVALID: a command twice")
        self.menus[key] = commands
        return True

    async def _m_getMyCommands(self, params: dict) -> Any:
        return self.menus.get(_menu_key(params), [])

    def menu(self, language: str = "", chat_id: int | None = None) -> list[dict[str, str]]:
        """The menu set for everyone (or one chat) in `language` ("": the default)."""
        scope = "default" if chat_id is None else f"chat:{chat_id}"
        return self.menus.get((scope, language), [])

    async def _m_deleteMyCommands(self, params: dict) -> Any:
        self.menus.pop(_menu_key(params), None)
        return True

    async def _m_answerCallbackQuery(self, _: dict) -> bool:
        return True

    async def _m_getChatAdministrators(self, params: dict) -> list[dict]:
        self._reachable("getChatAdministrators", params)
        ids = self.admins.get(int(params["chat_id"]), [])
        return [self.api.check("ChatMember", {
            "status": "administrator", "user": _user(i), "can_be_edited": False,
            "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
            "can_manage_video_chats": True, "can_restrict_members": True,
            "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
            "can_post_stories": False, "can_edit_stories": False,
            "can_delete_stories": False}) for i in ids]

    async def _m_sendMessage(self, params: dict) -> dict:
        self._reachable("sendMessage", params)
        gate = self.held.get(int(params["chat_id"]))
        if gate is not None:
            await gate.wait()  # Telegram being slow for this one chat
        return self._message(params)

    async def _m_sendPhoto(self, params: dict) -> dict:
        self._reachable("sendPhoto", params)
        return self._message(params)

    async def _m_sendDocument(self, params: dict) -> dict:
        self._reachable("sendDocument", params)
        return self._message(params)

    async def _m_editMessageText(self, params: dict) -> Any:
        self._reachable("editMessageText", params)
        key = (int(params["chat_id"]), int(params["message_id"]))
        earlier = self.messages.get(key)
        if earlier is None:  # as Telegram answers for a deleted (or never sent) message
            return _error(400, "Bad Request: message to edit not found")
        markup = params.get("reply_markup") or None
        if earlier.get("text") == params.get("text") \
                and (earlier.get("reply_markup") or None) == markup:
            return _error(400, "Bad Request: message is not modified: specified new message "
                               "content and reply markup are exactly the same")
        return self._message(params, message_id=int(params["message_id"]))

    async def _m_editMessageReplyMarkup(self, params: dict) -> dict:
        self._reachable("editMessageReplyMarkup", params)
        return self._message(params, message_id=int(params["message_id"]))

    async def _m_pinChatMessage(self, params: dict) -> Any:
        chat = self._reachable("pinChatMessage", params)
        if chat.id in self.no_pin or (chat.bot == "restricted" and not chat.can_send):
            return _error(400, "Bad Request: not enough rights to manage pinned messages in "
                               "the chat")
        message = self.messages.get((chat.id, int(params["message_id"])))
        if message is None:
            return _error(400, "Bad Request: message to pin not found")
        if message.get("is_topic_message"):
            self.topic_pins[(chat.id, message["message_thread_id"])] = message["message_id"]
        else:
            self.pinned[chat.id] = message["message_id"]
        return True

    async def _m_unpinChatMessage(self, params: dict) -> bool:
        chat = self._reachable("unpinChatMessage", params)
        message_id = int(params.get("message_id") or 0)
        if self.pinned.get(chat.id) == message_id:
            del self.pinned[chat.id]
        for key, pinned in list(self.topic_pins.items()):
            if key[0] == chat.id and pinned == message_id:
                del self.topic_pins[key]
        return True

    async def _m_deleteMessage(self, params: dict) -> bool:
        self.messages.pop((int(params["chat_id"]), int(params["message_id"])), None)
        return True

    async def _m_getFile(self, params: dict) -> dict:
        file_id = params["file_id"]
        return {"file_id": file_id, "file_unique_id": f"u-{file_id}",
                "file_size": len(self.files.get(file_id, b"")),
                "file_path": f"documents/{file_id}"}

    async def _download(self, request: web.Request) -> web.Response:
        file_id = request.match_info["path"].rsplit("/", 1)[-1]
        if file_id not in self.files:
            return web.Response(status=404)
        return web.Response(body=self.files[file_id])

    def _message(self, params: dict, message_id: int | None = None) -> dict:
        chat = self.chat(int(params["chat_id"]))
        message: dict[str, Any] = {
            "message_id": message_id or self.next_message_id(),
            "date": int(time.time()),
            "chat": chat.to_json(),
            "from": BOT,
        }
        if params.get("text") is not None:
            message["text"] = params["text"]
        elif params.get("caption") is not None:
            message["caption"] = params["caption"]
        if (params.get("reply_markup") or {}).get("inline_keyboard"):
            # as on Telegram, a message carries only an inline keyboard, not a ForceReply
            message["reply_markup"] = params["reply_markup"]
        earlier = self.messages.get((chat.id, message_id), {}) if message_id else {}
        for key in ("reply_to_message", "message_thread_id", "is_topic_message"):
            if key in earlier:
                message[key] = earlier[key]
        thread = params.get("message_thread_id")
        if thread is not None:  # sent into a forum topic (checked by _reachable)
            message["message_thread_id"], message["is_topic_message"] = thread, True
        reply_to = (params.get("reply_parameters") or {}).get("message_id")
        if reply_to and (chat.id, int(reply_to)) in self.messages:
            quoted = dict(self.messages[(chat.id, int(reply_to))])
            quoted.pop("reply_to_message", None)  # Telegram nests one level only
            message["reply_to_message"] = quoted
        params["_message_id"] = message["message_id"]
        self.messages[(chat.id, message["message_id"])] = message
        return self.api.check("Message", message)


class _Answer(Exception):
    """Telegram's answer to a request it refuses for the state of the chat."""

    def __init__(self, response: web.Response) -> None:
        self.response = response


def _error(code: int, description: str,
           parameters: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return web.json_response(body, status=code)


def _user(user_id: int, first_name: str | None = None, username: str | None = None) -> dict:
    user: dict[str, Any] = {"id": user_id, "is_bot": False,
                            "first_name": first_name or f"User{user_id}"}
    if username:
        user["username"] = username
    return user


async def _params(request: web.Request) -> dict[str, Any]:
    """The request's fields as sent: PTB posts form fields (objects JSON-encoded) or
    multipart for files; the spec types them (telegram_spec.BotApi.request)."""
    if request.content_type == "application/json":
        return {k: v if isinstance(v, str) else json.dumps(v)
                for k, v in (await request.json()).items()}
    raw = await request.post()
    params: dict[str, Any] = {}
    for key, value in raw.items():
        params[key] = value if isinstance(value, str) else value.file.read()  # type: ignore[union-attr]
    return params


user = _user


def _menu_key(params: dict) -> tuple[str, str]:
    """(scope, language_code) of a set/get/deleteMyCommands call."""
    language = params.get("language_code") or ""
    scope = params.get("scope") or {"type": "default"}
    kind = scope["type"]
    if kind == "chat":
        return f"chat:{int(scope['chat_id'])}", str(language)
    return kind, str(language)
