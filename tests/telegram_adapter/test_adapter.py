"""The Telegram adapter end to end: the real python-telegram-bot against a fake Bot API."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from bot.core.service import Service
from bot.storage import SqlStore
from bot.telegram_adapter import TelegramAdapter
from bot.telegram_adapter.adapter import chat_key
from bot.telegram_adapter.keyboards import MAX_CALLBACK_BYTES
from tests.fakes.telegram_api import BOT_USERNAME, FakeTelegram
from tests.telegram_helpers import ALICE, BOB, CAROL, GROUP, STRANGER, Harness, person

# @alice and @carol are the Telegram accounts with those usernames; bob is a guest
NEW = "/newgame marriage players:@alice bob @carol"


async def board(tg: Harness, chat: int = GROUP) -> dict:
    reply = await tg.service.handle(_console_command(chat_key(chat), "/board"))
    assert reply.board is not None, reply.text
    return reply.board.to_json()


def _console_command(chat: str, line: str):
    from bot.core.command import Actor, Command
    from bot.core.grammar import parse_command_text

    parsed = parse_command_text(line)
    return Command(chat, Actor("test:reader", "reader"), parsed.name, parsed.options)


async def test_a_full_hand_typed_in_one_line(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes")
    sent = await tg.replies(2)
    assert sent[0]["parse_mode"] == "HTML"
    # the reply is the hand in one line; the board is a message of its own, pinned
    assert "Hand 1: alice won with dublees" in sent[1]["text"]
    assert "alice +41  bob -14  carol -27" in sent[1]["text"]
    assert "<pre>" not in sent[1]["text"]
    live = await tg.live_board()
    assert "<pre>" in live["text"] and "+41" in live["text"] and "-27" in live["text"]
    assert (await board(tg))["totals"] == {"alice": 41, "bob": -14, "carol": -27}
    # the menu was registered with short descriptions
    menu = tg.fake.sent("setMyCommands")[0]["commands"]
    assert {"command": "hand", "description": "record a hand: winner, seen players, maal"} \
        in menu


async def test_the_same_hand_by_taps(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/hand")
    sent = await tg.replies(2)
    assert "who won?" in sent[1]["text"]
    buttons = tg.buttons(sent[1])
    assert set(buttons) == {"alice", "bob", "carol", "Cancel"}
    assert all(len(d.encode()) <= MAX_CALLBACK_BYTES for d in buttons.values())
    flow = tg.sent_message(sent[1])
    await tg.tap(ALICE, flow, buttons["alice"])
    edits = await tg.fake.wait_for("editMessageText", 1)
    await tg.tap(ALICE, flow, tg.buttons(edits[-1])["bob"])
    edits = await tg.fake.wait_for("editMessageText", 2)
    assert "✅ bob" in tg.buttons(edits[-1])
    await tg.tap(ALICE, flow, tg.buttons(edits[-1])["Done"])
    edits = await tg.fake.wait_for("editMessageText", 3)
    # the reply says whose maal is missing and how to give it; the prompt in the same syntax
    assert edits[-1]["text"] == "Hand 1 waits for the maal of alice, bob: /maal alice=… bob=…"
    prompt = await tg.said("Hand 1 waits for the maal of alice, bob: reply alice=… bob=…")
    assert prompt["reply_markup"]["force_reply"] is True
    prompt_message = tg.sent_message(prompt)
    # privacy mode: replies to the bot reach it; a bare number is the sender's own maal
    await tg.say(ALICE, "10", reply_to=prompt_message)
    await tg.say(BOB, "2", reply_to=prompt_message)  # bob's account has no seat: refused
    refused = await tg.said("can't be yours")
    assert refused["text"].startswith("⚠️")
    await tg.say(ALICE, "bob=2", reply_to=prompt_message)  # a player gives bob's
    await tg.said("Hand 1: alice won")
    totals = (await board(tg))["totals"]
    assert totals == {"alice": 18 + 13, "bob": -6 - 3, "carol": -12 - 10}
    # every button press was answered
    assert len(tg.fake.sent("answerCallbackQuery")) == 3


async def test_commands_for_another_bot_are_ignored_and_ours_are_answered(tg: Harness):
    await tg.say(ALICE, "/newgame@OtherBot players:alice bob")
    await tg.say(ALICE, "/frobnicate")  # unknown and not addressed: maybe another bot's
    await tg.say(ALICE, f"/newgame@{BOT_USERNAME} players:alice bob")
    # updates of one chat are handled in order: once /players is answered, everything
    # before it was handled, so two replies in all means the ignored ones got none
    await tg.say(ALICE, "/players")
    sent = await tg.replies(2)
    assert "New Nepali Marriage game. Players: alice, bob" in sent[0]["text"]
    assert "2 players" in sent[1]["text"]
    assert len(tg.fake.sent("sendMessage")) == 2
    await tg.say(ALICE, f"/frobnicate@{BOT_USERNAME}")
    assert "don't know /frobnicate" in (await tg.replies(3))[-1]["text"]


async def test_the_same_update_delivered_twice_records_once(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.replies(1)
    update = await tg.say(ALICE, "/hand winner:bob seen:alice maal:alice=3 bob=4")
    await tg.replies(2)
    await tg.fake.push(update)  # Telegram delivers it again (say, after a restart)
    await tg.say(ALICE, "/players")
    await tg.said("3 players")  # handled after the duplicate, which recorded nothing
    assert (await board(tg))["hand_count"] == 1


async def test_an_edited_command_records_nothing_new(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.replies(1)
    update = await tg.say(ALICE, "/hand winner:bob seen:alice maal:alice=3 bob=4")
    await tg.replies(2)
    original = update["message"]
    await tg.say(ALICE, "/hand winner:alice seen:bob maal:alice=3 bob=4",
                 message_id=original["message_id"], edited=True)
    said = await tg.said("don't re-read edited messages")  # (the live board is sent too)
    assert said["reply_parameters"]["message_id"] == original["message_id"]
    board_now = await board(tg)
    assert board_now["hand_count"] == 1
    assert board_now["totals"]["bob"] > 0  # still bob's win


async def test_html_in_what_people_type_arrives_escaped(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/hand winner:<b>x</b>&amp;")
    sent = await tg.replies(2)
    assert "<b>" not in sent[1]["text"]
    assert "&lt;b&gt;x&lt;/b&gt;&amp;amp;" in sent[1]["text"]
    await tg.say(person(150, "<i>Eve</i> & co"), "/join")
    sent = await tg.replies(3)
    assert "<i>" not in sent[2]["text"] and "i_Eve_i_co joins" in sent[2]["text"]


async def test_a_stranger_pressing_someone_elses_buttons_is_refused(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, "/hand")
    sent = await tg.replies(2)
    flow = tg.sent_message(sent[1])
    await tg.tap(STRANGER, flow, tg.buttons(sent[1])["bob"], query_id="stranger-tap")
    answers = await tg.fake.wait_for("answerCallbackQuery", 1)
    assert answers[0]["callback_query_id"] == "stranger-tap"
    assert "Only the person who started this" in answers[0]["text"]
    assert tg.fake.sent("editMessageText") == []
    # a chat admin may press them
    tg.fake.admins[GROUP] = [STRANGER["id"]]
    tg.adapter._admins.clear()  # the admin list is cached for a minute
    await tg.tap(STRANGER, flow, tg.buttons(sent[1])["bob"])
    edits = await tg.fake.wait_for("editMessageText", 1)
    assert edits[0]["text"].startswith("bob won")


async def test_undo_asks_first_and_only_the_recorder_or_an_admin_confirms(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.say(CAROL, "/hand winner:bob seen:alice maal:alice=3 bob=4")
    await tg.say(CAROL, "/hand winner:carol seen:alice maal:alice=3 carol=4")
    await tg.replies(3)
    await tg.say(BOB, "/undo")  # bob neither recorded it nor is an admin: refused, no buttons
    refused = await tg.said("Only the person who recorded it")
    assert not refused.get("reply_markup")
    tg.fake.admins[GROUP] = [BOB["id"]]
    tg.adapter._admins.clear()  # the admin list is cached for a minute
    await tg.say(BOB, "/undo")
    ask = await tg.said("Undo hand 2")
    assert ask["text"].startswith("Undo hand 2 (carol won")
    confirm = tg.sent_message(ask)
    await tg.tap(BOB, confirm, tg.buttons(ask)["Yes, undo"])
    # the edit of the message tapped (the live board is edited meanwhile too)
    edited = await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("editMessageText") if p["message_id"] == ask["_message_id"]),
        None))
    assert "Undid hand 2" in edited["text"]
    # pressing the same confirmation again must not undo hand 1 as well
    await tg.tap(BOB, confirm, tg.buttons(ask)["Yes, undo"])
    await tg.fake.wait_for("answerCallbackQuery", 2)
    assert (await board(tg))["hand_count"] == 1
    # with a reason typed, the recorder's undo needs no tap
    await tg.say(CAROL, "/undo reason:typo")
    await tg.said("Undid hand 1")


async def test_a_429_is_retried_and_the_hand_recorded_once(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.replies(1)
    tg.fake.fail_next("sendMessage", 1, retry_after=1)
    await tg.say(ALICE, "/hand winner:bob seen:alice maal:alice=3 bob=4")
    sent = await tg.fake.wait_for("sendMessage", 3, timeout=15)  # 429, then the retry
    assert "Hand 1" in sent[-1]["text"]
    assert (await board(tg))["hand_count"] == 1


async def test_a_player_without_username_is_mentioned_by_text_mention(tg: Harness):
    text = "/newgame players:alice Bob Builder"
    offset = text.index("Bob")
    await tg.say(ALICE, text, entities=[{"type": "text_mention", "offset": offset,
                                         "length": len("Bob Builder"), "user": BOB}])
    sent = await tg.replies(1)
    assert "Players: alice, Bob" in sent[0]["text"]
    await tg.say(BOB, "/hand winner:alice seen:bob maal:alice=1 bob=0")
    await tg.replies(2)
    snapshot = await tg.service.snapshot(chat_key(GROUP))
    assert snapshot is not None
    assert snapshot.session.players[1].user_id == f"telegram:{BOB['id']}"


ROOT = Path(__file__).resolve().parents[2]


async def test_the_whole_process_plays_a_hand_and_stops_on_sigterm(tmp_path: Path):
    fake = FakeTelegram()
    base = await fake.start()
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN",)}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN=fake.token, TELEGRAM_API_URL=base,
               TELEGRAM_POLL_TIMEOUT="1", DATABASE_URL=f"sqlite:///{tmp_path / 'bot.db'}")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        harness = Harness(fake, None, None)  # type: ignore[arg-type]
        await fake.wait_for("setMyCommands", 1, timeout=30)
        await harness.say(ALICE, "/newgame players:alice bob")
        await harness.say(ALICE, "/hand winner:alice seen:bob maal:alice=5 bob=1")
        sent = await harness.replies(2)
        assert "Hand 1: alice won" in sent[1]["text"]
        process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(process.wait(), 30)
        stderr = (await process.stderr.read()).decode()  # type: ignore[union-attr]
        assert code == 0, stderr
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await fake.stop()


async def test_a_network_error_is_retried(tg: Harness):
    await tg.say(ALICE, NEW)
    await tg.replies(1)
    tg.fake.fail_next("sendMessage", 1, code=502)
    await tg.say(ALICE, "/hand winner:bob seen:alice maal:alice=3 bob=4")
    sent = await tg.fake.wait_for("sendMessage", 3)
    assert "Hand 1" in sent[-1]["text"]
    assert (await board(tg))["hand_count"] == 1


async def test_webhook_mode_checks_the_secret_token(store: SqlStore):
    import aiohttp

    fake = FakeTelegram()
    base = await fake.start()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    adapter = TelegramAdapter(Service(store), fake.token, base,
                              webhook_url="https://bot.example/telegram",
                              webhook_listen="127.0.0.1", webhook_port=port)
    await adapter.start()
    try:
        registered = fake.sent("setWebhook")[0]
        assert registered["url"] == "https://bot.example/telegram"
        secret = registered["secret_token"]
        update = {"update_id": 1, "message": {
            "message_id": 1, "date": 0, "text": "/newgame players:alice bob",
            "chat": {"id": GROUP, "type": "supergroup", "title": "G"}, "from": ALICE,
            "entities": [{"type": "bot_command", "offset": 0, "length": 8}]}}
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/telegram"
            async with http.post(url, json=update,
                                 headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}) as r:
                assert r.status == 403
            async with http.post(url, json=update,
                                 headers={"X-Telegram-Bot-Api-Secret-Token": secret}) as r:
                assert r.status == 200
        sent = await fake.wait_for("sendMessage", 1)
        assert "New Nepali Marriage game" in sent[0]["text"]
    finally:
        await adapter.stop()
        await fake.stop()


async def test_games_without_the_seen_flow_are_typed(tg: Harness):
    await tg.say(ALICE, "/newgame marriage_rummy players:asha bikash")
    await tg.say(ALICE, "/hand")
    sent = await tg.replies(2)
    assert "Say who showed" in sent[-1]["text"] and not sent[-1].get("reply_markup")


async def test_tranca_teams_seat_accounts_as_players_does(tg: Harness):
    text = "/newgame tranca teams:@carol+Bob alice+dave"
    offset = text.index("Bob")
    await tg.say(ALICE, text, entities=[{"type": "text_mention", "offset": offset,
                                         "length": len("Bob"), "user": BOB}])
    await tg.replies(1)
    snapshot = await tg.service.snapshot(chat_key(GROUP))
    assert snapshot is not None
    seats = {p.name: p for p in snapshot.session.players}
    assert seats["Bob"].user_id == f"telegram:{BOB['id']}"  # the account, not a guest
    assert seats["carol"].user_id is None and seats["carol"].handle == "carol"
    # carol's account is that @carol seat: she may record a round for her side
    await tg.say(CAROL, "/round side:A table:300")
    assert "Side A: +300" in (await tg.replies(2))[-1]["text"]


async def test_a_reason_is_a_line_not_a_page(tg: Harness):
    """An undo's or edit's reason is kept with the hand and shown in /history, read on a
    phone: one over 200 characters is refused and nothing is undone or changed."""
    await tg.say(ALICE, NEW)
    await tg.reply_to(await tg.say(ALICE, "/hand winner:alice seen:carol maal:alice=3 carol=1"))
    played = (await board(tg))["totals"]
    long = "r" * 201
    for line in (f"/undo reason:{long}", f"/edit hand:1 maal:alice=4 reason:{long}"):
        refused = await tg.reply_to(await tg.say(ALICE, line))
        assert refused["text"].startswith("⚠️") and "at most 200 characters" in refused["text"]
    now = await board(tg)
    assert now["hand_count"] == 1 and now["totals"] == played  # the hand as played
    undone = await tg.reply_to(await tg.say(ALICE, "/undo reason:" + "r" * 200))
    assert undone["text"].startswith("Undid hand 1")
