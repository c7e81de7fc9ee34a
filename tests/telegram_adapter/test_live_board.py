"""The live board on Telegram: one message, pinned, edited after every change."""

from __future__ import annotations

import bot.telegram_adapter.adapter as adapter_module
from tests.telegram_adapter.test_adapter import NEW
from tests.telegram_helpers import ALICE, GROUP, Harness

HAND = "/hand winner:alice seen:carol maal:alice=3 carol=1"


def edits_of(tg: Harness, message_id: int) -> list[dict]:
    return [p for p in tg.fake.sent("editMessageText") if int(p["message_id"]) == message_id]


async def test_one_board_pinned_and_edited_in_place(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    first = await tg.live_board()
    assert "Nepali Marriage: 1 hand" in first["text"]
    await tg.say(ALICE, HAND)
    await tg.fake.wait_until(lambda: "2 hands" in tg.fake.messages[
        (GROUP, first["message_id"])]["text"])
    assert tg.fake.pinned[GROUP] == first["message_id"]  # the same message, still pinned
    # an undo changes the board too; a view of it (/board) moves nothing
    await tg.say(ALICE, "/undo reason:test")
    await tg.fake.wait_until(lambda: "1 hand" in tg.fake.messages[
        (GROUP, first["message_id"])]["text"])
    boards = [p for p in tg.fake.sent("sendMessage") if "<pre>" in p["text"]]
    assert len(boards) == 1  # one board message in all


async def test_a_deleted_board_is_posted_again(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    first = await tg.live_board()
    del tg.fake.messages[(GROUP, first["message_id"])]  # someone deleted it
    await tg.say(ALICE, HAND)
    second = await tg.fake.wait_until(lambda: tg.fake.pinned.get(GROUP) != first[
        "message_id"] and tg.fake.pinned.get(GROUP))
    assert "2 hands" in tg.fake.messages[(GROUP, second)]["text"]


async def test_an_unchanged_board_and_no_right_to_pin_are_fine(tg: Harness):
    tg.fake.no_pin.add(GROUP)
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    await tg.said("Hand 1: alice won")
    board = await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("sendMessage") if "<pre>" in p["text"]), None))
    assert GROUP not in tg.fake.pinned  # not pinned, still the live board
    await tg.say(ALICE, "/sitout bob")  # the board itself does not change: "not modified"
    await tg.say(ALICE, "/back bob")
    await tg.said("bob is back")
    await tg.say(ALICE, HAND)
    await tg.fake.wait_until(lambda: "2 hands" in tg.fake.messages[
        (GROUP, board["_message_id"])]["text"])
    assert tg.adapter.errors == 0


async def test_a_burst_is_one_edit_and_the_end_unpins(tg: Harness, monkeypatch):
    monkeypatch.setattr(adapter_module, "PUBLISH_AFTER", 0.5)
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    first = await tg.live_board()
    for _ in range(5):
        await tg.say(ALICE, HAND)
    await tg.fake.wait_until(lambda: "6 hands" in tg.fake.messages[
        (GROUP, first["message_id"])]["text"])
    assert len(edits_of(tg, first["message_id"])) < 5  # coalesced
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game after 6 hands")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    await tg.fake.wait_until(lambda: GROUP not in tg.fake.pinned)
    assert "(finished)" in tg.fake.messages[(GROUP, first["message_id"])]["text"]


async def test_a_new_board_each_change_when_the_chat_prefers(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await tg.say(ALICE, "/settings board:new")
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    sent = await tg.replies(3)
    assert "Hand 1: alice won" in sent[2]["text"] and "<pre>" in sent[2]["text"]
    assert GROUP not in tg.fake.pinned


async def test_a_restarted_process_goes_on_editing_the_same_board(tg: Harness):
    from bot.core.service import Service
    from bot.telegram_adapter import TelegramAdapter
    from bot.telegram_adapter.ratelimit import ChatRateLimiter

    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    first = await tg.live_board()
    await tg.adapter.stop()  # the process goes away; the board's message id is in the db
    fresh = TelegramAdapter(Service(tg.service.store), tg.fake.token, tg.fake.base,
                            poll_timeout=1, rate_limiter=ChatRateLimiter(
                                group_max_rate=1000, overall_max_rate=1000))
    await fresh.start()
    try:
        await tg.say(ALICE, HAND)
        await tg.fake.wait_until(lambda: "2 hands" in tg.fake.messages[
            (GROUP, first["message_id"])]["text"])
        boards = [p for p in tg.fake.sent("sendMessage") if "<pre>" in p["text"]]
        assert len(boards) == 1  # edited where it was, not posted again
        assert tg.fake.pinned[GROUP] == first["message_id"]
    finally:
        await fresh.stop()
        await tg.adapter.start()  # the fixture stops it again


async def test_a_game_ended_with_no_hand_left_closes_its_board(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    first = await tg.live_board()
    await tg.say(ALICE, "/undo reason:wrong chat")
    await tg.fake.wait_until(lambda: "0 hands" in tg.fake.messages[
        (GROUP, first["message_id"])]["text"])
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game? No hand was recorded")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    closed = "Nepali Marriage closed: no hand was recorded, so nothing was kept or settled."
    # the question becomes the answer; the board says the same, unpinned, with no buttons
    await tg.fake.wait_until(
        lambda: tg.fake.messages[(GROUP, ask["_message_id"])]["text"] == closed)
    await tg.fake.wait_until(lambda: GROUP not in tg.fake.pinned)
    board = tg.fake.messages[(GROUP, first["message_id"])]
    assert board["text"] == closed and "reply_markup" not in board
