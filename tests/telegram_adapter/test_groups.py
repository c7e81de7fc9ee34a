"""What Telegram does to groups, played by the fake through the real python-telegram-bot: an
upgrade to a supergroup (the service messages, or only the 400 that carries the new id, and
two processes told at once), the bot added, kicked or muted."""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import aiohttp
from sqlalchemy import func, select

from bot.core.service import Service
from bot.storage import SqlStore, open_store
from bot.storage.engine.tables import hands, sessions
from bot.storage.transaction.inbox import Inbox
from bot.telegram_adapter import TelegramAdapter
from bot.telegram_adapter.adapter import PUBLISH_AFTER
from tests.fakes.telegram_api import BOT_ID, FakeTelegram
from tests.telegram_helpers import ALICE, BOB, GROUP, Harness, person

OLD, NEW = -4000000001, -1004000000001  # a group, and the supergroup it becomes
HAND = "/hand winner:alice seen:bob maal:alice=3 bob=4"
# Marriage (../shared/rules/marriage.md): alice and bob both seen, maal 3 and 4, P = 7,
# n = 2: the exchange is 2*3 - 7 = -1 for alice, +1 for bob; bob pays the winner 3:
# alice +2, bob -2 a hand
ALICE_A_HAND = 2


async def board_of(tg: Harness, chat_id: int) -> dict[str, Any]:
    reply = await tg.reply_to(await tg.say(ALICE, "/board", chat_id=chat_id))
    assert "<pre>" in reply["text"], reply["text"]
    return reply


async def hands_under(store: SqlStore, chat: str) -> int:
    async with store.engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(
            hands.join(sessions, hands.c.session_id == sessions.c.id))
            .where(sessions.c.chat == chat))).scalar_one()


async def a_game_in_the_group(tg: Harness) -> None:
    tg.fake.admins[OLD] = [ALICE["id"]]
    for line in ("/newgame players:@alice bob", HAND, HAND, "/season start name:Autumn"):
        answer = await tg.reply_to(await tg.say(ALICE, line, chat_id=OLD))
        assert not answer["text"].startswith("⚠️"), answer["text"]
    await tg.live_board(OLD)


async def test_an_upgraded_group_keeps_its_game_in_the_supergroup(tg: Harness):
    await a_game_in_the_group(tg)
    await tg.fake.upgrade(OLD, NEW, by=ALICE)
    # the open game's board is posted (and pinned) in the new chat: the old one is gone
    board = await tg.live_board(NEW)
    assert "2 hands" in board["text"]
    assert f"+{2 * ALICE_A_HAND}" in (await board_of(tg, NEW))["text"]
    answer = await tg.reply_to(await tg.say(ALICE, HAND, chat_id=NEW))
    assert "Hand 3" in answer["text"]
    assert "Season Autumn" in (await tg.reply_to(await tg.say(ALICE, "/season",
                                                               chat_id=NEW)))["text"]
    assert await hands_under(tg.service.store, f"telegram:{NEW}") == 3
    assert await hands_under(tg.service.store, f"telegram:{OLD}") == 0


async def test_a_reply_refused_with_the_new_id_goes_to_the_new_chat(tg: Harness):
    """The service messages never came (or not yet): the 400 carrying migrate_to_chat_id
    moves the chat, and the reply it refused is sent to the new chat, without quoting a
    message that is not there."""
    await a_game_in_the_group(tg)
    await tg.fake.upgrade(OLD, NEW, by=ALICE, deliver=False)
    await tg.say(ALICE, HAND, chat_id=OLD)  # sent just before the upgrade
    answer = await tg.said("Hand 3", chat_id=NEW)
    assert "reply_parameters" not in answer
    assert await hands_under(tg.service.store, f"telegram:{NEW}") == 3
    await tg.live_board(NEW)
    # later replies go straight to the new chat, the old id is not tried again
    refused_before = len(tg.fake.sent("sendMessage", OLD))
    await tg.say(ALICE, "/board", chat_id=OLD)
    await tg.said("3 hands", chat_id=NEW)
    assert len(tg.fake.sent("sendMessage", OLD)) == refused_before


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_two_processes_told_of_an_upgrade_at_once_move_it_once(database_url: str):
    """Two processes behind one webhook, each with its own store on one database: one gets
    migrate_to_chat_id, the other migrate_from_chat_id, and a third update's reply is
    refused with the new id, all at the same moment."""
    fake = FakeTelegram()
    base = await fake.start()
    stores = [await open_store(database_url) for _ in range(2)]
    ports = [free_port() for _ in stores]
    adapters = [TelegramAdapter(Service(s), fake.token, base, webhook_url="https://x/telegram",
                                webhook_listen="127.0.0.1", webhook_port=port)
                for s, port in zip(stores, ports, strict=True)]
    for adapter in adapters:
        await adapter.start()
    tg = Harness(fake, adapters[0], adapters[0].service)
    secret = fake.sent("setWebhook")[0]["secret_token"]

    async def deliver(update: dict[str, Any], port: int) -> None:
        async with aiohttp.ClientSession() as http, http.post(
                f"http://127.0.0.1:{port}/telegram", json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": secret}) as answer:
            assert answer.status == 200

    try:
        for line in ("/newgame players:@alice bob", HAND, HAND):
            update = await tg.say(ALICE, line, chat_id=OLD)
            await deliver(update, ports[0])
            await tg.reply_to(update)
        await fake.upgrade(OLD, NEW, by=ALICE, deliver=False)
        moved_to = {"update_id": fake.next_update_id(), "message": {
            "message_id": fake.next_message_id(), "date": 0, "from": ALICE,
            "chat": {"id": OLD, "type": "group", "title": "Game night"},
            "migrate_to_chat_id": NEW}}
        moved_from = {"update_id": fake.next_update_id(), "message": {
            "message_id": fake.next_message_id(), "date": 0, "from": ALICE,
            "chat": {"id": NEW, "type": "supergroup", "title": "Game night"},
            "migrate_from_chat_id": OLD}}
        late = await tg.say(BOB, "/players", chat_id=OLD)
        await asyncio.gather(deliver(moved_to, ports[0]), deliver(moved_from, ports[1]),
                             deliver(late, ports[1]))
        await tg.said("alice", chat_id=NEW)  # /players, answered in the new chat
        for store in stores:  # (the move may still be on its way)
            await until(lambda store=store: _hands_under(store, NEW, 2))
        # both processes play on from the new chat: hand 3, then hand 4, never doubled
        for port, no in ((ports[1], 3), (ports[0], 4)):
            update = await tg.say(ALICE, HAND, chat_id=NEW)
            await deliver(update, port)
            assert f"Hand {no}" in (await tg.reply_to(update))["text"]
        assert await hands_under(stores[0], f"telegram:{NEW}") == 4
        assert await hands_under(stores[0], f"telegram:{OLD}") == 0
    finally:
        for adapter in adapters:
            await adapter.stop()
        for store in stores:
            await store.close()
        await fake.stop()


async def test_added_to_a_group_it_says_how_to_begin_in_the_groups_language(tg: Harness):
    group = GROUP - 21
    tg.fake.chat(group).bot = "left"
    nepali = person(301, "Sita", "sita") | {"language_code": "ne"}
    await tg.fake.bot_status(group, "member", by=nepali)
    hello = (await tg.replies(1, chat_id=group))[0]
    assert "/newgame marriage players:@ram @sita hari" in hello["text"]
    assert "नमस्ते" in hello["text"]  # the one who added it speaks Nepali: the chat has no
    assert "reply_parameters" not in hello  # language of its own yet
    assert "my_chat_member" in (tg.fake.allowed_updates or [])


async def test_start_in_a_private_chat_says_how_to_add_the_bot_to_a_group(tg: Harness):
    private = ALICE["id"]
    await tg.say(ALICE, "/start", chat_id=private)
    hello = (await tg.replies(1, chat_id=private))[0]
    assert "/newgame" in hello["text"] and "add me to your group" in hello["text"]
    [[button]] = hello["reply_markup"]["inline_keyboard"]
    assert button["url"] == "https://t.me/MaalTestBot?startgroup=start"


async def test_kicked_one_log_line_and_no_retries(tg: Harness, caplog):
    """Kicked without the bot hearing of it (a my_chat_member missed): the reply is refused
    403. One line in the log, no traceback, nothing tried again, the live board not sent;
    once the chat writes again it is answered."""
    await tg.reply_to(await tg.say(ALICE, "/newgame players:@alice bob"))
    await tg.reply_to(await tg.say(ALICE, HAND))
    await tg.live_board()
    tg.fake.chat(GROUP).bot = "kicked"
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await tg.say(ALICE, HAND)  # it was sent before the kick
        await until(lambda: _unreachable(tg))
        inbox = Inbox(tg.service.store.engine, BOT_ID)  # type: ignore[attr-defined]
        await until(lambda: _none_left(inbox))  # handled and done: not to be tried again
        await asyncio.sleep(2 * PUBLISH_AFTER)  # the live board's turn came and went
    lines = [r for r in caplog.records if r.name.startswith("bot.telegram")
             and r.levelno >= logging.WARNING]
    assert len(lines) == 1 and "does not take the bot's messages" in lines[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
    assert tg.adapter.errors == 0
    edits = len(tg.fake.sent("editMessageText", GROUP))
    tg.fake.chat(GROUP).bot = "member"  # let back in; the chat writes again
    assert "Hand 3" in (await tg.reply_to(await tg.say(ALICE, HAND)))["text"]
    assert len(tg.fake.sent("editMessageText", GROUP)) >= edits


async def test_muted_nothing_is_sent_until_it_may_speak_again(tg: Harness, caplog):
    """Muted (my_chat_member: restricted, no sending): people still play, the bot records
    and sends nothing (no refused request, no log line per reply) until unmuted."""
    await tg.reply_to(await tg.say(ALICE, "/newgame players:@alice bob"))
    admin = person(900, "Ada", "ada")
    with caplog.at_level(logging.WARNING):
        await tg.fake.bot_status(GROUP, "restricted", by=admin, can_send=False)
        await until(lambda: _unreachable(tg))
        sent = len(tg.fake.calls)
        await tg.say(ALICE, HAND)
        await until(lambda: _hands(tg, 1))  # recorded, unseen
        await asyncio.sleep(2 * PUBLISH_AFTER)  # the live board's turn came and went
    # (asking who the admins are is no message: Telegram lets a muted member do it)
    assert [c.method for c in tg.fake.calls[sent:]
            if c.method != "getChatAdministrators"] == []
    assert len([r for r in caplog.records if r.name.startswith("bot.telegram")]) == 1
    await tg.fake.bot_status(GROUP, "member", by=admin)
    assert "Hand 2" in (await tg.reply_to(await tg.say(ALICE, HAND)))["text"]


async def until(check: Any, timeout: float = 10.0) -> None:
    """Wait for an async `check()` to come true."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _hands_under(store: SqlStore, chat_id: int, count: int) -> bool:
    return await hands_under(store, f"telegram:{chat_id}") == count


async def _unreachable(tg: Harness) -> bool:
    return GROUP in tg.adapter.outbox.unreachable


async def _none_left(inbox: Inbox) -> bool:
    return await inbox.unfinished() == []


async def _hands(tg: Harness, count: int) -> bool:
    snapshot = await tg.service.snapshot(f"telegram:{GROUP}")
    return snapshot is not None and snapshot.session.hand_count == count
