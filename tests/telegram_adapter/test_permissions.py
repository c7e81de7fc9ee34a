"""Every cell of the permission table on Telegram, through the real Application: members,
players, the game's starter and admins (tests/permission_cases.py)."""

from __future__ import annotations

import itertools

from bot.core.assembly.built import TABLE
from bot.core.command import Reply
from bot.core.commands.spec import CommandSpec, Needs
from bot.core.handlers.call import Call, Outcome
from bot.core.permissions import Rule
from tests.permission_cases import (
    ADMIN,
    END,
    MEMBER,
    PLAYER,
    STARTER,
    cells,
    judged,
    refused,
)
from tests.telegram_adapter.test_adapter import board
from tests.telegram_adapter.test_buttons import message_of
from tests.telegram_helpers import Harness, person

PEOPLE = {STARTER: person(201, "Hana", "hana"), PLAYER: person(202, "Pia", "pia"),
          MEMBER: person(203, "Mo", "mo"), ADMIN: person(204, "Ada", "ada")}
NEW = "/newgame players:@hana @pia zed"
_chats = itertools.count(-1009000000000, -1)


async def test_who_may_change_what_on_telegram(tg: Harness):
    wrong = []
    for case, role in cells():  # every cell in a chat of its own
        chat = next(_chats)
        tg.fake.admins[chat] = [PEOPLE[ADMIN]["id"]]
        # each answer is found by what it quotes: a live board posted meanwhile is no answer
        started: dict = {}
        for line in (NEW, *case.setup):
            answer = await tg.reply_to(await tg.say(PEOPLE[STARTER], line, chat_id=chat))
            started = started or answer
            assert not answer["text"].startswith("⚠️"), (line, answer["text"])
            if line == END:  # asked first: the starter taps yes
                await tg.tap(PEOPLE[STARTER], await message_of(tg, answer),
                             tg.buttons(answer)["Yes, end it"])
                await tg.said("Game over", chat_id=chat, method="editMessageText")
        if case.tap:  # a button on /newgame's answer, or on the answer to the asker's line
            asked = await tg.reply_to(await tg.say(PEOPLE[case.asker], case.action,
                                                   chat_id=chat)) if case.action else started
            text, error = await tapped(tg, PEOPLE[role], asked, case.tap)
        else:
            replied = None
            if case.reply_to:  # a message of theirs to answer (the bot ignores it)
                replied = (await tg.say(PEOPLE[case.reply_to], "here", chat_id=chat))[
                    "message"]
            text = (await tg.reply_to(await tg.say(PEOPLE[role], case.action, chat_id=chat,
                                                   reply_to=replied)))["text"]
            error = text.startswith("⚠️")
        if not judged(case, role, text, error):
            wrong.append(f"{role} / {case.what}: {text}")
    assert not wrong, "\n".join(wrong)


_queries = itertools.count(1)


async def tapped(tg: Harness, who: dict, asked: dict, label: str) -> tuple[str, bool]:
    """Press the button `label` on the message `asked`: what the presser is told (an alert:
    refused) or the chat (the message edited, or a new one quoting it)."""
    message = await message_of(tg, asked)
    chat, message_id = int(message["chat"]["id"]), message["message_id"]
    query = f"perm{next(_queries)}"
    await tg.tap(who, message, tg.buttons(asked)[label], query_id=query)
    notice = await tg.fake.wait_until(lambda: next(
        (p for p in tg.fake.sent("answerCallbackQuery")
         if p.get("callback_query_id") == query), None))
    if notice.get("text"):
        return str(notice["text"]), True
    shown = [p for p in tg.fake.sent("editMessageText", chat)
             if str(p.get("message_id")) == str(message_id)] + [
        p for p in tg.fake.sent("sendMessage", chat)
        if (p.get("reply_parameters") or {}).get("message_id") == message_id]
    return (str(shown[-1]["text"]) if shown else ""), False


async def _audit(call: Call) -> Outcome:
    return Outcome(Reply("Audited."))


async def test_a_new_admin_only_command_needs_no_adapter_change(store):
    """A command added to the table with may=ADMIN is refused to members and answered for
    admins on Telegram, and the adapter asks Telegram who the admins are only for it."""
    from bot.core.command_table import CommandTable
    from bot.core.service import Service
    from tests.conftest import running_telegram

    audit = CommandSpec("audit", "check the books", "/audit", may=Rule.ADMIN,
                        needs=Needs.NOTHING, run=_audit)
    table = CommandTable([*TABLE.core.values(), audit], TABLE.games, "marriage")
    async with running_telegram(Service(store, table=table)) as tg:
        chat = -1008000000001
        await tg.say(PEOPLE[MEMBER], "/board", chat_id=chat)  # needs no admin status
        await tg.replies(1, chat_id=chat)
        assert tg.fake.sent("getChatAdministrators") == []
        await tg.say(PEOPLE[MEMBER], "/audit", chat_id=chat)
        assert "Only a chat admin" in (await tg.replies(2, chat_id=chat))[-1]["text"]
        assert len(tg.fake.sent("getChatAdministrators")) == 1
        tg.fake.admins[chat] = [PEOPLE[ADMIN]["id"]]
        tg.adapter._admins.clear()  # the admin list is cached for a minute
        await tg.say(PEOPLE[ADMIN], "/audit", chat_id=chat)
        assert (await tg.replies(3, chat_id=chat))[-1]["text"] == "Audited."
        assert "audit" in {c["command"] for c in tg.fake.sent("setMyCommands")[0]["commands"]}


# Telegram sends a message posted as a channel from one shared account, "Channel_Bot": the
# same from_user whoever posts as whichever channel; sender_chat is the channel.
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel",
               "username": "Channel_Bot"}


async def as_channel(tg: Harness, chat: int, channel: int, text: str, *,
                     reply_to: dict | None = None, forwarded: bool = False) -> dict:
    """A message sent in `chat` as the channel `channel` (or, `forwarded`, a post of the
    linked channel that Telegram forwards into its discussion group)."""
    message: dict = {"message_id": tg.fake.next_message_id(), "date": 1,
                     "chat": tg.fake.chat(chat).to_json(), "from": CHANNEL_BOT,
                     "sender_chat": {"id": channel, "type": "channel", "title": "News"},
                     "text": text}
    if text.startswith("/"):
        message["entities"] = [{"type": "bot_command", "offset": 0,
                                "length": len(text.split()[0])}]
    if reply_to is not None:
        message["reply_to_message"] = reply_to
    if forwarded:
        message["is_automatic_forward"] = True
    update = {"update_id": tg.fake.next_update_id(), "message": message}
    await tg.fake.push(update)
    return update


async def test_a_command_sent_as_a_channel_is_nobodys(tg: Harness):
    """Everyone posting as any channel is one account to the bot: had it taken a seat,
    anyone posting as another channel would have played it, undone hands, changed the
    rate. So a command sent as a channel is refused and changes nothing; the channel's
    own posts forwarded into the group are not answered at all."""
    chat = -1007000000001
    said = await tg.reply_to(await tg.say(PEOPLE[STARTER], NEW, chat_id=chat))
    assert "zed" in said["text"]
    refused = []
    for channel, line in ((-1005550001, "/join zed"),
                          (-1005550002, "/hand winner:zed seen:hana maal:zed=5 hana=0"),
                          (-1005550002, "/newgame players:ann bob"),
                          (-1005550003, "/board")):
        answer = await tg.reply_to(await as_channel(tg, chat, channel, line))
        refused.append(answer["text"])
    assert all(t.startswith("⚠️") and "as yourself" in t for t in refused), refused
    # a hand waiting for maal: its prompt answered as a channel records nothing
    await tg.say(PEOPLE[STARTER], "/hand winner:hana seen:pia zed", chat_id=chat)
    prompt = await tg.said("reply", chat_id=chat)
    answered = await tg.reply_to(await as_channel(
        tg, chat, -1005550001, "hana=3 pia=1 zed=0",
        reply_to=await message_of(tg, prompt)))
    assert "as yourself" in answered["text"]
    forward = await as_channel(tg, chat, -1005550004, "/board", forwarded=True)
    after = await tg.reply_to(await tg.say(PEOPLE[STARTER], "/players", chat_id=chat))
    assert not [p for p in tg.fake.sent("sendMessage", chat)
                if (p.get("reply_parameters") or {}).get("message_id")
                == forward["message"]["message_id"]]
    assert "zed" in after["text"] and "Channel" not in after["text"]
    state = await board(tg, chat)
    assert state["hand_count"] == 0 and state["waiting_for"] == ["hana", "pia", "zed"]


async def test_the_one_person_in_a_private_chat_is_its_admin(tg: Harness):
    """As in a DM on Discord: nobody else is there to ask."""
    private = PEOPLE[MEMBER]["id"]  # a private chat's id is its person's
    settings = await tg.reply_to(await tg.say(PEOPLE[MEMBER], "/settings timezone:Asia/Kathmandu",
                                              chat_id=private))
    assert not refused(settings["text"]) and "Asia/Kathmandu" in settings["text"], settings
    imported = await tg.reply_to(await tg.say(PEOPLE[MEMBER], "/import", chat_id=private))
    assert not refused(imported["text"]), imported  # (no file: said what to send)
    # in a group the same person, no admin there, is refused
    group = next(_chats)
    tg.fake.admins[group] = [PEOPLE[ADMIN]["id"]]
    refusal = await tg.reply_to(await tg.say(PEOPLE[MEMBER], "/settings timezone:UTC",
                                             chat_id=group))
    assert refused(refusal["text"]), refusal
