"""Call Break's round score: worked examples from the rules, written out by hand, and
properties over every valid round. Scores are tenths: 32 is 3.2 points."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.errors import UserError
from bot.core.games.callbreak.scoring import Scoring, check_round, player_score, round_scores

COMMON = Scoring()  # the defaults: +0.1 a trick over, minus the bid when short


def test_the_worked_round():
    # bids 3 4 2 3, tricks 5 2 3 3 (5+2+3+3 = 13):
    # alice made 3 with 2 over: 3 + 0.2 = 3.2; bob took 2 of 4: minus the bid, -4;
    # carol made 2 with 1 over: 2.1; dave made 3 exactly: 3.0
    bids = {1: 3, 2: 4, 3: 2, 4: 3}
    tricks = {1: 5, 2: 2, 3: 3, 4: 3}
    assert round_scores(bids, tricks, COMMON) == {1: 32, 2: -40, 3: 21, 4: 30}


@pytest.mark.parametrize(("bid", "took", "tenths"), [
    (4, 4, 40),  # exactly the call: the call
    (4, 5, 41),  # one over: +0.1
    (5, 3, -50),  # short: minus the call, however close
    (1, 0, -10),
    (1, 13, 22),  # all 13 on a call of 1: 1 + 12 x 0.1 = 2.2
    (13, 13, 130),
    (8, 7, -80),
])
def test_one_player(bid, took, tenths):
    assert player_score(bid, took, COMMON) == tenths


def test_overtricks_ignored():
    # tables that pay the call only: bid 3, took 5 is 3, not 3.2; a miss is unchanged
    flat = Scoring(overtricks=False)
    assert player_score(3, 5, flat) == 30
    assert player_score(3, 2, flat) == -30


def test_a_miss_that_costs_the_tricks_short():
    # the A23 table: bid 4, took 2 is 2 short: -2 (not -4); made bids as usual
    short = Scoring(miss="short")
    assert player_score(4, 2, short) == -20
    assert player_score(4, 0, short) == -40
    assert player_score(4, 6, short) == 42


def test_eight_or_more_made_is_13():
    big = Scoring(eight_is_13=True)
    assert player_score(8, 8, big) == 130  # made 8: worth 13
    assert player_score(9, 10, big) == 131  # made 9 with one over: 13 + 0.1
    assert player_score(7, 8, big) == 71  # below 8: as usual
    assert player_score(8, 7, big) == -80  # not made: minus the bid, not minus 13


@pytest.mark.parametrize(("bids", "tricks", "message"), [
    ({1: 3, 2: 3, 3: 3, 4: 3}, {1: 3, 2: 3, 3: 3, 4: 3}, "add up to 12"),
    ({1: 3, 2: 3, 3: 3, 4: 3}, {1: 4, 2: 4, 3: 3, 4: 3}, "add up to 14"),
    ({1: 9, 2: 1, 3: 1, 4: 1}, {1: 10, 2: 1, 3: 1, 4: 1}, "A bid is 1 to 8, not 9"),
    ({1: 3, 2: 3, 3: 3}, {1: 3, 2: 3, 3: 3, 4: 4}, "Every player needs"),
])
def test_rounds_that_cannot_be(bids, tricks, message):
    with pytest.raises(UserError, match=message):
        check_round(bids, tricks, 1, 8)


# --- properties: valid rounds are generated directly, none filtered away ---------------

# 13 tricks shared by 4 players: three cuts in 0..13, sorted, give the four shares
tricks_13 = st.lists(st.integers(0, 13), min_size=3, max_size=3).map(
    lambda cuts: [b - a for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), 13], strict=True)])
bids_1_8 = st.lists(st.integers(1, 8), min_size=4, max_size=4)
scorings = st.builds(Scoring, st.booleans(), st.sampled_from(["bid", "short"]), st.booleans())


@given(tricks_13, bids_1_8, scorings)
def test_every_valid_round_scores_each_player_by_their_own_bid(tricks, bids, scoring):
    assert sum(tricks) == 13
    seats = dict(enumerate(bids, 1)), dict(enumerate(tricks, 1))
    scores = round_scores(*seats, scoring, 1, 8)
    for bid, took, score in zip(bids, tricks, scores.values(), strict=True):
        if took >= bid:
            # a made bid scores at least the bid, and at most 13 plus a tenth a trick over
            assert score >= bid * 10
            assert score <= 130 + (took - bid)
            if not scoring.overtricks and not scoring.eight_is_13:
                assert score == bid * 10
        else:
            # a bid not made always costs, at most the bid
            assert -bid * 10 <= score < 0


@given(tricks_13, st.integers(0, 3), st.data())
def test_tricks_that_do_not_add_up_to_13_are_refused(tricks, who, data):
    # replace one player's count by any other: the sum is then not 13
    other = data.draw(st.sampled_from([n for n in range(14) if n != tricks[who]]))
    wrong = [*tricks[:who], other, *tricks[who + 1:]]
    with pytest.raises(UserError, match="a round has 13"):
        check_round(dict.fromkeys(range(1, 5), 1), dict(enumerate(wrong, 1)), 1, 13)

