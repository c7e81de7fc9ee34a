"""Discord's real life, played by the strict fake through the real discord.py: a slow
database, many mentions, a channel the bot may not post in, a token that runs out, 429s,
and commands that say where they may be used. The fake fails any test whose bot sent what
Discord would refuse, answered an interaction late or twice, or used a dead token again.

One Marriage hand is used throughout, worked from the rules (shared/rules/marriage.md,
"Settlement of one hand"): alice wins, bob has seen, carol has not; maal alice 10, bob 2,
carol 0 (P = 12, n = 3). The maal exchange n*s - P gives alice +18, bob -6, carol -12; game
points: bob pays 3 (seen), carol 10 (unseen). Totals: alice +31, bob -9, carol -22."""

from __future__ import annotations

import asyncio
import gc

import pytest

import bot.discord_adapter.adapter as adapter_module
from bot.discord_adapter.adapter import player_choices
from tests.discord_adapter.test_adapter import board, new_game, shown
from tests.discord_adapter.test_components import fields, open_form, waiting_hand
from tests.discord_helpers import (
    ALICE,
    DiscordHarness,
    autocomplete,
    custom_ids,
    modal_submit,
    slash,
    slow_database,
)
from tests.fakes.discord_api import (
    ALL_PERMISSIONS,
    CHANNEL_ID,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    user,
)

HAND = {"winner": "alice", "seen": "bob", "maal": "alice=10 bob=2"}
TOTALS = {"alice": 31, "bob": -9, "carol": -22}


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info]


# --- a slow database -----------------------------------------------------------------------

async def test_enter_maal_opens_the_form_at_once_when_the_database_is_slow(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch):
    message = await waiting_hand(dc)  # Alice won, Bob has seen: their maal is awaited
    monkeypatch.setattr(adapter_module, "FORM_WAIT", 0.1)
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    # who still owes maal can't be read: the form asks for every pair in one field, now
    # (a form can't follow a defer; the fake fails the test if it came after 3 s)
    form = await open_form(dc, message, ALICE)
    assert form["title"] == "Enter maal"
    assert fields(form) == {"Each player: name=number": "*"}
    gate.set()
    answer = await dc.reply_to(modal_submit(message, form["custom_id"], ALICE,
                                            {"*": "Alice=10\nBob=2"}))
    assert "Hand 1: Alice won" in shown(answer["data"]["content"])


async def test_autocomplete_offers_nothing_in_time_when_the_database_is_slow(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture):
    await new_game(dc)
    monkeypatch.setattr(adapter_module, "COMPLETE_WAIT", 0.1)
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    for typed in ("c", "ca"):  # two keystrokes
        callback = await dc.reply_to(autocomplete("hand", ALICE, winner=typed))
        assert callback == {"type": 8, "data": {"choices": []}}
    gate.set()
    assert not tracebacks(caplog)
    assert len([r for r in caplog.records if "no names to offer" in r.getMessage()]) == 2
    callback = await dc.reply_to(autocomplete("hand", ALICE, winner="ca"))
    assert callback["data"]["choices"] == [{"name": "carol", "value": "carol"}]


async def test_autocomplete_too_late_is_one_line_and_no_second_try(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture):
    await new_game(dc)
    dc.fake.answer_within = 0.05  # the machine stalled: Discord has given up already
    dc.fake.slow("callback", 0.1)
    payload = autocomplete("hand", ALICE, winner="ca")
    await dc.reply_to(payload)
    await asyncio.sleep(0.3)  # a second answer would come now
    assert len(dc.fake.calls("POST", f"interactions/{payload['id']}/")) == 1
    assert [(r.status, r.code) for r in dc.fake.refused] == [(404, 10062)]
    dc.fake.refused.clear()  # the stall was played, not the bot's mistake
    said = [r for r in caplog.records if "can't be answered" in r.getMessage()]
    assert len(said) == 1 and not tracebacks(caplog)


# --- many mentions -------------------------------------------------------------------------

PEOPLE = [user(600 + i, f"Player{i}") for i in range(10)]


async def test_ten_mentioned_players_are_looked_up_in_time(dc: DiscordHarness):
    for person in PEOPLE:
        dc.fake.users[person["id"]] = person
    dc.fake.slow("GET users/", 0.35)  # ten lookups one after another: 3.5 s
    payload = slash("newgame", ALICE, players=" ".join(f"<@{p['id']}>" for p in PEOPLE))
    answer = await dc.answer_to(payload)
    names = ", ".join(f"Player{i}" for i in range(10))
    assert f"Players: {names}." in answer["content"]


async def test_mentions_slower_than_the_wait_are_deferred_first(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.1)
    for person in PEOPLE[:3]:
        dc.fake.users[person["id"]] = person
    dc.fake.slow("GET users/", 0.5)
    payload = slash("newgame", ALICE, players=" ".join(f"<@{p['id']}>" for p in PEOPLE[:3]))
    callback = await dc.reply_to(payload)
    assert callback["type"] == 5  # "thinking...", before the lookups came back
    answer = await dc.answer_to(payload)
    assert "Players: Player0, Player1, Player2." in answer["content"]


# --- a channel the bot may not post in -----------------------------------------------------

@pytest.mark.parametrize("missing", [SEND_MESSAGES, VIEW_CHANNEL],
                         ids=["no-send-messages", "no-view-channel"])
async def test_with_no_right_to_post_each_reply_carries_the_board(
        dc: DiscordHarness, caplog: pytest.LogCaptureFixture, missing: int):
    dc.fake.permissions[str(CHANNEL_ID)] = ALL_PERMISSIONS & ~missing
    await new_game(dc)
    first = (await dc.reply_to(slash("hand", ALICE, **HAND)))["data"]
    description = shown(first["embeds"][0]["description"])
    assert "Hand 1: alice won" in description
    assert "+31" in description and "-9" in description and "-22" in description
    assert set(custom_ids(first)) == {"Next hand", "Undo"}
    second = (await dc.reply_to(slash("hand", ALICE, **HAND)))["data"]
    assert "+62" in second["embeds"][0]["description"]  # two such hands: 2 x 31
    await asyncio.sleep(adapter_module.PUBLISH_AFTER * 3)  # a board post would be due
    assert not dc.fake.calls("POST", "channels/")  # never tried: app_permissions said no
    said = [r for r in caplog.records if "may not post" in r.getMessage()]
    assert len(said) == 1 and not tracebacks(caplog)
    assert (await board(dc))["totals"] == {k: 2 * v for k, v in TOTALS.items()}


async def test_the_live_board_comes_back_with_the_right_to_post(dc: DiscordHarness):
    dc.fake.permissions[str(CHANNEL_ID)] = ALL_PERMISSIONS & ~SEND_MESSAGES
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    dc.fake.permissions.clear()
    reply = (await dc.reply_to(slash("hand", ALICE, **HAND)))["data"]
    assert not reply.get("embeds")  # the short line; the board is a message of its own
    await dc.live_board(containing="+62")


# --- a token that runs out -----------------------------------------------------------------

async def test_an_expired_token_is_said_once_and_the_hand_still_shows(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture):
    await new_game(dc)
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.05)
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    payload = slash("hand", ALICE, **HAND)
    assert (await dc.reply_to(payload))["type"] == 5
    dc.fake.expire(payload["id"])  # the database took over 15 minutes
    gate.set()
    await dc.live_board(containing="+31")  # recorded, and on the live board
    await dc.fake.wait(lambda: any(f.status == 401 for f in dc.fake.failed))
    await asyncio.sleep(0.2)  # anything more the bot would send with the dead token
    assert [f.status for f in dc.fake.failed] == [401]  # once: the fake fails a second
    said = [r for r in caplog.records if "can't be answered" in r.getMessage()]
    assert len(said) == 1 and not tracebacks(caplog)
    gc.collect()  # an unawaited failed task would say so now
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    assert (await board(dc))["totals"] == TOTALS


async def test_an_interaction_answered_too_late_is_said_once_and_the_hand_still_shows(
        dc: DiscordHarness, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture):
    """The gateway brought it late, or the machine stalled: Discord has given up on the
    interaction (10062) before the bot's first answer. Nothing more is tried with it."""
    await new_game(dc)
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.2)
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    asyncio.get_running_loop().call_later(0.4, gate.set)
    dc.fake.answer_within = 0.1  # what is left of the 3 s when the bot gets it
    payload = slash("hand", ALICE, **HAND)
    await dc.reply_to(payload)  # the defer, at 0.2 s: too late
    await dc.live_board(containing="+31")
    assert [(r.status, r.code) for r in dc.fake.refused] == [(404, 10062)]
    dc.fake.refused.clear()  # the late answer was played, not the bot's mistake
    assert len(dc.fake.calls("POST", f"interactions/{payload['id']}/")) == 1
    assert not dc.fake.calls("POST", "webhooks/")
    said = [r for r in caplog.records if "can't be answered" in r.getMessage()]
    assert len(said) == 1 and not tracebacks(caplog)
    gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


# --- 429s ----------------------------------------------------------------------------------

async def test_a_429_on_the_live_board_is_waited_out(dc: DiscordHarness):
    await new_game(dc)
    dc.fake.rate_limit("POST channels/", retry_after=0.3)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    await dc.live_board(containing="+31")
    posts = dc.fake.calls("POST", "channels/")
    assert [p.status for p in posts] == [429, 200]
    assert posts[1].at - posts[0].at >= 0.3  # as long as retry_after said


async def test_a_429_on_a_followup_is_waited_out(dc: DiscordHarness,
                                                 monkeypatch: pytest.MonkeyPatch):
    await new_game(dc)
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.05)
    gate = slow_database(dc.adapter.service.store, monkeypatch)
    payload = slash("board", ALICE)
    assert (await dc.reply_to(payload))["type"] == 5
    dc.fake.rate_limit("POST webhooks/", retry_after=0.2)
    gate.set()
    answer = await dc.answer_to(payload)
    assert answer["embeds"][0]["title"] == "Board"
    assert [c.status for c in dc.fake.calls("POST", "webhooks/")] == [429, 200]


async def test_a_global_429_holds_every_request_then_goes_on(dc: DiscordHarness):
    dc.fake.users[PEOPLE[0]["id"]] = PEOPLE[0]
    dc.fake.rate_limit("GET users/", retry_after=0.2, is_global=True)
    answer = await dc.answer_to(slash("newgame", ALICE, players=f"<@{PEOPLE[0]['id']}> bob"))
    assert "Players: Player0, bob." in answer["content"]


async def test_the_rate_limit_headers_are_kept_to(dc: DiscordHarness):
    """A route that allows one edit a 0.6 s says so (X-RateLimit-Remaining: 0 and
    Reset-After): discord.py waits for the reset instead of being refused."""
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    await dc.live_board(containing="+31")
    dc.fake.limit("PATCH channels/", 1, 0.6)
    for total in ("+62", "+93"):
        await dc.reply_to(slash("hand", ALICE, **HAND))
        await dc.live_board(containing=total)
    edits = dc.fake.calls("PATCH", "channels/")
    assert [e.status for e in edits] == [200, 200]  # no 429: the headers were read
    assert edits[1].at - edits[0].at >= 0.5


# --- autocomplete's 100 characters ---------------------------------------------------------

def test_a_choice_that_would_be_cut_is_not_offered():
    typed = " ".join(["somebody"] * 10) + " b"  # 91 characters
    offered = player_choices(typed, ["bob", "bartholomew", "carol"])
    # "... bob" is 93 characters; "... bartholomew" would be 101: cut, it names nobody
    assert [c.value for c in offered] == [typed[:-1] + "bob"]
    assert all(len(c.name) <= 100 for c in offered)


async def test_autocomplete_through_discord_offers_no_cut_name(dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, players="alice bob bartholomew_the_2nd"))
    typed = "alice " * 14 + "b"  # 85 characters
    callback = await dc.reply_to(autocomplete("hand", ALICE, winner="alice", seen=typed))
    # "... bob" is 87 characters; "... bartholomew_the_2nd" would be 103
    assert [c["value"] for c in callback["data"]["choices"]] == [typed[:-1] + "bob"]

