"""Replies that fit a phone, through the real discord.py against the fake Discord (issue
30): the live board's embed within 34 monospace columns, a help of several pages, a long
text sent whole (never cut at 2,000 characters), the short /help, and the game just ended
still on /board (one ended with no hand closes its board to one line)."""

from __future__ import annotations

import re

from bot.core.board import PHONE_WIDTH
from bot.core.command import Reply
from bot.core.width import width
from bot.discord_adapter.render import message_parts, more_messages
from tests.discord_adapter.test_adapter import shown
from tests.discord_helpers import ALICE, DiscordHarness, component, custom_ids, slash

SEVEN = ["abcdefghijklmnopqrstuvw1", "सीताकुमारीश्रेष्ठ", "carol", "dave", "eli", "fay",
         "gopal"]


def code_lines(embed: dict) -> list[str]:
    block = re.search(r"```\n(.*?)\n```", embed["description"], re.S)
    assert block is not None, embed["description"]
    return block.group(1).split("\n")


async def test_the_live_board_embed_fits_a_phone(dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, players=" ".join(SEVEN)))
    await dc.reply_to(slash("rules", ALICE, rate="12.5", currency="Rs"))
    maal = " ".join(f"{n}=30" for n in SEVEN)
    await dc.reply_to(slash("hand", ALICE, winner=SEVEN[0], seen=" ".join(SEVEN[1:]),
                            maal=maal))
    live = await dc.live_board(containing="1 hand")
    lines = code_lines(live["embeds"][0])
    assert max(width(line) for line in lines) <= PHONE_WIDTH, lines
    assert len(lines) == 1 + len(SEVEN)  # a line a player


async def test_a_help_of_several_pages_says_where_the_next_is(dc: DiscordHarness):
    callback = await dc.reply_to(slash("help", ALICE, topic="rules"))
    first = shown(callback["data"]["content"])
    assert len(first) <= 1_200 and first.endswith("More: /help rules 2")
    callback = await dc.reply_to(slash("help", ALICE, topic="rules 2"))
    assert shown(callback["data"]["content"]).splitlines()[-1].startswith("(2/")


def test_a_long_text_is_sent_whole():
    text = "\n".join(f"line {i}: " + "x" * 70 for i in range(120))  # 9,600 characters
    content, embeds = message_parts(Reply(text))
    later = more_messages(Reply(text))
    parts = [e.description for e in embeds] + [e.description for m in later for e in m]
    assert content is None and all(len(p) <= 4_096 for p in parts)
    assert "\n".join(parts) == text  # nothing cut, nothing lost between the embeds


async def test_the_short_help_and_the_game_just_ended(dc: DiscordHarness):
    callback = await dc.reply_to(slash("help", ALICE))
    text = shown(callback["data"]["content"])
    assert len(text) <= 1_500 and "/help seat" in text
    await dc.reply_to(slash("newgame", ALICE, players="alice bob carol"))
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=10 bob=2"))
    ask = slash("endgame", ALICE)
    await dc.reply_to(ask)  # asks first
    message = dc.message_of(ask)
    ended = await dc.reply_to(component(message, custom_ids(message)["Yes, end it"], ALICE))
    assert "Game over after 1 hand" in shown(ended["data"]["embeds"][0]["description"])
    board = await dc.reply_to(slash("board", ALICE))
    assert "Nepali Marriage: 1 hand (finished)" in shown(
        board["data"]["embeds"][0]["description"])


async def test_a_game_ended_with_no_hand_left_closes_its_board(dc: DiscordHarness):
    await dc.reply_to(slash("newgame", ALICE, players="alice bob carol"))
    await dc.reply_to(slash("hand", ALICE, winner="alice", seen="bob", maal="alice=10 bob=2"))
    live = await dc.live_board(containing="1 hand")
    await dc.reply_to(slash("undo", ALICE, reason="wrong channel"))
    await dc.live_board(containing="0 hands")
    ask = slash("endgame", ALICE)
    await dc.reply_to(ask)
    message = dc.message_of(ask)
    assert shown(message["content"]) == ("End the game? No hand was recorded: it closes "
                                         "without being kept, with nothing to settle.")
    ended = await dc.reply_to(component(message, custom_ids(message)["Yes, end it"], ALICE))
    closed = "Nepali Marriage closed: no hand was recorded, so nothing was kept or settled."
    assert shown(ended["data"]["content"]) == closed and not ended["data"].get("embeds")
    # the live board says the same, with no table and no buttons left
    await dc.fake.wait(lambda: shown(dc.fake.messages[live["id"]].get("content") or "")
                       == closed)
    board = dc.fake.messages[live["id"]]
    assert not board.get("embeds") and not board.get("components")
