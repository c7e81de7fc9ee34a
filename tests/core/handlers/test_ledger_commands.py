"""The chat's ledger through the core, on both databases: money of finished games carried
over per currency, /paid, /undo of a payment, who may, exactly once, export and import, and a
database from before the ledger.

Marriage settlement (../shared/rules/marriage.md): with n players and P the sum of maal,
player i gets n*s_i - P from the maal exchange; a seen loser pays the winner 3, an unseen one
10 (and their maal is murdered: counted as 0)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from bot.core.command import Actor, Command
from bot.core.ledger import settle
from bot.core.players import Player
from bot.core.service import Service
from bot.core.session import ENDED, HandRecord, SessionState
from bot.storage.transaction import migrations
from tests.conftest import Table, store_at_version
from tests.storage.old_rows import add_old_hand

NEW = "/newgame players:alice bob carol"
# maal 10, 2, 0 (carol unseen: murdered), P = 12, n = 3: exchange 18, -6, -12;
# bob pays 3 (seen), carol 10 (unseen): alice +31, bob -9, carol -22
HAND_A = "/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0"
# all seen, maal 3, 1, 8, P = 12: exchange -3, -9, +12; alice and carol each pay bob 3:
# alice -6, bob -9 + 6 = -3, carol +9
HAND_B = "/hand winner:bob seen:alice carol maal:alice=3 bob=1 carol=8"


async def _game(table: Table, rules: str, *hands: str) -> None:
    await table.ok(NEW)
    await table.ok(rules)
    for hand in hands:
        await table.ok(hand)
    await table.ok("/endgame")


async def _three_nights(table: Table) -> None:
    # night 1 at 10 Rs a point: alice +310, bob -90, carol -220
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    # night 2 at 10 Rs: alice -60, bob -30, carol +90
    await _game(table, "/rules rate:10 currency:Rs", HAND_B)
    # night 3 at 0.5 $: alice -3, bob -1.5, carol +4.5
    await _game(table, "/rules rate:0.5 currency:$", HAND_B)


async def test_the_ledger_carries_every_finished_game_per_currency(table: Table):
    assert "The ledger is empty" in (await table.ok("/ledger")).text
    await _three_nights(table)
    # not in the ledger: a game still open
    await table.ok(NEW)
    await table.ok("/rules rate:10 currency:Rs")
    await table.ok(HAND_A)
    text = (await table.ok("/ledger")).text
    lines = text.splitlines()
    assert lines[0].startswith("Ledger: 3 games, 0 payments")
    # Rs: alice 310 - 60 = +250, bob -90 - 30 = -120, carol -220 + 90 = -130;
    # the fewest transfers: the two who owe each pay alice, the larger debt first
    rs = lines[lines.index("Rs:"):]
    assert rs[1:4] == ["  alice +250 Rs", "  bob -120 Rs", "  carol -130 Rs"]
    assert rs[4] == "  To settle: carol pays alice 130 Rs; bob pays alice 120 Rs."
    # $ apart, never added to Rs: carol +4.50, bob -1.50, alice -3.00
    dollars = lines[lines.index("$:"):lines.index("Rs:")]
    assert dollars[1:4] == ["  carol +4.50 $", "  bob -1.50 $", "  alice -3.00 $"]
    assert dollars[4] == "  To settle: alice pays carol 3.00 $; bob pays carol 1.50 $."


async def test_a_payment_moves_the_balances_and_can_be_undone(table: Table):
    await _three_nights(table)
    # alice was paid: she may record it (in the console people are who they type)
    reply = await table.ok("/paid bob 120 to:alice currency:Rs", by="alice")
    assert reply.text.splitlines()[:2] == [
        "Payment 1 recorded: bob paid alice 120 Rs.",
        "bob -120 Rs → 0 Rs; alice +250 Rs → +130 Rs."]
    text = (await table.ok("/ledger")).text
    assert "  To settle: carol pays alice 130 Rs." in text and "bob -120" not in text
    # bob and alice share Rs and $: a payment between them must name the currency
    assert "Which currency?" in await table.error("/paid bob 1.50 to:alice", by="alice")
    # more than is owed: carol owes alice 130, pays 200: both balances flip (an admin's)
    reply = await table.ok("/paid carol 200 to:alice currency:Rs", by="host")
    assert "That is more than carol owed (130 Rs): the balance flips, carol is owed 70 Rs " \
           "now." in reply.text
    assert "alice was owed 130 Rs: the balance flips, alice owes 70 Rs now." in reply.text
    # undone by the person who recorded it, named; the balances are back
    reply = await table.ok("/undo payment", by="host")
    assert reply.text.startswith("Undid payment 2: carol paid alice 200 Rs (recorded by "
                                 "host)")
    assert "carol pays alice 130 Rs" in (await table.ok("/ledger")).text
    # with no buttons to ask, a bare /undo with no game open takes no money back: say so
    assert "say so: /undo payment" in await table.error("/undo", by="alice")
    reply = await table.ok("/undo payment", by="alice")
    assert reply.text.startswith("Undid payment 1: bob paid alice 120 Rs")
    assert "carol pays alice 130 Rs; bob pays alice 120 Rs" in (await table.ok("/ledger")).text
    assert "no payment to undo" in await table.error("/undo payment")
    history = (await table.ok("/ledger history")).text.splitlines()
    assert history[0] == "The ledger, oldest first:"
    assert " · game 1 (Nepali Marriage) ended: alice +310 Rs, bob -90 Rs, carol -220 Rs" \
        in history[1]
    assert history[3].endswith("game 3 (Nepali Marriage) ended: carol +4.50 $, "
                               "bob -1.50 $, alice -3.00 $")
    assert history[4].endswith("payment 1: bob paid alice 120 Rs (recorded by alice), "
                               "undone " + history[4].rsplit("undone ", 1)[1])
    assert "payment 2: carol paid alice 200 Rs (recorded by host)" in history[5] \
        and "undone" in history[5]


async def test_with_a_game_open_a_bare_undo_is_the_games(table: Table):
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    await table.ok("/paid bob 90 to:alice")
    await table.ok(NEW)
    await table.ok(HAND_B)
    assert (await table.ok("/undo")).text.startswith("Undid hand 1")
    assert (await table.ok("/undo payment")).text.startswith("Undid payment 1")


async def test_bad_payments_say_why_and_change_nothing(table: Table):
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    before = (await table.ok("/ledger")).text
    assert "not an amount" in await table.error("/paid bob five to:alice")
    assert "not an amount" in await table.error("/paid bob -5 to:alice")
    assert "more than 0" in await table.error("/paid bob 0 to:alice")
    # Rs here are whole (10 a point): cents are fine, a tenth of a paisa is not
    assert "at most 2 decimals" in await table.error("/paid bob 1.125 to:alice")
    # counted exactly: past 28 digits an amount is not rounded into a whole one first
    assert "has 29" in await table.error("/paid bob 1." + "0" * 28 + "1 to:alice")
    assert "Did you mean bob?" in await table.error("/paid bobb 5 to:alice")
    assert "Did you mean alice?" in await table.error("/paid bob 5 to:alise")
    assert "can't pay themselves" in await table.error("/paid bob 5 to:bob")
    assert "needs to:" in await table.error("/paid bob 5")
    assert "Say who paid and how much" in await table.error("/paid bob to:alice")
    assert "not `€`" in await table.error("/paid bob 5 to:alice currency:€")
    assert (await table.ok("/ledger")).text == before
    # cents are taken: 12.50
    assert "bob paid alice 12.50 Rs" in (await table.ok("/paid bob 12.50 to:alice")).text


async def test_a_payment_named_in_a_currency_before_any_money_says_there_is_none(
        table: Table):
    """Once said "This chat has played for , not `Rs`." (an empty list: found by the
    round-trip property test)."""
    await _game(table, "/rules seen:3", HAND_A)  # played for points, not money
    assert await table.error("/paid bob 5 Rs to:alice") == (
        "No game here has been played for money yet (/rules rate:0.25 currency:Rs), so "
        "there is nothing to pay.")


async def test_who_may_record_and_undo_a_payment(table: Table):
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    # the payer's own word is not enough; nor is a bystander's
    assert "Only the person who was paid" in await table.error("/paid bob 90 to:alice",
                                                              by="bob")
    assert "Only the person who was paid" in await table.error("/paid bob 90 to:alice",
                                                              by="carol")
    await table.ok("/paid bob 90 to:alice", by="alice")
    # undo: whoever recorded it (alice) or an admin (host); not the payer
    assert "Only the person who recorded it" in await table.error("/undo payment:1", by="bob")
    await table.ok("/undo payment", by="host")


async def test_a_redelivered_payment_is_recorded_once(table: Table):
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    first = await table.ok("/paid bob 90 to:alice", origin="tg:update:77")
    again = await table.ok("/paid bob 90 to:alice", origin="tg:update:77")
    assert again.duplicate and again.text == first.text
    assert "0 payments" not in (ledger := (await table.ok("/ledger")).text)
    assert ledger.startswith("Ledger: 1 game, 1 payment ")


async def test_a_linked_guest_is_one_person_in_the_ledger(service: Service):
    table = Table(service)
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    # "alice" was typed by name; robert links it to his account: what she is owed is
    # robert's now, and robert may record a payment made to him
    await service.handle(Command(table.chat, Actor("test:host", "host", is_admin=True),
                                 "link", {"name": "alice", "": "<@7>"}, "link-1",
                                 mentions={"<@7>": Actor("tg:7", "robert")}))
    assert "  robert +310 Rs" in (await table.ok("/ledger")).text
    reply = await service.handle(Command(table.chat, Actor("tg:7", "robert"), "paid",
                                         {"": "carol 10", "to": "alice"}, "paid-1"))
    assert reply.ok and "carol paid robert 10 Rs" in reply.text, reply.text


async def test_export_and_import_carry_the_payments(table: Table, service: Service):
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    await table.ok("/paid bob 90 to:alice")
    await table.ok("/paid carol 20 to:alice")
    await table.ok("/undo payment")
    reply = await table.ok("/export all")
    assert reply.file is not None
    data = json.loads(reply.file.data)
    assert data["version"] == 5 and len(data["payments"]) == 2
    # the balances for people to read: alice 310 - 90 = 220, carol -220, bob 0 (left out)
    assert data["balances"] == {"Rs": {"name:alice": {"name": "alice", "balance": 220},
                                       "name:carol": {"name": "carol", "balance": -220}}}
    other = Table(service, chat="chat-2")
    command = Command("chat-2", Actor("test:host", "host", is_admin=True), "import", {},
                      "import-1", attachment=reply.file.data)
    assert (await service.handle(command)).ok
    assert (await other.ok("/ledger")).text == (await table.ok("/ledger")).text
    assert (await other.ok("/ledger history")).text.count("undone") == 1
    # an older file (version 2, no ledger) still reads
    data.pop("payments"), data.pop("balances")
    data["version"] = 2
    command = Command("chat-3", Actor("test:host", "host", is_admin=True), "import", {},
                      "import-2", attachment=json.dumps(data).encode())
    assert (await service.handle(command)).ok
    older = (await Table(service, "chat-3").ok("/ledger")).text
    assert older.startswith("Ledger: 1 game, 0 payments") and "bob pays alice 90 Rs" in older
    # a bad payment is refused whole
    data["version"] = 3
    data["payments"] = [{"payer": "name:bob", "payer_name": "bob", "payee": "name:alice",
                         "payee_name": "alice", "amount": "-5", "currency": "Rs",
                         "recorded_by": "x", "recorded_by_name": "x",
                         "created_at": "2025-01-01T00:00:00+00:00"}]
    command = Command("chat-4", Actor("test:host", "host", is_admin=True), "import", {},
                      "import-3", attachment=json.dumps(data).encode())
    refused = await service.handle(command)
    assert not refused.ok and "more than 0" in refused.text


async def test_games_ended_before_the_ledger_count(database_url: str,
                                                   monkeypatch: pytest.MonkeyPatch):
    """A database at migration 7 with a finished game (and one from before money was kept
    per session, migration 4): after migration 8 both are in the ledger."""
    store = await store_at_version(database_url, 7, monkeypatch)
    engine = store.engine
    players = [Player(1, "alice"), Player(2, "bob"), Player(3, "carol")]
    rules = {"rate": "10", "currency": "Rs"}
    async with store.transaction("old") as tx:
        for money in ({"Rs": {"1": "310", "2": "-90", "3": "-220"}}, None):
            state = await tx.save_session(SessionState(
                chat="old", game="marriage", players=players, rules=rules,
                created_by="test:host", totals={1: 31, 2: -9, 3: -22}, hand_count=1,
                status=ENDED, money=money))
            assert state.id is not None
            await add_old_hand(tx.conn, state.id, HandRecord(  # as the bot wrote it then
                no=1, players=[1, 2, 3], inputs={}, rules=rules,
                deltas={1: 31, 2: -9, 3: -22}, summary="alice won",
                recorded_by="test:host", recorded_by_name="host"))
    assert (await migrations.upgrade(engine))[0] == 8  # the ledger, and what came after
    try:
        table = Table(Service(store), chat="old")
        text = (await table.ok("/ledger")).text
        # two games of alice +310, bob -90, carol -220
        assert "  alice +620 Rs" in text and "  carol -440 Rs" in text
        await table.ok("/paid bob 180 to:alice")
        assert "carol pays alice 440 Rs." in (await table.ok("/ledger")).text
    finally:
        await store.close()


def test_many_people_are_settled_with_no_transfer_too_many():
    # 14 people with a balance: past the exact search; 7 owe 10 each, 7 are owed 10 each:
    # 7 transfers, each clearing one debtor and one creditor
    balances = {f"p{i}": Decimal(-10 if i < 7 else 10) for i in range(14)}
    moves = settle(balances)
    assert len(moves) == 7 and all(amount == 10 for _, _, amount in moves)
    # 3 people exactly: -5, -2.5, +7.5 -> two transfers into the one owed
    assert sorted(settle({"a": Decimal(-5), "b": Decimal("-2.5"), "c": Decimal("7.5")})) == [
        ("a", "c", Decimal(5)), ("b", "c", Decimal("2.5"))]


async def test_currencies_that_differ_only_in_case_are_told_apart(table: Table):
    # Rs and rs are two currencies here (each game's own): an exact name picks its own,
    # never the other by chance; a name matching both by case alone is asked about
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    await _game(table, "/rules rate:10 currency:rs", HAND_A)
    for _ in range(3):
        assert "bob paid alice 10 Rs" in (await table.ok(
            "/paid bob 10 to:alice currency:Rs")).text
        assert "bob paid alice 10 rs" in (await table.ok(
            "/paid bob 10 to:alice currency:rs")).text
    error = await table.error("/paid bob 10 to:alice currency:RS")
    assert "`RS` could be rs, Rs" in error or "`RS` could be Rs, rs" in error, error
    # one currency, named in another case: that one
    await _game(table, "/rules rate:10 currency:Kr", HAND_A)
    assert "bob paid alice 10 Kr" in (await table.ok("/paid bob 10 to:alice currency:KR")).text


async def test_the_person_paid_gives_up_only_her_own_claim(table: Table):
    # alice +310, bob -90, carol -220; mallory played a game not for money (a game of no
    # hands is not kept), so she is a person here, owed nothing in Rs
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    await table.ok("/newgame players:mallory bob carol", by="mallory")
    await table.ok("/hand winner:mallory seen:bob maal:mallory=3 bob=1 carol=0", by="mallory")
    await table.ok("/endgame", by="mallory")
    before = (await table.ok("/ledger")).text
    # a payment "to herself" would wipe carol's debt and move it onto mallory
    assert await table.error("/paid carol 90 to:mallory", by="mallory") == (
        "Only a chat admin can record 90 Rs from carol to mallory: carol owes 220 Rs and "
        "mallory is owed nothing in Rs. The person paid records at most the smaller, so no "
        "balance flips and no debt moves onto anyone else.")
    # more than the payer owes flips the payer: refused with both figures
    error = await table.error("/paid carol 230 to:alice", by="alice")
    assert "carol owes 220 Rs and alice is owed 310 Rs" in error
    assert error.endswith("You can record up to 220 Rs.")
    assert (await table.ok("/ledger")).text == before
    await table.ok("/paid carol 220 to:alice", by="alice")
    # now alice is owed 90 and bob owes 90: 100 would flip both; up to 90 is hers to take
    assert "bob owes 90 Rs and alice is owed 90 Rs" in await table.error(
        "/paid bob 100 to:alice", by="alice")
    # an admin may record any payment, and is told when a balance flips
    reply = await table.ok("/paid bob 100 to:alice", by="host")
    assert "the balance flips, bob is owed 10 Rs now" in reply.text


async def test_undo_payment_is_your_latest_or_the_one_numbered(table: Table):
    # alice +310, bob -90, carol -220
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    await table.ok("/paid bob 50 to:alice", by="alice")  # payment 1, alice's
    await table.ok("/paid carol 100 to:alice", by="host")  # payment 2, the admin's
    # a later payment someone else recorded does not block alice from taking back her own
    reply = await table.ok("/undo payment", by="alice")
    assert reply.text.startswith("Undid payment 1: bob paid alice 50 Rs (recorded by alice)")
    assert "You have recorded no payment that is still in the ledger" in await table.error(
        "/undo payment", by="alice")
    assert "You have recorded no payment" in await table.error("/undo payment", by="bob")
    # by number, as /ledger history numbers them: its recorder or an admin
    assert "Only the person who recorded it or a chat admin can undo payment 2 (recorded " \
           "by host)" in await table.error("/undo payment:2", by="alice")
    assert "is undone already" in await table.error("/undo payment:1", by="alice")
    assert "There is no payment 3: /ledger history numbers 2 payments." in \
        await table.error("/undo payment:3")
    await table.ok("/paid bob 10 to:alice", by="alice")  # payment 3
    await table.ok("/paid bob 20 to:alice", by="alice")  # payment 4
    # an admin's bare /undo payment: the latest of all; payment:N any
    assert (await table.ok("/undo payment")).text.startswith("Undid payment 4")
    assert (await table.ok("/undo payment:2")).text.startswith("Undid payment 2")
    text = (await table.ok("/ledger")).text
    assert "bob -80 Rs" in text and "carol -220 Rs" in text


class _Chat:
    """Commands as people on a chat platform send them: by account, a @username perhaps."""

    def __init__(self, service: Service, chat: str = "chat-p") -> None:
        self.service, self.chat, self.sent = service, chat, 0

    async def __call__(self, who: Actor, line: str, ok: bool = True,
                       mentions: dict[str, Actor] | None = None) -> str:
        from bot.core.grammar import parse_command_text

        self.sent += 1
        parsed = parse_command_text(line)
        reply = await self.service.handle(Command(
            self.chat, who, parsed.name, parsed.options, f"{self.chat}:{self.sent}",
            mentions=mentions or {}))
        assert reply.ok == ok, reply.text
        return reply.text


ALICE = Actor("tg:101", "Alice", handles=("alice",))
CAROL = Actor("tg:103", "Carol", handles=("carol",))
ADMIN = Actor("tg:900", "Ada", is_admin=True)


async def test_a_seat_named_by_username_is_that_account_in_the_ledger_and_stats(
        service: Service):
    say = _Chat(service)
    # night 1: alice seated as @alice (by username: no account known yet); she wins:
    # alice +310, carol -90, dave -220
    await say(ALICE, "/newgame marriage players:@alice @carol dave")
    await say(ALICE, "/rules rate:10 currency:Rs")
    await say(ALICE, "/hand winner:alice seen:carol maal:alice=10 carol=2 dave=0")
    await say(ALICE, "/endgame")
    # dave pays her 20 before her account has sat down here: recorded by an admin
    assert "dave paid alice 20 Rs" in await say(ADMIN, "/paid dave 20 to:alice")
    # night 2: she sits down by her account. Maal Alice 1, carol 10, dave 0, P = 11:
    # exchange -8, +19, -11; Alice pays 3 (seen), dave 10: Alice -11, carol +32, dave -21
    await say(CAROL, "/newgame marriage players:@carol dave")
    await say(ALICE, "/join")
    await say(CAROL, "/rules rate:10 currency:Rs")
    await say(CAROL, "/hand winner:carol seen:Alice maal:Alice=1 carol=10 dave=0")
    await say(CAROL, "/endgame")
    # one person, the payment before too: 310 - 20 - 110 = +180
    ledger = await say(CAROL, "/ledger")
    assert "  Alice +180 Rs" in ledger and "alice +" not in ledger, ledger
    reply = await say(ALICE, "/paid dave 100 to:@alice")
    assert "dave paid Alice 100 Rs" in reply
    assert "dave paid Alice 50 Rs" in await say(ALICE, "/paid dave 50 to:alice")
    # night 3: her name typed plainly, as before; still her (as it was the same name
    # before her account sat down). She wins: carol and dave pay her 3 each: 30 + 60
    await say(CAROL, "/newgame marriage players:alice carol dave")
    await say(CAROL, "/rules rate:10 currency:Rs")
    await say(CAROL, "/hand winner:alice seen:carol dave maal:alice=0 carol=0 dave=0")
    await say(CAROL, "/endgame")
    ledger = await say(CAROL, "/ledger")
    assert "  alice +90 Rs" in ledger and ledger.lower().count("alice") == 2, ledger
    # and one person in /stats: three nights, three hands
    stats = await say(CAROL, "/stats Alice")
    assert "3 games" in stats and "3 hands" in stats, stats


async def test_an_at_username_is_the_username_before_any_display_name(service: Service):
    say = _Chat(service)
    await say(ALICE, "/newgame marriage players:@alice @carol dave")
    await say(ALICE, "/rules rate:10 currency:Rs")
    await say(ALICE, "/hand winner:alice seen:carol maal:alice=10 carol=2 dave=0")
    await say(ALICE, "/endgame")
    # someone named "Alice" with no username plays a game, not for money (a game of no
    # hands is not kept: one hand)
    copycat = Actor("tg:300", "Alice")
    await say(copycat, "/newgame marriage")
    await say(Actor("tg:301", "Bob"), "/join")
    await say(copycat, "/hand winner:Alice seen:Bob maal:Alice=3 Bob=1")
    await say(copycat, "/endgame")
    # @alice is the username: the real alice, who may record a payment made to her
    assert "carol paid alice 90 Rs" in await say(ALICE, "/paid carol 90 to:@alice")
    # a bare name that two people went by is still asked about
    assert "could be Alice, alice" in await say(ADMIN, "/paid carol 10 to:alice", ok=False)


async def test_a_payment_follows_a_guest_when_its_link_changes(service: Service):
    table = Table(service)
    # alice +310, bob -90, carol -220; carol is a guest name
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    say = _Chat(service, table.chat)
    erin, frank = Actor("tg:8", "erin"), Actor("tg:9", "frank")
    await say(ADMIN, "/link name:carol <@8>", mentions={"<@8>": erin})
    assert "erin paid alice 200 Rs" in await say(ADMIN, "/paid carol 200 to:alice")
    await say(ADMIN, "/link name:carol <@9>", mentions={"<@9>": frank})
    # the game and the payment are frank's now; erin has nothing left in the ledger
    ledger = (await table.ok("/ledger")).text
    assert "  frank -20 Rs" in ledger and "erin" not in ledger, ledger
    assert "payment 1: frank paid alice 200 Rs" in (await table.ok("/ledger history")).text
    # a payment named by the account stays with the account
    assert "frank paid alice 10 Rs" in await say(ADMIN, "/paid <@9> 10 to:alice",
                                                 mentions={"<@9>": frank})


async def test_exported_balances_keep_two_people_of_one_name_apart(service: Service):
    say = _Chat(service)
    sam1, sam2 = Actor("tg:1", "Sam"), Actor("tg:2", "Sam")
    for sam, winner in ((sam1, "Sam"), (sam2, "bob")):
        await say(ADMIN, "/newgame marriage players:<@1> bob carol".replace(
            "<@1>", f"<@{sam.id[3:]}>"), mentions={f"<@{sam.id[3:]}>": sam})
        await say(ADMIN, "/rules rate:10 currency:Rs")
        await say(ADMIN, f"/hand winner:{winner} seen:Sam bob carol maal:Sam=3 bob=3 "
                         "carol=3")
        await say(ADMIN, "/endgame")
    ledger = await say(ADMIN, "/export all")
    assert ledger.startswith("Export of 2 sessions")
    reply = await service.handle(Command(say.chat, ADMIN, "export", {"": "all"}, "x-1"))
    balances = json.loads(reply.file.data)["balances"]["Rs"]
    assert balances["tg:1"]["name"] == balances["tg:2"]["name"] == "Sam"
    assert balances["tg:1"]["balance"] > 0 > balances["tg:2"]["balance"]
    assert sum(b["balance"] for b in balances.values()) == 0


async def test_paid_takes_thousands_and_a_currency_after_the_amount(table: Table):
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    await _game(table, "/rules rate:10 currency:$", HAND_A)
    # alice is owed 310 Rs and 310 $; carol owes 220 of each
    assert "carol paid alice 100.50 Rs" in (await table.ok("/paid carol 100.50 Rs to:alice",
                                                          by="alice")).text
    assert "carol paid alice 1,000.50 $" in (await table.ok("/paid carol 1,000.50 $ to:alice",
                                                           by="host")).text
    assert "Name the currency once" in await table.error(
        "/paid carol 5 Rs to:alice currency:$")
    assert "not `€`" in await table.error("/paid carol 5 € to:alice")
    assert "Say who paid and how much" in await table.error("/paid carol 5 Rs extra to:alice")


async def test_riichi_played_for_money_enters_the_ledger_as_endgame_settled_it(table: Table):
    # not for money: nothing to owe, so not in the ledger
    await table.ok("/newgame riichi players:alice bob carol dave")
    await table.ok("/tsumo winner:bob han:4 fu:30")
    await table.ok("/endgame sure")  # before the hanchan's end
    assert "The ledger is empty" in (await table.ok("/ledger")).text
    await table.ok("/newgame riichi players:alice bob carol dave")
    await table.ok("/rules rate:100 currency:Rs")
    # bob tsumo 4 han 30 fu, alice dealing: alice -3,900, carol and dave -2,000, bob
    # +7,900 (scores 21,100, 32,900, 23,000, 23,000); default rules: final = (score -
    # 30,000) / 1,000 + uma 15 5 -5 -15, oka 20 to the first: bob 2.9 + 15 + 20 = 37.9,
    # carol -7 + 5 = -2, dave -7 - 5 = -12, alice -8.9 - 15 = -23.9; at 100 Rs a point
    await table.ok("/tsumo winner:bob han:4 fu:30")
    end = (await table.ok("/endgame sure")).text
    assert ("Money at 100 Rs a point: alice -2,390 Rs, bob +3,790 Rs, carol -200 Rs, "
            "dave -1,200 Rs") in end
    lines = (await table.ok("/ledger")).text.splitlines()
    assert lines[0].startswith("Ledger: 1 game, 0 payments")
    assert lines[1:6] == ["Rs:", "  bob +3,790 Rs", "  carol -200 Rs", "  dave -1,200 Rs",
                          "  alice -2,390 Rs"]
    # the same fewest transfers as /endgame: each who owes pays bob
    for move in ("alice pays bob 2,390 Rs", "dave pays bob 1,200 Rs", "carol pays bob 200 Rs"):
        assert move in lines[6] and move in end
    history = (await table.ok("/ledger history")).text
    assert "game 2 (Riichi mahjong) ended: bob +3,790 Rs, carol -200 Rs, dave -1,200 Rs, " \
           "alice -2,390 Rs" in history
    # and it is paid like any other game
    assert "bob +3,790 Rs → +3,590 Rs" in (await table.ok("/paid carol 200 to:bob")).text


async def test_a_relink_says_whose_money_it_moves_and_an_unknown_guest_is_refused(
        service: Service):
    table = Table(service)
    # alice +310, bob -90, carol -220 (HAND_A at 10 Rs); all three typed by name
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    say = _Chat(service, table.chat)
    bobby = Actor("tg:5", "bobby")
    assert "bob is bobby in /stats and the ledger from now on" in await say(
        ADMIN, "/link name:bob <@5>", mentions={"<@5>": bobby})
    assert "  bobby -90 Rs" in (await table.ok("/ledger")).text
    # the admin links bob to herself: bobby's -90 becomes hers, so the reply says so
    reply = await say(ADMIN, "/link name:bob")
    assert reply.startswith("bob was bobby in /stats and the ledger; now Ada"), reply
    ledger = (await table.ok("/ledger")).text
    assert "  Ada -90 Rs" in ledger and "bobby" not in ledger
    # the same link again changes nothing and says so
    assert "already" in await say(ADMIN, "/link name:bob")
    # nobody called zed ever played here: refused, naming the guests who did
    assert "No guest called zed has played here; guests: alice, bob, carol." in await say(
        ADMIN, "/link name:zed <@5>", ok=False, mentions={"<@5>": bobby})


async def test_paid_reads_the_currency_as_people_write_it_and_says_what_a_payment_does(
        table: Table):
    # alice +310, bob -90, carol -220 (HAND_A at 10 Rs)
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    # the currency before the amount, and run on after it: carol -220 + 20 = -200, + 20
    assert "carol -220 Rs → -200 Rs; alice +310 Rs → +290 Rs." in (
        await table.ok("/paid carol Rs 20 to:alice", by="alice")).text
    assert "carol -200 Rs → -180 Rs" in (await table.ok("/paid carol 20Rs to:alice",
                                                        by="alice")).text
    # alice, owed 310 - 20 - 20 = 270, pays bob 5 (an admin records it): nothing flips,
    # she is owed 275 now, and bob, who owed 90, owes 95
    text = (await table.ok("/paid alice 5 to:bob", by="host")).text
    assert "flips" not in text
    assert "alice owed nothing: they were owed 270 Rs already and are owed 275 Rs now. " \
           "A payment the wrong way round? /undo payment, then /paid bob 5 to:alice." in text
    assert "bob was owed nothing: they owed 90 Rs already and owe 95 Rs now." in text
    # errors in the words people type, not the options' inner names
    error = await table.error("/ledger history 5")
    assert "/ledger history" in error and "`show`" not in error and "not `history 5`" in error
    error = await table.error("/undo payments")
    assert "`what`" not in error and "Did you mean /undo payment?" in error
    # "payment 3" as people say it: payment 3 of /ledger history (alice's 5 to bob)
    assert (await table.ok("/undo payment 3", by="host")).text.startswith(
        "Undid payment 3: alice paid bob 5 Rs")


async def test_one_currency_keeps_its_decimals_in_every_listing_and_a_zero_reads_0(
        table: Table):
    # HAND_B at 0.5 USD: alice -6 x 0.5 = -3, bob -3 x 0.5 = -1.5, carol +9 x 0.5 = +4.5;
    # then HAND_A at 10 Rs: alice +310, bob -90, carol -220 (whole)
    await _game(table, "/rules rate:0.5 currency:USD", HAND_B)
    await _game(table, "/rules rate:10 currency:Rs", HAND_A)
    # bob pays carol his 1.50: bob 0 (a zero reads 0), carol +3.00, alice still -3.00
    text = (await table.ok("/paid bob 1.50 to:carol currency:USD", by="carol")).text
    assert text.splitlines()[:2] == ["Payment 1 recorded: bob paid carol 1.50 USD.",
                                     "bob -1.50 USD → 0 USD; carol +4.50 USD → +3.00 USD."]
    # only whole balances are left in USD, still shown in cents as USD always was here
    lines = (await table.ok("/ledger")).text.splitlines()
    usd = lines[lines.index("USD:"):]
    assert usd[1:4] == ["  carol +3.00 USD", "  alice -3.00 USD",
                        "  To settle: alice pays carol 3.00 USD."]
    # Rs was only ever whole: no decimals there; bob pays 90 Rs to alice: 0 Rs, not 0.00
    assert "bob -90 Rs → 0 Rs; alice +310 Rs → +220 Rs." in (
        await table.ok("/paid bob 90 to:alice currency:Rs", by="alice")).text
    # a whole payment in USD reads in cents too, in /paid and in the history
    text = (await table.ok("/paid alice 1 USD to:carol", by="carol")).text
    assert "alice paid carol 1.00 USD" in text and "alice -3.00 USD → -2.00 USD" in text
    assert "payment 3: alice paid carol 1.00 USD" in (await table.ok("/ledger history")).text


async def _language(table: Table, language: str) -> None:
    """The chat's language set directly (/settings folds pt-BR to pt-br, refused: a matter
    of the settings command, not of the ledger)."""
    from dataclasses import replace

    async with table.service.store.transaction(table.chat, write=True) as tx:
        await tx.save_settings(replace(await tx.settings(), language=language))


async def test_the_ledger_writes_money_as_the_chats_language_does(table: Table):
    # 31 x 50.5 = 1,565.50 Rs for alice; bob -9 x 50.5 = -454.50; carol -22 x 50.5 = -1,111
    await _game(table, "/rules rate:50.5 currency:Rs", HAND_A)
    await _language(table, "pt-BR")
    shown = (await table.ok("/ledger")).text
    assert "alice +1.565,50 Rs" in shown and "carol -1.111,00 Rs" in shown, shown
    # amounts are typed as the commands take them, whatever the language
    paid = (await table.ok("/paid carol 1,111 to:alice")).text
    assert "1.111,00 Rs" in paid, paid
    await _language(table, "hi")
    shown = (await table.ok("/ledger")).text
    assert "alice +454.50 Rs" in shown and "bob -454.50 Rs" in shown, shown
    await _game(table, "/rules rate:10000 currency:Rs", HAND_A)  # alice +310,000 more
    shown = (await table.ok("/ledger")).text
    assert "alice +3,10,454.50 Rs" in shown, shown  # grouped the Indian way


async def test_call_break_for_money_enters_it_against_the_tables_average(table: Table):
    await table.ok("/newgame callbreak players:alice bob carol dave")
    await table.ok("/rules rate:10 currency:Rs")
    # 2 of 3: 2.1, 2 of 2: 2.0, 3 of 4: 3.1, 4 of 4: 4.0; average 11.2 / 4 = 2.8; at 10 Rs:
    # alice -0.7 x 10 = -7, bob -8, carol +3, dave +12 (sum 0)
    await table.ok("/round bids:2 2 3 4 tricks:3 2 4 4")
    await table.ok("/endgame")
    lines = (await table.ok("/ledger")).text.splitlines()
    assert lines[0].startswith("Ledger: 1 game, 0 payments")
    assert lines[1:6] == ["Rs:", "  dave +12 Rs", "  carol +3 Rs", "  alice -7 Rs",
                          "  bob -8 Rs"]
    # the fewest transfers: bob 8 and alice 7 are 15 = dave's 12 + carol's 3; three in all
    said = lines[6].removeprefix("  To settle: ").rstrip(".").split("; ")
    assert sorted(said) == ["alice pays carol 3 Rs", "alice pays dave 4 Rs",
                            "bob pays dave 8 Rs"]
    # and /help ledger says so, beside the game that stays out
    explained = " ".join((await table.ok("/help ledger")).text.split())
    assert ("Call Break and a game of points: each score less the table's average"
            in explained), explained
    assert "Call Break never" not in explained
    assert "Tranca never enters it" in explained
