"""A fake Discord on 127.0.0.1, as strict as the real one: the REST routes discord.py uses,
and a gateway.

Every request is checked against Discord's OpenAPI document (tests/fakes/discord_openapi.py)
and the limits its docs state in prose (tests/fakes/discord_limits.py), and against the
rules of an interaction: one answer, within 3 seconds, of a type its kind allows; then
followups and edits with its token for 15 minutes. A request Discord would refuse is
answered as Discord answers it (400, 404 Unknown interaction, 403 Missing Permissions ...)
and kept in `refused`: `stop()` fails the test that made one. What a test plays on purpose
(an expired token, a 429) is answered the same way but is no fault of the bot's, unless the
bot then does it again (a second request with a token it was told is dead).

The situations of real life a test can play: what the bot may do in a channel
(`permissions`, which the harness also writes into each interaction's `app_permissions`),
an interaction's token expiring (`expire`), 429s with `retry_after` (`rate_limit`), a
route's own limit in the X-RateLimit headers (`limit`), and a slow route (`slow`).

REST replies carry `Content-Type: application/json` exactly, as discord.py expects. The
gateway says HELLO, acknowledges heartbeats, answers IDENTIFY with READY and GUILD_CREATE,
and can push INTERACTION_CREATE events to the connected bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes import serve
from tests.fakes.discord_limits import (
    Invalid,
    check_choices,
    check_commands,
    check_message,
    check_modal,
)
from tests.fakes.discord_openapi import NotInSpec, Operation, check

APP_ID = 900000000000000001
BOT_USER_ID = 900000000000000001
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001

ANSWER_WITHIN = 3.0  # seconds to answer an interaction (Interactions: "Responding")
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction's token works for followups and edits
# Permission bits (the docs' "Permissions"); a channel's are all of them unless a test says
VIEW_CHANNEL, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS = 1 << 10, 1 << 11, 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
# What each kind of interaction may be answered with (Interactions: "Interaction Response
# Object"): a command or a component may open a modal, only as its first answer; a modal's
# submit can't open another; autocomplete is answered with choices and nothing else.
ANSWERS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
UPDATES = {6, 7}  # act on the message the component sits on
DEFAULT_LIMIT, DEFAULT_WINDOW = 50, 1.0  # a route's bucket unless a test sets one

_ids = itertools.count(930000000000000001)


def snowflake() -> str:
    return str(next(_ids))


def user(user_id: int, name: str) -> dict[str, Any]:
    return {"id": str(user_id), "username": name.lower(), "discriminator": "0",
            "global_name": name, "avatar": None, "bot": False}


BOT_USER = {**user(BOT_USER_ID, "MaalBot"), "bot": True}


@dataclass
class Captured:
    method: str
    path: str
    body: dict[str, Any] | list[Any] | None
    at: float = field(default_factory=time.perf_counter)
    status: int = 200


@dataclass
class Refusal:
    """A request Discord answers with an error."""

    method: str
    path: str
    status: int
    code: int
    message: str

    def __str__(self) -> str:
        return f"{self.method} /{self.path}: {self.status} ({self.code}) {self.message}"


class Refused(Exception):
    """Answer with Discord's error; `fault`: the bot should never have sent it."""

    def __init__(self, status: int, code: int, message: str, *, fault: bool = True,
                 body: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.fault = status, code, message, fault
        self.body = body or {"code": code, "message": message}
        self.headers = headers or {}


@dataclass
class Delivered:
    """An interaction the fake sent the bot, and what has become of it."""

    payload: dict[str, Any]
    at: float = field(default_factory=time.monotonic)
    answer: int | None = None  # the callback type it was answered with
    expired: bool = False  # a test made its token run out
    told_dead: bool = False  # the bot has been answered 401 for its token
    followed: bool = False  # a followup has completed its deferred answer

    @property
    def kind(self) -> int:
        return int(self.payload["type"])


@dataclass
class RateLimit:
    fragment: str
    times: int
    retry_after: float
    is_global: bool


@dataclass
class Bucket:
    limit: int
    window: float
    used: int = 0
    resets: float = 0.0


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
        self.interactions: dict[str, Delivered] = {}
        self._by_token: dict[str, Delivered] = {}
        self.refused: list[Refusal] = []  # the bot's faults: stop() fails the test
        self.failed: list[Refusal] = []  # every error answer, the situations played too
        self.permissions: dict[str, int] = {}  # channel -> what the bot may do there
        self._rate_limits: list[RateLimit] = []
        self._limits: dict[str, tuple[int, float]] = {}  # fragment -> (limit, window)
        self._buckets: dict[str, Bucket] = {}
        self._slow: dict[str, float] = {}
        self.answer_within = ANSWER_WITHIN
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

    async def stop(self, *, check: bool = True) -> None:
        """Close; then fail if the bot sent anything Discord would have refused."""
        for socket in self._sockets:
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if check and self.refused:
            raise AssertionError("Discord would have refused:\n"
                                 + "\n".join(map(str, self.refused)))

    # --- situations a test plays ---------------------------------------------------------

    def deliver(self, payload: dict[str, Any]) -> None:
        """An interaction is being sent to the bot now: its 3 seconds start."""
        delivered = Delivered(payload)
        self.interactions[str(payload["id"])] = delivered
        self._by_token[str(payload["token"])] = delivered

    def may(self, channel_id: int | str) -> int:
        """What the bot may do in the channel (its `app_permissions`)."""
        return self.permissions.get(str(channel_id), ALL_PERMISSIONS)

    def expire(self, interaction_id: str) -> None:
        """The interaction's 15 minutes are over: its token is refused from now on."""
        self.interactions[interaction_id].expired = True

    def rate_limit(self, fragment: str, *, times: int = 1, retry_after: float = 0.3,
                   is_global: bool = False) -> None:
        """The next `times` requests whose "METHOD path" holds `fragment` get a 429."""
        self._rate_limits.append(RateLimit(fragment, times, retry_after, is_global))

    def limit(self, fragment: str, limit: int, window: float) -> None:
        """Routes holding `fragment` allow `limit` requests a `window` (said in the
        X-RateLimit headers; one more is a 429)."""
        self._limits[fragment] = (limit, window)

    def slow(self, fragment: str, seconds: float) -> None:
        """Requests whose "METHOD path" holds `fragment` are answered `seconds` late."""
        self._slow[fragment] = seconds

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
        if event == "INTERACTION_CREATE":
            self.deliver(data)
        frame = json.dumps({"op": 0, "t": event, "s": next(self._sequence), "d": data})
        for socket in list(self._sockets):
            if not socket.closed:
                await socket.send_str(frame)

    # --- REST ----------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        body: Any = None
        files = 0
        if request.can_read_body:
            if request.content_type.startswith("multipart/"):
                reader = await request.multipart()
                async for part in reader:
                    if part.name == "payload_json":
                        body = json.loads(await part.text())
                    else:
                        files += 1
                        await part.read()
            else:
                raw = await request.read()
                body = json.loads(raw) if raw else None
        said = f"{request.method} {path}"
        delay = max((s for f, s in self._slow.items() if f in said), default=0.0)
        if delay:
            await asyncio.sleep(delay)
        status, result, headers = 200, None, {}
        try:
            headers = self._rate_headers(said, request.method, path)
            op = _checked(request.method, path, dict(request.query), body)
            result = self._answer(op, request.method, path, body, files)
        except Refused as refusal:
            status, result = refusal.status, refusal.body
            headers = {**headers, **refusal.headers}
            error = Refusal(request.method, path, refusal.status, refusal.code,
                            refusal.message)
            self.failed.append(error)
            if refusal.fault:
                self.refused.append(error)
        finally:
            # recorded once answered: a test that sees the call finds what it made (the
            # callback's message), even when the lock below makes this task wait
            self.captured.append(Captured(request.method, path, body, status=status))
            async with self._changed:
                self._changed.notify_all()
        headers["Content-Type"] = "application/json"
        if result is None and status == 200:
            return web.Response(status=204, headers={k: v for k, v in headers.items()
                                                     if k != "Content-Type"})
        return web.Response(status=status, body=json.dumps(result).encode(), headers=headers)

    def _rate_headers(self, said: str, method: str, path: str) -> dict[str, str]:
        """The X-RateLimit headers of the route's bucket; a 429 when a test plays one or
        the bucket is spent."""
        for limit in self._rate_limits:
            if limit.times > 0 and limit.fragment in said:
                limit.times -= 1
                raise _too_many(limit.retry_after, limit.is_global, fault=False)
        key = _bucket_key(method, path)
        limit_, window = next((v for f, v in self._limits.items() if f in said),
                              (DEFAULT_LIMIT, DEFAULT_WINDOW))
        bucket = self._buckets.setdefault(key, Bucket(limit_, window))
        now = time.monotonic()
        if now >= bucket.resets:
            bucket.used, bucket.resets = 0, now + bucket.window
        bucket.used += 1
        after = bucket.resets - now
        headers = {"X-RateLimit-Limit": str(bucket.limit),
                   "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
                   "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                   "X-RateLimit-Reset-After": f"{after:.3f}",
                   "X-RateLimit-Bucket": hashlib.sha1(key.encode()).hexdigest()[:16]}
        if bucket.used > bucket.limit:  # the bot went on past Remaining: 0
            raise _too_many(after, False, fault=True, headers=headers)
        return headers

    def _answer(self, op: Operation, method: str, path: str, body: Any, files: int) -> Any:
        parts = path.split("/")
        route = op.template
        if route == "/users/@me":
            return BOT_USER
        if route == "/users/{user_id}":
            return self.users.get(parts[1], user(int(parts[1]), f"user{parts[1][-4:]}"))
        if route == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Maal", "description": "", "icon": None,
                    "bot_public": True, "bot_require_code_grant": False,
                    "owner": user(1, "owner"), "verify_key": "k", "flags": 0,
                    "summary": "", "rpc_origins": [], "interactions_endpoint_url": None}
        if route in ("/gateway", "/gateway/bot"):
            return {"url": self.gateway_url, "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 1000,
                                            "reset_after": 0, "max_concurrency": 1}}
        if route.endswith("/commands") and method == "PUT":
            scope = "global" if len(parts) == 3 else parts[3]
            _invalid_as_refusal(check_commands, body or [])
            synced = [{**c, "id": snowflake(), "application_id": str(APP_ID), "version": "1",
                       "default_member_permissions": None, "type": c.get("type", 1)}
                      for c in body or []]
            self.commands[scope] = synced
            return synced
        if route == "/interactions/{interaction_id}/{interaction_token}/callback":
            return self._callback(parts[1], parts[2], body, files)
        if route.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            return self._webhook(parts, method, body, files)
        if route == "/channels/{channel_id}/messages" and method == "POST":
            self._may_post(parts[1])
            _invalid_as_refusal(check_message, body or {}, new=True, files=files)
            message = self._message(body or {}, channel_id=parts[1])
            self.posted.setdefault(parts[1], []).append(message["id"])
            return message
        if route == "/channels/{channel_id}/messages/{message_id}":
            if not self.may(parts[1]) & VIEW_CHANNEL:
                raise Refused(403, 50001, "Missing Access")
            if parts[3] not in self.messages:  # deleted, as Discord answers: 10008
                raise Refused(404, 10008, "Unknown Message", fault=False)
            if method == "DELETE":
                del self.messages[parts[3]]
                return None
            if method == "PATCH":
                _invalid_as_refusal(check_message, body or {}, new=False, files=files)
                return self._message(body or {}, message_id=parts[3], channel_id=parts[1])
            return self.messages[parts[3]]
        raise Refused(404, 0, f"the fake has no answer for {method} {route}")

    def _may_post(self, channel_id: str) -> None:
        may = self.may(channel_id)
        if not may & VIEW_CHANNEL:
            raise Refused(403, 50001, "Missing Access")
        if not may & SEND_MESSAGES:
            raise Refused(403, 50013, "Missing Permissions")

    # --- interactions --------------------------------------------------------------------

    def _callback(self, interaction_id: str, token: str, body: dict[str, Any],
                  files: int) -> dict[str, Any]:
        delivered = self.interactions.get(interaction_id)
        if delivered is None or str(delivered.payload["token"]) != token:
            raise Refused(404, 10062, "Unknown interaction")
        if delivered.answer is not None:
            raise Refused(400, 40060, "Interaction has already been acknowledged.")
        late = time.monotonic() - delivered.at
        if late > self.answer_within:
            raise Refused(404, 10062, f"Unknown interaction (answered {late:.1f} s after it "
                                      f"was sent; Discord waits {self.answer_within:g})")
        kind = body["type"]
        allowed = ANSWERS.get(delivered.kind, set())
        if kind in UPDATES and "message" not in delivered.payload:
            allowed = allowed - UPDATES  # a modal opened by a command has no message
        if kind not in allowed:
            raise Refused(400, 50035, f"Invalid Form Body: an interaction of type "
                                      f"{delivered.kind} can't be answered with type {kind}")
        data = body.get("data") or {}
        if kind in (4, 7):
            _invalid_as_refusal(check_message, data, new=kind == 4, files=files)
        elif kind == 9:
            _invalid_as_refusal(check_modal, data)
        elif kind == 8:
            _invalid_as_refusal(check_choices, data)
        delivered.answer = kind
        result: dict[str, Any] = {"interaction": {
            "id": interaction_id, "type": delivered.kind,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool((data.get("flags") or 0) & 64)}}
        if kind in (4, 5, 6, 7):
            # 6 and 7 act on the message the component sits on; 4 and 5 make a new one
            target = self.interaction_messages.get(interaction_id) if kind in UPDATES \
                else None
            message = self._message(data, message_id=target)
            self.callback_messages[interaction_id] = message
            self._originals[token] = message["id"]
            result["interaction"]["response_message_id"] = message["id"]
            result["resource"] = {"type": kind, "message": message}
        return result

    def _webhook(self, parts: list[str], method: str, body: Any, files: int) -> Any:
        """Followups and edits of an interaction's answer, by its token."""
        delivered = self._by_token.get(parts[2])
        if parts[1] != str(APP_ID) or delivered is None:
            raise Refused(404, 10015, "Unknown Webhook")
        if delivered.told_dead:  # it was told: the same dead token again
            raise Refused(401, 50027, "Invalid Webhook Token (used again after a 401)")
        if delivered.expired or time.monotonic() - delivered.at > TOKEN_LIFETIME:
            delivered.told_dead = True
            raise Refused(401, 50027, "Invalid Webhook Token", fault=False)
        if delivered.answer is None or delivered.answer in (8, 9):
            raise Refused(404, 10015, "Unknown Webhook (the interaction has no answer to "
                                      "follow)")
        if method == "DELETE":
            message_id = parts[-1]
            if message_id == "@original":
                message_id = self._originals.get(parts[2], message_id)
                # a followup after the deferred answer is deleted is a message of its own
                # (discord-api-docs issue 2739, fixed by Discord)
                delivered.followed = True
            if message_id not in self.messages:
                raise Refused(404, 10008, "Unknown Message", fault=False)
            del self.messages[message_id]
            return None
        if method == "POST":
            _invalid_as_refusal(check_message, body or {}, new=True, files=files)
            if delivered.answer == 5 and not delivered.followed:
                # the first followup completes the "thinking..." message, which stays as
                # the defer made it: ephemeral or not whatever the followup's flags say
                delivered.followed = True
                original = self.messages[self._originals[parts[2]]]
                return self._message({**(body or {}), "flags": original["flags"]},
                                     message_id=original["id"])
            return self._message(body or {})
        message_id = parts[-1]
        if message_id == "@original":
            message_id = self._originals.get(parts[2], message_id)
        if method == "GET":
            return self.messages.get(message_id, self._message({}))
        _invalid_as_refusal(check_message, body or {}, new=False, files=files)
        return self._message(body or {}, message_id=message_id)

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


def _too_many(retry_after: float, is_global: bool, *, fault: bool,
              headers: dict[str, str] | None = None) -> Refused:
    """Discord's 429: the body says how long to wait; the headers too (and `Via`, without
    which discord.py takes it for Cloudflare's ban, not Discord's limit)."""
    said = {**(headers or {}), "Retry-After": str(math.ceil(retry_after)), "Via": "1.1 google",
            "X-RateLimit-Scope": "global" if is_global else "user"}
    if is_global:
        said["X-RateLimit-Global"] = "true"
    return Refused(429, 0, "You are being rate limited.", fault=fault, headers=said,
                   body={"message": "You are being rate limited.",
                         "retry_after": retry_after, "global": is_global})


def _bucket_key(method: str, path: str) -> str:
    """A route and its major parameter (a channel, a guild, a webhook and its token): what
    Discord counts a limit by."""
    parts = path.split("/")
    if parts[0] in ("channels", "guilds") and len(parts) > 1:
        shape = [parts[0], parts[1], *("{id}" if p.isdigit() else p for p in parts[2:])]
    elif parts[0] in ("webhooks", "interactions") and len(parts) > 2:
        shape = [parts[0], parts[1], parts[2],
                 *("{id}" if p.isdigit() else p for p in parts[3:])]
    else:
        shape = ["{id}" if p.isdigit() else p for p in parts]
    return f"{method} {'/'.join(shape)}"


def _checked(method: str, path: str, query: dict[str, str], body: Any) -> Operation:
    try:
        return _check_cached(method, path, json.dumps(query, sort_keys=True),
                             json.dumps(body, sort_keys=True))
    except NotInSpec as error:
        status = 404 if "no such route" in str(error) else 405 if "not allowed" in str(
            error) else 400
        raise Refused(status, 50035 if status == 400 else 0,
                      f"Invalid Form Body: {error}") from error


@functools.lru_cache(maxsize=256)
def _check_cached(method: str, path: str, query: str, body: str) -> Operation:
    """The document's verdict, once per distinct request (a command sync is the same
    150 KB in every test)."""
    return check(method, path, json.loads(query), json.loads(body))


def _invalid_as_refusal(checker: Any, *args: Any, **kwargs: Any) -> None:
    try:
        checker(*args, **kwargs)
    except Invalid as error:
        raise Refused(400, 50035, f"Invalid Form Body: {error}") from error


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
