"""Raw interaction payloads, as Discord sends them, for the real discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from bot.discord_adapter import DiscordAdapter
from bot.storage import SqlStore
from tests.fakes.discord_api import (
    ALL_PERMISSIONS,
    APP_ID,
    CHANNEL_ID,
    GUILD_ID,
    FakeDiscord,
    snowflake,
    user,
)

ALICE = user(301, "Alice")
BOB = user(302, "Bob")
CAROL = user(303, "Carol")
STRANGER = user(399, "Mallory")
MANAGE_GUILD = str(1 << 5)
STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6


def member(who: dict[str, Any], permissions: str = "0") -> dict[str, Any]:
    return {"user": who, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
            "mute": False, "flags": 0, "permissions": permissions, "nick": None,
            "avatar": None, "premium_since": None, "pending": False}


def _base(kind: int, who: dict[str, Any], data: dict[str, Any], permissions: str,
          channel_id: int) -> dict[str, Any]:
    return {
        "id": snowflake(), "application_id": str(APP_ID), "type": kind,
        "token": f"token-{snowflake()}", "version": 1, "attachment_size_limit": 8388608,
        "guild_id": str(GUILD_ID), "channel_id": str(channel_id),
        "channel": {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID),
                    "name": "game-night", "position": 0, "permission_overwrites": []},
        "member": member(who, permissions), "locale": "en-US", "guild_locale": "en-US",
        "app_permissions": str(ALL_PERMISSIONS), "entitlements": [], "data": data,
    }


def slash(command: str, who: dict[str, Any], /, *, permissions: str = "0",
          channel_id: int = CHANNEL_ID, **options: Any) -> dict[str, Any]:
    """A slash command; a dict value is a user option (the person), else by Python type."""
    opts, users, members = [], {}, {}
    for key, value in options.items():
        if isinstance(value, dict):
            opts.append({"name": key, "type": USER, "value": value["id"]})
            users[value["id"]] = value
            members[value["id"]] = {k: v for k, v in member(value).items() if k != "user"}
        elif isinstance(value, bool):
            opts.append({"name": key, "type": BOOLEAN, "value": value})
        elif isinstance(value, int):
            opts.append({"name": key, "type": INTEGER, "value": value})
        else:
            opts.append({"name": key, "type": STRING, "value": value})
    data: dict[str, Any] = {"id": snowflake(), "name": command, "type": 1, "options": opts}
    if users:
        data["resolved"] = {"users": users, "members": members}
    return _base(2, who, data, permissions, channel_id)


def autocomplete(command: str, who: dict[str, Any], /, **options: Any) -> dict[str, Any]:
    """Someone typing in a command's option: the last one given is the focused one."""
    payload = slash(command, who, **options)
    payload["type"] = 4
    payload["data"]["options"][-1]["focused"] = True
    return payload


def component(message: dict[str, Any], custom_id: str, who: dict[str, Any], *,
              values: list[str] | None = None, permissions: str = "0") -> dict[str, Any]:
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if values is not None
                            else 2}
    if values is not None:
        data["values"] = values
    payload = _base(3, who, data, permissions, int(message["channel_id"]))
    payload["message"] = message
    return payload


def modal_submit(message: dict[str, Any] | None, custom_id: str, who: dict[str, Any],
                 fields: dict[str, str]) -> dict[str, Any]:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
            for k, v in fields.items()]
    payload = _base(5, who, {"custom_id": custom_id, "components": rows}, "0", CHANNEL_ID)
    if message is not None:
        payload["message"] = message
    return payload


TEXT_INPUT, SELECT, TEXT_DISPLAY, LABEL = 4, 3, 10, 18
RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 21, 22, 23


def labels(form: dict[str, Any]) -> list[str]:
    """The labels of a modal's fields, top to bottom."""
    return [item["label"] for item in form["components"] if item["type"] == LABEL]


def control(form: dict[str, Any], label: str) -> dict[str, Any]:
    """The component a modal's Label `label` wraps."""
    return next(item["component"] for item in form["components"]
                if item["type"] == LABEL and item["label"] == label)


def offered(form: dict[str, Any], label: str) -> list[str]:
    """The values a radio group, checkbox group or select offers, in order."""
    return [o["value"] for o in control(form, label)["options"]]


def form_submit(form: dict[str, Any], who: dict[str, Any], answers: dict[str, Any], *,
                message: dict[str, Any] | None = None, permissions: str = "0",
                locale: str = "en-US") -> dict[str, Any]:
    """A modal's submit as Discord sends it (Component Reference, each component's
    "Interaction Response Structure"): every Label with an id and its component's answer, a
    text input's `value` (text, "" if empty), a radio group's `value` (null if none), a
    checkbox group's or select's `values`, a checkbox's `value` (true or false); a Text
    Display by its id. `form` is the modal as the bot sent it, `answers` by each Label's
    text. What Discord's client would not let a person send fails here: a value not
    offered, a required field left empty, text over the field's length."""
    ids = iter(range(1, 100))
    left = dict(answers)
    components: list[dict[str, Any]] = []
    for item in form["components"]:
        if item["type"] == TEXT_DISPLAY:
            components.append({"type": TEXT_DISPLAY, "id": next(ids)})
            continue
        assert item["type"] == LABEL, item
        child, label_id = item["component"], next(ids)
        answer = left.pop(item["label"], None)
        required = child.get("required", True) is not False
        said: dict[str, Any] = {"type": child["type"], "id": next(ids),
                                "custom_id": child["custom_id"]}
        values = [o["value"] for o in child.get("options", [])]
        if child["type"] == TEXT_INPUT:
            text = answer or ""
            assert len(text) <= child.get("max_length", 4000), f"{item['label']}: too long"
            assert text or not required, f"{item['label']} is required"
            said["value"] = text
        elif child["type"] == RADIO_GROUP:
            assert answer is None or answer in values, f"{item['label']}: {answer} not offered"
            assert answer is not None or not required, f"{item['label']} is required"
            said["value"] = answer
        elif child["type"] in (CHECKBOX_GROUP, SELECT):
            chosen = list(answer or [])
            low = child.get("min_values", 1 if required else 0)
            high = child.get("max_values", len(values))
            assert set(chosen) <= set(values), f"{item['label']}: {chosen} not offered"
            assert low <= len(chosen) <= high, f"{item['label']}: {len(chosen)} ticked"
            said["values"] = chosen
        elif child["type"] == CHECKBOX:
            said["value"] = bool(answer)
        components.append({"type": LABEL, "id": label_id, "component": said})
    assert not left, f"the form has no field {list(left)}: {labels(form)}"
    payload = _base(5, who, {"custom_id": form["custom_id"], "components": components},
                    permissions, CHANNEL_ID)
    payload["locale"] = locale
    if message is not None:
        payload["message"] = message
    return payload


def custom_ids(message: dict[str, Any]) -> dict[str, str]:
    """label or placeholder -> custom_id of every component in a message."""
    found = {}
    for row in message.get("components", []):
        for item in row.get("components", []):
            found[item.get("label") or item.get("placeholder") or "?"] = item["custom_id"]
    return found


@dataclass
class DiscordHarness:
    fake: FakeDiscord
    adapter: DiscordAdapter

    def deliver(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Hand the bot an interaction, as the gateway would: now (its 3 seconds start),
        saying what the bot may do in the channel (`app_permissions`, as the fake has it)."""
        if "message" in payload:
            self.fake.interaction_messages[payload["id"]] = payload["message"]["id"]
        payload["app_permissions"] = str(self.fake.may(payload["channel_id"]))
        if payload["type"] in (2, 4) and self._in_guild_only(payload):
            payload["data"]["guild_id"] = payload["guild_id"]  # a server's own command
        self.fake.deliver(payload)
        self.adapter.client._connection.parsers["INTERACTION_CREATE"](payload)
        return payload

    def _in_guild_only(self, payload: dict[str, Any]) -> bool:
        name = payload["data"]["name"]
        synced = self.fake.commands
        return not any(c["name"] == name for c in synced.get("global", [])) and any(
            c["name"] == name for c in synced.get(str(payload.get("guild_id")), []))

    async def reply_to(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Deliver a payload and return the callback Discord received for it."""
        self.deliver(payload)
        await self.fake.wait(lambda: bool(self.fake.calls("POST",
                                                          f"interactions/{payload['id']}/")))
        return self.fake.calls("POST", f"interactions/{payload['id']}/")[-1].body  # type: ignore[return-value]

    async def answer_to(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Deliver a payload and return what the person is shown: the callback's message,
        or, when the bot deferred (slow work; a loaded machine), the message that followed
        with the interaction's token."""
        callback = await self.reply_to(payload)
        if callback["type"] not in (5, 6):
            return callback["data"]
        path = f"webhooks/{APP_ID}/{payload['token']}"

        def followed() -> list[Any]:
            return [c.body for c in self.fake.captured if c.status == 200
                    and c.method in ("POST", "PATCH")
                    and (c.path == path or c.path.startswith(f"{path}/"))]

        await self.fake.wait(lambda: bool(followed()))
        return followed()[-1]

    async def live_board(self, channel_id: int = CHANNEL_ID,
                         containing: str = "") -> dict[str, Any]:
        """The channel's live board as it is now (the last message the bot posted itself,
        edited since), once its embed holds `containing`."""
        def board() -> dict[str, Any] | None:
            posted = self.fake.posted.get(str(channel_id))
            message = self.fake.messages.get(posted[-1]) if posted else None
            if message and message.get("embeds") \
                    and containing in message["embeds"][0].get("description", ""):
                return message
            return None

        await self.fake.wait(lambda: board() is not None)
        return board()  # type: ignore[return-value]

    def message_of(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The message as it stands now after the callback to `payload`."""
        message = self.fake.callback_messages[payload["id"]]
        return self.fake.messages[message["id"]]


def slow_database(store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """The database has a bad moment: every transaction waits until the event is set."""
    gate = asyncio.Event()
    real = store.transaction

    @asynccontextmanager
    async def waiting(chat: str, write: bool = True) -> AsyncIterator[Any]:
        await gate.wait()
        async with real(chat, write) as tx:
            yield tx

    monkeypatch.setattr(store, "transaction", waiting)
    return gate
