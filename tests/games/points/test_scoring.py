"""A round of points, scored: every expected number is worked out here from the rule the
test names, never read from the bot."""

import pytest

from bot.core.errors import UserError
from bot.core.games.points.scoring import Scoring, score_round

ASHA, BIKASH, CHETAN, DEV = 1, 2, 3, 4


def test_points_as_typed_are_the_round():
    assert score_round({ASHA: 12, BIKASH: -3, CHETAN: 0}, Scoring()).deltas == {
        ASHA: 12, BIKASH: -3, CHETAN: 0}


def test_the_winner_takes_the_others_points_zero_sum():
    # issue 37: winner:asha bikash=12 chetan=7 gives bikash -12, chetan -7, asha +19
    scored = score_round({BIKASH: 12, CHETAN: 7}, Scoring(winner_takes="yes"), winner=ASHA)
    assert scored.deltas == {ASHA: 19, BIKASH: -12, CHETAN: -7}
    assert sum(scored.deltas.values()) == 0


def test_the_winner_scores_the_others_cards_uno():
    # Uno: the winner scores what is left in the others' hands, they score nothing.
    # ask.com's example: a 3, a 4 and two 5s left are 3 + 4 + 5 + 5 = 17
    scored = score_round({BIKASH: 3 + 4, CHETAN: 5 + 5}, Scoring(winner_takes="sum"),
                         winner=ASHA)
    assert scored.deltas == {ASHA: 17, BIKASH: 0, CHETAN: 0}


def test_a_winner_is_needed_where_the_winner_takes():
    with pytest.raises(UserError, match="Say who won"):
        score_round({BIKASH: 12}, Scoring(winner_takes="yes"))
    with pytest.raises(UserError, match="0 or more"):
        score_round({BIKASH: -12}, Scoring(winner_takes="yes"), winner=ASHA)


def test_zero_sum_refuses_a_round_that_does_not_add_up():
    assert score_round({ASHA: 5, BIKASH: -5}, Scoring(zero_sum=True)).deltas == {
        ASHA: 5, BIKASH: -5}
    with pytest.raises(UserError, match="add up to 1"):
        score_round({ASHA: 5, BIKASH: -4}, Scoring(zero_sum=True))


def test_shooting_the_moon_gives_each_other_player_26():
    # Hearts (hearts-online.org): all 13 hearts and the queen of spades, 13 + 13 = 26:
    # the shooter scores 0 and 26 is added to each other player
    scored = score_round({ASHA: 26, BIKASH: 0, CHETAN: 0, DEV: 0}, Scoring(moon=26))
    assert scored.moon == ASHA
    assert scored.deltas == {ASHA: 0, BIKASH: 26, CHETAN: 26, DEV: 26}


def test_the_moon_taken_off_the_shooter_instead():
    # digiworksnow.com: in some circles the shooter takes 26 off their own score instead
    scored = score_round({ASHA: 26, BIKASH: 0, CHETAN: 0, DEV: 0},
                         Scoring(moon=26, moon_to="self"))
    assert scored.deltas == {ASHA: -26, BIKASH: 0, CHETAN: 0, DEV: 0}


def test_a_round_short_of_the_moon_is_scored_as_typed():
    # 13 hearts but the queen elsewhere: 13 and 13, no moon
    scored = score_round({ASHA: 13, BIKASH: 13, CHETAN: 0, DEV: 0}, Scoring(moon=26))
    assert scored.moon is None
    assert scored.deltas == {ASHA: 13, BIKASH: 13, CHETAN: 0, DEV: 0}


def test_a_show_that_holds_scores_nothing():
    # Jhyap (Wikipedia): the one who shows, if nobody counter-shows, gets no score; all
    # the others score their hand count
    shown = score_round({ASHA: 3, BIKASH: 12, CHETAN: 7}, Scoring(show_penalty=25,
                                                                  show_max=5), show=ASHA)
    assert shown.show_held is True
    assert shown.deltas == {ASHA: 0, BIKASH: 12, CHETAN: 7}


def test_a_show_equalled_is_caught_and_pays_the_penalty():
    # Jhyap (Wikipedia): "if he has a count of 3 when he jhyapped, and someone else
    # counter jhyapped him with 3 or less, he gets 28 for that hand": 3 + 25
    shown = score_round({ASHA: 3, BIKASH: 3, CHETAN: 9}, Scoring(show_penalty=25), show=ASHA)
    assert shown.show_held is False
    assert shown.deltas == {ASHA: 28, BIKASH: 3, CHETAN: 9}


def test_the_lowest_hand_that_catches_a_show_scores_zero_where_the_table_says():
    # yanivgame.com: the winner (the lowest hand) 0, the caught caller the hand + 30
    shown = score_round({ASHA: 5, BIKASH: 2, CHETAN: 9},
                        Scoring(show_penalty=30, caught_zero=True), show=ASHA)
    assert shown.deltas == {ASHA: 35, BIKASH: 0, CHETAN: 9}


def test_a_show_above_the_most_a_hand_may_hold_is_refused():
    with pytest.raises(UserError, match="5 or less"):
        score_round({ASHA: 6, BIKASH: 12}, Scoring(show_penalty=25, show_max=5), show=ASHA)
