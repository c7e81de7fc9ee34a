"""Marriage in depth through the commands: cards, the checker, house rules (both backends)."""

from tests.conftest import Table
from tests.core.handlers.help_pages import whole

NEW = "/newgame marriage players:alice bob carol"


async def test_the_calculator_counts_and_records_nothing(table: Table):
    await table.ok(NEW)
    reply = await table.ok("/maal tiplu:8H cards:8H 8H 9H 7H 8D")
    assert reply.text == "Maal with tiplu 8H: marriage 10 + tiplu 3 = 13"
    assert (await table.board())["hand_count"] == 0
    assert "Say the tiplu" in await table.error("/maal cards:8H")
    assert "is not a card" in await table.error("/maal tiplu:8H cards:8X")
    assert "8H appears 4 times (3 here, 1 already held elsewhere or turned up as tiplu)" in \
        await table.error("/maal tiplu:8H cards:8H 8H 8H")
    await table.ok("/setmaal preset:house")
    assert "= 20" in (await table.ok("/maal tiplu:8H cards:8H 8H 9H 9H 9H 7H")).text


async def test_a_hand_with_cards_instead_of_numbers(table: Table):
    await table.ok(NEW)
    reply = await table.ok("/hand winner:alice seen:bob tiplu:8H "
                           "cards:alice=8H 9H 7H bob=9H 2C")
    # alice: marriage 10; bob: poplu 2; carol unseen (murdered): s = 10, 2, 0
    assert reply.board.totals == {"alice": 18 + 13, "bob": -6 - 3, "carol": -12 - 10}
    assert "alice: marriage 10 = 10" in reply.text
    assert "bob: poplu 2 = 2" in reply.text


async def test_cards_come_later_with_maal_and_copies_count_across_players(table: Table):
    await table.ok(NEW)
    reply = await table.ok("/hand winner:alice seen:bob tiplu:8H maal:alice=10")
    assert reply.board.waiting_for == ["bob"]
    assert "8H appears 4 times" in await table.error("/maal cards:8H 8H 8H", by="bob")
    reply = await table.ok("/maal cards:9H 9H 2C", by="bob")
    assert reply.board.hand_count == 1
    assert reply.board.totals["bob"] == 3 * 5 - 15 - 3  # poplu pair 5; P = 15
    assert "Say the tiplu" in await table.error(
        "/hand winner:alice seen:bob cards:alice=8H")


async def test_no_more_copies_than_the_packs_across_the_table(table: Table):
    await table.ok(NEW)
    error = await table.error("/hand winner:alice seen:bob tiplu:5S "
                              "cards:alice=9H 9H bob=9H 9H")
    assert "bob's cards: 9H appears 4 times" in error


async def test_tunnel_pachaunu_counts_a_tunnella_only_for_the_seen(table: Table):
    await table.ok(NEW)
    await table.ok("/rules unseen_maal:counted tunnel_pachaunu:yes")
    reply = await table.ok("/hand winner:alice seen:bob tiplu:8H tunnella:bob=5S carol=6D "
                           "cards:alice=2C bob=5S 5S 5S carol=6D 6D 6D")
    # bob seen: his tunnella 5 counts; carol unseen: hers does not. s = 0, 5, 0
    assert reply.board.hands[0]["points"] == {"alice": -5 + 13, "bob": 10 - 3,
                                                 "carol": -5 - 10}


async def test_the_finish_checker_command(table: Table):
    await table.ok(NEW)
    text = (await table.ok("/check tiplu:8H cards:AS 2S 3S QS KS AS 4D 5D 6D 9C 9C 9C "
                           "2H 2D 2C 5H 6H 7H JD QD KD")).text
    assert text.startswith("A finish: 7 sets")
    assert "Not a finish" in (await table.ok("/check tiplu:8H cards:AS 2S 3S QS KS AS 4D "
                                              "5D 6D 9C 9C 9C 2H 2D 2C 5H 6H 7H JD QD 4C")).text
    assert "21 cards" in await table.error("/check tiplu:8H cards:AS")
    assert "Usage" in await table.error("/check cards:AS")


async def test_dublee_route_and_dublee_mode_rules(table: Table):
    await table.ok(NEW)
    await table.ok("/rules dublee_route_pays:no")
    reply = await table.ok("/hand winner:alice seen:bob dublee_route:bob "
                           "maal:alice=0 bob=0")
    assert reply.board.totals == {"alice": 10, "bob": 0, "carol": -10}
    assert "for seen losers" in await table.error(
        "/hand winner:alice dublee_route:carol maal:alice=0")
    await table.ok("/rules dublee_mode:replace dublee_route_pays:yes")
    reply = await table.ok("/hand winner:alice seen:bob dublee:yes maal:alice=0 bob=0")
    # the rules page: "a few tables instead make a seen loser pay 5 in place of 3": the
    # dublee points replace the usual "each loser pays 5 more", so bob (seen) pays 5 and
    # carol (unseen) her 10 alone; no maal. alice +15.
    assert reply.board.hands[-1]["points"] == {"alice": 15, "bob": -5, "carol": -10}


async def test_a_foul_charged_in_the_next_hand_and_undo_brings_it_back(table: Table):
    await table.ok(NEW)
    await table.ok("/rules foul_when:next foul:10")
    reply = await table.ok("/hand winner:alice seen:bob carol foul:carol maal:alice=0 bob=0")
    assert reply.board.hands[0]["points"] == {"alice": 3, "bob": -3, "carol": 0}
    assert "foul charged with the next hand" in reply.text
    before = await table.board()
    reply = await table.ok("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    assert reply.board.hands[1]["points"] == {"alice": -3 + 10, "bob": 6 + 10,
                                                 "carol": -3 - 20}
    await table.ok("/undo")
    assert await table.board() == before
    reply = await table.ok("/hand winner:bob seen:alice carol maal:alice=0 bob=0 carol=0")
    assert reply.board.hands[1]["points"]["carol"] == -23  # still owed after the undo


async def test_presets_and_the_play_rules_note(table: Table):
    await table.ok(NEW)
    await table.ok("/rules preset:clubroyale")
    rules = (await table.ok("/rules")).text
    assert "unseen_maal: kidnap" in rules and "tunnel_pachaunu: yes" in rules
    assert "alter 5" in (await table.ok("/maal tiplu:8H cards:8D jk")).text
    help_rules = await whole(table, "/help rules")
    assert "Vesting" in help_rules and "joker block" in help_rules
    assert "foul_when" in help_rules and "dublee_route_pays" in help_rules
