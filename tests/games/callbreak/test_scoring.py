"""Call Break's round score: worked examples from the rules, written out by hand, and
properties over every valid round. Scores are tenths: 32 is 3.2 points."""

from decimal import Decimal

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


def rule_score(bid: int, took: int, scoring: Scoring) -> Decimal:
    """One player's round in points, from the rules as written (the game's docstring), not
    from the bot's code: a call made scores the call, plus 0.1 for each trick over it when
    overtricks are on; with eight_is_13 a made call of 8 or more is worth 13 (the 0.1s still
    count); a call not made costs the call, or with miss:short the tricks short."""
    if took < bid:
        return -Decimal(bid - took if scoring.miss == "short" else bid)
    worth = 13 if scoring.eight_is_13 and bid >= 8 else bid
    over = took - bid if scoring.overtricks else 0
    return worth + over * Decimal("0.1")


@given(tricks_13, bids_1_8, scorings)
def test_every_valid_round_scores_each_player_as_the_rules_say(tricks, bids, scoring):
    """Catches: overtricks dropped from a made bid, a miss costing the tricks short where it
    costs the bid (or the other way), eight_is_13 ignored, a lost minus sign, and two
    players' tricks swapped (each verified by planting it)."""
    assert sum(tricks) == 13
    seats = dict(enumerate(bids, 1)), dict(enumerate(tricks, 1))
    scores = round_scores(*seats, scoring, 1, 8)
    assert list(scores) == [1, 2, 3, 4]
    for bid, took, score in zip(bids, tricks, scores.values(), strict=True):
        assert Decimal(score) / 10 == rule_score(bid, took, scoring), (bid, took)


@given(st.integers(1, 13), st.integers(0, 12))
def test_a_made_bid_scores_the_bid_plus_a_tenth_for_each_overtrick(bid, over):
    """Catches: overtricks dropped from a made bid (verified by planting it)."""
    took = min(bid + over, 13)
    k = took - bid
    # the usual table: bid + k/10, in tenths bid x 10 + k
    assert player_score(bid, took, COMMON) == bid * 10 + k
    assert player_score(bid, took, Scoring(overtricks=False)) == bid * 10


@given(tricks_13, st.integers(0, 3), st.data())
def test_tricks_that_do_not_add_up_to_13_are_refused(tricks, who, data):
    """Catches: a round whose tricks add up to less than 13 accepted (verified by planting
    it)."""
    # replace one player's count by any other: the sum is then not 13
    other = data.draw(st.sampled_from([n for n in range(14) if n != tricks[who]]))
    wrong = [*tricks[:who], other, *tricks[who + 1:]]
    with pytest.raises(UserError, match="a round has 13"):
        check_round(dict.fromkeys(range(1, 5), 1), dict(enumerate(wrong, 1)), 1, 13)

