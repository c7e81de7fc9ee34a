"""Replies to the bot's maal prompt (ForceReply) after its hand stopped waiting: each is
told what became of the hand, in one line; a reply to any other message of the bot is not
an answer and gets none."""

from __future__ import annotations

from typing import Any

from bot.core.session import ChatSettings
from bot.storage.transaction.rekey import read_settings
from bot.telegram_adapter.adapter import chat_key
from tests.telegram_helpers import ALICE, CAROL, GROUP, Harness

NEW = "/newgame marriage players:@alice bob @carol"
WAITS = "Hand 1 waits for the maal of alice, carol: reply alice=… carol=…"


async def waiting_prompt(tg: Harness) -> dict[str, Any]:
    """alice won, carol has seen; the prompt asking for their maal (a message to reply to)."""
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/hand winner:alice seen:carol")
    prompt = await tg.said(WAITS)
    assert prompt["reply_markup"]["force_reply"] is True
    return tg.sent_message(prompt)


async def test_a_reply_to_the_prompt_of_a_scored_hand_says_so_and_how_to_change_it(
        tg: Harness):
    prompt = await waiting_prompt(tg)
    await tg.say(ALICE, "alice=10 carol=2", reply_to=prompt)
    await tg.said("Hand 1: alice won")
    late = await tg.reply_to(await tg.say(CAROL, "7", reply_to=prompt))
    assert late["text"].startswith("⚠️")
    assert "Hand 1 is already scored; nothing changed. /edit hand:1 changes it." \
        in late["text"]
    # once the next hand waits, the old prompt still says so; the new one is answered
    await tg.say(ALICE, "/hand winner:carol seen:alice")
    second = tg.sent_message(await tg.said(
        "Hand 2 waits for the maal of alice, carol: reply alice=… carol=…"))
    again = await tg.reply_to(await tg.say(CAROL, "7", reply_to=prompt))
    assert "Hand 1 is already scored" in again["text"]
    await tg.say(CAROL, "alice=1 carol=3", reply_to=second)
    await tg.said("Hand 2: carol won")


async def test_a_reply_to_the_prompt_of_a_dropped_hand_or_ended_game_says_so(tg: Harness):
    prompt = await waiting_prompt(tg)
    await tg.say(ALICE, "/undo")
    ask = await tg.said("Drop the hand that is waiting?")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, drop it"])
    await tg.said("Dropped the waiting hand", method="editMessageText")
    late = await tg.reply_to(await tg.say(CAROL, "7", reply_to=prompt))
    assert "Hand 1 was dropped; nothing changed." in late["text"]
    # a new hand 1 waits: the dropped hand's prompt is not its prompt
    await tg.say(ALICE, "/hand winner:alice seen:carol")
    await tg.fake.wait_until(lambda: len([p for p in tg.fake.sent("sendMessage", GROUP)
                                          if WAITS in p.get("text", "")]) == 2 or None)
    late = await tg.reply_to(await tg.say(CAROL, "8", reply_to=prompt))
    assert "Hand 1 was dropped" in late["text"]

    # that new hand 1 is scored, then the game ends: its prompt says the game has ended
    newer = [p for p in tg.fake.sent("sendMessage", GROUP) if WAITS in p.get("text", "")]
    newest = tg.sent_message(newer[-1])
    await tg.say(CAROL, "alice=10 carol=2", reply_to=newest)
    await tg.said("Hand 1: alice won")
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game after 1 hand?")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    await tg.said("Final", method="editMessageText")
    late = await tg.reply_to(await tg.say(CAROL, "7", reply_to=newest))
    assert late["text"] == "⚠️ That game has ended; nothing changed."


async def test_a_reply_to_the_prompt_of_a_hand_two_back_says_what_became_of_it(
        tg: Harness):
    """Issue 38: only the last finished hand's prompts were kept, so a reply to the prompt
    of the hand before it got no answer at all."""
    first = await waiting_prompt(tg)
    await tg.say(ALICE, "alice=10 carol=2", reply_to=first)
    await tg.said("Hand 1: alice won")
    await tg.say(ALICE, "/hand winner:carol seen:alice")
    second = tg.sent_message(await tg.said(
        "Hand 2 waits for the maal of alice, carol: reply alice=… carol=…"))
    await tg.say(CAROL, "alice=1 carol=3", reply_to=second)
    await tg.said("Hand 2: carol won")
    # hand 3 waits, and is dropped
    await tg.say(ALICE, "/hand winner:alice seen:carol")
    third = tg.sent_message(await tg.said(
        "Hand 3 waits for the maal of alice, carol: reply alice=… carol=…"))
    await tg.say(ALICE, "/undo")
    ask = await tg.said("Drop the hand that is waiting?")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, drop it"])
    await tg.said("Dropped the waiting hand", method="editMessageText")
    # a new hand 3 is scored: the dropped one's prompt still says it was dropped
    await tg.say(ALICE, "/hand winner:carol seen:alice maal:alice=2 carol=4")
    await tg.said("Hand 3: carol won")

    late = await tg.reply_to(await tg.say(CAROL, "7", reply_to=first))
    assert "Hand 1 is already scored; nothing changed. /edit hand:1 changes it." \
        in late["text"]
    late = await tg.reply_to(await tg.say(CAROL, "7", reply_to=second))
    assert "Hand 2 is already scored; nothing changed. /edit hand:2 changes it." \
        in late["text"]
    late = await tg.reply_to(await tg.say(CAROL, "7", reply_to=third))
    assert "Hand 3 was dropped; nothing changed." in late["text"]


def test_the_prompts_kept_as_one_hands_alone_still_answer():
    """Settings stored before kept one hand's prompts, not a list of hands'."""
    settings = ChatSettings.from_json({"answered": {"session": 4, "hand": 2,
                                                    "prompts": ["17", "18"]}})
    assert settings.answered == [{"session": 4, "hand": 2, "prompts": ["17", "18"]}]
    assert ChatSettings.from_json(settings.to_json()) == settings


async def test_a_reply_to_any_other_message_of_the_bot_gets_no_answer(tg: Harness):
    prompt = await waiting_prompt(tg)
    await tg.say(ALICE, "alice=10 carol=2", reply_to=prompt)
    scored = await tg.said("Hand 1: alice won")
    board = await tg.live_board()
    before = len(tg.fake.sent("sendMessage", GROUP))
    await tg.say(CAROL, "7", reply_to=tg.sent_message(scored))
    await tg.say(CAROL, "7", reply_to=board)
    await tg.say(ALICE, "/players")  # answered in order: the two before got no answer
    await tg.said("3 players")
    assert len(tg.fake.sent("sendMessage", GROUP)) == before + 1


async def test_a_moved_chat_forgets_the_old_prompts(tg: Harness):
    prompt = await waiting_prompt(tg)
    await tg.say(ALICE, "alice=10 carol=2", reply_to=prompt)
    await tg.said("Hand 1: alice won")
    async with tg.service.store.transaction(chat_key(GROUP), write=False) as tx:
        assert (await tx.settings()).answered
    await tg.service.move_chat(chat_key(GROUP), "telegram:-1009999")
    async with tg.service.store.engine.begin() as conn:  # type: ignore[attr-defined]
        moved = await read_settings(conn, "telegram:-1009999")
    assert moved == ChatSettings()


async def test_an_export_leaves_the_old_prompts_behind_and_imports(tg: Harness):
    prompt = await waiting_prompt(tg)
    await tg.say(ALICE, "alice=10 carol=2", reply_to=prompt)
    await tg.said("Hand 1: alice won")
    async with tg.service.store.transaction(chat_key(GROUP)) as tx:
        assert (await tx.settings()).answered
        session = await tx.open_session()
        assert session is not None and session.id is not None
        data = await tx.export([session.id], ledger=True)
    assert "answered" not in data.get("settings", {})  # message ids of this chat only
    async with tg.service.store.transaction("telegram:-1008888") as tx:
        assert await tx.restore(data) == 1
        assert (await tx.settings()).answered == []
