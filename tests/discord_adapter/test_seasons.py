"""Seasons on Discord, through discord.py's real command tree: someone who can manage the
server starts one; /stats season comes as an embed with the table and the picture."""

from __future__ import annotations

from tests.discord_adapter.test_adapter import new_game
from tests.discord_helpers import ALICE, BOB, MANAGE_GUILD, DiscordHarness, slash

EPHEMERAL = 64
# maal 3, 1 (carol unseen: murdered), P = 4, n = 3: exchange +5, -1, -4; bob pays 3 (seen),
# carol 10 (unseen): alice +18, bob -4, carol -14
HAND = {"winner": "alice", "seen": "bob", "maal": "alice=3 bob=1"}


async def test_a_season_on_discord(dc: DiscordHarness):
    refused = await dc.reply_to(slash("season", BOB, action="start", name="Autumn"))
    assert refused["data"]["flags"] & EPHEMERAL
    assert "Only a chat admin" in refused["data"]["content"]
    started = await dc.reply_to(slash("season", ALICE, permissions=MANAGE_GUILD,
                                      action="start", name="Autumn"))
    assert started["data"]["content"].startswith("Season Autumn starts")
    await new_game(dc)
    await dc.reply_to(slash("hand", ALICE, **HAND))
    data = (await dc.reply_to(slash("stats", BOB, player="season")))["data"]
    name = data["attachments"][0]["filename"]
    embed = data["embeds"][0]
    assert embed["image"]["url"] == f"attachment://{name}"
    assert "1 game (1 still open)" in embed["description"]
    rows = embed["description"].split("```")[1].strip().splitlines()
    assert rows[0].startswith("Nepali Marriage (1 game), by ")
    # a phone's width: the place, the name and points per hand, then the rest
    assert rows[1:3] == ["1. alice  +18.00", "   games 1, hands 1, points +18"]
    assert rows[5:7] == ["3. carol  -14.00", "   games 1, hands 1, points -14"]
