"""Components on Discord: a confirmation is about what it names, and only components the
bot issued, in that channel, work."""

from __future__ import annotations

import json

from tests.discord_adapter.test_adapter import board, new_game, select_id
from tests.discord_helpers import ALICE, DiscordHarness, component, custom_ids, slash

HAND = {"winner": "alice", "seen": "bob", "maal": "alice=3 bob=1"}


async def test_an_old_undo_question_does_not_undo_a_newer_hand(dc: DiscordHarness):
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    await dc.reply_to(slash("hand", ALICE, **HAND))
    ask = slash("undo", ALICE)
    assert (await dc.reply_to(ask))["data"]["content"].startswith("Undo hand 2")
    message = dc.message_of(ask)
    await dc.reply_to(slash("hand", ALICE, **HAND))  # hand 3 before anyone taps
    yes = component(message, custom_ids(message)["Yes, undo"], ALICE)
    answer = await dc.reply_to(yes)
    assert "table changed since this was asked" in answer["data"]["content"]
    assert (await board(dc))["hand_count"] == 3


async def test_forged_and_foreign_component_data_do_nothing(dc: DiscordHarness):
    await new_game(dc)
    start = slash("hand", ALICE, winner="alice")
    await dc.reply_to(start)
    message = dc.message_of(start)
    real = select_id(message)  # mb:t:TOKEN
    head, _, signature = real.rpartition(".")
    forged = head + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    # Discord only sends ids a message carries: a forged one comes on a forged message
    fake_message = json.loads(json.dumps(message).replace(real, forged))
    answer = await dc.reply_to(component(fake_message, forged, ALICE, values=["1"]))
    assert answer["data"]["flags"] & 64 and "no longer valid" in answer["data"]["content"]
    # a letter no signature has (one that can't be compared as a digest) is as forged
    odd = head + ".é" + signature[1:]
    odd_message = json.loads(json.dumps(message).replace(real, odd))
    answer = await dc.reply_to(component(odd_message, odd, ALICE, values=["1"]))
    assert "no longer valid" in answer["data"]["content"], answer
    assert dc.adapter.errors == 0  # refused as forged, not failed as a bug
    elsewhere = {**message, "channel_id": str(int(message["channel_id"]) + 1)}
    answer = await dc.reply_to(component(elsewhere, real, ALICE, values=["1"]))
    assert "no longer valid" in answer["data"]["content"]


async def test_an_old_games_board_buttons_start_nothing_in_the_next_game(dc: DiscordHarness):
    """Next hand and Undo under a board are about that board's game: once it has ended, its
    buttons (the board still in the channel) are no longer valid in the game open now."""
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    shown = slash("board", ALICE)
    await dc.reply_to(shown)
    old = dc.message_of(shown)
    assert set(custom_ids(old)) == {"Next hand", "Undo"}
    end = slash("endgame", ALICE)
    await dc.reply_to(end)
    asked = dc.message_of(end)
    await dc.reply_to(component(asked, custom_ids(asked)["Yes, end it"], ALICE))
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    for label in ("Undo", "Next hand"):
        answer = await dc.reply_to(component(old, custom_ids(old)[label], ALICE))
        assert "no longer valid" in answer["data"]["content"], answer
    assert (await board(dc))["hand_count"] == 1
