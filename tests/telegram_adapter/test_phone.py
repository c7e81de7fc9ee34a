"""Replies that fit a phone, through the real python-telegram-bot against the fake Bot API
(issue 30): the live board within 34 monospace columns for up to 6 players and a line a
player for more, the game just ended still on /board, a short /help with its topics, and
/history's pages."""

from __future__ import annotations

import re
from html import unescape

from bot.core.board import PHONE_WIDTH
from bot.core.width import width
from tests.telegram_helpers import ALICE, Harness

# the longest names a table types (24 characters), and Devanagari
SIX = ["abcdefghijklmnopqrstuvw1", "abcdefghijklmnopqrstuvw2", "सीताकुमारीश्रेष्ठ",
       "रामचन्द्रप्रसाद", "bikash", "chandra"]
TEN = [f"player_{i}" for i in range(10)]


def board_lines(message: dict) -> list[str]:
    """The lines of the board's monospace block, as the phone shows them."""
    block = re.search(r"<pre>(.*?)</pre>", message["text"], re.S)
    assert block is not None, message["text"]
    return unescape(block.group(1)).split("\n")


async def play(tg: Harness, names: list[str]) -> None:
    await tg.say(ALICE, "/newgame marriage players:" + " ".join(names))
    # ten players x 21 cards need five packs
    await tg.say(ALICE, "/rules rate:12.5 currency:Rs" + (" packs:5" if len(names) > 7 else ""))
    # the first wins with 80 maal and everyone seen: large points and money
    maal = " ".join(f"{n}=80" for n in names)
    await tg.say(ALICE, f"/hand winner:{names[0]} seen:{' '.join(names[1:])} maal:{maal}")


async def test_the_live_board_of_six_long_names_fits_a_phone(tg: Harness):
    await play(tg, SIX)
    live = await tg.fake.wait_until(lambda: next(
        (m for m in [tg.fake.messages.get((c, i)) for (c, i) in tg.fake.pinned.items()]
         if m and "<pre>" in m["text"] and "1 hand" in m["text"]), None))
    lines = board_lines(live)
    assert max(width(line) for line in lines) <= PHONE_WIDTH, lines
    assert len(lines) == 1 + len(SIX)  # a line a player: name, total, last hand, money
    assert lines[1].startswith("abcdefghi")


async def test_ten_players_are_a_line_each(tg: Harness):
    await play(tg, TEN)
    live = await tg.live_board()
    await tg.fake.wait_until(lambda: "1 hand" in tg.fake.messages[
        (live["chat"]["id"], live["message_id"])]["text"])
    lines = board_lines(tg.fake.messages[(live["chat"]["id"], live["message_id"])])
    assert max(width(line) for line in lines) <= PHONE_WIDTH
    assert [line.split()[0] for line in lines[1:]] == TEN
    assert lines[0].split()[-1] == "Rs"  # the money beside each total


async def test_the_game_just_ended_is_still_on_the_board(tg: Harness):
    await play(tg, ["alice", "bob", "carol"])
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game after 1 hand")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    await tg.fake.wait_until(lambda: any("Game over after 1 hand" in p.get("text", "")
                                         for p in tg.fake.sent("editMessageText")))
    await tg.say(ALICE, "/board")
    shown = await tg.said("Nepali Marriage: 1 hand (finished)")
    assert "<pre>" in shown["text"]
    await tg.say(ALICE, "/history")
    await tg.said("recorded by Alice")


async def test_help_is_short_with_topics_and_seat_says_how(tg: Harness):
    await tg.say(ALICE, "/help")
    short = await tg.said("Maalbot keeps score")
    text = unescape(short["text"])
    assert len(text) <= 1_500 and max(map(len, text.splitlines())) <= 300
    assert "/help seat" in text and "/help marriage" in text
    await tg.say(ALICE, "/help seat")
    seat = unescape((await tg.said("Seats."))["text"])
    assert '"Sit at NAME"' in seat and "/join NAME" in seat
    assert "/seat NAME person:@them" in seat and "in reply to" in seat
