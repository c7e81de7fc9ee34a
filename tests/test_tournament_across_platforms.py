"""A tournament of a club whose tables are a Telegram forum topic and a Discord channel,
through the real python-telegram-bot and discord.py against the fake platforms, on one
database (both backends), each platform's bot a process of its own (two services).

Alice's Telegram and Discord accounts are one member (linked with a code), the club's
owner. She makes a one-round Riichi tournament of eight (WRC): four Telegram people added
in the topic, four Discord ones in the channel. /tournament start seats them and begins
each table's game where it plays: the topic's game is posted in the topic, the channel's
in the channel. Each table's result is entered as any game's (Telegram: /ron, /endgame
and its tap; Discord: the slash commands and the tap). The first table to finish hears
that the other still plays; the last closes the round, and the final standings are posted
at the other table. A ron of 3 han 40 fu by East (the dealer) is 7,700: 37,700 -> +7.7 +
15 = +22.7; the discarder 22,300 -> -22.7; the two on 30,000 share second and third: 0.0."""

from __future__ import annotations

import re
from typing import Any

from bot.core.service import Service
from bot.storage import SqlStore
from tests.conftest import running_telegram
from tests.discord_helpers import ALICE as D_ALICE
from tests.discord_helpers import (
    CHANNEL_ID,
    MANAGE_GUILD,
    DiscordHarness,
    component,
    custom_ids,
    slash,
)
from tests.telegram_helpers import ALICE, BOB, CAROL, Harness, person

FORUM, TOPIC = -1001000000077, 7
DAN = person(104, "Dan")
CODE = re.compile(r"code:([A-Z0-9]{4}-[A-Z0-9]{4})")


def mentioning(text: str, *people: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for who in people:
        offset = text.index(who["first_name"].lower())
        found.append({"type": "text_mention", "offset": offset,
                      "length": len(who["first_name"]), "user": who})
    return found


async def said(tg: Harness, who: dict[str, Any], text: str,
               entities: list[dict] | None = None) -> dict[str, Any]:
    return await tg.reply_to(await tg.say(who, text, chat_id=FORUM, thread=TOPIC,
                                          entities=entities))


def laid_out(text: str) -> list[list[str]]:
    out: list[list[str]] = []
    for line in re.sub(r"</?pre>", "", text).splitlines():
        if line.startswith("Table"):
            out.append([])
        elif out and re.search(r"\b[ESWN] \S", line):
            out[-1].extend(re.findall(r"\b[ESWN] (\S+)", line))
    return out


def channel_texts(dc: DiscordHarness) -> list[str]:
    """What the bot posted in the channel of its own accord (no interaction asked)."""
    texts = []
    for message_id in dc.fake.posted.get(str(CHANNEL_ID), []):
        message = dc.fake.messages.get(message_id) or {}
        texts.append(str(message.get("content") or "") + "\n".join(
            str(e.get("description") or "") for e in message.get("embeds") or []))
    return texts


async def test_a_tournament_at_a_telegram_topic_and_a_discord_channel(
        store: SqlStore, dc: DiscordHarness):
    async with running_telegram(Service(store)) as tg:
        for service in (tg.service, dc.adapter.service):  # each process posts to both
            service.posts.posters.update(telegram=tg.adapter, discord=dc.adapter)
        tg.fake.admins[FORUM] = [ALICE["id"]]
        made = await said(tg, ALICE, "/club new name:Friday")
        code = CODE.search(made["text"])
        assert code is not None
        joined = await dc.answer_to(slash("club", D_ALICE, permissions=MANAGE_GUILD,
                                          action="join", code=code.group(1)))
        assert "table 2 of Friday" in joined["content"]
        # Alice's two accounts, one member (her code in her private chat, typed on Discord)
        await tg.say(ALICE, "/start link", chat_id=ALICE["id"])
        private = await tg.fake.wait_until(lambda: next(
            (p for p in tg.fake.sent("sendMessage", ALICE["id"]) if CODE.search(p["text"])),
            None))
        linked = await dc.answer_to(slash("account", D_ALICE, action="link",
                                          code=CODE.search(private["text"]).group(1)))
        assert "Linked" in linked["content"]
        # the tournament, its Telegram players added in the topic, the Discord ones there
        await said(tg, ALICE, "/tournament new name:Cup game:riichi rounds:1")
        line = "/tournament add alice bob carol dan"
        added = await said(tg, ALICE, line, mentioning(line, ALICE, BOB, CAROL, DAN))
        assert "(4 players)" in added["text"]
        more = await dc.answer_to(slash("tournament", D_ALICE,
                                        action="add <@302> <@303> <@304> <@305>"))
        assert "(8 players)" in more["content"]
        began = await said(tg, ALICE, "/tournament start seed:7")
        tables = laid_out(began["text"])
        assert [len(t) for t in tables] == [4, 4]
        assert sorted(n for t in tables for n in t) == sorted(
            ["Alice", "Bob", "Carol", "Dan", "user302", "user303", "user304", "user305"])
        # each game begun where its table plays: table 1 in the topic, table 2 in the channel
        topic_game = await tg.fake.wait_until(lambda: next(
            (p for p in tg.fake.sent("sendMessage", FORUM)
             if p.get("message_thread_id") == TOPIC
             and p["text"].startswith("New Riichi mahjong game")), None))
        assert topic_game["text"].startswith("New Riichi mahjong game. Players: "
                                              + ", ".join(tables[0]))
        await dc.fake.wait(lambda: any("New Riichi mahjong game" in t
                                       for t in channel_texts(dc)))
        assert any(t.startswith("New Riichi mahjong game. Players: " + ", ".join(tables[1]))
                   for t in channel_texts(dc))
        # table 2 (the channel) finishes first: it is told table 1 still plays
        east, south = tables[1][0], tables[1][1]
        ron = await dc.answer_to(slash("ron", D_ALICE, permissions=MANAGE_GUILD,
                                       winner=east, han="3", fu="40", **{"from": south}))
        assert "7,700" in str(ron)
        ask = slash("endgame", D_ALICE, permissions=MANAGE_GUILD)
        await dc.reply_to(ask)
        message = dc.message_of(ask)
        ended = await dc.answer_to(component(message, custom_ids(message)["Yes, end it"],
                                             D_ALICE, permissions=MANAGE_GUILD))
        shown = ended["embeds"][0]["description"] if ended.get("embeds") else ended["content"]
        assert "Cup: table 2's result for round 1 is in." in shown
        assert "Waiting for table 1." in shown
        # table 1 (the topic) closes the round: the final standings, here and there
        east, south = tables[0][0], tables[0][1]
        await said(tg, ALICE, f"/ron winner:{east} from:{south} han:3 fu:40")
        ask_tg = await said(tg, ALICE, "/endgame")
        edits = len(tg.fake.sent("editMessageText"))
        await tg.tap(ALICE, tg.sent_message(ask_tg), tg.buttons(ask_tg)["Yes, end it"])
        closed = await tg.fake.wait_until(lambda: next(iter(
            tg.fake.sent("editMessageText")[edits:]), None))
        assert "Cup · Riichi mahjong (WRC): final standings after 1 round." in closed["text"]
        await dc.fake.wait(lambda: any("final standings" in t for t in channel_texts(dc)))
        # the standings: each East +22.7, each discarder -22.7, the rest 0.0
        standings = await said(tg, ALICE, "/tournament")
        rows = re.findall(r"^\s*\d+ (\S+)\s+([+-]?[\d.]+)",
                          re.sub(r"</?pre>", "", standings["text"]), re.M)
        totals = dict(rows)
        for table in tables:
            assert totals[table[0]] == "+22.7" and totals[table[1]] == "-22.7"
            assert totals[table[2]] == totals[table[3]] == "0.0"
        await tg.service.posts.sent()
        await dc.adapter.service.posts.sent()
