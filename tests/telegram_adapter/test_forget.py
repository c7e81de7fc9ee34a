"""/forget on Telegram, through the real python-telegram-bot: a person, asked first and only
by their own tap; an admin's whole chat. (Marriage numbers: tests/storage/chats/test_forget.py.)"""

from __future__ import annotations

from sqlalchemy import select

from bot.storage.engine.tables import (
    chat_settings,
    hands,
    inbox,
    origins,
    payments,
    seasons,
    sessions,
)
from tests.telegram_helpers import ALICE, BOB, CAROL, GROUP, Harness

# alice and bob seen, maal 3 and 4, P = 7, n = 3 (carol unseen: maal 0, pays 10):
# alice 3*3 - 7 + 3 + 10 = +15, bob 3*4 - 7 - 3 = +2, carol 0 - 7 - 10 = -17
HAND = "/hand winner:alice seen:bob maal:alice=3 bob=4 carol=0"


async def answered(tg: Harness, who: dict, line: str, chat_id: int = GROUP) -> dict:
    answer = await tg.reply_to(await tg.say(who, line, chat_id=chat_id))
    assert not answer["text"].startswith("⚠️"), answer["text"]
    return answer


async def tapped(tg: Harness, who: dict, asked: dict, label: str) -> dict:
    """Tap `label` under the message `asked`; the edit that answers it."""
    edits = len([p for p in tg.fake.sent("editMessageText")
                 if p["message_id"] == asked["_message_id"]])
    await tg.tap(who, tg.sent_message(asked), tg.buttons(asked)[label])
    return await tg.fake.wait_until(lambda: next(iter(
        [p for p in tg.fake.sent("editMessageText")
         if p["message_id"] == asked["_message_id"]][edits:]), None))


async def stored(tg: Harness) -> str:
    found = []
    async with tg.service.store.engine.connect() as conn:  # type: ignore[attr-defined]
        for table in (sessions, hands, payments, seasons, chat_settings, origins):
            found += [str(tuple(row)) for row in await conn.execute(select(table))]
        # what the bot received, kept two days after it was handled; but the tap that asked
        # to forget, handled as it was done (it goes with the rest, two days on)
        found += [str(row.payload) for row in await conn.execute(
            select(inbox).where(inbox.c.state == "done")) if not _forgetting(row.payload)]
    return "\n".join(found)


def _forgetting(payload: dict) -> bool:
    query = payload.get("callback_query") or {}
    return query.get("from", {}).get("id") == ALICE["id"]


async def a_night(tg: Harness) -> None:
    tg.fake.admins[GROUP] = [CAROL["id"]]
    await answered(tg, ALICE, "/newgame players:@alice @bob carol")
    await answered(tg, ALICE, "/rules rate:10 currency:Rs")
    await answered(tg, ALICE, HAND)
    await tapped(tg, ALICE, await answered(tg, ALICE, "/endgame"), "Yes, end it")
    await answered(tg, ALICE, "/paid carol 7 to:@alice")


async def test_a_person_has_the_bot_forget_them(tg: Harness):
    await a_night(tg)
    ledger = (await answered(tg, BOB, "/ledger"))["text"]
    # at 10 Rs a point: alice +150, bob +20, carol -170; carol paid alice 7 of it
    assert "alice +143 Rs" in ledger and "carol -163 Rs" in ledger
    asked = await answered(tg, ALICE, "/forget")
    assert "Forget you?" in asked["text"]
    # someone else's tap, even a chat admin's, forgets nobody
    await tg.tap(CAROL, tg.sent_message(asked), tg.buttons(asked)["Yes, forget me"])
    refused = await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("answerCallbackQuery") if p.get("text")), None))
    assert "Only the person who asked" in refused["text"]
    done = await tapped(tg, ALICE, asked, "Yes, forget me")
    assert "Forgotten: your account is out of 1 chat. Your seats (1 seat) are guest seats " \
        "now" in done["text"]
    kept = await stored(tg)
    # the seat keeps the name the table gave it; the account and its username are gone,
    # and so are the updates alice sent (but the tap being handled)
    assert "telegram:101" not in kept and "'handle': 'alice'" not in kept
    assert "'id': 101" not in kept
    # the others' ledger is as it was: alice is the guest alice now
    assert (await answered(tg, BOB, "/ledger"))["text"] == ledger


async def test_an_admin_has_the_whole_chat_forgotten(tg: Harness):
    await a_night(tg)
    refused = (await tg.reply_to(await tg.say(ALICE, "/forget chat")))["text"]
    assert refused.startswith("⚠️") and "Only a chat admin" in refused
    asked = await answered(tg, CAROL, "/forget chat")
    done = await tapped(tg, CAROL, asked, "Yes, forget it all")
    assert "Forgotten: this chat's 1 game, 1 payment and 0 seasons" in done["text"]
    assert f"telegram:{GROUP}" not in await stored(tg)
    assert "No game is open" in (await tg.reply_to(await tg.say(BOB, "/board")))["text"]
