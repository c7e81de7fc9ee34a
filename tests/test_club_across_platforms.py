"""A club of two Telegram groups and a Discord channel, through the real python-telegram-bot
and discord.py against the fake platforms, on one database (both backends): made in one
group, joined by the other and by the channel with the codes the bot gave; Alice's
Telegram and Discord accounts linked with a code shown to her alone (her private chat
with the bot, reached by the group's button; then typed on Discord); Marriage at the
groups and Riichi in the channel; and the club's league table and ratings counting Alice
once, her games on both platforms together."""

from __future__ import annotations

import re
from typing import Any

from bot.core.service import Service
from bot.storage import SqlStore
from tests.conftest import running_telegram
from tests.discord_helpers import (
    ALICE as D_ALICE,
)
from tests.discord_helpers import (
    BOB as D_BOB,
)
from tests.discord_helpers import (
    CAROL as D_CAROL,
)
from tests.discord_helpers import (
    MANAGE_GUILD,
    DiscordHarness,
    component,
    custom_ids,
    slash,
)
from tests.telegram_helpers import ALICE, BOB, CAROL, Harness

GROUP_1, GROUP_2 = -1001000000001, -1001000000002
CODE = re.compile(r"code:([A-Z0-9]{4}-[A-Z0-9]{4})")
# alice wins, seen bob (maal 3, 4) and carol unseen: P = 7, n = 3, unseen pays 10:
# alice 3*3 - 7 + 3 + 10 = +15, bob 3*4 - 7 - 3 = +2, carol 0 - 7 - 10 = -17
HAND = "/hand winner:alice seen:bob maal:alice=3 bob=4 carol=0"


def mentioning(text: str, *people: dict[str, Any]) -> list[dict[str, Any]]:
    """Telegram's text_mention entities for each person's first name in `text`."""
    found = []
    for who in people:
        offset = text.index(who["first_name"].lower())
        found.append({"type": "text_mention", "offset": offset,
                      "length": len(who["first_name"]), "user": who})
    return found


async def said(tg: Harness, who: dict, text: str, chat_id: int,
               entities: list[dict] | None = None) -> dict[str, Any]:
    return await tg.reply_to(await tg.say(who, text, chat_id=chat_id, entities=entities))


async def telegram_game(tg: Harness, chat_id: int) -> str:
    """A one-hand Marriage game at a group, ended by Alice's tap: the /endgame's text."""
    line = "/newgame players:alice bob carol"
    await said(tg, ALICE, line, chat_id, mentioning(line, ALICE, BOB, CAROL))
    await said(tg, ALICE, HAND, chat_id)
    ask = await said(tg, ALICE, "/endgame", chat_id)
    asked = tg.sent_message(ask)
    edits = len(tg.fake.sent("editMessageText"))
    await tg.tap(ALICE, asked, tg.buttons(ask)["Yes, end it"])
    edited = await tg.fake.wait_until(lambda: next(iter(
        [p for p in tg.fake.sent("editMessageText")][edits:]), None))
    return str(edited["text"])


async def discord(dc: DiscordHarness, payload: dict[str, Any]) -> str:
    return str((await dc.answer_to(payload)).get("content", ""))


async def test_a_club_across_telegram_and_discord_counts_a_linked_person_once(
        store: SqlStore, dc: DiscordHarness):
    async with running_telegram(Service(store)) as tg:
        for group in (GROUP_1, GROUP_2):
            tg.fake.admins[group] = [ALICE["id"]]
        made = await said(tg, ALICE, "/club new name:Friday", GROUP_1)
        assert "Club Friday made" in made["text"]
        code = CODE.search(made["text"])
        assert code is not None
        joined = await said(tg, ALICE, f"/club join code:{code.group(1)}", GROUP_2)
        assert "table 2 of Friday" in joined["text"]
        again = CODE.search((await said(tg, ALICE, "/club code", GROUP_1))["text"])
        assert again is not None
        # the channel: a server manager joins it
        text = await discord(dc, slash("club", D_ALICE, permissions=MANAGE_GUILD,
                                       action="join", code=again.group(1)))
        assert "table 3 of Friday" in text
        # Alice's code: not in the group, where everyone reads; a button to her private chat
        asked = await said(tg, ALICE, "/account link", GROUP_1)
        assert not CODE.search(asked["text"])
        button = asked["reply_markup"]["inline_keyboard"][-1][0]
        assert button["url"].endswith("?start=link")
        private = await said(tg, ALICE, "/start link", ALICE["id"])
        code = CODE.search(private["text"])
        assert code is not None
        # typed on Discord: her accounts are one member; typed again (Bob), it links nothing
        linked = await discord(dc, slash("account", D_ALICE, action="link",
                                         code=code.group(1)))
        assert "Linked" in linked
        callback = await dc.reply_to(slash("account", D_BOB, action="link",
                                           code=code.group(1)))
        assert callback["data"]["flags"] & 64  # refused for him alone
        assert "used already" in callback["data"]["content"]
        # on Discord, a code is answered to its person alone (ephemeral)
        given = await dc.reply_to(slash("account", D_CAROL, action="link"))
        assert given["data"]["flags"] & 64 and CODE.search(given["data"]["content"])
        # games: Marriage at each group, Riichi in the channel
        for group in (GROUP_1, GROUP_2):
            ended = await telegram_game(tg, group)
            assert "Friday ratings:" in ended
        players = "<@301> <@302> <@303> <@304>"
        await discord(dc, slash("newgame", D_ALICE, game="riichi", players=players))
        ron = await discord(dc, slash("ron", D_ALICE, winner="user301", han="3", fu="40",
                                      **{"from": "user302"}))
        assert "3 han 40 fu, 7,700" in ron
        ask = slash("endgame", D_ALICE)
        await dc.reply_to(ask)
        message = dc.message_of(ask)
        yes = custom_ids(message)  # asked first: a tap ends it
        ended = await dc.answer_to(component(message, yes["Yes, end it"], D_ALICE))
        assert "Friday ratings:" in ended["embeds"][0]["description"]
        # the league table: Alice once in Marriage (her two groups), and in Riichi
        await said(tg, ALICE, "/club standings game:marriage", GROUP_1)
        table = await tg.said("every game (2 games)", chat_id=GROUP_1)
        # one member: her Telegram seats (Alice) and Discord one (user301, her latest name)
        assert "Alice" not in table["text"] and table["text"].count("user301") == 1
        assert "games 2, wins 2" in table["text"]  # +15 at each table: she won both
        rating = await discord(dc, slash("rating", D_CAROL, member="Alice"))  # a name of hers
        assert "Nepali Marriage" in rating and "Riichi" in rating, rating
