"""Seasons on Telegram, through the real Application: an admin starts one, a member may not,
and /stats season comes as its table (a message) and its picture (a photo)."""

from __future__ import annotations

import io

import matplotlib.image as mpimg

from tests.telegram_helpers import ALICE, CAROL, GROUP, Harness

NEW = "/newgame marriage players:@alice @carol dave"
# maal 10, 2, 0 (dave unseen: murdered), P = 12, n = 3: exchange 18, -6, -12; carol pays 3
# (seen), dave 10 (unseen): alice +31, carol -9, dave -22
HAND = "/hand winner:alice seen:carol maal:alice=10 carol=2 dave=0"


async def test_a_season_on_telegram(tg: Harness):
    tg.fake.admins[GROUP] = [ALICE["id"]]
    await tg.say(CAROL, "/season start name:Autumn")
    assert "Only a chat admin" in (await tg.said("⚠️"))["text"]
    await tg.say(ALICE, "/season start name:Autumn")
    await tg.said("Season Autumn starts")
    await tg.say(ALICE, NEW)
    await tg.say(ALICE, HAND)
    await tg.said("Hand 1")
    await tg.say(CAROL, "/stats season")
    ranking = await tg.said("Season Autumn (")
    assert "1 game (1 still open)" in ranking["text"]
    # the ranking, in <pre>, a phone's width: alice 1 game, 1 hand, +31 points, +31.00 a
    # hand (ranked by points per hand: no money)
    assert "<pre>" in ranking["text"]
    rows = ranking["text"].split("<pre>")[1].split("</pre>")[0].splitlines()
    assert rows[0].startswith("Nepali Marriage (1 game), by ")
    assert rows[1:3] == ["1. alice  +31.00", "   games 1, hands 1, points +31"]
    assert rows[5:7] == ["3. dave  -22.00", "   games 1, hands 1, points -22"]
    photos = await tg.fake.wait_for("sendPhoto", 1)
    assert photos[0]["caption"].startswith("Season Autumn (")
    assert mpimg.imread(io.BytesIO(photos[0]["photo"]), format="png").shape[1] == 1200
