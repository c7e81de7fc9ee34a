"""The fake Telegram refuses what Telegram refuses (the published Bot API and the limits its
prose states), through the real python-telegram-bot, and keeps each refusal so the test that
made it fails."""

from __future__ import annotations

import pytest
from telegram import (
    BotCommand,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest

from tests.fakes.telegram_api import FakeTelegram
from tests.fakes.telegram_spec import Refused, bot_api, html_text
from tests.telegram_helpers import GROUP, Harness


def test_html_as_telegram_parses_it():
    assert html_text("<b>Σ</b> &lt;3 &amp; <pre>a&gt;b</pre>") == "Σ <3 & a>b"
    assert html_text('<a href="https://t.me/x">x</a>') == "x"
    for bad in ("<b>open", "a < b", "a > b", "x & y", "<div>x</div>", "<b><i>x</b></i>",
                "&nbsp;", "<span>x</span>"):
        with pytest.raises(Refused):
            html_text(bad)


def test_the_spec_is_read_for_limits_it_states_in_prose():
    api = bot_api()
    sent = api.request("sendMessage", {"chat_id": "-100", "text": "x" * 4096})
    assert sent == {"chat_id": -100, "text": "x" * 4096}
    with pytest.raises(Refused, match="4097 characters"):
        api.request("sendMessage", {"chat_id": "1", "text": "x" * 4097})
    # measured after entities parsing, in UTF-16 code units (an emoji outside the BMP is 2)
    api.request("sendMessage", {"chat_id": "1", "text": "<b>" + "x" * 4096 + "</b>",
                                "parse_mode": "HTML"})
    with pytest.raises(Refused, match="4097 characters"):
        api.request("sendMessage", {"chat_id": "1", "text": "😀" + "x" * 4095})
    with pytest.raises(Refused, match="1025 characters"):
        api.request("sendPhoto", {"chat_id": "1", "photo": b"png", "caption": "x" * 1025})
    with pytest.raises(Refused, match="Values between 1-100"):
        api.request("getUpdates", {"limit": "101"})
    with pytest.raises(Refused, match="no parameter"):
        api.request("sendMessage", {"chat_id": "1", "text": "x", "thread_id": "5"})
    with pytest.raises(Refused, match="message text is empty"):
        api.request("sendMessage", {"chat_id": "1", "text": "<b> </b>", "parse_mode": "HTML"})
    with pytest.raises(Refused, match="allowed_updates"):
        api.request("getUpdates", {"allowed_updates": '["message", "my_chat_members"]'})


async def test_requests_telegram_would_refuse_are_refused_and_kept(tg: Harness):
    bot = tg.adapter.app.bot
    cases = [
        # callback_data: 1-64 bytes
        lambda: bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("a", callback_data="é" * 33)]])),
        # an inline button is exactly one kind of button
        lambda: bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("a", callback_data="1", url="https://t.me/x")]])),
        # HTML that does not parse
        lambda: bot.send_message(GROUP, "<b>x", parse_mode=ParseMode.HTML),
        # a placeholder of 1-64 characters
        lambda: bot.send_message(GROUP, "x", reply_markup=ForceReply(
            input_field_placeholder="p" * 65)),
        # a menu entry: 1-32 lowercase letters, digits, _
        lambda: bot.set_my_commands([BotCommand("Hand", "record")]),
        # a topic in a chat that is no forum is a refusal of its state, not of the request:
        # it is answered, but not kept as the bot's mistake (see below)
    ]
    for make in cases:
        with pytest.raises(BadRequest):
            await make()
    assert len(tg.fake.refused) == len(cases)
    tg.fake.refused.clear()
    with pytest.raises(BadRequest, match=r"(?i)message thread not found"):
        await bot.send_message(GROUP, "x", message_thread_id=7)
    assert tg.fake.refused == []
    # and what is right goes through
    sent = await bot.send_message(
        GROUP, "<b>ok</b> &amp;", parse_mode=ParseMode.HTML,
        reply_parameters=ReplyParameters(1, allow_sending_without_reply=True))
    assert sent.text == "<b>ok</b> &amp;"  # the fake keeps what was sent


async def test_a_refusal_fails_the_test_at_stop():
    fake = FakeTelegram()
    fake.refused.append(("sendMessage", {"text": "<b>x"}, "can't parse entities"))
    with pytest.raises(AssertionError, match="requests Telegram would refuse"):
        await fake.stop()


async def test_the_tests_own_updates_are_checked_too(tg: Harness):
    with pytest.raises(AssertionError, match="not one Telegram sends"):
        await tg.fake.push({"update_id": 1, "message": {"message_id": 1, "chat": {"id": 1}}})
