"""The fake Discord refuses what Discord refuses, as Discord answers it, and keeps it so the
test that sent it fails: requests sent through the real discord.py's HTTP client (which
checks none of this itself), each with the status and code Discord documents."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.discord_helpers import ALICE, DiscordHarness, slash
from tests.fakes.discord_api import CHANNEL_ID, SEND_MESSAGES, VIEW_CHANNEL
from tests.fakes.discord_openapi import NotInSpec, check


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The fake is under test here, not the store: SQLite only."""
    return f"sqlite:///{tmp_path / 'test.db'}"


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}


def _rows(count: int, per_row: int = 1) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [_button(f"b{r}.{i}") for i in range(per_row)]}
            for r in range(count)]


MESSAGES = {  # a message Discord would not post, and why
    "2,001 characters": {"content": "x" * 2001},
    "11 embeds": {"embeds": [{"description": "x"}] * 11},
    "6,001 characters of embeds": {"embeds": [{"description": "x" * 4000},
                                              {"description": "x" * 2001}]},
    "a 4,097-character description": {"embeds": [{"description": "x" * 4097}]},
    "six action rows": {"content": "x", "components": _rows(6)},
    "six buttons in a row": {"content": "x", "components": _rows(1, 6)},
    "a 101-character custom_id": {"content": "x", "components": [
        {"type": 1, "components": [_button("x" * 101)]}]},
    "one custom_id twice": {"content": "x", "components": [
        {"type": 1, "components": [_button("same"), _button("same")]}]},
    "a select beside a button": {"content": "x", "components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
        _button("b")]}]},
    "max_values over the options": {"content": "x", "components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s", "max_values": 2,
         "options": [{"label": "a", "value": "a"}]}]}]},
    "26 options in a select": {"content": "x", "components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s",
         "options": [{"label": str(i), "value": str(i)} for i in range(26)]}]}]},
    "nothing at all": {"content": ""},
}


@pytest.mark.parametrize("why", list(MESSAGES))
async def test_a_message_discord_would_not_post_is_refused(dc: DiscordHarness, why: str):
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID)
    with pytest.raises(discord.HTTPException) as refused:
        await dc.adapter.client.http.request(route, json=MESSAGES[why])
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert [r.status for r in dc.fake.refused] == [400]  # the test that sent it fails
    dc.fake.refused.clear()


async def answer(dc: DiscordHarness, payload: dict[str, Any], body: dict[str, Any]) -> None:
    route = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                  interaction_id=payload["id"], interaction_token=payload["token"])
    await dc.adapter.client.http.request(route, json=body)


def refused(dc: DiscordHarness) -> list[tuple[int, int]]:
    found = [(r.status, r.code) for r in dc.fake.refused]
    dc.fake.refused.clear()
    return found


async def test_an_interaction_is_answered_once(dc: DiscordHarness):
    payload = slash("board", ALICE)
    dc.fake.deliver(payload)  # to the fake only: the test answers it
    await answer(dc, payload, {"type": 5})
    for second in ({"type": 4, "data": {"content": "x"}},  # answered already
                   {"type": 9, "data": {"custom_id": "m", "title": "t", "components": [
                       {"type": 1, "components": [{"type": 4, "custom_id": "f",
                                                   "style": 1, "label": "l"}]}]}}):
        with pytest.raises(discord.HTTPException):  # a form can't follow a defer either
            await answer(dc, payload, second)
    assert refused(dc) == [(400, 40060), (400, 40060)]


async def test_an_interaction_answered_after_3_seconds_is_unknown(dc: DiscordHarness):
    payload = slash("board", ALICE)
    dc.fake.deliver(payload)
    dc.fake.answer_within = 0.05  # Discord's 3 s, shortened for the test
    await asyncio.sleep(0.1)
    with pytest.raises(discord.NotFound):
        await answer(dc, payload, {"type": 4, "data": {"content": "late"}})
    assert refused(dc) == [(404, 10062)]


@pytest.mark.parametrize("kind, body", [
    (4, {"type": 4, "data": {"content": "x"}}),  # autocomplete takes choices only
    (2, {"type": 8, "data": {"choices": []}}),  # a command takes no choices
    (5, {"type": 9, "data": {"custom_id": "m", "title": "t", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "f", "style": 1,
                                    "label": "l"}]}]}}),  # a form can't open a form
    (2, {"type": 7, "data": {"content": "x"}}),  # a command has no message to update
    (4, {"type": 8, "data": {"choices": [{"name": "x", "value": "x" * 101}]}}),
    (4, {"type": 8, "data": {"choices": [{"name": str(i), "value": str(i)}
                                         for i in range(26)]}}),
])
async def test_an_answer_the_interaction_cant_take_is_refused(dc: DiscordHarness, kind: int,
                                                              body: dict[str, Any]):
    payload = slash("board", ALICE)
    payload["type"] = kind
    dc.fake.deliver(payload)
    with pytest.raises(discord.HTTPException):
        await answer(dc, payload, body)
    assert refused(dc) == [(400, 50035)]


def _labelled(component: dict[str, Any], label: str = "l") -> dict[str, Any]:
    return {"type": 18, "label": label, "component": component}


def _choices(count: int) -> list[dict[str, Any]]:
    return [{"label": f"p{i}", "value": f"p{i}"} for i in range(count)]


_TEXT = {"type": 4, "custom_id": "t", "style": 1}
FORMS = {  # a modal Discord would not open, and why (Component Reference)
    "six components": [_labelled({**_TEXT, "custom_id": f"t{i}"}) for i in range(6)],
    "no component": [],
    "a radio group outside a label": [{"type": 1, "components": [
        {"type": 21, "custom_id": "r", "options": _choices(2)}]}],
    "a radio group of one option": [_labelled({"type": 21, "custom_id": "r",
                                               "options": _choices(1)})],
    "a radio group of eleven options": [_labelled({"type": 21, "custom_id": "r",
                                                   "options": _choices(11)})],
    "a checkbox group of eleven options": [_labelled({"type": 22, "custom_id": "c",
                                                      "options": _choices(11)})],
    "min_values 0 while required": [_labelled({"type": 22, "custom_id": "c",
                                               "min_values": 0, "options": _choices(3)})],
    "max_values over the options": [_labelled({"type": 22, "custom_id": "c",
                                               "required": False, "min_values": 0,
                                               "max_values": 4, "options": _choices(3)})],
    "one value twice": [_labelled({"type": 21, "custom_id": "r", "options": [
        {"label": "a", "value": "x"}, {"label": "b", "value": "x"}]})],
    "a disabled select": [_labelled({"type": 3, "custom_id": "s", "disabled": True,
                                     "options": _choices(2)})],
    "a 46-character label": [_labelled(_TEXT, "x" * 46)],
    "a 101-character description": [{**_labelled(_TEXT), "description": "x" * 101}],
    "one custom_id twice": [_labelled(_TEXT), _labelled(_TEXT, "m")],
}


@pytest.mark.parametrize("why", list(FORMS))
async def test_a_form_discord_would_not_open_is_refused(dc: DiscordHarness, why: str):
    payload = slash("hand", ALICE)
    dc.fake.deliver(payload)
    with pytest.raises(discord.HTTPException):
        await answer(dc, payload, {"type": 9, "data": {"custom_id": "m", "title": "t",
                                                       "components": FORMS[why]}})
    assert refused(dc) == [(400, 50035)]


async def test_the_new_kinds_of_field_are_taken_as_discord_takes_them(dc: DiscordHarness):
    payload = slash("hand", ALICE)
    dc.fake.deliver(payload)
    await answer(dc, payload, {"type": 9, "data": {"custom_id": "m", "title": "t",
                                                   "components": [
        _labelled({"type": 21, "custom_id": "r", "required": False,
                   "options": _choices(10)}),
        _labelled({"type": 22, "custom_id": "c", "required": False, "min_values": 0,
                   "max_values": 10, "options": _choices(10)}),
        {**_labelled({**_TEXT, "style": 2, "required": False}), "description": "d"},
        _labelled({"type": 23, "custom_id": "x"}),
        {"type": 10, "content": "a line of text"}]}})
    assert refused(dc) == []


async def test_a_followup_needs_an_answer_first_and_a_live_token(dc: DiscordHarness):
    payload = slash("board", ALICE)
    dc.fake.deliver(payload)
    followup = discord.Webhook.partial(int(payload["application_id"]), payload["token"],
                                       client=dc.adapter.client)
    with pytest.raises(discord.NotFound):  # nothing to follow yet
        await followup.send("x")
    assert refused(dc) == [(404, 10015)]
    await answer(dc, payload, {"type": 5})
    dc.fake.expire(payload["id"])
    with pytest.raises(discord.HTTPException) as dead:
        await followup.send("x")
    assert (dead.value.status, dead.value.code) == (401, 50027)
    assert refused(dc) == []  # 15 minutes passed: not the bot's fault ...
    with pytest.raises(discord.HTTPException):
        await followup.send("x")
    assert refused(dc) == [(401, 50027)]  # ... but trying the dead token again is


@pytest.mark.parametrize("missing, code", [(SEND_MESSAGES, 50013), (VIEW_CHANNEL, 50001)])
async def test_posting_where_the_bot_may_not_is_forbidden(dc: DiscordHarness, missing: int,
                                                          code: int):
    dc.fake.permissions[str(CHANNEL_ID)] = ~missing & ((1 << 51) - 1)
    with pytest.raises(discord.Forbidden):
        await dc.adapter.client.get_partial_messageable(CHANNEL_ID).send("x")
    assert refused(dc) == [(403, code)]


async def test_a_command_sync_discord_would_refuse(dc: DiscordHarness):
    good = {"name": "hand", "description": "record a hand", "type": 1, "contexts": [0]}
    for bad in ({**good, "dm_permission": True},  # deprecated: contexts say it
                {**good, "contexts": [7]},  # no such context
                {**good, "options": [{"type": 3, "name": "a", "description": "a"},
                                     {"type": 3, "name": "b", "description": "b",
                                      "required": True}]}):  # required after optional
        with pytest.raises(discord.HTTPException):
            await dc.adapter.client.http.bulk_upsert_global_commands(
                dc.adapter.client.application_id, [bad])
        assert refused(dc) == [(400, 50035)], bad


def test_the_document_is_read_as_discord_says():
    check("POST", "channels/1/messages", {}, {"content": "x", "nonce": "1234567890123456789",
                                              "attachments": [{"id": 0, "filename": "a"}]})
    for method, path, body in (("GET", "channels/1/nothing", None),
                               ("POST", "channels/abc/messages", {"content": "x"}),
                               ("PUT", "users/@me", None)):
        with pytest.raises(NotInSpec):
            check(method, path, {}, body)

