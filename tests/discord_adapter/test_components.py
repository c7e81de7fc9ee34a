"""Selects and forms as Discord sends them: a select's `values` are its whole selection, every
time; a form's submit is read from its ids, whoever opened it and whichever process sent it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_adapter import DiscordAdapter
from bot.discord_adapter.components import form_answer, submitted
from tests.discord_adapter.test_adapter import select_id
from tests.discord_helpers import (
    ALICE,
    BOB,
    DiscordHarness,
    component,
    custom_ids,
    modal_submit,
    slash,
)


async def four_players(dc: DiscordHarness) -> None:
    answer = await dc.reply_to(slash("newgame", ALICE, players="alice bob carol dave"))
    assert "Players: alice, bob, carol, dave" in answer["data"]["content"]


def ticked(message: dict[str, Any]) -> list[str]:
    """The labels the message's select shows ticked."""
    select = next(item for row in message["components"] for item in row["components"]
                  if item["type"] == 3)
    return [o["label"] for o in select["options"] if o.get("default")]


async def pick(dc: DiscordHarness, message: dict[str, Any], values: list[str]
               ) -> dict[str, Any]:
    """Submit the select with `values` (the seats: alice 1, bob t2, carol t3, dave t4); the message
    after."""
    payload = component(message, select_id(message), ALICE, values=values)
    assert (await dc.reply_to(payload))["type"] == 7
    return dc.message_of(payload)


async def done(dc: DiscordHarness, message: dict[str, Any]) -> str:
    payload = component(message, custom_ids(message)["Done"], ALICE)
    return (await dc.reply_to(payload))["data"]["content"]


async def seen_select(dc: DiscordHarness) -> dict[str, Any]:
    start = slash("hand", ALICE, winner="alice")
    await dc.reply_to(start)
    return dc.message_of(start)


async def test_several_seen_players_picked_at_once_are_all_marked(dc: DiscordHarness):
    await four_players(dc)
    message = await pick(dc, await seen_select(dc), ["t2", "t3"])
    assert ticked(message) == ["bob", "carol"]
    # who has seen owes maal: the winner, bob and carol, not dave
    assert "waits for the maal of alice, bob, carol:" in await done(dc, message)


async def test_reopening_the_select_sends_the_ticked_one_again_with_the_new(
        dc: DiscordHarness):
    await four_players(dc)
    message = await pick(dc, await seen_select(dc), ["t2"])
    assert ticked(message) == ["bob"]
    # Discord sends the whole selection: bob (still ticked) and dave (just ticked)
    message = await pick(dc, message, ["t2", "t4"])
    assert ticked(message) == ["bob", "dave"]
    message = await pick(dc, message, ["t4"])  # bob unticked
    assert ticked(message) == ["dave"]
    assert "waits for the maal of alice, dave:" in await done(dc, message)


async def test_nobody_ticked_is_nobody_seen_but_the_winner(dc: DiscordHarness):
    await four_players(dc)
    message = await pick(dc, await pick(dc, await seen_select(dc), ["t3"]), [])
    assert ticked(message) == []
    assert "waits for the maal of alice:" in await done(dc, message)


async def test_a_select_sent_before_the_fix_still_marks_everyone_picked(dc: DiscordHarness):
    """A tick-several select was `mb:s:` (as a pick-one): one on a message from before an
    upgrade still marks all it sends."""
    await four_players(dc)
    message = await seen_select(dc)
    new_id = select_id(message)
    assert new_id.startswith("mb:t:")
    old_id = "mb:s:" + new_id.removeprefix("mb:t:")
    old = {**message, "components": [{**row, "components": [
        {**item, "custom_id": old_id} if item["custom_id"] == new_id else item
        for item in row["components"]]} for row in message["components"]]}
    payload = component(old, old_id, ALICE, values=["t2", "t4"])
    assert (await dc.reply_to(payload))["type"] == 7
    assert ticked(dc.message_of(payload)) == ["bob", "dave"]


def test_what_a_select_answers():
    assert submitted(["t1", "t3"], many=True) == "s10"  # seats 1 and 3: 0b1010
    assert submitted([], many=True) == "s0"
    assert submitted(["2"], many=False) == "2"
    assert submitted(["t1", "t2"], many=False) == "s6"  # an older tick-several select


async def waiting_hand(dc: DiscordHarness) -> dict[str, Any]:
    """alice won, bob has seen: the message with "Enter maal". Alice and Bob play from
    their accounts."""
    for person in (ALICE, BOB):
        dc.fake.users[person["id"]] = person
    started = await dc.reply_to(slash("newgame", ALICE, players="<@301> <@302> carol"))
    assert "Players: Alice, Bob, carol" in started["data"]["content"], started
    message = await pick(dc, await seen_select(dc), ["t2"])
    payload = component(message, custom_ids(message)["Done"], ALICE)
    await dc.reply_to(payload)
    return dc.message_of(payload)


async def open_form(dc: DiscordHarness, message: dict[str, Any],
                    who: dict[str, Any]) -> dict[str, Any]:
    tap = component(message, custom_ids(message)["Enter maal"], who)
    callback = await dc.reply_to(tap)
    assert callback["type"] == 9, callback  # the form is the first answer
    return callback["data"]


def fields(form: dict[str, Any]) -> dict[str, str]:
    """label -> custom_id of the form's text inputs."""
    return {row["components"][0]["label"]: row["components"][0]["custom_id"]
            for row in form["components"]}


async def test_two_people_with_the_same_form_open_are_each_answered(dc: DiscordHarness):
    message = await waiting_hand(dc)
    alices, bobs = await open_form(dc, message, ALICE), await open_form(dc, message, BOB)
    assert alices["custom_id"] == bobs["custom_id"]  # the same form, twice
    assert list(fields(alices)) == ["Alice", "Bob"]
    # each fills in their own; neither submit is lost, each gets an answer
    first = await dc.reply_to(modal_submit(message, bobs["custom_id"], BOB,
                                           {fields(bobs)["Bob"]: "2",
                                            fields(bobs)["Alice"]: ""}))
    assert "waits for the maal of Alice:" in first["data"]["content"], first
    second = await dc.reply_to(modal_submit(message, alices["custom_id"], ALICE,
                                            {fields(alices)["Alice"]: "10",
                                             fields(alices)["Bob"]: ""}))
    assert "Hand 1: Alice won" in second["data"]["content"].replace("\\", ""), second
    # discord.py keeps no form: nothing of it to lose, time out or replace
    assert not dc.adapter.client._connection._view_store._modals


async def test_a_form_opened_before_a_restart_is_read_after_it(dc: DiscordHarness):
    message = await waiting_hand(dc)
    form = await open_form(dc, message, ALICE)
    fresh = DiscordAdapter(dc.adapter.service, dc.fake.token, api_url=dc.fake.base,
                           gateway_url=dc.fake.gateway_url)
    await fresh.login()
    try:
        again = DiscordHarness(dc.fake, fresh)
        callback = await again.reply_to(modal_submit(
            message, form["custom_id"], ALICE,
            {fields(form)["Alice"]: "10", fields(form)["Bob"]: "2"}))
        assert "Hand 1: Alice won" in callback["data"]["content"].replace("\\", "")
    finally:
        await fresh.client.close()


def test_a_forms_answer_from_its_submit():
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": "=alice", "value": " 10 "}]},
            {"type": 1, "components": [{"type": 4, "custom_id": "=bob", "value": ""}]},
            {"type": 18, "component": {"type": 4, "custom_id": "*", "value": "carol=3\nd=1"}}]
    assert form_answer({"custom_id": "mb:m:hi.0.1.2.sig", "components": rows}) == (
        "hi.0.1.2.sig", "alice=10 carol=3 d=1")
    assert form_answer({"custom_id": "someone-else", "components": rows}) is None


async def test_a_tap_that_fails_on_our_side_is_still_answered(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch):
    await four_players(dc)
    message = await seen_select(dc)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(dc.adapter.service, "answer", broken)
    payload = component(message, custom_ids(message)["Done"], ALICE)
    answer = (await dc.reply_to(payload))["data"]
    assert answer["flags"] & 64 and "Something went wrong on my side" in answer["content"]
    assert dc.adapter.errors == 1


async def confirmed(dc: DiscordHarness, ask: dict[str, Any], yes: str) -> str:
    """A command, confirmed if it asks first: what it then says."""
    said = (await dc.reply_to(ask))["data"]["content"]
    message = dc.message_of(ask)
    if yes not in custom_ids(message):
        return said
    return (await dc.reply_to(component(message, custom_ids(message)[yes], ALICE)))[
        "data"]["content"]


async def test_a_form_sent_again_after_the_hand_is_scored_says_so_and_how_to_change_it(
        dc: DiscordHarness):
    message = await waiting_hand(dc)
    form = await open_form(dc, message, ALICE)
    filled = {fields(form)["Alice"]: "10", fields(form)["Bob"]: "2"}
    scored = await dc.reply_to(modal_submit(message, form["custom_id"], ALICE, filled))
    assert "Hand 1: Alice won" in scored["data"]["content"].replace("\\", ""), scored
    # bob had the same form open and sends it too: hand 1 is scored, /edit changes it
    late = await dc.reply_to(modal_submit(message, form["custom_id"], BOB,
                                          {fields(form)["Bob"]: "3"}))
    text = late["data"]["content"]
    assert "Hand 1 is already scored" in text and "/edit hand:1" in text, late
    assert "Ask again" not in text


async def test_a_form_sent_after_its_hand_was_dropped_or_the_game_ended_says_so(
        dc: DiscordHarness):
    message = await waiting_hand(dc)
    form = await open_form(dc, message, ALICE)
    dropped = await confirmed(dc, slash("undo", ALICE), "Yes, drop it")
    assert "Dropped the waiting hand" in dropped, dropped
    late = await dc.reply_to(modal_submit(message, form["custom_id"], ALICE,
                                          {fields(form)["Alice"]: "10"}))
    assert "Hand 1 was dropped; nothing changed." in late["data"]["content"], late
    assert "closed" in await confirmed(dc, slash("endgame", ALICE), "Yes, end it")
    late = await dc.reply_to(modal_submit(message, form["custom_id"], ALICE,
                                          {fields(form)["Alice"]: "10"}))
    assert "That game has ended; nothing changed." in late["data"]["content"], late


async def test_an_empty_form_says_to_fill_it_in(dc: DiscordHarness):
    message = await waiting_hand(dc)
    form = await open_form(dc, message, ALICE)
    empty = await dc.reply_to(modal_submit(message, form["custom_id"], ALICE,
                                           {fields(form)["Alice"]: "",
                                            fields(form)["Bob"]: " "}))
    text = empty["data"]["content"]
    assert "The form was empty" in text and "Fill in a number" in text, empty
    assert "maal:" not in text and "=" not in text
    # nothing changed: the same form still scores the hand
    scored = await dc.reply_to(modal_submit(message, form["custom_id"], ALICE,
                                            {fields(form)["Alice"]: "10",
                                             fields(form)["Bob"]: "2"}))
    assert "Hand 1: Alice won" in scored["data"]["content"].replace("\\", ""), scored
