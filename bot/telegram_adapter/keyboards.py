"""A core Question as a Telegram inline keyboard. Each button carries the question's sealed
token and the answer, `TOKEN|VALUE`, within Telegram's 64 bytes of callback_data, so a
restart loses nothing and a button the bot did not issue for this chat is refused."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import flows
from bot.core.flows import Ask, Question
from bot.core.i18n import Tr

MAX_CALLBACK_BYTES = 64


def callback_data(token: str, value: str) -> str:
    data = f"{token}|{value}"
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback_data over {MAX_CALLBACK_BYTES} bytes: {data}")
    return data


def split(data: str) -> tuple[str, str]:
    token, _, value = data.rpartition("|")
    return token, value


def markup_for(question: Question, token: str, tr: Tr) -> InlineKeyboardMarkup:
    """The question's buttons, labelled in the language of `tr` (the reply's)."""
    def button(label: object, value: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(tr.render(label)[:60],  # type: ignore[arg-type]
                                    callback_data=callback_data(token, value))

    if question.ask in (Ask.PICK, Ask.TOGGLE):
        picks = [button(("✅ " if c.chosen else "") + tr.render(c.label), c.value)
                 for c in question.choices if c.value != flows.DONE]
        rows = [picks[i:i + 2] for i in range(0, len(picks), 2)]
        last = [button(c.label, c.value) for c in question.choices if c.value == flows.DONE]
        rows.append([*last, button(tr("Cancel"), flows.CANCEL)])
        return InlineKeyboardMarkup(rows)
    if question.ask == Ask.SEATS:  # a seat a button, two a row: readable on a phone
        seats = [button(c.label, c.value) for c in question.choices]
        return InlineKeyboardMarkup([seats[i:i + 2] for i in range(0, len(seats), 2)])
    return InlineKeyboardMarkup([[button(c.label, c.value) for c in question.choices]])


def pad_link(username: str, short_name: str, token: str) -> str:
    """The scorepad as a Direct Link Mini App, opened in the group in compact mode (a group
    can't carry web_app buttons: core.telegram.org/bots/webapps#direct-link-mini-apps)."""
    return f"https://t.me/{username}/{short_name}?startapp={token}&mode=compact"


def with_pad(markup: InlineKeyboardMarkup | None, link: str,
             tr: Tr) -> InlineKeyboardMarkup:
    """`markup` with a last row that opens the scorepad."""
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    rows.append([InlineKeyboardButton(tr("📝 Scorepad"), url=link)])
    return InlineKeyboardMarkup(rows)


def with_private(markup: InlineKeyboardMarkup | None, username: str, start: str,
                 tr: Tr) -> InlineKeyboardMarkup:
    """`markup` with a last row that opens the private chat with the bot and sends /start
    `start` there (t.me/<bot>?start=...: a group can't be shown one person's line)."""
    rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
    rows.append([InlineKeyboardButton(tr("Open the private chat"),
                                      url=f"https://t.me/{username}?start={start}")])
    return InlineKeyboardMarkup(rows)
