"""What the bot says when it is added to a group, and to /start in a private chat: how to
begin, in a few lines, in the group's language (or the person's)."""

from __future__ import annotations

from collections.abc import Iterable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.games.base import Game
from bot.core.i18n import Tr, translator


def welcome(tr: Tr, games: Iterable[Game]) -> str:
    titles = ", ".join(translator(tr.language, g.key).text(g.title) for g in games)
    return "\n".join([
        tr("Hello! I keep the score of your game nights: {games}.", games=titles),
        tr("Start a game: /newgame marriage players:@ram @sita hari (people by @mention, "
           "guests by name)."),
        tr("Then /hand after each hand (I ask who won and who has seen), /board for the "
           "totals, /endgame to settle up."),
        tr("/help lists every command; /settings language:ne answers in Nepali."),
    ])


def add_me(tr: Tr) -> str:
    """For a private chat: games are played in groups."""
    return tr("To play, add me to your group with the button below (or from the group's "
              "member list) and send /newgame there; I see only commands and replies to me.")


def add_me_button(tr: Tr, username: str) -> InlineKeyboardMarkup:
    """Telegram's own "add this bot to a group" link (t.me/BOT?startgroup)."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        tr("Add me to a group"), url=f"https://t.me/{username}?startgroup=start")]])
