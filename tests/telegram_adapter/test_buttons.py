"""Buttons on Telegram: a confirmation is about what it names, and only buttons the bot
issued, in that chat, work."""

from __future__ import annotations

import asyncio

from tests.telegram_adapter.test_adapter import NEW, board
from tests.telegram_helpers import ALICE, CAROL, GROUP, Harness

HAND = "/hand winner:alice seen:carol maal:alice=3 carol=1"


async def message_of(tg: Harness, params: dict) -> dict:
    """The message the bot sent with `params`, once the fake has made it (a waiter can see
    the call a moment before its message exists)."""
    for _ in range(200):
        if "_message_id" in params:
            break
        await asyncio.sleep(0.05)
    return tg.sent_message(params)


async def edit_of(tg: Harness, message: dict) -> dict:
    """The bot's edit of `message` (an answered question), whatever else it edited."""
    return await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("editMessageText", int(message["chat"]["id"]))
         if str(p.get("message_id")) == str(message["message_id"])), None))


async def test_an_old_undo_question_does_not_undo_a_newer_hand(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    await tg.say(ALICE, HAND)
    await tg.say(ALICE, "/undo")  # "Undo hand 2?"
    ask = await tg.said("Undo hand 2")
    await tg.say(ALICE, HAND)  # hand 3 is recorded before anyone taps
    await tg.said("Hand 3")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, undo"])
    # the edit of the message tapped (the live board is edited meanwhile too)
    edited = await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("editMessageText") if p["message_id"] == ask["_message_id"]),
        None))
    assert "table changed since this was asked" in edited["text"]
    assert (await board(tg))["hand_count"] == 3


async def test_an_old_undo_question_does_not_undo_another_hand_of_the_same_number(
        tg: Harness):
    """Issue 29: two confirmations for hand 2, one used, a different hand 2 recorded by an
    admin; the old one names the first hand 2 (the table as it was), so it is stale."""
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    await tg.say(ALICE, HAND)
    await tg.say(ALICE, "/undo")
    first = await tg.said("Undo hand 2")
    await tg.say(ALICE, "/undo")
    second = await tg.fake.wait_until(lambda: ([p for p in tg.fake.sent("sendMessage", GROUP)
                                                if "Undo hand 2" in p.get("text", "")]
                                               + [None, None])[1])
    await tg.tap(ALICE, tg.sent_message(first), tg.buttons(first)["Yes, undo"])
    await tg.said("Undid hand 2", method="editMessageText")
    await tg.say(ALICE, "/hand winner:carol seen:alice maal:alice=1 carol=9")  # a new hand 2
    await tg.said("Hand 2: carol")
    await tg.tap(ALICE, tg.sent_message(second), tg.buttons(second)["Yes, undo"],
                 query_id="old")
    await tg.said("table changed since this was asked", method="editMessageText")
    shown = await board(tg)
    assert shown["hand_count"] == 2  # carol's hand 2 stands
    assert shown["totals"]["carol"] > 0, shown  # carol won it: undoing it would leave her -


async def test_an_old_end_question_does_not_end_the_next_game(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game? No hand was recorded")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    await tg.fake.wait_for("editMessageText", 1)
    await tg.say(ALICE, NEW)  # a new game
    await tg.say(ALICE, HAND)
    await tg.said("Hand 1: alice")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])  # the old one
    await tg.fake.wait_for("answerCallbackQuery", 2)
    assert (await board(tg))["hand_count"] == 1  # the new game is still open


async def test_an_old_end_question_is_stale_once_the_last_hand_was_replaced(tg: Harness):
    """Asked to end after 1 hand; that hand is undone and another recorded: still 1 hand,
    but not the table the question showed, so the old Yes ends nothing."""
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game after 1 hand")
    await tg.say(ALICE, "/undo reason:wrong winner")
    await tg.said("Undid hand 1")
    await tg.say(ALICE, "/hand winner:carol seen:alice maal:alice=1 carol=9")
    await tg.said("Hand 1: carol")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    await tg.said("table changed since this was asked", method="editMessageText")
    assert (await board(tg))["hand_count"] == 1  # still open: /hand goes on
    await tg.say(ALICE, HAND)
    await tg.said("Hand 2: alice")


async def test_forged_and_foreign_button_data_do_nothing(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/hand")
    ask = await tg.said("who won?")
    real = tg.buttons(ask)["alice"]
    flow = tg.sent_message(ask)
    token, _, value = real.rpartition("|")
    payload, _, signature = token.rpartition(".")
    forged = [
        f"{payload}.{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}|{value}",  # sig
        f"{payload.replace('.' + str(ALICE['id']) + '.', '.' + str(CAROL['id']) + '.')}"
        f".{signature}|{value}",  # someone else's flow, keeping the signature
        "hw.0.1.1|1",  # no signature at all
        f"{payload}.{signature[:-1]}é|{value}",  # a letter no signature has
        f"{payload}\ud800.{signature}|{value}",  # a lone surrogate, as JSON can carry
    ]
    for i, data in enumerate(forged, 1):
        await tg.tap(CAROL, flow, data, query_id=f"forged-{i}")
    answers = await tg.fake.wait_for("answerCallbackQuery", len(forged))
    assert all("no longer valid" in a["text"] for a in answers), answers
    assert tg.adapter.errors == 0  # refused as forged, not failed as a bug
    # the same, real button data sent from another chat is foreign there
    other = {**flow, "chat": {"id": GROUP - 1, "type": "supergroup", "title": "Other"}}
    await tg.tap(ALICE, other, real, query_id="foreign")
    answers = await tg.fake.wait_for("answerCallbackQuery", len(forged) + 1)
    assert "no longer valid" in answers[-1]["text"]
    assert tg.fake.sent("editMessageText") == []  # nothing moved


async def test_an_old_games_board_buttons_start_nothing_in_the_next_game(tg: Harness):
    """Next hand and Undo under a board are about that board's game: once it has ended, its
    buttons (the reply still in the chat) are no longer valid in the game open now."""
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    shown = await tg.reply_to(await tg.say(ALICE, "/board"))
    old = await message_of(tg, shown)
    assert set(tg.buttons(shown)) == {"Next hand", "Undo"}
    end = await tg.reply_to(await tg.say(ALICE, "/endgame"))
    await tg.tap(ALICE, await message_of(tg, end), tg.buttons(end)["Yes, end it"])
    await tg.said("Game over", method="editMessageText")
    await tg.say(ALICE, NEW)
    await tg.reply_to(await tg.say(ALICE, HAND))
    for label in ("Undo", "Next hand"):
        await tg.tap(ALICE, old, tg.buttons(shown)[label], query_id=f"old-{label}")
        told = await tg.fake.wait_until(lambda label=label: next(
            (p for p in tg.fake.sent("answerCallbackQuery")
             if p.get("callback_query_id") == f"old-{label}"), None))
        assert "no longer valid" in told.get("text", ""), told
    assert not [p for p in tg.fake.sent("sendMessage") if "Undo hand 1" in p["text"]
                or "who won?" in p["text"]]
    assert (await board(tg))["hand_count"] == 1
