"""/forget on Discord, through discord.py's real command tree: a person, asked first and only
by their own click; a whole channel, by someone who can manage the server. (The numbers:
tests/storage/chats/test_forget.py.)"""

from __future__ import annotations

from sqlalchemy import select

from bot.storage.engine.tables import chat_settings, hands, origins, payments, seasons, sessions
from tests.discord_adapter.test_adapter import shown
from tests.discord_helpers import (
    ALICE,
    BOB,
    MANAGE_GUILD,
    DiscordHarness,
    component,
    custom_ids,
    slash,
)
from tests.fakes.discord_api import CHANNEL_ID

HAND = {"winner": "alice", "seen": "bob", "maal": "alice=3 bob=4 carol=0"}


async def stored(dc: DiscordHarness) -> str:
    found = []
    async with dc.adapter.service.store.engine.connect() as conn:  # type: ignore[attr-defined]
        for table in (sessions, hands, payments, seasons, chat_settings, origins):
            found += [str(tuple(row)) for row in await conn.execute(select(table))]
    return "\n".join(found)


async def a_night(dc: DiscordHarness) -> None:
    for who in (ALICE, BOB):
        dc.fake.users[who["id"]] = who
    await dc.reply_to(slash("newgame", ALICE, players=f"<@{ALICE['id']}> <@{BOB['id']}> carol"))
    await dc.reply_to(slash("hand", ALICE, **HAND))
    end = slash("endgame", ALICE)
    await dc.reply_to(end)
    message = dc.message_of(end)
    await dc.reply_to(component(message, custom_ids(message)["Yes, end it"], ALICE))


async def test_a_person_has_the_bot_forget_them_on_discord(dc: DiscordHarness):
    await a_night(dc)
    assert f"discord:{ALICE['id']}" in await stored(dc)
    asked = slash("forget", ALICE)
    assert "Forget you?" in shown((await dc.reply_to(asked))["data"]["content"])
    message = dc.message_of(asked)
    # someone else's click, even a server manager's, forgets nobody
    other = await dc.reply_to(component(message, custom_ids(message)["Yes, forget me"], BOB,
                                        permissions=MANAGE_GUILD))
    assert "Only the person who asked" in str(other)
    done = await dc.reply_to(component(message, custom_ids(message)["Yes, forget me"], ALICE))
    assert "Forgotten: your account is out of 1 chat" in str(done)
    kept = await stored(dc)
    assert f"discord:{ALICE['id']}" not in kept and f"discord:{BOB['id']}" in kept


async def test_a_manager_has_the_whole_channel_forgotten_on_discord(dc: DiscordHarness):
    await a_night(dc)
    refused = await dc.reply_to(slash("forget", BOB, what="chat"))
    assert "Only a chat admin" in refused["data"]["content"]
    asked = slash("forget", ALICE, what="chat", permissions=MANAGE_GUILD)
    await dc.reply_to(asked)
    message = dc.message_of(asked)
    done = await dc.reply_to(component(message, custom_ids(message)["Yes, forget it all"],
                                       ALICE, permissions=MANAGE_GUILD))
    assert "Forgotten: this chat's 1 game" in str(done)
    assert f"discord:{CHANNEL_ID}" not in await stored(dc)
