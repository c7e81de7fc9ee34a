"""No token of a page is kept in the database: after every command that makes or shows a
link (a game's Scorepad button, /scoreboard, /scoreboard new, /scorepad, /scorepad new), a
tap and a reply on the bot's messages that carry them, every table of the database is read
whole and holds none of the tokens the chat was shown, while it holds their hashes. A kept
reply sent again shows the table's current link."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, inspect, text

from bot.core import pages
from bot.core.command import Actor, Command
from bot.storage import SqlStore
from bot.storage.engine.tables import inbox, origins
from bot.storage.transaction.migrations import MIGRATIONS, upgrade
from tests.conftest import store_at_version
from tests.telegram_helpers import ALICE, BOB, GROUP
from tests.web.conftest import Web

TOKEN = re.compile(r"(?:/s/|startapp=|#t=)([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])")


def shown(web: Web) -> set[str]:
    """Every token the bot put in the group: in a message's text or a button's link."""
    assert web.tg is not None
    found: set[str] = set()
    for method in ("sendMessage", "editMessageText", "editMessageReplyMarkup"):
        for params in web.tg.fake.sent(method, GROUP):
            found.update(TOKEN.findall(str(params.get("text", ""))))
            found.update(TOKEN.findall(str(params.get("reply_markup", ""))))
    return found


async def dump(store: SqlStore) -> str:
    """Every row of every table of the database, as text."""
    async with store.engine.connect() as conn:
        names = await conn.run_sync(lambda sync: inspect(sync).get_table_names())
        rows = [f"{name}: {tuple(row)!r}" for name in names  # (a Row's repr cuts text short)
                for row in (await conn.execute(text(f'SELECT * FROM "{name}"'))).all()]
    assert len(names) > 5, names  # the whole schema was read
    return "\n".join(rows)


async def nothing_kept(web: Web, store: SqlStore) -> set[str]:
    tokens = shown(web)
    everything = await dump(store)
    assert tokens and not [t for t in tokens if t in everything]
    return tokens


async def test_no_table_holds_a_token_after_any_page_command(web: Web, store: SqlStore):
    assert web.tg is not None
    web.tg.fake.admins[GROUP] = [ALICE["id"]]
    started = await web.tg.reply_to(
        await web.tg.say(ALICE, "/newgame marriage players:@alice bob @carol"))
    await web.tg.fake.wait_until(lambda: shown(web))  # the Scorepad button, with the board
    tokens = await nothing_kept(web, store)
    answers = []
    for who, line in ((BOB, "/scoreboard"), (ALICE, "/scoreboard new"), (BOB, "/scorepad"),
                      (ALICE, "/scorepad new"), (BOB, "/scoreboard")):
        answers.append(await web.tg.reply_to(await web.tg.say(who, line)))
        tokens = await nothing_kept(web, store)
    assert len(tokens) >= 4  # two boards and two pads, the replaced ones among them
    assert started["text"]
    # the database still finds the tables the current links open: it keeps their hashes
    everything = await dump(store)
    board = TOKEN.findall(answers[-1]["text"])[0]
    assert pages.digest_of(board) in everything
    # a tap on a message with the Scorepad button (it comes with the tap) and a reply
    # quoting a link: Telegram's updates carry the bot's message, and the inbox keeps them
    with_button = next(p for p in web.tg.fake.sent("sendMessage", GROUP)
                       if "startapp=" in str(p.get("reply_markup")))
    await web.tg.tap(BOB, web.tg.sent_message(with_button), "nothing-here")
    await web.tg.say(BOB, "thanks", reply_to=web.tg.sent_message(answers[0]))
    for _ in range(500):  # both updates are kept as they arrive
        everything = await dump(store)
        if "nothing-here" in everything and "thanks" in everything:
            break
        await asyncio.sleep(0.02)
    assert "nothing-here" in everything and "thanks" in everything
    await nothing_kept(web, store)


async def test_a_kept_reply_sent_again_shows_the_current_link(web: Web, store: SqlStore):
    service = web.server.service
    chat, host = "telegram:-1007", Actor("telegram:7", "host", is_admin=True)
    await service.handle(Command(chat, host, "newgame", {"": "marriage",
                                                          "players": "alice bob"}))
    first = await service.handle(Command(chat, host, "scoreboard", {"": "new"},
                                         origin_id="telegram:-1007:1"))
    again = await service.handle(Command(chat, host, "scoreboard", {"": "new"},
                                         origin_id="telegram:-1007:1"))
    assert again.duplicate and again.text == first.text  # the same link, from the marks
    replaced = await service.handle(Command(chat, host, "scoreboard", {"": "new"},
                                            origin_id="telegram:-1007:2"))
    late = await service.handle(Command(chat, host, "scoreboard", {"": "new"},
                                        origin_id="telegram:-1007:1"))
    now = TOKEN.findall(replaced.text)
    assert late.duplicate and TOKEN.findall(late.text) == now  # the link that opens it
    assert now[0] not in await dump(store)


async def test_migration_21_takes_the_tokens_out_of_what_was_kept(
        database_url: str, monkeypatch: pytest.MonkeyPatch):
    board, pad = "B" * 43, "P" * 42 + "_"
    before = len([m for m in MIGRATIONS if m[0] < 21])  # as migration 20 left it
    store = await store_at_version(database_url, before, monkeypatch)
    try:
        now = datetime.now(UTC)
        async with store.engine.begin() as conn:
            await conn.execute(insert(origins).values(
                origin_id="telegram:-1:5", chat="telegram:-1", created_at=now,
                reply={"ok": True, "text": f"https://maal.example.org/s/{board}",
                       "language": "en"}))
            await conn.execute(insert(inbox).values(
                bot_id=1, update_id=5, chat="telegram:-1", state="done", attempts=1,
                not_before=now, updated_at=now, payload={"callback_query": {"message": {
                    "reply_markup": {"inline_keyboard": [[{
                        "text": "Scorepad",
                        "url": f"https://t.me/b/pad?startapp={pad}&mode=compact"}]]}}}}))
        await upgrade(store.engine)
        everything = await dump(store)
        assert board not in everything and pad not in everything
        assert "/s/" + pages.MARKS[pages.BOARD] in everything
        assert "startapp=" + pages.MARKS[pages.PAD] in everything
    finally:
        await store.close()


def test_conceal_and_reveal_are_the_marks_of_the_kinds():
    board, pad = "b" * 43, "p" * 43
    said = {"text": f"see https://x/s/{board} and https://t.me/b/a?startapp={pad}&mode=c",
            "rows": [f"http://127.0.0.1:8731/pad#t={pad}"], "n": 3}
    kept = pages.conceal(said)
    assert kept == {"text": "see https://x/s/⟦board⟧ and https://t.me/b/a?startapp=⟦pad⟧&mode=c",
                    "rows": ["http://127.0.0.1:8731/pad#t=⟦pad⟧"], "n": 3}
    assert pages.reveal(kept, {pages.BOARD: board, pages.PAD: pad}) == said
    assert pages.reveal(kept, {pages.BOARD: None}) == kept  # a page turned off: no link
    longer = f"/s/{board}x"  # 44 letters is no token of ours
    assert pages.conceal(longer) == longer
