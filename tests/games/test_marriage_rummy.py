"""Marriage rummy (the Indian variant): the rules page's formulas, and zero-sum always."""

from hypothesis import given
from hypothesis import strategies as st

from bot.core.games.marriage_rummy import RummyHand, RummyScoring, settle_rummy
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
    assert reply.board.hands[-1]["points"] == {"asha": -20, "bikash": 20 + 14 + 10,
                                                  "chetan": -14, "dev": -10}
    await table.ok("/edit hand:2 points:asha=0")
    assert (await table.board())["hands"][-1]["points"]["asha"] == 0
    assert "points in hand for chetan" in await table.error(
        "/hand winner:asha points:bikash=3 dev=1")
    assert "can't also surrender" in await table.error(
        "/hand winner:asha surrender:asha points:bikash=1 chetan=1 dev=1")
    assert "is for Nepali Marriage" in await table.error("/maal 5")
    assert "Marriage rummy" in (await table.ok("/help")).text
