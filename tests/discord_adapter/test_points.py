"""Evenings of points and of Dhumbal through the real discord.py client against the fake
Discord: a game started, its rules by /rules' own subcommand, rounds by /round's typed
options (points:, winner:, show:), an undo and the end confirmed by taps, the board with
who is still in, and the settle-up."""

from __future__ import annotations

import re
from typing import Any

from bot.core.command import Actor, Command
from bot.discord_adapter.adapter import chat_key
from tests.discord_helpers import ALICE, DiscordHarness, component, custom_ids, slash
from tests.fakes.discord_api import CHANNEL_ID


def shown(content: str) -> str:
    """A message as Discord displays it: Markdown escapes resolved."""
    return re.sub(r"\\(.)", r"\1", content)


def subcommand(command: str, game: str, who: dict[str, Any], **options: Any) -> dict[str, Any]:
    """/rules points wins:low ...: a command with a subcommand per game."""
    payload = slash(command, who)
    payload["data"]["options"] = [{"name": game, "type": 1,
                                   "options": slash(command, who, **options)["data"]["options"]}]
    return payload


async def tapped(dc: DiscordHarness, ask: dict[str, Any], yes: str) -> str:
    """A command that asks first, confirmed by its button: what it then says."""
    await dc.reply_to(ask)
    message = dc.message_of(ask)
    data = (await dc.reply_to(component(message, custom_ids(message)[yes], ALICE)))["data"]
    # the standings come as an embed with the board; a short answer as the content
    return shown(data["content"] or data["embeds"][0]["description"])


async def board(dc: DiscordHarness) -> dict:
    reply = await dc.adapter.service.handle(Command(chat_key(CHANNEL_ID),
                                                    Actor("test:r", "r"), "board"))
    assert reply.board is not None, reply.text
    return reply.board.to_json()


async def test_an_evening_of_points_where_the_winner_takes(dc: DiscordHarness):
    started = await dc.reply_to(slash("newgame", ALICE, game="points",
                                      players="asha bikash chetan"))
    assert "New Points game. Players: asha, bikash, chetan." in shown(
        started["data"]["content"])
    rules = await dc.reply_to(subcommand("rules", "points", ALICE, winner_takes="yes",
                                         name="Kitti", rate="10", currency="Rs"))
    assert "winner_takes yes" in shown(rules["data"]["content"])
    said = await dc.reply_to(slash("round", ALICE, points="bikash=12 chetan=7", winner="asha"))
    # bikash -12, chetan -7, asha +19 (issue 37's example)
    assert "asha +19  bikash -12  chetan -7" in shown(said["data"]["content"])
    live = await dc.live_board(containing="Kitti: 1 round")
    assert "```" in live["embeds"][0]["description"]
    await dc.reply_to(slash("round", ALICE, points="asha=30 bikash=1", winner="chetan"))
    undone = await tapped(dc, slash("undo", ALICE), "Yes, undo")
    assert "Undid round 2 (chetan won; asha 30, bikash 1)." in undone
    await dc.reply_to(slash("round", ALICE, points="asha=4 bikash=10", winner="chetan"))
    # asha 19 - 4 = 15, bikash -12 - 10 = -22, chetan -7 + 14 = 7, at 10 Rs a point
    assert (await board(dc))["money"] == {"asha": 150, "bikash": -220, "chetan": 70}
    history = await dc.reply_to(slash("history", ALICE))
    assert "chetan won; asha 4, bikash 10" in shown(history["data"]["content"])
    wrong = await dc.reply_to(slash("round", ALICE, points="asha=1 zed=2", winner="chetan"))
    assert wrong["data"]["flags"] == 64  # an error, to the sender alone
    assert "Not in this round: `zed`." in shown(wrong["data"]["content"])
    ended = await tapped(dc, slash("endgame", ALICE), "Yes, end it")
    assert "1. asha +15 points = +150 Rs" in ended
    assert "bikash pays asha 150 Rs" in ended and "bikash pays chetan 70 Rs" in ended


async def test_an_evening_of_dhumbal_with_shows_and_the_limit(dc: DiscordHarness):
    started = await dc.reply_to(slash("newgame", ALICE, game="dhumbal",
                                      players="asha bikash chetan"))
    assert "New Dhumbal game." in shown(started["data"]["content"])
    rules = await dc.reply_to(subcommand("rules", "dhumbal", ALICE, limit=50, currency="Rs",
                                         per_place="20 0 -20"))
    assert "limit 50" in shown(rules["data"]["content"])
    held = await dc.reply_to(slash("round", ALICE, points="asha=3 bikash=12 chetan=7",
                                   show="asha"))
    assert "asha 0  bikash +12  chetan +7" in shown(held["data"]["content"])
    caught = await dc.reply_to(slash("round", ALICE, points="asha=3 bikash=3 chetan=7",
                                     show="asha"))
    # Wikipedia's Jhyap: a count of 3 caught by 3 or less scores 3 + 25 = 28
    assert "asha +28  bikash +3  chetan +7" in shown(caught["data"]["content"])
    await dc.reply_to(slash("round", ALICE, points="asha=40 bikash=2 chetan=9"))
    live = await dc.live_board(containing="Out: asha 68.")
    assert "In: bikash 17, chetan 23." in live["embeds"][0]["description"]
    refused = await dc.reply_to(slash("round", ALICE, points="asha=1 bikash=2 chetan=3"))
    assert refused["data"]["flags"] == 64
    assert "asha (out at 68)" in shown(refused["data"]["content"])
    await dc.reply_to(slash("round", ALICE, points="bikash=2 chetan=30", show="bikash"))
    assert (await board(dc))["totals"] == {"asha": 68, "bikash": 17, "chetan": 53}
    ended = await tapped(dc, slash("endgame", ALICE), "Yes, end it")
    # bikash, the last one in, first (+20); chetan out later, second; asha last (-20)
    assert "1. bikash +17 points = +20 Rs" in ended and "asha pays bikash 20 Rs" in ended
