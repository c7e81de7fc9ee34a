"""The ledger on Discord, through discord.py's real command tree: /paid by the person paid
(a mention or a name), refused to the payer, and /ledger."""

from __future__ import annotations

from tests.discord_adapter.test_adapter import shown
from tests.discord_helpers import ALICE, BOB, DiscordHarness, component, custom_ids, slash

EPHEMERAL = 64
# maal 10, 2, 0 (carol unseen: murdered), P = 12, n = 3: exchange 18, -6, -12; bob pays 3
# (seen), carol 10 (unseen): alice +31, bob -9, carol -22; at 0.25 Rs a point: 7.75, -2.25,
# -5.50
HAND = {"winner": "alice", "seen": "bob", "maal": "alice=10 bob=2 carol=0"}


async def test_paid_and_the_ledger_on_discord(dc: DiscordHarness):
    dc.fake.users[ALICE["id"]] = ALICE
    dc.fake.users[BOB["id"]] = BOB
    await dc.reply_to(slash("newgame", ALICE, players=f"<@{ALICE['id']}> <@{BOB['id']}> "
                            "carol"))
    rules = slash("rules", ALICE)
    rules["data"]["options"] = [{"name": "marriage", "type": 1, "options": [
        {"name": "rate", "type": 3, "value": "0.25"},
        {"name": "currency", "type": 3, "value": "Rs"}]}]
    assert "rate 0.25" in (await dc.reply_to(rules))["data"]["content"]
    await dc.reply_to(slash("hand", ALICE, **HAND))
    end = slash("endgame", ALICE)
    await dc.reply_to(end)
    message = dc.message_of(end)
    await dc.reply_to(component(message, custom_ids(message)["Yes, end it"], ALICE))
    # bob paid alice: his own word is not enough (refusals are ephemeral)
    refused = await dc.reply_to(slash("paid", BOB, payment="bob 2.25",
                                      to=f"<@{ALICE['id']}>"))
    assert refused["data"]["flags"] & EPHEMERAL
    assert "Only the person who was paid" in refused["data"]["content"]
    reply = await dc.reply_to(slash("paid", ALICE, payment=f"<@{BOB['id']}> 2.25",
                                    to="alice"))
    text = shown(reply["data"]["content"])
    # seats taken by mention carry the members' display names
    assert "Payment 1 recorded: Bob paid Alice 2.25 Rs." in text
    assert "Bob -2.25 Rs → 0 Rs; Alice +7.75 Rs → +5.50 Rs."  # a zero reads 0 in text
    ledger = shown((await dc.reply_to(slash("ledger", BOB)))["data"]["content"])
    assert "Alice +5.50 Rs" in ledger and "carol -5.50 Rs" in ledger
    assert "To settle: carol pays Alice 5.50 Rs." in ledger
    undone = await dc.reply_to(slash("undo", ALICE, what="payment"))
    assert "Undid payment 1: Bob paid Alice 2.25 Rs" in shown(undone["data"]["content"])
