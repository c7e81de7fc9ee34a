"""Marriage rummy (the Indian variant): the rules page's formulas, and zero-sum always."""

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.core.cards import Card, parse_card
from bot.core.games.marriage_rummy.game import RummyHand, RummyScoring, card_points, settle_rummy
from tests.conftest import Table


def test_part_a_and_part_b():
    # 3 players, honour points 8, 4, 0; asha showed; bikash 25 and chetan 40 in hand
    hand = RummyHand((1, 2, 3), 1, {1: 8, 2: 4, 3: 0}, {2: 25, 3: 40})
    deltas = settle_rummy(hand, RummyScoring(hand_factor=2))
    # PART_A: 8*3-12 = 12, 4*3-12 = 0, -12; PART_B: -50, -80, the shower +130
    assert deltas == {1: 12 + 130, 2: 0 - 50, 3: -12 - 80}


def test_the_cap_on_points_in_hand():
    hand = RummyHand((1, 2), 1, {}, {2: 80})
    assert settle_rummy(hand, RummyScoring(hand_factor=1, hand_cap=15)) == {1: 15, 2: -15}


@given(st.integers(2, 10).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n), st.lists(st.integers(0, 200), min_size=n, max_size=n),
    st.lists(st.integers(0, 500), min_size=n, max_size=n), st.integers(1, 4),
    st.integers(0, 50))))
def test_every_hand_is_zero_sum(case):
    """Catches: the winner not collecting the points in hand, and honour points exchanged
    with a wrong n (each verified by planting it)."""
    n, winner, honours, points, factor, cap = case
    players = tuple(range(1, n + 1))
    hand = RummyHand(players, winner, dict(zip(players, honours, strict=True)),
                     dict(zip(players, points, strict=True)))
    assert sum(settle_rummy(hand, RummyScoring(factor, cap)).values()) == 0


async def test_a_game_of_marriage_rummy_through_the_commands(table: Table):
    await table.ok("/newgame marriage_rummy players:asha bikash chetan dev")
    reply = await table.ok("/hand winner:asha honours:asha=2 bikash=1 marriages:asha=1 "
                           "points:bikash=25 chetan=40 surrender:dev")
    # honour points: asha 2*4+20 = 28, bikash 4; total 32; n = 4
    # PART_A: 112-32 = 80, 16-32 = -16, -32, -32; PART_B: -50, -80, dev surrendered: -4
    assert reply.board.totals == {"asha": 80 + 134, "bikash": -16 - 50,
                                     "chetan": -32 - 80, "dev": -32 - 4}
    assert reply.board.game == "marriage_rummy"
    reply = await table.ok("/hand winner:bikash points:asha=10 chetan=7 dev=9 no_turn:dev")
    # dev had no turn: 9 / 2 = 4.5 in hand, exactly (seed 001: points_in_hand / 2), x2 = 9
    assert reply.board.hands[-1]["points"] == {"asha": -20, "bikash": 20 + 14 + 9,
                                                  "chetan": -14, "dev": -9}
    await table.ok("/edit hand:2 points:asha=0")
    assert (await table.board())["hands"][-1]["points"]["asha"] == 0
    assert "points in hand for chetan" in await table.error(
        "/hand winner:asha points:bikash=3 dev=1")
    assert "can't also surrender" in await table.error(
        "/hand winner:asha surrender:asha points:bikash=1 chetan=1 dev=1")
    assert "is for Nepali Marriage" in await table.error("/maal 5")
    assert "Marriage rummy" in (await table.ok("/help")).text


def test_no_turn_pays_an_exact_half():
    # seed 001: points_in_hand = points_in_hand / 2 for a player who did not get to play;
    # PART_B = -2 x points_in_hand. 25 in hand -> 12.5 -> -25 (not 13 -> -26)
    hand = RummyHand((1, 2), 1, {}, {2: Fraction(25, 2)})
    assert settle_rummy(hand, RummyScoring(hand_factor=2)) == {1: 25, 2: -25}
    # paid once (the scorecard's hand_factor 1): -12.5, kept exactly
    assert settle_rummy(hand, RummyScoring(hand_factor=1)) == {1: Fraction(25, 2),
                                                               2: Fraction(-25, 2)}


def test_card_points_as_seed_001_counts_them():
    joker = Card(8, "H")
    # J Q K A 10; number cards their value; every card of the joker's rank and a printed
    # joker 0
    assert [card_points(parse_card(c), joker) for c in
            ("JS", "QD", "KC", "AH", "10S", "9D", "2C", "8S", "8H", "jk")] == \
        [10, 10, 10, 10, 10, 9, 2, 0, 0, 0]


async def test_half_points_and_cards_through_the_commands(table: Table):
    await table.ok("/newgame marriage_rummy players:asha bikash chetan")
    # no honours: PART_A 0. bikash had no turn: 25 / 2 = 12.5 -> -25; chetan 7 -> -14.
    # asha, who showed, receives 39
    reply = await table.ok("/hand winner:asha points:bikash=25 chetan=7 no_turn:bikash")
    assert reply.board.hands[-1]["points"] == {"asha": 39, "bikash": -25, "chetan": -14}
    assert "in hand bikash 12.5, chetan 7" in reply.text
    # paid once: -12.5 stays -12.5 on the board and in the money
    await table.ok("/rules preset:scorecard rate:2")
    reply = await table.ok("/hand winner:asha points:bikash=25 chetan=7 no_turn:bikash")
    assert reply.board.hands[-1]["points"] == {"asha": 19.5, "bikash": -12.5,
                                                  "chetan": -7}
    assert reply.board.totals == {"asha": 58.5, "bikash": -37.5, "chetan": -21}
    # money counts hand by hand at each hand's rate: hand 1 was not played for money,
    # hand 2 at 2 a point: 19.5 x 2, -12.5 x 2, -7 x 2
    assert reply.board.money == {"asha": 39, "bikash": -25, "chetan": -14}
    # the cards instead of numbers, with the joker picked (8H): bikash KS 9H 3C = 10 + 9 + 3
    # = 22; chetan 8D jk 4S = 0 + 0 + 4 (an 8 is a joker, so is the printed one). x1
    reply = await table.ok("/hand winner:asha joker:8H points:bikash=KS 9H 3C chetan=8D jk 4S")
    assert reply.board.hands[-1]["points"] == {"asha": 26, "bikash": -22, "chetan": -4}
    assert "Say the joker picked" in await table.error(
        "/hand winner:asha points:bikash=KS chetan=2")
    assert "KS appears 4 times" in await table.error(
        "/hand winner:asha joker:8H points:bikash=KS KS chetan=KS KS")
    # an edit to a number replaces the cards: bikash 5 -> asha 9
    reply = await table.ok("/edit hand:3 points:bikash=5")
    assert reply.board.hands[-1]["points"] == {"asha": 9, "bikash": -5, "chetan": -4}
    # totals: asha 39 + 19.5 + 9 = 67.5, bikash -25 - 12.5 - 5 = -42.5, chetan -14 - 7 - 4
    # = -25; money from hands 2 and 3 at rate 2: bikash (-12.5 - 5) x 2 = -35 and chetan
    # (-7 - 4) x 2 = -22
    end = await table.ok("/endgame")
    assert "bikash -42.5 points = -35" in end.text
    assert "bikash pays asha 35" in end.text and "chetan pays asha 22" in end.text
    assert "asha +67.5 (3 hands" in (await table.ok("/stats")).text


async def test_the_deal_must_fit_in_the_packs(table: Table):
    await table.ok("/newgame marriage_rummy players:a b c d e f g h")
    # 8 x 21 = 168 cards; 3 packs are 156
    error = await table.error("/hand winner:a points:b=1 c=1 d=1 e=1 f=1 g=1 h=1")
    assert "8 players x 21 cards = 168, but 3 packs hold 156" in error
    await table.ok("/rules packs:4")
    await table.ok("/hand winner:a points:b=1 c=1 d=1 e=1 f=1 g=1 h=1")


async def test_whole_scores_are_written_without_decimals(table: Table):
    """+69, not +69.0; a half keeps its decimal (+12.5), in every reply and on the board."""
    await table.ok("/newgame marriage_rummy players:asha bikash chetan")
    # PART_A: asha 3 honours x 4 = 12 -> 12 x 3 - 12 = +24, the others -12 each;
    # PART_B: bikash 25 x 2 = -50, chetan 10 x 2 = -20, asha +70: +94, -62, -32
    reply = await table.ok("/hand winner:asha honours:asha=3 points:bikash=25 chetan=10")
    assert "asha +94  bikash -62  chetan -32" in reply.text
    assert "+94.0" not in reply.text and ".0 " not in (reply.table or "")
    # paid once, bikash with no turn: 25 / 2 = 12.5 -> -12.5; chetan 7 -> -7; asha +19.5
    await table.ok("/rules preset:scorecard")
    reply = await table.ok("/hand winner:asha points:bikash=25 chetan=7 no_turn:bikash")
    assert "asha +19.5  bikash -12.5  chetan -7" in reply.text
    # totals: asha 94 + 19.5 = 113.5, bikash -62 - 12.5 = -74.5, chetan -32 - 7 = -39
    ended = await table.ok("/endgame")
    assert "1. asha +113.5 points" in ended.text and "3. chetan -39 points" not in ended.text
    assert "2. chetan -39 points" in ended.text


async def test_contradictory_options_are_refused_with_the_reason(table: Table):
    await table.ok("/newgame marriage_rummy players:asha bikash chetan")
    assert "bikash is given points in hand and a surrender" in await table.error(
        "/hand winner:asha points:bikash=5 chetan=3 surrender:bikash")
    assert "bikash is given points in hand and a surrender" in await table.error(
        "/hand winner:asha points:bikash=5 chetan=3 surrender_late:bikash")
    assert "asha showed, so has no points in hand: leave points:asha out." in \
        await table.error("/hand winner:asha points:asha=4 bikash=5 chetan=3")
    assert "bikash surrendered, which takes a turn, and did not get to play" in \
        await table.error("/hand winner:asha points:chetan=3 surrender:bikash no_turn:bikash")
    assert (await table.board())["hand_count"] == 0


async def test_an_edit_says_what_a_player_did_instead(table: Table):
    await table.ok("/newgame marriage_rummy players:asha bikash chetan")
    # no honours; bikash 10 and chetan 4 in hand, x2: -20, -8; asha +28
    await table.ok("/hand winner:asha points:bikash=10 chetan=4")
    # bikash surrendered on the first move instead: 2 in hand, -4; asha +12
    reply = await table.ok("/edit hand:1 surrender:bikash")
    assert reply.board.hands[-1]["points"] == {"asha": 12, "bikash": -4, "chetan": -8}
    # no, he had 6 in hand: the surrender goes, -12; asha +20
    reply = await table.ok("/edit hand:1 points:bikash=6")
    assert reply.board.hands[-1]["points"] == {"asha": 20, "bikash": -12, "chetan": -8}
    # chetan showed, not asha: chetan's points go; asha must be given hers
    assert "Give the points in hand for asha" in await table.error("/edit hand:1 winner:chetan")
    reply = await table.ok("/edit hand:1 winner:chetan points:asha=1")
    # asha 1 -> -2, bikash 6 -> -12; chetan +14
    assert reply.board.hands[-1]["points"] == {"asha": -2, "bikash": -12, "chetan": 14}


async def test_points_in_hand_are_at_most_what_the_cards_can_count(table: Table):
    await table.ok("/newgame marriage_rummy players:asha bikash chetan")
    # 21 cards dealt, one more drawn before the show, 10 at most each: 220
    assert "chetan's points must be between 0 and 220, not 400" in await table.error(
        "/hand winner:asha points:bikash=25 chetan=400")  # 40, typed tired
    assert (await table.board())["hand_count"] == 0
    reply = await table.ok("/hand winner:asha points:bikash=25 chetan=220")
    # no honours; x2: bikash -50, chetan -440, asha +490
    assert reply.board.hands[-1]["points"] == {"asha": 490, "bikash": -50, "chetan": -440}
    await table.ok("/rules cards:13")  # 14 cards at most: 140
    assert "between 0 and 140, not 150" in await table.error(
        "/hand winner:asha points:bikash=150 chetan=3")
