"""The first night at a real table on Discord (issue 30), through discord.py's real command
tree and components against the fake Discord: seats taken by a button and given by a
mention; entries that can't go silently wrong; short waiting replies; /edit for every
game's result; the small things."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

import bot.discord_adapter.adapter as adapter_module
from bot.core.handlers.flow_answers import NOT_YOURS
from tests.discord_helpers import (
    ALICE,
    BOB,
    STRANGER,
    DiscordHarness,
    component,
    custom_ids,
    slash,
)
from tests.fakes.discord_api import CHANNEL_ID, user

EPHEMERAL = 64
SITA = user(304, "Sita")
_channels = itertools.count(930700000000000001)


@pytest.fixture(autouse=True)
def answered_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer in the callback itself: a busy machine must not defer it (deferral has
    tests of its own; the fake has no 3 s limit)."""
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 60.0)


def known(dc: DiscordHarness) -> None:
    """The people the fake Discord can look up by their mention."""
    for person in (ALICE, BOB, SITA, STRANGER):
        dc.fake.users[person["id"]] = person


def shown(content: str) -> str:
    """A message as Discord displays it: Markdown escapes resolved."""
    return re.sub(r"\\(.)", r"\1", content or "")


def sub(command: str, game: str, who: dict[str, Any], channel: int = CHANNEL_ID,
        **options: Any) -> dict[str, Any]:
    """A game's subcommand (/edit riichi ...), as Discord sends it."""
    data = slash(command, who, channel_id=channel)
    data["data"]["options"] = [{"name": game, "type": 1,
                                "options": slash(command, who, **options)["data"]["options"]}]
    return data


async def said(dc: DiscordHarness, payload: dict[str, Any]) -> tuple[str, bool]:
    """The text of the answer to `payload`, and whether it is an (ephemeral) error."""
    data = (await dc.reply_to(payload))["data"]
    text = data.get("content") or (data.get("embeds") or [{}])[0].get("description", "")
    return shown(text), bool(data.get("flags", 0) & EPHEMERAL)


async def test_a_seat_is_taken_by_its_button_and_given_by_a_mention(dc: DiscordHarness):
    known(dc)
    new = slash("newgame", ALICE, players="<@301> bob carol")
    text, _ = await said(dc, new)
    assert "Seats typed by name: tap yours below, or /join bob." in text
    message = dc.message_of(new)
    buttons = custom_ids(message)
    assert set(buttons) == {"Sit at bob", "Sit at carol"}
    # Bob taps his seat: a message of its own says so
    sat = await dc.reply_to(component(message, buttons["Sit at bob"], BOB))
    assert sat["type"] == 4 and shown(sat["data"]["content"]) == "Bob sits at bob."
    text, error = await said(dc, slash("hand", BOB, winner="bob", seen="Alice",
                                       maal="bob=3 Alice=1"))
    assert not error and "Hand 1: bob won" in text
    # the starter gives carol's seat to Sita by a mention; Sita then plays it
    text, _ = await said(dc, slash("seat", ALICE, seat="carol", person="<@304>"))
    assert text == "Sita sits at carol (seat 3)."
    text, _ = await said(dc, slash("sitout", SITA))
    assert text.startswith("carol sits out")
    # a mention of Sita names her seat; a mention of someone with no seat says why not
    text, error = await said(dc, slash("sitout", ALICE, player="<@399>"))
    assert error and "Mallory is not a player here" in text


async def test_once_hands_are_recorded_the_starter_lets_someone_sit(dc: DiscordHarness):
    known(dc)
    channel = next(_channels)
    await dc.reply_to(slash("newgame", ALICE, channel_id=channel, players="<@301> bob carol"))
    await dc.reply_to(slash("hand", ALICE, channel_id=channel, winner="Alice", seen="bob",
                            maal="Alice=3 bob=1"))
    ask = slash("join", STRANGER, channel_id=channel, name="carol")
    text, error = await said(dc, ask)
    assert not error and text.startswith("Mallory asks to sit at carol.")
    message = {**dc.message_of(ask), "channel_id": str(channel)}
    let = custom_ids(message)["Let them sit at carol"]
    refused = await dc.reply_to(component(message, let, STRANGER))
    assert NOT_YOURS in refused["data"]["content"] and refused["data"]["flags"] & EPHEMERAL
    given = await dc.reply_to(component(message, let, ALICE))
    assert given["type"] == 7 and shown(given["data"]["content"]) == \
        "Mallory sits at carol (seat 3)."
    text, _ = await said(dc, slash("sitout", STRANGER, channel_id=channel))
    assert text.startswith("carol sits out")


async def test_a_mention_names_the_seat_typed_with_that_name(dc: DiscordHarness):
    known(dc)
    await dc.reply_to(slash("newgame", ALICE, players="<@301> bob sita"))
    # (alice is seated by her account, as Discord shows her: Alice)
    text, error = await said(dc, slash("hand", ALICE, winner="Alice", seen="<@304>",
                                       maal="Alice=1 sita=2"))
    assert not error and "Hand 1: Alice won; seen sita" in text


async def test_a_waiting_hand_says_whose_maal_is_missing_and_refuses_a_murdered_one(
        dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, players="alice bob carol"))
    text, error = await said(dc, slash("hand", ALICE, winner="alice", seen="bob",
                                       maal="alice=10 carol=4"))
    assert error and text.startswith("⚠️ carol has maal but is not in seen:")
    assert "/hand winner:alice seen:bob maal:alice=10" in text  # the line without her maal
    text, error = await said(dc, slash("hand", ALICE, winner="alice", seen="bob",
                                       maal="alice=10"))
    assert not error and text == "Hand 1 waits for the maal of bob: /maal bob=…"
    text, error = await said(dc, slash("maal", ALICE, value="carol=4"))
    assert error and "carol is unseen in this hand" in text
    text, error = await said(dc, slash("maal", ALICE, value="bob=2"))
    assert not error and text.startswith("Hand 1: alice won")


async def test_what_was_mistyped_is_corrected_with_edit_in_every_game(dc: DiscordHarness):
    rummy, tranca, callbreak = next(_channels), next(_channels), next(_channels)
    await dc.reply_to(slash("newgame", ALICE, channel_id=rummy,
                            players="asha bikash chetan", game="marriage_rummy"))
    await dc.reply_to(slash("hand", ALICE, channel_id=rummy, winner="asha",
                            points="bikash=10 chetan=4"))
    # bikash surrendered on the first move: 2 in hand, x2 = -4; chetan -8; asha +12
    text, _ = await said(dc, sub("edit", "marriage_rummy", ALICE, rummy, hand=1,
                                 surrender="bikash"))
    assert "asha +12  bikash -4  chetan -8 (was asha +28  bikash -20  chetan -8)" in text
    await dc.reply_to(slash("newgame", ALICE, channel_id=tranca, players="ana ben",
                            game="tranca"))
    await dc.reply_to(slash("round", ALICE, channel_id=tranca, side="A", table=300))
    await dc.reply_to(slash("round", ALICE, channel_id=tranca, side="B", table=100))
    text, _ = await said(dc, sub("edit", "tranca", ALICE, tranca, round=1, side="A",
                                 table=400))
    assert "A +400  B +100 (was A +300  B +100)" in text
    await dc.reply_to(slash("newgame", ALICE, channel_id=callbreak, players="a b c d",
                            game="callbreak"))
    await dc.reply_to(slash("round", ALICE, channel_id=callbreak, bids="3 3 3 3",
                            tricks="4 3 3 3"))
    # a took 3, d 4: a bid of 3 made exactly +3.0; d 3 with one over +3.1
    text, _ = await said(dc, sub("edit", "callbreak", ALICE, callbreak, round=1,
                                 tricks="3 3 3 4"))
    assert "a +3.0  b +3.0  c +3.0  d +3.1 (was a +3.1  b +3.0  c +3.0  d +3.0)" in text


async def test_the_small_things(dc: DiscordHarness):
    from tests.discord_helpers import MANAGE_GUILD

    text, _ = await said(dc, slash("settings", ALICE, permissions=MANAGE_GUILD,
                                   language="pt-BR"))
    assert "pt-BR" in text
    await dc.reply_to(slash("settings", ALICE, permissions=MANAGE_GUILD, language="en"))
    await dc.reply_to(slash("newgame", ALICE, players="asha bikash chetan",
                            game="marriage_rummy"))
    text, _ = await said(dc, slash("hand", ALICE, honours="asha=3", winner="asha",
                                   points="bikash=25 chetan=10"))
    # asha 3 honours x 4 = 12: PART_A +24, -12, -12; PART_B -50, -20, +70
    assert "asha +94  bikash -62  chetan -32" in text
    await dc.reply_to(slash("undo", ALICE, reason="edited: typo"))
    text, _ = await said(dc, slash("history", ALICE))
    assert "(reason: edited: typo)" in text and "replaced by an edit" not in text


async def test_an_invisible_letter_never_makes_a_seat_that_looks_like_another(
        dc: DiscordHarness):
    """As on Telegram: "bob" with a grapheme joiner after it is refused when typed and
    dropped from a display name, so a copied name is a /join of bob, not a second bob."""
    known(dc)
    channel = next(_channels)
    await dc.reply_to(slash("newgame", ALICE, channel_id=channel, players="<@301> bob carol"))
    await dc.reply_to(slash("hand", ALICE, channel_id=channel, winner="Alice",
                            seen="bob carol", maal="Alice=3 bob=1 carol=0"))
    text, error = await said(dc, slash("join", STRANGER, channel_id=channel,
                                       name="bob\u034f"))
    assert error and "can't be a name" in text
    copied = {**user(305, "Bob2"), "global_name": "bob\u3164"}
    text, error = await said(dc, slash("join", copied, channel_id=channel))
    assert not error and "asks to sit at bob." in text
    text, _ = await said(dc, slash("players", ALICE, channel_id=channel))
    assert "3 players" in text and "\u3164" not in text
