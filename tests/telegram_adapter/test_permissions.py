"""Every cell of the permission table on Telegram, through the real Application: members,
players, the game's starter and admins (tests/permission_cases.py)."""

from __future__ import annotations

import itertools

from bot.core.command import Reply
from bot.core.commands.built import TABLE
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
    refused,
)
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
        for line in (NEW, *case.setup):
            answer = await tg.reply_to(await tg.say(PEOPLE[STARTER], line, chat_id=chat))
            assert not answer["text"].startswith("⚠️"), (line, answer["text"])
            if line == END:  # asked first: the starter taps yes
                await tg.tap(PEOPLE[STARTER], tg.sent_message(answer),
                             tg.buttons(answer)["Yes, end it"])
                await tg.said("Game over", chat_id=chat, method="editMessageText")
        text = (await tg.reply_to(await tg.say(PEOPLE[role], case.action, chat_id=chat)))[
            "text"]
        ok = not refused(text) if role in case.allowed else (
            text.startswith("⚠️") and refused(text))
        if not ok:
            wrong.append(f"{role} / {case.what}: {text}")
    assert not wrong, "\n".join(wrong)


async def _audit(call: Call) -> Outcome:
    return Outcome(Reply("Audited."))


async def test_a_new_admin_only_command_needs_no_adapter_change(store):
    """A command added to the table with may=ADMIN is refused to members and answered for
    admins on Telegram, and the adapter asks Telegram who the admins are only for it."""
    from bot.core.commands.table import CommandTable
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
