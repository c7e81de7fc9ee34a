"""A big /import on Telegram: the file as a document captioned /import, a line of progress
in the chat (one message, edited as the import goes), then the reply (issue 29)."""

from __future__ import annotations

import json
import time

import bot.core.handlers.exchange as exchange
import bot.storage.chats.importer as importer
from tests.conftest import Table
from tests.storage.chats.test_import_batches import grown
from tests.storage.chats.test_validate import exported
from tests.telegram_helpers import ALICE, GROUP, Harness


async def test_a_big_import_shows_its_progress_and_then_its_reply(tg: Harness, monkeypatch):
    monkeypatch.setattr(exchange, "IN_ONE_GO", 100)
    monkeypatch.setattr(exchange, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(importer, "BATCH", 3)
    data = grown(await exported(Table(tg.service, chat="source")), 12)
    body = json.dumps(data).encode()
    tg.fake.admins[GROUP] = [ALICE["id"]]  # /import is an admin's
    tg.fake.files["doc-1"] = body
    await tg.fake.push({"update_id": tg.fake.next_update_id(), "message": {
        "message_id": tg.fake.next_message_id(), "date": int(time.time()),
        "chat": {"id": GROUP, "type": "supergroup", "title": "Game night"}, "from": ALICE,
        "caption": "/import", "caption_entities": [{"type": "bot_command", "offset": 0,
                                                    "length": 7}],
        "document": {"file_id": "doc-1", "file_unique_id": "u-doc-1",
                     "file_name": "maalbot-1-sessions.json", "file_size": len(body)}}})
    done = await tg.said("Imported 1 session")
    assert done["text"].startswith("Imported 1 session")
    progress = await tg.said("Importing: ")  # the first line: a message of its own
    edits = [e["text"] for e in tg.fake.sent("editMessageText", GROUP)
             if int(e.get("message_id", 0)) == tg.sent_message(progress)["message_id"]]
    assert "Importing: 12 of 12 hands written…" in [progress["text"], *edits], edits
    board = await Table(tg.service, chat=f"telegram:{GROUP}").board()
    assert board["hand_count"] == 12
