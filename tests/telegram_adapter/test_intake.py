"""Telegram's updates are kept before they are confirmed: a process killed mid-burst loses
none of them, a reply that could not be sent is sent later, and one chat's slow command
does not hold another chat up."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import bot.storage.transaction.inbox as inbox_module
import bot.telegram_adapter.intake as intake_module
from bot.core.command import Actor, Command
from bot.core.service import Service
from bot.storage import open_store
from tests.fakes.telegram_api import FakeTelegram
from tests.telegram_adapter.test_adapter import board
from tests.telegram_helpers import ALICE, GROUP, Harness

ROOT = Path(__file__).resolve().parents[2]
CHATS = [-1007000000001, -1007000000002, -1007000000003]
BURST = 80  # hands a chat: the kill comes after 60 answers, mid-burst whatever the machine


async def hands_recorded(url: str) -> int:
    store = await open_store(url)
    try:
        service = Service(store)
        total = 0
        for chat in CHATS:
            reply = await service.handle(Command(f"telegram:{chat}", Actor("t:r", "r"),
                                                 "board"))
            total += reply.board.hand_count if reply.board else 0
        return total
    finally:
        await store.close()


def start_bot(fake: FakeTelegram, url: str, folder: Path) -> asyncio.Future:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DATABASE_URL=url, TELEGRAM_TOKEN=fake.token,
               TELEGRAM_API_URL=fake.base, TELEGRAM_POLL_TIMEOUT="1", LOG_LEVEL="WARNING",
               TELEGRAM_GROUP_RATE="100000")  # the fake has no flood limit
    env.pop("DISCORD_TOKEN", None)
    return asyncio.ensure_future(asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=folder, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL))


async def test_a_process_killed_mid_burst_loses_no_update(database_url: str, tmp_path: Path):
    fake = FakeTelegram()
    await fake.start()
    harness = Harness(fake, None, None)  # type: ignore[arg-type]
    process = await start_bot(fake, database_url, tmp_path)
    try:
        for chat in CHATS:
            await harness.say(ALICE, "/newgame players:@alice bob", chat_id=chat)
        for chat in CHATS:
            await fake.wait_for("sendMessage", 1, chat_id=chat, timeout=30)
        for no in range(BURST):  # the burst, every chat at once
            for chat in CHATS:
                await harness.say(ALICE, f"/hand winner:alice seen:bob maal:alice={no % 9} "
                                         "bob=1", chat_id=chat)
        await fake.wait_for("sendMessage", len(CHATS) + 60, timeout=60)
        process.send_signal(signal.SIGKILL)  # mid-burst, with updates fetched and unanswered
        await process.wait()
        assert await hands_recorded(database_url) < BURST * len(CHATS)  # it was mid-burst
        process = await start_bot(fake, database_url, tmp_path)
        deadline = time.monotonic() + 120
        while await hands_recorded(database_url) < BURST * len(CHATS):
            assert time.monotonic() < deadline, await hands_recorded(database_url)
            await asyncio.sleep(0.5)
        # every hand exactly once, and Telegram has nothing left to deliver
        assert await hands_recorded(database_url) == BURST * len(CHATS)
        deadline = time.monotonic() + 30
        while not fake.confirmed():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.2)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await fake.stop()


async def test_a_reply_that_could_not_be_sent_is_sent_later(tg: Harness, monkeypatch):
    monkeypatch.setattr(inbox_module, "RETRY_AFTER", (inbox_module.timedelta(seconds=0),))
    monkeypatch.setattr(intake_module, "RETRY_TICK", 0.05)
    await tg.say(ALICE, "/newgame players:@alice bob")
    await tg.replies(1)
    tg.fake.fail_next("sendMessage", 4, code=502)  # every try of the reply fails
    await tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=3 bob=1")
    sent = await tg.fake.wait_for("sendMessage", 1 + 4 + 1, timeout=30)  # the 5th attempt
    assert "Hand 1: alice won" in sent[-1]["text"]
    assert (await board(tg))["hand_count"] == 1  # sent again, recorded once


async def test_a_slow_chat_does_not_hold_another_up(tg: Harness, monkeypatch):
    slow_chat, other = GROUP, GROUP - 5
    await tg.say(ALICE, "/newgame players:@alice bob", chat_id=slow_chat)
    await tg.say(ALICE, "/newgame players:@alice bob", chat_id=other)
    await tg.replies(1, chat_id=slow_chat)
    await tg.replies(1, chat_id=other)
    release = asyncio.Event()
    real = tg.service.handle

    async def handle(command, admin=None):  # the slow chat's database moment
        if command.chat == f"telegram:{slow_chat}" and command.name == "chart":
            await release.wait()
        return await real(command, admin)

    monkeypatch.setattr(tg.service, "handle", handle)
    await tg.say(ALICE, "/chart", chat_id=slow_chat)
    await tg.say(ALICE, "/board", chat_id=slow_chat)  # must wait for /chart: same chat
    await tg.say(ALICE, "/board", chat_id=other)
    answered = await tg.replies(2, chat_id=other)  # answered while the slow chat waits
    assert "Nepali Marriage: 0 hands" in answered[-1]["text"]
    assert len(tg.fake.sent("sendMessage", chat_id=slow_chat)) == 1  # nothing out of order
    release.set()
    slow = await tg.replies(3, chat_id=slow_chat)
    assert "No hands yet" in slow[1]["text"] or "nothing to chart" in slow[1]["text"]
    assert "Nepali Marriage: 0 hands" in slow[2]["text"]


async def test_an_update_stored_by_a_process_that_died_is_handled_at_start(store):
    """As if a webhook process stored an update and died before handling it."""
    from bot.storage.transaction.inbox import Inbox
    from tests.conftest import running_telegram
    from tests.fakes.telegram_api import BOT_ID

    service = Service(store)
    left = Inbox(store.engine, BOT_ID)
    message = {"message_id": 9001, "date": 0, "text": "/newgame players:@alice bob",
               "chat": {"id": GROUP, "type": "supergroup", "title": "G"}, "from": ALICE,
               "entities": [{"type": "bot_command", "offset": 0, "length": 8}]}
    assert await left.store([(77, str(GROUP), {"update_id": 77, "message": message})]) == [77]
    async with running_telegram(service) as tg:
        sent = await tg.replies(1)
        assert "New Nepali Marriage game" in sent[0]["text"]
    assert await left.unfinished() == []


async def test_a_webhook_update_is_stored_before_telegram_hears_ok(store):
    import socket

    import aiohttp
    from sqlalchemy import select

    from bot.storage.engine.tables import inbox
    from bot.telegram_adapter import TelegramAdapter

    fake = FakeTelegram()
    base = await fake.start()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    adapter = TelegramAdapter(Service(store), fake.token, base, webhook_url="https://x/telegram",
                              webhook_listen="127.0.0.1", webhook_port=port)
    await adapter.start()
    try:
        secret = fake.sent("setWebhook")[0]["secret_token"]
        update = {"update_id": 501, "message": {
            "message_id": 1, "date": 0, "text": "/board",
            "chat": {"id": GROUP, "type": "supergroup", "title": "G"}, "from": ALICE,
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}]}}
        async with aiohttp.ClientSession() as http, http.post(
                f"http://127.0.0.1:{port}/telegram", json=update,
                headers={"X-Telegram-Bot-Api-Secret-Token": secret}) as answer:
            assert answer.status == 200
        async with store.engine.connect() as conn:  # kept before the 200 was sent
            kept = (await conn.execute(select(inbox.c.update_id))).scalars().all()
        assert 501 in kept
        assert "No game is open" in (await fake.wait_for("sendMessage", 1))[0]["text"]
    finally:
        await adapter.stop()
        await fake.stop()


async def test_telegram_slow_for_one_chat_holds_up_no_other(tg: Harness):
    slow_chat, other = GROUP, GROUP - 9
    tg.fake.held[slow_chat] = asyncio.Event()  # this chat's replies hang at Telegram
    await tg.say(ALICE, "/board", chat_id=slow_chat)
    await tg.say(ALICE, "/board", chat_id=other)
    assert "No game is open" in (await tg.replies(1, chat_id=other))[0]["text"]
    tg.fake.held[slow_chat].set()
    assert "No game is open" in (await tg.replies(1, chat_id=slow_chat))[0]["text"]


async def test_a_429_in_one_chat_does_not_hold_up_another(store):
    """PTB's AIORateLimiter pauses every chat after any 429; ours only the chat told."""
    from bot.telegram_adapter import TelegramAdapter
    from bot.telegram_adapter.ratelimit import ChatRateLimiter

    release = asyncio.Event()

    async def held(seconds: float) -> None:  # the pause lasts until the test says
        await release.wait()
        await asyncio.sleep(seconds)

    fake = FakeTelegram()
    base = await fake.start()
    limiter = ChatRateLimiter(overall_max_rate=1000, group_max_rate=1000, sleep=held)
    adapter = TelegramAdapter(Service(store), fake.token, base, poll_timeout=1,
                              rate_limiter=limiter)
    await adapter.start()
    tg = Harness(fake, adapter, adapter.service)
    other = GROUP - 11
    try:
        fake.fail_next("sendMessage", 1, retry_after=1, chat_id=GROUP)
        await tg.say(ALICE, "/board")
        await fake.wait_for("sendMessage", 1, chat_id=GROUP)  # told to wait
        await tg.say(ALICE, "/board", chat_id=other)
        assert "No game is open" in (await tg.replies(1, chat_id=other))[0]["text"]
        assert len(fake.sent("sendMessage", GROUP)) == 1  # still waiting
        release.set()
        assert "No game is open" in (await tg.replies(2))[-1]["text"]
    finally:
        release.set()
        await adapter.stop()
        await fake.stop()


async def test_updates_are_kept_two_days_after_they_are_handled_or_given_up(store):
    """What people sent is kept only to survive a restart: handled, or given up on after
    every retry, it goes two days on; one still waiting stays."""
    from datetime import timedelta

    from sqlalchemy import select, update

    from bot.storage.engine.tables import inbox
    from bot.storage.transaction.inbox import KEEP_DONE, RETRY_AFTER, Inbox

    kept = Inbox(store.engine, 1)
    await kept.store([(n, "-1", {"update_id": n}) for n in (1, 2, 3)])
    await kept.finish(1)
    assert not await kept.later(2, len(RETRY_AFTER) + 1)  # given up: failed
    async with store.engine.begin() as conn:
        await conn.execute(update(inbox).values(
            updated_at=inbox.c.updated_at - KEEP_DONE - timedelta(minutes=1)))
    await kept.prune()
    async with store.engine.connect() as conn:
        left = (await conn.execute(select(inbox.c.update_id))).scalars().all()
    assert left == [3]
