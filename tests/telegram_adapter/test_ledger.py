"""The ledger on Telegram, through the real Application: a finished game's money, /paid by
the person paid (never the payer's own word), a redelivered /paid recorded once, /ledger and
a bare /undo with no game open confirmed by a tap."""

from __future__ import annotations

from tests.telegram_helpers import ALICE, CAROL, STRANGER, Harness, person

# @alice and @carol are accounts (by username); dave is a guest typed by name
NEW = "/newgame marriage players:@alice @carol dave"
# maal 10, 2, 0 (dave unseen: murdered), P = 12, n = 3: exchange 18, -6, -12; carol pays 3
# (seen), dave 10 (unseen): alice +31, carol -9, dave -22; at 10 Rs a point: +310, -90, -220
HAND = "/hand winner:alice seen:carol maal:alice=10 carol=2 dave=0"


async def _finished_game(tg: Harness) -> None:
    for line in (NEW, "/rules rate:10 currency:Rs", HAND):
        await tg.say(ALICE, line)
    await tg.said("Hand 1")
    await _end_game(tg)


async def _end_game(tg: Harness) -> None:
    """Alice ends the game of one hand, by its confirmation's button."""
    await tg.say(ALICE, "/endgame")
    ask = await tg.said("End the game after 1 hand")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, end it"])
    await tg.fake.wait_for("editMessageText", 1)


async def _said_times(tg: Harness, text: str, times: int) -> list[dict]:
    def found() -> list[dict] | None:
        sent = [m for m in tg.fake.sent("sendMessage") if text in m.get("text", "")]
        return sent if len(sent) >= times else None
    return await tg.fake.wait_until(found)


async def test_paid_and_the_ledger_on_telegram(tg: Harness):
    await _finished_game(tg)
    await tg.say(CAROL, "/ledger")
    ledger = await tg.said("Ledger: 1 game, 0 payments")
    assert "alice +310 Rs" in ledger["text"] and "dave -220 Rs" in ledger["text"]
    # carol paid: her own word is not enough, nor a stranger's
    await tg.say(CAROL, "/paid carol 90 to:@alice")
    await tg.say(STRANGER, "/paid carol 90 to:alice")
    refusals = await _said_times(tg, "⚠️ Only the person who was paid", 2)
    assert all("record a payment to alice" in m["text"] for m in refusals)
    # alice, the account seated as @alice, records it; Telegram delivers it twice
    update = await tg.say(ALICE, "/paid carol 90 to:@alice")
    recorded = await tg.said("Payment 1 recorded: carol paid alice 90 Rs.")
    assert "carol -90 Rs → 0 Rs; alice +310 Rs → +220 Rs." in recorded["text"]
    await tg.fake.push(update)
    await tg.say(CAROL, "/ledger")
    now = await tg.said("Ledger: 1 game, 1 payment ")
    assert "To settle: dave pays alice 220 Rs." in now["text"]
    # with no game open a bare /undo is about the latest payment, and asks first
    await tg.say(ALICE, "/undo")
    ask = await tg.said("Undo payment 1: carol paid alice 90 Rs?")
    await tg.tap(ALICE, tg.sent_message(ask), tg.buttons(ask)["Yes, undo it"])
    undone = await tg.fake.wait_until(lambda: next(
        (m for m in tg.fake.sent("editMessageText") if "Undid payment 1" in m["text"]), None))
    assert "carol paid alice 90 Rs" in undone["text"]
    await tg.say(CAROL, "/ledger history")
    history = await tg.said("The ledger, oldest first")
    assert "payment 1: carol paid alice 90 Rs (recorded by Alice), undone" in history["text"]



async def test_a_username_given_up_is_not_the_person_paid(tg: Harness):
    """Dave sat down by his account (/join), and the ledger keeps him by it. Once he has
    given up his @username and another account has taken it, that account is not Dave:
    it can't record payments to him (forgiving what he is owed)."""
    dave = person(160, "Dave", "davey")
    await tg.say(ALICE, NEW)
    await tg.say(dave, "/join dave")
    await tg.said("Dave sits at dave.")
    for line in ("/rules rate:10 currency:Rs",
                 "/hand winner:dave seen:carol maal:dave=10 carol=2 alice=0"):
        await tg.say(ALICE, line)
    await tg.said("Hand 1")
    await _end_game(tg)
    impostor = person(170, "Dave", "davey")  # @davey, given up by Dave, taken by another
    await tg.say(impostor, "/paid carol 90 to:dave")
    refused = await tg.said("⚠️ Only the person who was paid")
    assert "record a payment to dave" in refused["text"]
    await tg.say(dave, "/paid carol 90 to:dave")  # Dave himself, by his account
    await tg.said("Payment 1 recorded: carol paid dave 90 Rs.")
