"""Riichi: the payment table's corners, uma and oka for the three presets, hands from
tiles through the `mahjong` package, and a hanchan played through the commands."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.errors import UserError
from bot.core.games.riichi import payments as pay
from bot.core.games.riichi.game import RULEBOOK
from tests.conftest import Table

SEATS = [1, 2, 3, 4]


def test_basic_points_and_limits():
    assert pay.basic_points(1, 30) == 240
    assert pay.basic_points(3, 30) == 960
    assert pay.basic_points(4, 40) == 2000  # 2,560 capped: mangan
    assert pay.basic_points(4, 30) == 1920 and pay.basic_points(4, 30, kiriage=True) == 2000
    assert pay.basic_points(3, 60, kiriage=True) == 2000
    assert [pay.basic_points(h, 30) for h in (5, 6, 7, 8, 10, 11, 12, 13)] == \
        [2000, 3000, 3000, 4000, 4000, 6000, 6000, 8000]
    assert pay.basic_points(0, 0, yakuman=2) == 16000
    with pytest.raises(UserError, match="fu is"):
        pay.basic_points(2, 35)


def test_ron_and_tsumo_payments_with_honba():
    assert pay.ron(pay.Win(1, 960, False), 2, 0) == {1: 3900, 2: -3900}  # 3 han 30 fu
    assert pay.ron(pay.Win(1, 960, True), 2, 2) == {1: 5800 + 600, 2: -6400}
    # non-dealer tsumo 4 han 30 fu, 1 honba: dealer 3,900+100, others 2,000+100
    assert pay.tsumo(pay.Win(2, 1920, False), SEATS, 1, 1) == \
        {1: -4000, 2: 8200, 3: -2100, 4: -2100}
    # dealer tsumo 3 han 30 fu: 2,000 from each
    assert pay.tsumo(pay.Win(1, 960, True), SEATS, 1, 0) == {1: 6000, 2: -2000, 3: -2000,
                                                             4: -2000}
    # yakuman tsumo by a non-dealer: 16,000 from the dealer, 8,000 from the others
    assert pay.tsumo(pay.Win(3, 8000, False), SEATS, 1, 0) == \
        {1: -16000, 2: -8000, 3: 32000, 4: -8000}


def test_noten_payments_and_chombo():
    assert pay.noten_payments(SEATS, [1]) == {1: 3000, 2: -1000, 3: -1000, 4: -1000}
    assert pay.noten_payments(SEATS, [1, 3]) == {1: 1500, 2: -1500, 3: 1500, 4: -1500}
    assert pay.noten_payments(SEATS, []) == dict.fromkeys(SEATS, 0)
    assert pay.chombo(2, SEATS, 1) == {1: 4000, 2: -8000, 3: 2000, 4: 2000}
    assert pay.chombo(1, SEATS, 1) == {1: -12000, 2: 4000, 3: 4000, 4: 4000}


def preset(name):
    rules = RULEBOOK.with_preset(RULEBOOK.defaults(), name)
    return rules["start"], rules["back"], [int(x) for x in rules["uma"].split()]


@pytest.mark.parametrize(("name", "scores", "expected"), [
    # Tenhou: uma 10-20 (+20/+10/-10/-20), oka (30,000 - 25,000) x 4 = 20 to first:
    # 12 + 20 + 20, 1 + 10, -11 - 10, -22 - 20
    ("tenhou", {1: 42000, 2: 31000, 3: 19000, 4: 8000}, {1: 52.0, 2: 11.0, 3: -21.0,
                                                         4: -42.0}),
    ("ema", {1: 45000, 2: 35000, 3: 25000, 4: 15000}, {1: 30.0, 2: 10.0, 3: -10.0, 4: -30.0}),
    ("mleague", {1: 42000, 2: 31000, 3: 19000, 4: 8000}, {1: 62.0, 2: 11.0, 3: -21.0,
                                                          4: -52.0}),
])
def test_uma_and_oka_for_the_presets(name, scores, expected):
    start, back, uma = preset(name)
    final = pay.final_scores(scores, SEATS, start, back, uma, "seat")
    assert final == expected and round(sum(final.values()), 1) == 0


def test_ties_by_seat_or_split():
    scores = {1: 30000, 2: 30000, 3: 20000, 4: 20000}
    by_seat = pay.final_scores(scores, SEATS, 25000, 30000, [15, 5, -5, -15], "seat")
    assert by_seat == {1: 35.0, 2: 5.0, 3: -15.0, 4: -25.0}
    split = pay.final_scores(scores, SEATS, 25000, 30000, [15, 5, -5, -15], "split")
    assert split == {1: 20.0, 2: 20.0, 3: -20.0, 4: -20.0}


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-200, 800).map(lambda x: x * 100), min_size=4, max_size=4))
def test_final_scores_add_to_zero_when_points_do(points):
    """Catches: the oka not given to first place, the tenth lost when a three-way split
    leaves thirds, and the places counted from the bottom (each verified by planting it)."""
    scores = dict(zip(SEATS, points, strict=True))
    total = sum(points)
    scores[4] += 100000 - total  # four players of 25,000
    final = pay.final_scores(scores, SEATS, 25000, 30000, [15, 5, -5, -15], "split")
    assert abs(sum(final.values())) < 0.05
    assert_places_as_the_rules_say(scores, final, 30000, [15, 5, -5, -15], oka=20)


def assert_places_as_the_rules_say(scores, final, back, uma, oka):
    """shared/rules/riichi.md: final = (score - return) / 1000 + uma, first place also gets
    the oka. A higher score never ends lower; with no ties each place is exactly that."""
    for a in scores:
        for b in scores:
            if scores[a] > scores[b]:
                assert final[a] >= final[b], (scores, final)
    if len(set(scores.values())) == len(scores):
        ranked = sorted(scores, key=lambda seat: -scores[seat])
        for place, seat in enumerate(ranked):
            expected = (scores[seat] - back) / 1000 + uma[place] + (oka if place == 0 else 0)
            assert final[seat] == pytest.approx(expected, abs=0.05), (scores, final)


NEW = "/newgame riichi players:alice bob carol dave"


async def _invariant(table: Table) -> dict:
    board = await table.board()
    reply = await table.ok("/players")
    sticks = int(reply.text.split("sticks on the table ")[1].split()[0])
    assert sum(board["totals"].values()) + sticks * 1000 == 0  # scores + sticks = 4 x start
    return board


async def test_a_hanchan_through_the_commands(table: Table):
    await table.ok(NEW)
    await table.ok("/rules tobi:no")  # bob goes below zero on the way; play on
    await table.ok("/riichi alice")
    # 1 East 1: dealer alice, riichi, ron from tiles: 5 han mangan for the dealer, 12,000
    reply = await table.ok("/ron winner:alice from:bob hand:234m067p23456788s win:2s "
                           "dora:1m")
    assert "Riichi, Pinfu, Tanyao, Dora 1, Aka Dora 1" in reply.text
    assert reply.board.hands[-1]["points"] == {"alice": 12000, "bob": -12000, "carol": 0,
                                                  "dave": 0}
    # 2 East 1, 1 honba (dealer repeat): bob tsumo 4 han 30 fu
    reply = await table.ok("/tsumo winner:bob han:4 fu:30")
    assert reply.board.hands[-1]["points"] == {"alice": -4000, "bob": 8200,
                                                  "carol": -2100, "dave": -2100}
    # 3 East 2: riichi carol, then a draw: her stick stays on the table
    await table.ok("/riichi carol")
    reply = await table.ok("/draw tenpai:carol")
    assert reply.board.hands[-1]["points"] == {"alice": -1000, "bob": -1000,
                                                  "carol": 2000, "dave": -1000}
    assert "East 3, 1 honba · sticks on the table 1" in reply.text
    await _invariant(table)
    # 4 East 3, 1 honba: dave takes the stick with a 3 han 30 fu ron: 3,900 + 300 + 1,000
    reply = await table.ok("/ron winner:dave from:carol han:3 fu:30")
    assert reply.board.hands[-1]["points"]["dave"] == 5200
    await _invariant(table)
    # 5 East 4: dave dealer, yakuman tsumo: 16,000 all
    reply = await table.ok("/tsumo winner:dave yakuman:1")
    assert reply.board.hands[-1]["points"]["dave"] == 48000
    # 6 East 4, 1 honba: chombo changes nothing at the table
    await table.ok("/chombo bob")
    assert "East 4, 1 honba" in (await table.ok("/board")).text
    # 7-10: South 1 to South 4
    for line in ("/ron winner:alice from:carol han:1 fu:30",
                 "/ron winner:carol from:alice han:2 fu:30",
                 "/draw tenpai:none",
                 "/ron winner:alice from:carol han:1 fu:30",
                 "/ron winner:bob from:dave han:2 fu:40"):
        await table.ok(line)
    board = await _invariant(table)
    assert board["hand_count"] == 11  # South 4 ended by a non-dealer win
    status = (await table.ok("/board")).text
    assert "Game over" in status
    assert "game is over" in await table.error("/ron winner:alice from:bob han:1 fu:30")
    end = await table.ok("/endgame")
    finals = [float(line.split("-> ")[1]) for line in end.text.splitlines() if "-> " in line]
    assert len(finals) == 4 and abs(sum(finals)) < 0.05


async def test_hands_the_package_rejects_are_clear_errors(table: Table):
    await table.ok(NEW)
    assert "not a winning hand" in await table.error(
        "/ron winner:alice from:bob hand:123m456p789s12345z win:1z")
    assert "no yaku" in await table.error(
        "/ron winner:alice from:bob hand:123m456p789s234s11z win:1z")
    assert "more than four times" in await table.error(
        "/ron winner:alice from:bob hand:11111m456p789s11z2z win:2z")
    assert "14 tiles" in await table.error("/ron winner:alice from:bob hand:123m win:1m")
    assert "not tiles" in await table.error("/ron winner:alice from:bob hand:hello win:1m")
    assert "Honours are 1z to 7z" in await table.error(
        "/ron winner:alice from:bob hand:123m456p789s11z99z win:1z")
    assert "own discard" in await table.error("/ron winner:alice from:alice han:1 fu:30")
    assert (await table.board())["hand_count"] == 0


async def test_called_melds_head_bump_and_edits(table: Table):
    await table.ok(NEW)
    reply = await table.ok("/ron winner:bob from:carol hand:234m456p11z melds:pon555z "
                           "chi678s win:4p")
    assert "Yakuhai" in reply.text or "Haku" in reply.text
    await table.ok("/rules preset:mleague")
    assert "Head bump" in await table.error(
        "/ron winner:dave alice from:carol han:alice=1 dave=1 fu:alice=30 dave=30")
    await table.ok("/edit result:1 han:3 fu:30")
    assert (await table.board())["hands"][0]["points"]["bob"] == 3900
    # a win is edited with what a win is entered with, not a draw's options
    assert "That result is a ron" in await table.error("/edit result:1 tenpai:alice")
    await table.ok("/endgame sure")  # before the hanchan's end
    assert "3 to 4 players" in await table.error("/newgame riichi players:a b")


async def test_below_zero_ends_the_game_when_the_rule_says_so(table: Table):
    await table.ok(NEW)
    await table.ok("/ron winner:alice from:bob yakuman:1")  # dealer yakuman: 48,000
    assert "Game over" in (await table.ok("/board")).text


async def test_help_riichi_explains_the_notation(table: Table):
    assert "honba" in (await table.ok("/help riichi")).text  # its words
    assert "pon555z chi456p kan1111m" in (await table.ok("/help ron")).text  # its tiles
    assert "canastra" in (await table.ok("/help tranca")).text


async def test_double_ron_with_one_fu_for_both(table: Table):
    await table.ok("/newgame riichi players:alice bob carol dave")
    # East 1, alice deals. alice rons 3 han 30 fu: 6 x 960 = 5,760 -> 5,800; carol
    # (not the dealer) 2 han 30 fu: 4 x 480 = 1,920 -> 2,000; bob pays both: 7,800
    reply = await table.ok("/ron winner:alice carol from:bob han:alice=3 carol=2 fu:30")
    assert reply.board is not None
    assert reply.board.totals == {"alice": 5800, "bob": -7800, "carol": 2000, "dave": 0}
    assert "han: as name=number for each" in await table.error(
        "/ron winner:alice carol from:bob han:3 2 fu:30")


async def test_money_is_paid_on_the_final_results(table: Table):
    await table.ok("/newgame riichi players:alice bob carol dave")
    await table.ok("/rules rate:100 currency:Rs")
    # bob tsumo 4 han 30 fu, alice dealing: alice -3,900, carol and dave -2,000, bob
    # +7,900; default rules: final = (score - 30,000) / 1,000 + uma 15 5 -5 -15, oka 20
    reply = await table.ok("/tsumo winner:bob han:4 fu:30")
    assert reply.table is not None and "Rs" not in reply.table  # nothing hand by hand
    end = (await table.ok("/endgame sure")).text  # before the hanchan's end
    # bob 2.9 + 15 + 20 = 37.9, carol -7 + 5 = -2, dave -7 - 5 = -12, alice -8.9 - 15 =
    # -23.9; at 100 Rs a point: +3,790, -200, -1,200, -2,390
    assert ("Money at 100 Rs a point: alice -2,390 Rs, bob +3,790 Rs, carol -200 Rs, "
            "dave -1,200 Rs") in end
    assert "alice pays bob 2,390 Rs" in end and "dave pays bob 1,200 Rs" in end
    assert "carol pays bob 200 Rs" in end
    stats = (await table.ok("/stats bob")).text
    assert "money +3,790 Rs (the final results at each game's rate)" in stats


async def test_undoing_a_result_declares_its_riichi_again(table: Table):
    await table.ok("/newgame riichi players:alice bob carol dave")
    await table.ok("/riichi alice")
    await table.ok("/ron winner:bob from:carol han:2 fu:30")
    undone = (await table.ok("/undo reason:wrong winner")).text
    assert "Result 1 has riichi declared by alice." in undone  # as before the result
    # entered again, the stick is paid once: alice -1,000; bob 2 han 30 fu (not the
    # dealer) 4 x 480 = 1,920 -> 2,000 from carol, plus the stick: +3,000
    reply = await table.ok("/ron winner:bob from:carol han:2 fu:30")
    assert reply.board is not None
    assert reply.board.totals == {"alice": -1000, "bob": 3000, "carol": -2000, "dave": 0}


async def test_a_yakuman_with_han_and_fu_is_refused(table: Table):
    await table.ok("/newgame riichi players:alice bob carol dave")
    assert "Give yakuman: or han: and fu:, not both" in await table.error(
        "/ron winner:bob from:carol han:3 fu:30 yakuman:1")
    await table.ok("/ron winner:bob from:carol han:3 fu:30")
    # an edit to a yakuman replaces the counts: bob (not the dealer) 32,000 from carol
    await table.ok("/edit result:1 yakuman:1")
    board = await table.board()
    assert board["totals"] == {"alice": 0, "bob": 32000, "carol": -32000, "dave": 0}


async def test_tenpai_all_is_everyone_ready(table: Table):
    await table.ok(NEW)
    await table.ok("/riichi alice")
    # everyone tenpai: no noten payments; alice's stick stays on the table; the dealer
    # (alice) stays, with a honba
    reply = await table.ok("/draw tenpai:all")
    assert reply.board.hands[-1]["points"] == {"alice": -1000, "bob": 0, "carol": 0,
                                               "dave": 0}
    assert "tenpai alice, bob, carol, dave" in reply.text
    assert "East 1, 1 honba" in reply.text and "sticks on the table 1" in reply.text



async def test_ending_a_hanchan_before_its_last_hand_asks_first(table: Table):
    from bot.core.command import Actor, Command

    await table.ok("/newgame riichi players:alice bob carol dave")
    await table.ok("/draw tenpai:alice")  # East 1 stays with its dealer, one honba on
    said = await table.error("/endgame")  # no buttons (the console): typed twice
    assert said == ("The game is not over: East 1, 1 honba is still to play. End it now "
                    "all the same: /endgame sure")
    asked = await table.service.handle(Command(table.chat, Actor("test:host", "host"),
                                               "endgame", buttons=True))
    assert asked.question is not None and asked.text.startswith("The game is not over")
    assert "Game over after 1 result." in (await table.ok("/endgame sure")).text
    # a hanchan over (bob below zero: tobi) ends at once
    await table.ok("/newgame riichi players:alice bob carol dave")
    await table.ok("/ron winner:alice from:bob yakuman:1")  # the dealer's 48,000
    assert "Game over after 1 result." in (await table.ok("/endgame")).text
