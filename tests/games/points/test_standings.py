"""Where a game of points stands, worked out by hand: ends, eliminations, places, the
money per place."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from bot.core.games.points.standings import (
    Race,
    knocked_out,
    outcome,
    place_shares,
    places,
)

A, B, C, D = 1, 2, 3, 4
COLUMNS = [A, B, C, D]


def test_the_first_to_the_target_wins_the_highest_if_more_reach_it():
    race = Race(target=500)
    assert outcome(COLUMNS, {A: 480, B: 499, C: 0, D: 3}, {}, 7, race).over is False
    # Rummy 500: if two reach 500 on the same hand, the higher wins
    done = outcome(COLUMNS, {A: 505, B: 530, C: 0, D: 3}, {}, 8, race)
    assert done.over and done.winners == (B,)


def test_a_tie_past_the_target_plays_another_round():
    done = outcome(COLUMNS, {A: 510, B: 510, C: 0, D: 3}, {}, 8, Race(target=500))
    assert not done.over and done.tied == (A, B)


def test_the_lowest_total_wins_when_someone_reaches_the_target():
    # Hearts: the game ends when a player reaches 100; the lowest score wins
    race = Race(lowest_wins=True, target=100)
    done = outcome(COLUMNS, {A: 101, B: 40, C: 62, D: 23}, {}, 9, race)
    assert done.over and done.winners == (D,)


def test_rounds_end_the_game_and_a_tie_shares_the_win():
    race = Race(rounds=5)
    assert not outcome(COLUMNS, {A: 10}, {}, 4, race).over
    done = outcome(COLUMNS, {A: 10, B: 10, C: 3, D: 0}, {}, 5, race)
    assert done.over and done.winners == (A, B)


def test_a_game_with_no_end_plays_on():
    assert not outcome(COLUMNS, {A: 10**6}, {}, 400, Race()).over


def test_reaching_the_limit_knocks_a_player_out_the_last_one_in_wins():
    # Jhyap: every player who reaches 100 gets out; the only one who does not wins
    race = Race(lowest_wins=True, target=100, eliminates=True)
    out = knocked_out(COLUMNS, {A: 100, B: 99, C: 20, D: 130}, {}, 6, race)
    assert out == {A: 6, D: 6}  # 100 reaches it: out; 99 does not
    assert not outcome(COLUMNS, {}, out, 6, race).over
    out = knocked_out([B, C], {A: 100, B: 104, C: 90, D: 130}, out, 7, race)
    assert out == {A: 6, D: 6, B: 7}
    done = outcome(COLUMNS, {A: 100, B: 104, C: 90, D: 130}, out, 7, race)
    assert done.over and done.winners == (C,)


def test_out_only_past_the_limit_where_the_table_says():
    # pagat's Yaniv: players with more than 200 points drop out
    race = Race(lowest_wins=True, target=200, eliminates=True, passes=True)
    assert knocked_out([A, B], {A: 200, B: 201}, {}, 3, race) == {B: 3}


def test_the_last_ones_out_together_the_lowest_of_them_wins():
    race = Race(lowest_wins=True, target=100, eliminates=True)
    out = {A: 2, B: 5, C: 5}
    done = outcome([A, B, C], {A: 120, B: 118, C: 104}, out, 5, race)
    assert done.over and done.winners == (C,)


def test_places_follow_elimination_then_the_total():
    race = Race(lowest_wins=True, target=100, eliminates=True)
    totals = {A: 130, B: 104, C: 90, D: 100}
    out = {A: 6, D: 6, B: 7}
    # C is in: first; B went out last: second; A and D out together, D's lower total third
    assert places(COLUMNS, totals, out, race) == {C: 1, B: 2, D: 3, A: 4}


def test_places_level_share_the_better():
    assert places(COLUMNS, {A: 30, B: 30, C: 10, D: 50}, {}, Race()) == {
        D: 1, A: 2, B: 2, C: 4}
    assert places(COLUMNS, {A: 30, B: 30, C: 10, D: 50}, {}, Race(lowest_wins=True)) == {
        C: 1, A: 2, B: 2, D: 4}


def test_money_per_place_shared_by_those_level():
    # per_place 3 1 -1 -3: A and B level second share 1 and -1: 0 each
    assert place_shares({D: 1, A: 2, B: 2, C: 4}, [3, 1, -1, -3]) == {
        D: Decimal(3), A: Decimal(0), B: Decimal(0), C: Decimal(-3)}
    # three level first of 3 1 -1 -3 share 3 + 1 - 1 = 3: 1 each
    assert place_shares({A: 1, B: 1, C: 1, D: 4}, [3, 1, -1, -3]) == {
        A: Decimal(1), B: Decimal(1), C: Decimal(1), D: Decimal(-3)}
    # 1 split three ways: 0.33 each and the cent left over to the first of them
    shares = place_shares({A: 1, B: 1, C: 1, D: 4}, [2, 0, -1, -1])
    assert shares == {A: Decimal("0.34"), B: Decimal("0.33"), C: Decimal("0.33"),
                      D: Decimal(-1)}


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=8),
       st.lists(st.integers(0, 8), min_size=8, max_size=8))
def test_shares_always_add_up_to_zero(amounts: list[int], ties: list[int]):
    amounts = [*amounts, -sum(amounts)]
    columns = list(range(1, len(amounts) + 1))
    placed = places(columns, {c: ties[(c - 1) % 8] for c in columns}, {}, Race())
    assert sum(place_shares(placed, amounts).values()) == 0
