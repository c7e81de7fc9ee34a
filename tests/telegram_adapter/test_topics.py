"""Forum topics on Telegram, through the real python-telegram-bot: each topic is a table of
its own, and everything for a command in a topic goes to that topic (a message sent without
its message_thread_id lands in General)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tests.telegram_helpers import ALICE, BOB, CAROL, Harness

FORUM = -1005000000001
TOPIC, OTHER = 11, 12
SENDS = ("sendMessage", "sendPhoto", "sendDocument")


async def say(tg: Harness, who: dict, text: str, thread: int | None = TOPIC,
              **kw: Any) -> dict[str, Any]:
    """What the bot answered (quoting it) to a command in the forum's topic."""
    return await tg.reply_to(await tg.say(who, text, chat_id=FORUM, thread=thread, **kw))


async def edited(tg: Harness, asked: dict[str, Any], count: int) -> dict[str, Any]:
    """The `count`-th edit of the message `asked` (a tap's answer)."""
    return await tg.fake.wait_until(lambda: next(
        iter([p for p in tg.fake.sent("editMessageText", FORUM)
              if p["message_id"] == asked["_message_id"]][count - 1:]), None))


async def test_two_topics_play_two_games_and_every_message_stays_in_its_topic(tg: Harness):
    tg.fake.forum(FORUM, TOPIC, OTHER)
    tg.fake.admins[FORUM] = [ALICE["id"]]
    await say(tg, ALICE, "/newgame players:@alice bob @carol")
    other = await say(tg, BOB, "/newgame tranca players:bob dev", thread=OTHER)
    assert "Tranca" in other["text"]
    # a hand by taps: who won, who has seen, Done, then the maal prompt, answered in the
    # topic by replying to it
    asked = await say(tg, ALICE, "/hand")
    await tg.tap(ALICE, tg.sent_message(asked), tg.buttons(asked)["alice"])
    seen = await edited(tg, asked, 1)
    await tg.tap(ALICE, tg.sent_message(asked), tg.buttons(seen)["bob"])
    marked = await edited(tg, asked, 2)
    await tg.tap(ALICE, tg.sent_message(asked), tg.buttons(marked)["Done"])
    prompt = await tg.fake.wait_until(lambda: next(  # the maal prompt: a reply is asked for
        (p for p in tg.fake.sent("sendMessage", FORUM)
         if (p.get("reply_markup") or {}).get("force_reply")), None))
    assert prompt["message_thread_id"] == TOPIC
    await tg.say(ALICE, "alice=10 bob=2", chat_id=FORUM, thread=TOPIC,
                 reply_to=tg.sent_message(prompt))
    await tg.said("Hand 1: alice won", chat_id=FORUM)
    # the live board: posted and pinned in the topic
    pinned = await tg.fake.wait_until(lambda: tg.fake.topic_pins.get((FORUM, TOPIC)))
    assert "<pre>" in tg.fake.messages[(FORUM, pinned)]["text"]
    assert FORUM not in tg.fake.pinned  # not in General
    # a confirmation, tapped: its answer replaces it in the topic
    ask = await say(tg, ALICE, "/undo")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, undo"])
    assert "Undid hand 1" in (await edited(tg, ask, 1))["text"]
    await say(tg, ALICE, "/hand winner:alice seen:bob carol maal:alice=3 bob=1 carol=8")
    # a chart and an export
    await tg.say(ALICE, "/chart", chat_id=FORUM, thread=TOPIC)
    await tg.say(ALICE, "/export", chat_id=FORUM, thread=TOPIC)
    await tg.fake.wait_for("sendPhoto", 1, chat_id=FORUM)
    await tg.fake.wait_for("sendDocument", 1, chat_id=FORUM)
    # each topic keeps its own game
    assert "1 hand" in (await say(tg, CAROL, "/board"))["text"]
    assert "Tranca" in (await say(tg, BOB, "/board", thread=OTHER))["text"]
    # General is a table of its own too (the plain chat): no game there
    assert "No game is open" in (await say(tg, ALICE, "/board", thread=None))["text"]
    # every message went to the topic of the command that made it
    threads = {(c.method, c.params.get("message_thread_id")) for c in tg.fake.calls
               if c.method in SENDS and c.params["chat_id"] == FORUM}
    assert {t for _m, t in threads} == {TOPIC, OTHER, None}
    general = [c.params["text"] for c in tg.fake.calls if c.method == "sendMessage"
               and c.params["chat_id"] == FORUM and "message_thread_id" not in c.params]
    assert len(general) == 1 and "No game is open" in general[0]
    assert {m for m, t in threads if t == TOPIC} == set(SENDS)
    # Telegram keeps menus per chat, not per topic: a forum keeps the menu of every game
    assert not any(key[0] == f"chat:{FORUM}" for key in tg.fake.menus)


async def test_a_429_in_a_topic_is_waited_out_and_the_reply_lands_there(tg: Harness):
    """Telegram's 429 with retry_after, through the real library and our rate limiter: the
    reply comes after the wait, once, in the topic."""
    tg.fake.forum(FORUM, TOPIC)
    tg.fake.fail_next("sendMessage", 1, retry_after=1, chat_id=FORUM)
    await tg.say(ALICE, "/board", chat_id=FORUM, thread=TOPIC)
    refused, answer = await tg.fake.wait_for("sendMessage", 2, chat_id=FORUM)
    assert "_message_id" not in refused and "_message_id" in answer  # 429, then sent
    tries = [c.at for c in tg.fake.calls if c.method == "sendMessage"]
    assert tries[1] - tries[0] >= 1.0  # retry_after was kept
    assert answer["message_thread_id"] == TOPIC and "No game is open" in answer["text"]
    await asyncio.sleep(0.5)
    assert len(tg.fake.sent("sendMessage", FORUM)) == 2  # once


async def test_a_topic_deleted_under_a_command_is_one_log_line(tg: Harness, caplog):
    """The topic went (deleted, or closed) between a command and its reply: one line in the
    log, no traceback, and the rest of the forum is answered as before."""
    tg.fake.forum(FORUM, TOPIC, OTHER)
    with caplog.at_level(logging.WARNING):
        await tg.say(ALICE, "/board", chat_id=FORUM, thread=TOPIC)
        tg.fake.chat(FORUM).topics.discard(TOPIC)  # deleted before the bot answers
        await tg.fake.wait_for("sendMessage", 1, chat_id=FORUM)  # refused
        answer = await say(tg, ALICE, "/board", thread=OTHER)
    assert "No game is open" in answer["text"]
    lines = [r for r in caplog.records if r.name.startswith("bot.telegram")]
    assert len(lines) == 1 and "closed or gone" in lines[0].getMessage()
    assert not any(r.exc_info for r in caplog.records) and tg.adapter.errors == 0
