"""A big /import on Discord: the deferred answer ("thinking...") shows how far it has got,
then the reply follows it (issue 29)."""

from __future__ import annotations

import json

import bot.core.handlers.exchange as exchange
import bot.discord_adapter.adapter as adapter_module
import bot.storage.chats.importer as importer
from tests.conftest import Table
from tests.discord_helpers import ALICE, MANAGE_GUILD, DiscordHarness, slash
from tests.fakes.discord_api import CHANNEL_ID
from tests.storage.chats.test_import_batches import grown
from tests.storage.chats.test_validate import exported


async def test_a_big_import_shows_its_progress_and_then_its_reply(dc: DiscordHarness,
                                                                  monkeypatch):
    monkeypatch.setattr(exchange, "IN_ONE_GO", 100)
    monkeypatch.setattr(exchange, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(importer, "BATCH", 3)
    monkeypatch.setattr(adapter_module, "DEFER_AFTER", 0.0)  # deferred at once
    data = grown(await exported(Table(dc.adapter.service, chat="source")), 12)
    body = json.dumps(data).encode()
    dc.fake.attachments["big.json"] = body
    payload = slash("import", ALICE, permissions=MANAGE_GUILD)
    payload["data"]["options"] = [{"name": "file", "type": 11, "value": "556"}]
    payload["data"]["resolved"] = {"attachments": {"556": {
        "id": "556", "filename": "big.json", "size": len(body),
        "url": f"{dc.fake.base}/attachments/big.json",
        "proxy_url": f"{dc.fake.base}/attachments/big.json"}}}
    await dc.reply_to(payload)  # the deferral
    await dc.fake.wait(lambda: any("Imported 1 session" in (e.get("content") or "")
                                   for e in dc.fake.followups() + dc.fake.edits()))
    shown = [e.get("content") or "" for e in dc.fake.edits()]
    assert "Importing: 12 of 12 hands written…" in shown, shown
    board = await Table(dc.adapter.service, chat=f"discord:{CHANNEL_ID}").board()
    assert board["hand_count"] == 12
