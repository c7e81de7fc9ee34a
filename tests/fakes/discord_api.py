"""A fake Discord on 127.0.0.1: the REST routes discord.py uses, and a gateway.

REST replies carry `Content-Type: application/json` exactly, as discord.py expects. The
gateway says HELLO, acknowledges heartbeats, answers IDENTIFY with READY and GUILD_CREATE,
and can push INTERACTION_CREATE events to the connected bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes import serve

APP_ID = 900000000000000001
BOT_USER_ID = 900000000000000001
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001

_ids = itertools.count(930000000000000001)


def snowflake() -> str:
    return str(next(_ids))


def user(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name.lower(), "discriminator": "0",
            "global_name": name, "avatar": None, "bot": False}


BOT_USER = {**user(BOT_USER_ID, "MaalBot"), "bot": True}
_NotFound: Any = object()  # an answer: 404 Unknown Message

# Discord's locales (the API reference, "Locales"): the only keys a localization may have.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"})
MAX_NAME, MAX_DESCRIPTION = 32, 100


class Invalid(Exception):
    """A command payload Discord would refuse (400, Invalid Form Body)."""


def _name_ok(name: Any) -> bool:
    r"""^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, lowercase where a letter has a
    lowercase form (CHAT_INPUT commands and options)."""
    if not isinstance(name, str) or name != name.lower():
        return False
    try:
        import regex  # Unicode scripts, as Discord's own pattern says them
    except ImportError:  # pragma: no cover - the same rule by Unicode blocks
        return 1 <= len(name) <= MAX_NAME and all(
            ch in "-_" or unicodedata.category(ch)[0] in "LN"
            or 0x0900 <= ord(ch) <= 0x097F or 0x0E01 <= ord(ch) <= 0x0E5B for ch in name)
    return regex.fullmatch(r"[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}", name) is not None


def _description_ok(text: Any) -> bool:
    return isinstance(text, str) and 1 <= len(text) <= MAX_DESCRIPTION


MAX_CHARACTERS = 8000


def check_commands(commands: list[dict[str, Any]]) -> None:
    """Discord's rules for a bulk overwrite of chat-input commands, localizations too."""
    _check_level(commands, "commands")
    for command in commands:
        counted = _characters(command)
        if counted > MAX_CHARACTERS:
            raise Invalid(f"{command['name']}: {counted} characters, over {MAX_CHARACTERS}")


def _characters(item: dict[str, Any]) -> int:
    """Name, description and choice values of a command and everything in it, each at its
    longest in any locale (the strictest reading of Discord's 8,000 characters)."""
    total = 0
    for field_name in ("name", "description"):
        texts = [item.get(field_name) or "",
                 *(item.get(f"{field_name}_localizations") or {}).values()]
        total += max(len(t) for t in texts)
    for choice in item.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total + sum(_characters(o) for o in item.get("options") or [])


def _check_level(items: list[dict[str, Any]], where: str) -> None:
    shown: dict[str, set[str]] = {}
    for item in items:
        at = f"{where}.{item.get('name')}"
        if not _name_ok(item.get("name")):
            raise Invalid(f"{at}: invalid name")
        if not _description_ok(item.get("description")):
            raise Invalid(f"{at}: description must be 1 to {MAX_DESCRIPTION} characters")
        names = item.get("name_localizations") or {}
        descriptions = item.get("description_localizations") or {}
        for field_name, values, ok in (("name", names, _name_ok),
                                       ("description", descriptions, _description_ok)):
            if not isinstance(values, dict):
                raise Invalid(f"{at}: {field_name}_localizations must be an object")
            for locale, value in values.items():
                if locale not in LOCALES:
                    raise Invalid(f"{at}: {locale!r} is not a valid locale")
                if not ok(value):
                    raise Invalid(f"{at}: invalid {field_name} in {locale}: {value!r}")
        for locale in ("", *LOCALES):
            name = names.get(locale, item["name"]) if locale else item["name"]
            taken = shown.setdefault(locale, set())
            if name in taken:
                raise Invalid(f"{at}: name {name!r} is not unique in {locale or 'default'}")
            taken.add(name)
        children = [o for o in item.get("options") or [] if isinstance(o, dict)]
        if children:
            _check_level(children, at)


@dataclass
class Captured:
    method: str
    path: str
    body: dict[str, Any] | list[Any] | None
    at: float = field(default_factory=time.perf_counter)


@dataclass
class FakeDiscord:
    token: str = "discord-test-token"
    captured: list[Captured] = field(default_factory=list)
    commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    users: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Condition()
        self._sockets: list[web.WebSocketResponse] = []
        self._sequence = itertools.count(1)
        self.identified = asyncio.Event()
        self.messages: dict[str, dict[str, Any]] = {}
        self.attachments: dict[str, bytes] = {}  # served at /attachments/NAME
        # interaction id -> the message its components sit on (set by the test harness)
        self.interaction_messages: dict[str, str] = {}
        self.posted: dict[str, list[str]] = {}  # channel -> messages the bot posted itself
        self.callback_messages: dict[str, dict[str, Any]] = {}  # interaction id -> message
        self._originals: dict[str, str] = {}  # interaction token -> its response message
        self.base = ""

    async def start(self) -> str:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{name}", self._attachment)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner, self.base = await serve(app)
        return self.base

    @property
    def gateway_url(self) -> str:
        return self.base.replace("http://", "ws://") + "/gateway"

    async def stop(self) -> None:
        for socket in self._sockets:
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- what tests look at --------------------------------------------------------------

    def calls(self, method: str, fragment: str) -> list[Captured]:
        return [c for c in self.captured if c.method == method and fragment in c.path]

    def callbacks(self) -> list[dict[str, Any]]:
        return [c.body for c in self.calls("POST", "/callback")]  # type: ignore[misc]

    def followups(self) -> list[dict[str, Any]]:
        return [c.body for c in self.captured if c.method == "POST" and
                c.path.startswith("webhooks/")]  # type: ignore[misc]

    def edits(self) -> list[dict[str, Any]]:
        return [c.body for c in self.captured if c.method == "PATCH" and
                c.path.startswith("webhooks/")]  # type: ignore[misc]

    async def wait(self, predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        async with self._changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("timed out; captured: "
                                         + ", ".join(f"{c.method} {c.path}"
                                                     for c in self.captured))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), left)

    async def wait_callbacks(self, count: int) -> list[dict[str, Any]]:
        await self.wait(lambda: len(self.callbacks()) >= count)
        return self.callbacks()

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH event to every connected bot."""
        frame = json.dumps({"op": 0, "t": event, "s": next(self._sequence), "d": data})
        for socket in list(self._sockets):
            if not socket.closed:
                await socket.send_str(frame)

    # --- REST ----------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        body: Any = None
        if request.can_read_body:
            if request.content_type.startswith("multipart/"):
                reader = await request.multipart()
                async for part in reader:
                    if part.name == "payload_json":
                        body = json.loads(await part.text())
            else:
                raw = await request.read()
                body = json.loads(raw) if raw else None
        try:
            result = self._answer(request.method, path, body, request.query)
        except Invalid as error:
            result = error
        finally:
            # recorded once answered: a test that sees the call finds what it made (the
            # callback's message), even when the lock below makes this task wait
            self.captured.append(Captured(request.method, path, body))
            async with self._changed:
                self._changed.notify_all()
        if isinstance(result, Invalid):
            return web.Response(status=400, headers={"Content-Type": "application/json"},
                                body=json.dumps({"code": 50035, "message":
                                                 f"Invalid Form Body: {result}"}).encode())
        if result is _NotFound:
            return web.Response(status=404, headers={"Content-Type": "application/json"},
                                body=json.dumps({"code": 10008,
                                                 "message": "Unknown Message"}).encode())
        if result is None:
            return web.Response(status=204)
        return web.Response(body=json.dumps(result).encode(),
                            headers={"Content-Type": "application/json"})

    def _answer(self, method: str, path: str, body: Any, query: Any) -> Any:
        parts = path.split("/")
        if path == "users/@me":
            return BOT_USER
        if parts[0] == "users" and len(parts) == 2:
            return self.users.get(parts[1], user(int(parts[1]), f"user{parts[1][-4:]}"))
        if path == "oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Maal", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "owner": user(1, "owner"), "verify_key": "k", "flags": 0,
                    "summary": "", "rpc_origins": [], "interactions_endpoint_url": None}
        if path in ("gateway", "gateway/bot"):
            return {"url": self.gateway_url, "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 1000,
                                            "reset_after": 0, "max_concurrency": 1}}
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            scope = "global" if len(parts) == 3 else parts[3]
            check_commands(body or [])
            synced = [{**c, "id": snowflake(), "application_id": str(APP_ID), "version": "1",
                       "default_member_permissions": None, "type": c.get("type", 1)}
                      for c in body or []]
            self.commands[scope] = synced
            return synced
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(parts[1], parts[2], body)
        if parts[0] == "webhooks":
            if method == "DELETE":
                return None
            if method == "POST":
                return self._message(body or {})
            message_id = parts[-1]
            if message_id == "@original":
                message_id = self._originals.get(parts[2], message_id)
            if method == "GET":
                return self.messages.get(message_id, self._message({}))
            if method == "PATCH":
                return self._message(body or {}, message_id=message_id)
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            message = self._message(body or {}, channel_id=parts[1])
            self.posted.setdefault(parts[1], []).append(message["id"])
            return message
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages":
            if parts[3] not in self.messages:  # deleted, as Discord answers: 10008
                return _NotFound
            if method == "DELETE":
                del self.messages[parts[3]]
                return None
            if method == "PATCH":
                return self._message(body or {}, message_id=parts[3], channel_id=parts[1])
        return {}

    def _callback(self, interaction_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
        kind = body["type"]
        data = body.get("data") or {}
        result: dict[str, Any] = {"interaction": {
            "id": interaction_id, "type": kind,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool((data.get("flags") or 0) & 64)}}
        if kind in (4, 5, 6, 7):
            # 6 and 7 act on the message the component sits on; 4 and 5 make a new one
            target = self.interaction_messages.get(interaction_id) if kind in (6, 7) else None
            message = self._message(data, message_id=target)
            self.callback_messages[interaction_id] = message
            self._originals[token] = message["id"]
            result["interaction"]["response_message_id"] = message["id"]
            result["resource"] = {"type": kind, "message": message}
        return result

    def _message(self, data: dict[str, Any], message_id: str | None = None,
                 channel_id: str | None = None) -> dict[str, Any]:
        previous = self.messages.get(message_id or "", {})
        message = {
            "id": message_id or snowflake(),
            "channel_id": channel_id or previous.get("channel_id") or str(CHANNEL_ID),
            "type": 0,
            "content": data.get("content", previous.get("content", "")),
            "author": BOT_USER, "timestamp": "2026-11-22T00:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False,
            "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": data.get("embeds", previous.get("embeds", [])), "pinned": False,
            "flags": data.get("flags", 0) or 0,
            "components": data.get("components", previous.get("components", [])),
            "application_id": str(APP_ID), "webhook_id": str(APP_ID),
        }
        self.messages[message["id"]] = message
        return message

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.attachments.get(request.match_info["name"])
        return web.Response(body=data) if data is not None else web.Response(status=404)

    # --- gateway -------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            op = message.get("op")
            if op == 1:
                await socket.send_str(json.dumps({"op": 11}))
            elif op == 2:
                shard = (message["d"].get("shard") or [0, 1])
                await socket.send_str(json.dumps({"op": 0, "t": "READY",
                                                  "s": next(self._sequence), "d": {
                    "v": 10, "user": BOT_USER, "session_id": "fake-session",
                    "resume_gateway_url": self.gateway_url, "shard": shard,
                    "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                    "application": {"id": str(APP_ID), "flags": 0}}}))
                await socket.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE",
                                                  "s": next(self._sequence), "d": guild()}))
                self.identified.set()
        return socket


def guild() -> dict[str, Any]:
    return {
        "id": str(GUILD_ID), "name": "Game night", "icon": None, "owner_id": "1",
        "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "roles": [{"id": str(GUILD_ID), "name": "@everyone",
                                                 "permissions": "0", "position": 0,
                                                 "color": 0, "hoist": False, "managed": False,
                                                 "mentionable": False}],
        "emojis": [], "features": [], "mfa_level": 0, "system_channel_flags": 0,
        "premium_tier": 0, "nsfw_level": 0, "preferred_locale": "en-US",
        "member_count": 3, "large": False, "unavailable": False,
        "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "game-night",
                      "position": 0, "permission_overwrites": [], "guild_id": str(GUILD_ID)}],
        "members": [], "threads": [], "stickers": [], "joined_at": "2026-01-01T00:00:00+00:00",
        "voice_states": [], "presences": [],
    }
