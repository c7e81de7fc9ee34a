"""Riichi where the bot once differed from the rules page (shared/rules/riichi.md) and from
an independent scorer (issue 26): a honba on a three-player tsumo, rule values that can't
be paid in 100-point sticks, the winning tile whose kind is also in a called meld, and four
plain fives with red fives on. Service-level tests run on SQLite and PostgreSQL.

From the rules page: basic = fu x 2^(2+han); tsumo: a non-dealer gets 1x basic from each
non-dealer and 2x from the dealer, each payment rounded up to 100; "honba: +300 on ron,
+100 from each payer on tsumo". Seats East South West North in the order given; the first
one deals East 1."""

import pytest

from bot.core.errors import UserError
from bot.core.games.riichi import payments as pay
from tests.conftest import Table

FOUR = "/newgame riichi players:a b c d"
SANMA = "/newgame riichi players:a b c preset:sanma"


# --- honba on a tsumo ---------------------------------------------------------------------

def test_each_tsumo_payer_adds_a_third_of_the_honba_with_three_players_as_with_four():
    # 1 han 30 fu: basic 30 x 2^3 = 240. b wins, a deals, 1 honba (+100 from each payer):
    # a pays 2 x 240 = 480 -> 500, + 100 = 600; c pays 240 -> 300, + 100 = 400; b +1,000
    assert pay.tsumo(pay.Win(2, 240, False), [1, 2, 3], 1, 1) == {1: -600, 2: 1000, 3: -400}
    # the same with four: d pays as c does: b +1,400
    assert pay.tsumo(pay.Win(2, 240, False), [1, 2, 3, 4], 1, 1) == \
        {1: -600, 2: 1400, 3: -400, 4: -400}
    # rule honba 600: +200 from each payer, 2 honba +400 each
    assert pay.tsumo(pay.Win(2, 240, False), [1, 2, 3], 1, 2, 600) == \
        {1: -900, 2: 1600, 3: -700}


def test_a_stored_honba_that_cannot_be_split_in_thirds_is_refused_not_rounded():
    # a game that set honba:1000 before the rule refused it: 333.3 a payer can't be paid
    with pytest.raises(UserError) as error:
        pay.tsumo(pay.Win(2, 240, False), [1, 2, 3, 4], 1, 1, 1000)
    assert "honba:900 or honba:1,200" in str(error.value.message)
    # a ron adds the whole value: nothing to split
    assert pay.ron(pay.Win(2, 240, False), 3, 1, 1000) == {2: 1000 + 1000, 3: -2000}


async def test_a_sanma_tsumo_with_a_honba_pays_100_from_each_payer(table: Table):
    await table.ok(SANMA)
    # an abortive draw: no payments, a deals again with 1 honba
    await table.ok("/draw abort:kyuushu")
    # as computed above: a -600, b +1,000, c -400 (not -650 / +1,100 / -450)
    reply = await table.ok("/tsumo winner:b han:1 fu:30")
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": -600, "b": 1000, "c": -400}


async def test_a_honba_the_payers_cannot_share_in_sticks_is_refused_with_the_reason(
        table: Table):
    await table.ok(FOUR)
    error = await table.error("/rules honba:1000")
    assert "multiple of 300" in error and "third of it from each payer" in error
    assert "900 or 1,200" in error
    await table.ok("/rules honba:600")
    await table.ok("/draw abort:kyuushu")
    # 1 honba of 600: +200 from each payer. b 1 han 30 fu, a deals: a 500 + 200, c and d
    # 300 + 200 each; b +1,700
    reply = await table.ok("/tsumo winner:b han:1 fu:30")
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": -700, "b": 1700, "c": -500, "d": -500}


async def test_a_noten_payment_is_refused_where_the_players_cannot_share_it(table: Table):
    await table.ok(FOUR)
    # four players: 1, 2 or 3 noten players share it, so it is a multiple of 600
    error = await table.error("/rules noten:1000")
    assert "multiple of 600" in error and "noten:600 or noten:1,200" in error
    assert "`start` is a multiple of 100" in await table.error("/rules start:25050")
    await table.ok("/endgame")
    await table.ok(SANMA)
    # three players: 1 or 2 share it, a multiple of 200: 1,000 is 500 from each of two
    # noten players, or 1,000 from one to each of two tenpai players... here b alone tenpai
    await table.ok("/rules noten:1000")
    reply = await table.ok("/draw tenpai:b")
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": -500, "b": 1000, "c": -500}


def test_a_stored_noten_the_players_cannot_share_is_refused_not_rounded():
    # four players, three noten, 1,000 in all: 333.3 each can't be paid in sticks
    with pytest.raises(UserError) as error:
        pay.noten_payments([1, 2, 3, 4], [1], 1000)
    assert "noten:600 or noten:1,200" in str(error.value.message)
    # two and two share it evenly: 500 each
    assert pay.noten_payments([1, 2, 3, 4], [1, 2], 1000) == {1: 500, 2: 500, 3: -500,
                                                               4: -500}


# --- the winning tile also in a called meld ----------------------------------------------

async def test_the_winning_tile_also_in_a_chi_scores(table: Table):
    await table.ok(FOUR)
    # b (not the dealer) tsumo on 7p: 555z 567p 234s 11s and the chi 789p. Haku 1 han (an
    # open hand: no menzen tsumo). Fu: 20 + 2 (tsumo) + 8 (a closed triplet of dragons),
    # the 7p a two-sided wait (56p): 30 fu. basic 30 x 2^3 = 240: a (the dealer) pays
    # 480 -> 500, c and d 240 -> 300 each: b +1,100
    reply = await table.ok("/tsumo winner:b hand:555z567p234s11s win:7p melds:chi789p")
    assert "1 han 30 fu" in reply.text and "haku" in reply.text.lower()
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": -500, "b": 1100, "c": -300, "d": -300}


async def test_the_winning_tile_also_in_a_pon_scores(table: Table):
    await table.ok(FOUR)
    # b rons 4s from c: 234m 22p 456s closed, pon 444s and pon 777z called: the fourth 4s
    # wins. Chun (777z) 1 han. Fu: 20 + 4 (an open triplet of honours) + 2 (an open
    # triplet of simples), the 4s a two-sided wait (56s): 26 -> 30 fu. basic 240; a ron by a
    # non-dealer, 4 x 240 = 960 -> 1,000 from c
    reply = await table.ok("/ron winner:b from:c hand:234m22p456s win:4s "
                           "melds:pon444s pon777z")
    assert "1 han 30 fu" in reply.text
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": 0, "b": 1000, "c": -1000, "d": 0}


# --- red fives ---------------------------------------------------------------------------

FIVES = "/tsumo winner:b hand:56777345557m333z win:7m dora:8m riichi:yes"


async def test_four_plain_fives_with_red_fives_on_are_refused_with_what_to_write(
        table: Table):
    await table.ok(FOUR)
    # red fives are on by default: one of the four 5m is the red one. The package would
    # read the fourth plain 5m as a 6m and score an iipeiko the hand doesn't have.
    error = await table.error(FIVES)
    assert "0m" in error and "hand:06777345557m333z" in error
    assert (await table.board())["hand_count"] == 0
    # written as the bot says: 345m 55m 567m (the red 5m in it) 777m 333z, b tsumo on 7m.
    # Menzen tsumo 1, riichi 1, honitsu (closed) 3, aka dora 1 = 6 han, no iipeiko (the
    # dora is 9m: none): haneman, basic 3,000. b not the dealer: a pays 6,000, c and d
    # 3,000 each, b +12,000
    reply = await table.ok(FIVES.replace("56777345557m", "06777345557m"))
    assert "Aka Dora 1" in reply.text and "Iipeiko" not in reply.text
    assert "6 han" in reply.text
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": -6000, "b": 12000, "c": -3000,
                                                  "d": -3000}


async def test_two_red_fives_of_a_suit_are_refused(table: Table):
    await table.ok(FOUR)
    assert "one red five of each suit" in await table.error(
        "/ron winner:b from:c hand:234m006p23456788s win:2s")


async def test_with_red_fives_off_a_0_is_a_plain_five(table: Table):
    await table.ok(FOUR)
    await table.ok("/rules aka_dora:no")
    # a deals and rons from b: 234m 567p 234s 567s 88s (the 0p a plain 5p), on 2s: a
    # two-sided wait, pinfu 1 + tanyao 1 + dora 1 (1m shows 2m: one 2m) = 3 han 30 fu.
    # basic 30 x 2^5 = 960; a dealer ron: 6 x 960 = 5,760 -> 5,800
    reply = await table.ok("/ron winner:a from:b hand:234m067p23456788s win:2s dora:1m")
    assert "Aka Dora" not in reply.text and "3 han 30 fu" in reply.text
    assert reply.board is not None
    assert reply.board.hands[-1]["points"] == {"a": 5800, "b": -5800, "c": 0, "d": 0}
