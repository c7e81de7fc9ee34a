"""Marriage: what an edit passes on to later hands, a foul still owed at the end, the deal
the packs must hold, and a tunnella beside a typed maal (both backends).

Expected values are worked from shared/rules/marriage.md: with n players in the maal
exchange, maal s_i and P their sum, player i gets n*s_i - P; a seen loser pays the winner
3, an unseen one 10; a foul player pays the penalty and is out of the exchange."""

from tests.conftest import Table
from tests.core.handlers.help_pages import whole

NEW = "/newgame marriage players:alice bob carol"


async def test_an_edit_passes_a_removed_foul_on_to_the_next_hand(table: Table):
    await table.ok(NEW)
    await table.ok("/rules foul_when:next foul:10")
    # hand 1: alice wins; bob and carol seen; carol fouls (charged with the next hand).
    # exchange alice, bob: no maal -> 0; bob pays alice 3. alice +3, bob -3, carol 0
    await table.ok("/hand winner:alice seen:bob carol foul:carol maal:alice=0 bob=0")
    # hand 2: bob wins, all seen, no maal: alice -3, bob +6, carol -3; carol's foul from
    # hand 1 is charged now: 10 to each of alice and bob. alice +7, bob +16, carol -23
    reply = await table.ok("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    assert reply.board.hands[1]["points"] == {"alice": 7, "bob": 16, "carol": -23}
    # the foul was a mistake: without it, hand 1 is alice +6 (3 from each), bob -3,
    # carol -3; and hand 2 has nothing to charge: alice -3, bob +6, carol -3
    reply = await table.ok("/edit hand:1 foul:none maal:carol=0 reason:carol did not foul")
    assert reply.board.hands[0]["points"] == {"alice": 6, "bob": -3, "carol": -3}
    assert reply.board.hands[1]["points"] == {"alice": -3, "bob": 6, "carol": -3}
    assert reply.board.totals == {"alice": 3, "bob": 3, "carol": -6}
    assert "Hand 2: alice -3  bob +6  carol -3 (was alice +7  bob +16  carol -23)" in \
        reply.text
    history = (await table.ok("/history")).text
    assert "follows the edit of hand 1: carol did not foul" in history
    # the bot's reason is kept as a message: read later in Portuguese, it is Portuguese,
    # in /history and in the spreadsheet export (the reason typed stays as typed)
    await table.ok("/settings language:pt-BR")
    assert "segue a edição de mão 1: carol did not foul" in (await table.ok("/history")).text
    exported = (await table.ok("/export format:csv")).file
    assert exported is not None and \
        "edited: segue a edição de mão 1: carol did not foul" in exported.data.decode()
    await table.ok("/settings language:en")
    # undo of hand 2 goes back to the re-derived state (no foul waiting): a new hand 2
    # charges nothing
    await table.ok("/undo")
    reply = await table.ok("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    assert reply.board.hands[1]["points"] == {"alice": -3, "bob": 6, "carol": -3}


async def test_an_edit_that_adds_a_foul_charges_it_in_the_next_hand_and_the_waiting_one(
        table: Table):
    await table.ok(NEW)
    await table.ok("/rules foul_when:next foul:10")
    await table.ok("/hand winner:alice seen:bob carol maal:alice=0 bob=0 carol=0")
    await table.ok("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    # hand 3 waits for carol's maal
    await table.ok("/hand winner:carol seen:alice bob maal:alice=0 bob=0")
    reply = await table.ok("/edit hand:2 foul:alice")
    # hand 2 again: alice fouled, out of the exchange; bob wins, carol seen pays 3:
    # bob +3, carol -3, alice 0 (her foul waits for the next hand)
    assert reply.board.hands[1]["points"] == {"alice": 0, "bob": 3, "carol": -3}
    assert "Hand 3 waiting for maal from carol" in reply.text  # not recorded yet
    # hand 3 completes and charges alice's foul: carol wins, alice and bob seen pay 3:
    # carol +6, alice -3, bob -3; alice pays 10 to each of bob and carol
    reply = await table.ok("/maal carol=0")
    assert reply.board.hands[2]["points"] == {"alice": -23, "bob": 7, "carol": 16}


async def test_an_edit_that_does_not_touch_the_carried_state_says_so(table: Table):
    await table.ok(NEW)
    await table.ok("/hand winner:alice seen:bob maal:alice=10 bob=2")
    await table.ok("/hand winner:bob seen:alice maal:alice=0 bob=0")
    reply = await table.ok("/edit hand:1 maal:bob=5")
    # hand 1: s = 10, 5, 0 (carol unseen, murdered); P = 15: 15, 0, -15; game +13, -3, -10
    assert reply.board.hands[0]["points"] == {"alice": 28, "bob": -3, "carol": -25}
    assert "The hands after it are unchanged." in reply.text


async def test_a_foul_still_owed_at_the_end_is_charged_in_the_final_settlement(table: Table):
    await table.ok(NEW)
    await table.ok("/rules foul_when:next foul:10")
    # alice wins, bob seen pays 3; carol's foul waits for the next hand: +3, -3, 0
    await table.ok("/hand winner:alice seen:bob carol foul:carol maal:alice=0 bob=0")
    end = await table.ok("/endgame")
    # there is no next hand: the foul is charged at the end as the next hand would have:
    # carol pays 10 to each other player playing. alice 3 + 10, bob -3 + 10, carol -20
    assert "Hand 2 (at the end): foul from the last hand charged at the end: carol" in end.text
    assert end.board.totals == {"alice": 13, "bob": 7, "carol": -20}
    assert "carol pays alice 13" in end.text.replace(" points", "")
    assert end.board.hand_count == 2


async def test_the_deal_must_fit_in_the_packs(table: Table):
    await table.ok("/newgame marriage players:a b c d e f g h")
    # 8 players x 21 cards = 168; 3 packs are 156 cards: no deal
    error = await table.error("/hand winner:a seen:b maal:a=0 b=0")
    assert "8 players x 21 cards = 168, but 3 packs hold 156 cards" in error
    assert "rule packs" in error and "/rules packs:4" in error
    # 4 packs are 208 cards: 168 + 1 for the tiplu fits
    await table.ok("/rules packs:4")
    await table.ok("/hand winner:a seen:b maal:a=0 b=0")
    # with 7 playing, 3 packs do: 147 + 1 <= 156
    await table.ok("/rules packs:3")
    await table.ok("/sitout h")
    await table.ok("/hand winner:a seen:b maal:a=0 b=0")


async def test_a_tunnella_beside_a_typed_maal_is_refused_with_the_reason(table: Table):
    await table.ok(NEW)
    error = await table.error("/hand winner:alice seen:bob maal:alice=10 bob=2 "
                              "tunnella:bob=5S")
    assert "bob's maal is typed as a number" in error and "tunnella:bob=none" in error
    # the tunnella waits for bob's cards, and a typed number later is refused as well
    await table.ok("/hand winner:alice seen:bob maal:alice=10 tunnella:bob=5S")
    assert "typed as a number" in await table.error("/maal bob=7")
    # bob counts it into his number and takes the tunnella back: s = 10, 7, 0; P = 17:
    # alice 30 - 17 = 13 + 13 = 26; bob 21 - 17 = 4 - 3 = 1; carol -17 - 10 = -27
    reply = await table.ok("/maal bob=7 tunnella:bob=none")
    assert reply.board.hands[0]["points"] == {"alice": 26, "bob": 1, "carol": -27}


async def test_help_says_who_pays_what_in_each_dublee_mode(table: Table):
    await table.ok(NEW)
    text = await whole(table, "/help hand")
    assert "dublee_mode:replace makes a seen loser pay the dublee points in place of the " \
           "seen points (5) and an unseen loser the unseen points alone (10)" in text
    rules = await whole(table, "/help rules")
    assert "replace: a seen loser pays dublee in place of seen, an unseen loser unseen " \
           "alone" in rules
