"""A small Bot API server on 127.0.0.1 for python-telegram-bot to talk to in tests.

It answers the methods the bot uses, long-polls getUpdates over a queue, records every call,
and can be told to fail the next calls of a method (a 429 with retry_after, say).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes import serve

BOT_ID = 700000001
BOT_USERNAME = "MaalTestBot"
# The Bot API's rules for setMyCommands: a command is 1-32 of a-z, 0-9 and _, its
# description 1-256 characters; language_code is a two-letter ISO 639-1 code (or empty).
COMMAND = re.compile(r"[a-z0-9_]{1,32}")
LANGUAGE_CODE = re.compile(r"[a-z]{2}")
MAX_COMMANDS = 100


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.perf_counter)


@dataclass
class FakeTelegram:
    token: str = "123456:TEST-TOKEN"
    calls: list[Call] = field(default_factory=list)
    admins: dict[int, list[int]] = field(default_factory=dict)  # chat id -> admin user ids
    failures: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    webhook: dict[str, Any] = field(default_factory=dict)
    # a chat whose messages Telegram is slow to take: chat id -> an event that lets them go
    held: dict[int, asyncio.Event] = field(default_factory=dict)
    pinned: dict[int, int] = field(default_factory=dict)  # chat id -> the pinned message
    no_pin: set[int] = field(default_factory=set)  # chats where the bot may not pin

    def __post_init__(self) -> None:
        # Updates wait here until a getUpdates with a higher offset confirms them, as on
        # Telegram: an update fetched but never confirmed is delivered again.
        self.pending: list[dict[str, Any]] = []
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
        self.release()
        if self._runner is not None:
            await self._runner.cleanup()

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
        message = update.get("message") or update.get("edited_message")
        if message:
            self.messages[(message["chat"]["id"], message["message_id"])] = message
        self.pending.append(update)
        self._arrived.set()

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
        method = request.match_info["method"]
        params = await _params(request)
        if method != "getUpdates":
            self.calls.append(Call(method, params))
            async with self._changed:
                self._changed.notify_all()
        queued = self.failures.get(f"{method}:{params.get('chat_id')}") \
            or self.failures.get(method)
        if queued:
            error = queued.pop(0)
            return web.json_response(error, status=error["error_code"])
        handler = getattr(self, f"_m_{method}", None)
        if handler is None:
            return web.json_response({"ok": False, "error_code": 404,
                                      "description": f"Not Found: method {method}"}, status=404)
        result = await handler(params)
        if isinstance(result, web.Response):
            return result
        return web.json_response({"ok": True, "result": result})

    async def _m_getMe(self, _: dict) -> dict:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Maal", "username": BOT_USERNAME,
                "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": False}

    async def _m_deleteWebhook(self, _: dict) -> bool:
        self.webhook = {}
        return True

    async def _m_setWebhook(self, params: dict) -> bool:
        self.webhook = params
        return True

    async def _m_getUpdates(self, params: dict) -> list[dict]:
        """Long polling as the Bot API documents it: `offset` confirms every update below
        it (they are forgotten); the answer is the updates from the offset on, waiting up
        to `timeout` seconds for one to arrive."""
        offset = int(params.get("offset") or 0)
        if offset:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]
        limit = int(params.get("limit") or 100)
        deadline = time.monotonic() + float(params.get("timeout") or 0)
        while not self._closing:
            ready = [u for u in self.pending if u["update_id"] >= offset][:limit]
            if ready:
                return ready
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)
        return []

    def release(self) -> None:
        """End every long poll now (the tests' teardown need not wait one out)."""
        self._closing = True
        self._arrived.set()

    def confirmed(self) -> bool:
        """Has every update pushed been confirmed (by an offset past it)?"""
        return not self.pending

    async def _m_setMyCommands(self, params: dict) -> Any:
        key = _menu_key(params)
        if isinstance(key, web.Response):
            return key
        commands = params.get("commands")
        if isinstance(commands, str):
            commands = json.loads(commands)
        if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
            return _bad_request("commands must be a list of at most 100 BotCommand")
        names = set()
        for command in commands:
            name, description = command.get("command", ""), command.get("description", "")
            if not COMMAND.fullmatch(name) or name in names:
                return _bad_request(f"BOT_COMMAND_INVALID: {name!r}")
            if not 1 <= len(description) <= 256:
                return _bad_request(f"BOT_COMMAND_DESCRIPTION_INVALID: {name!r}")
            names.add(name)
        self.menus[key] = commands
        return True

    async def _m_getMyCommands(self, params: dict) -> Any:
        key = _menu_key(params)
        if isinstance(key, web.Response):
            return key
        return self.menus.get(key, [])

    def menu(self, language: str = "", chat_id: int | None = None) -> list[dict[str, str]]:
        """The menu set for everyone (or one chat) in `language` ("": the default)."""
        scope = "default" if chat_id is None else f"chat:{chat_id}"
        return self.menus.get((scope, language), [])

    async def _m_answerCallbackQuery(self, _: dict) -> bool:
        return True

    async def _m_getChatAdministrators(self, params: dict) -> list[dict]:
        ids = self.admins.get(int(params["chat_id"]), [])
        return [{"status": "administrator", "user": _user(i), "can_be_edited": False,
                 "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                 "can_manage_video_chats": True, "can_restrict_members": True,
                 "can_promote_members": False, "can_change_info": True,
                 "can_invite_users": True, "can_post_stories": False,
                 "can_edit_stories": False, "can_delete_stories": False} for i in ids]

    async def _m_sendMessage(self, params: dict) -> dict:
        gate = self.held.get(int(params["chat_id"]))
        if gate is not None:
            await gate.wait()  # Telegram being slow for this one chat
        return self._message(params)

    async def _m_sendPhoto(self, params: dict) -> dict:
        return self._message(params)

    async def _m_sendDocument(self, params: dict) -> dict:
        return self._message(params)

    async def _m_editMessageText(self, params: dict) -> Any:
        key = (int(params["chat_id"]), int(params["message_id"]))
        earlier = self.messages.get(key)
        if earlier is None:  # as Telegram answers for a deleted (or never sent) message
            return _bad_request("message to edit not found")
        markup = params.get("reply_markup") or None
        if earlier.get("text") == params.get("text") \
                and (earlier.get("reply_markup") or None) == markup:
            return _bad_request("message is not modified: specified new message content "
                                "and reply markup are exactly the same")
        return self._message(params, message_id=int(params["message_id"]))

    async def _m_pinChatMessage(self, params: dict) -> Any:
        if int(params["chat_id"]) in self.no_pin:
            return _bad_request("not enough rights to manage pinned messages in the chat")
        self.pinned[int(params["chat_id"])] = int(params["message_id"])
        return True

    async def _m_unpinChatMessage(self, params: dict) -> bool:
        chat = int(params["chat_id"])
        if self.pinned.get(chat) == int(params.get("message_id") or 0):
            del self.pinned[chat]
        return True

    async def _m_deleteMyCommands(self, params: dict) -> Any:
        key = _menu_key(params)
        if isinstance(key, web.Response):
            return key
        self.menus.pop(key, None)
        return True

    async def _m_editMessageReplyMarkup(self, params: dict) -> dict:
        return self._message(params, message_id=int(params["message_id"]))

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
        chat_id = int(params["chat_id"])
        message: dict[str, Any] = {
            "message_id": message_id or self.next_message_id(),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "group" if chat_id < 0 else "private",
                     **({"title": "Game night"} if chat_id < 0 else {"first_name": "X"})},
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Maal",
                     "username": BOT_USERNAME},
            "text": params.get("text", ""),
        }
        if (params.get("reply_markup") or {}).get("inline_keyboard"):
            # as on Telegram, a message carries only an inline keyboard, not a ForceReply
            message["reply_markup"] = params["reply_markup"]
        if message_id is not None:
            earlier = self.messages.get((chat_id, message_id), {})
            for key in ("reply_to_message",):
                if key in earlier:
                    message[key] = earlier[key]
        reply_to = (params.get("reply_parameters") or {}).get("message_id")
        if reply_to and (chat_id, int(reply_to)) in self.messages:
            message["reply_to_message"] = self.messages[(chat_id, int(reply_to))]
        params["_message_id"] = message["message_id"]
        self.messages[(chat_id, message["message_id"])] = message
        return message


def _user(user_id: int, first_name: str | None = None, username: str | None = None) -> dict:
    user: dict[str, Any] = {"id": user_id, "is_bot": False,
                            "first_name": first_name or f"User{user_id}"}
    if username:
        user["username"] = username
    return user


async def _params(request: web.Request) -> dict[str, Any]:
    """PTB posts form fields (non-string values JSON-encoded) or multipart for files."""
    if request.content_type == "application/json":
        return await request.json()
    raw = await request.post()
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str):
            try:
                decoded = json.loads(value)
                params[key] = decoded if isinstance(decoded, (dict, list)) else value
            except ValueError:
                params[key] = value
        else:
            params[key] = value.file.read()  # type: ignore[union-attr]
    return params


user = _user


def _menu_key(params: dict) -> tuple[str, str] | web.Response:
    """(scope, language_code) of a set/get/deleteMyCommands call, checked as Telegram does."""
    language = params.get("language_code") or ""
    if language and not LANGUAGE_CODE.fullmatch(str(language)):
        return _bad_request(f"LANGUAGE_CODE_INVALID: {language!r}")
    scope = params.get("scope") or {"type": "default"}
    if isinstance(scope, str):
        scope = json.loads(scope)
    kind = scope.get("type")
    if kind == "default":
        return "default", str(language)
    if kind == "chat":
        return f"chat:{int(scope['chat_id'])}", str(language)
    if kind in ("all_private_chats", "all_group_chats", "all_chat_administrators"):
        return kind, str(language)
    return _bad_request(f"invalid scope {scope!r}")


def _bad_request(description: str) -> web.Response:
    return web.json_response({"ok": False, "error_code": 400,
                              "description": f"Bad Request: {description}"}, status=400)
