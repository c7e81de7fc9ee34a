"""The club page's data, the parts that are the page's own: a chart's axis (round values
from below the lowest to above the highest, zero among them) and a long history thinned to
what a chart can show, its ends kept. The figures themselves: tests/web/test_club_page.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.club.view import POINTS_SENT, thin, ticks


def test_an_axis_of_round_values():
    assert ticks(-2.76, 4.65) == [-4, -2, 0, 2, 4, 6]
    assert ticks(3.2, 27.9) == [0, 10, 20, 30]
    assert ticks(0.1, 0.4) == [0, 0.5, 1]


@given(st.floats(-60, 60, allow_subnormal=False), st.floats(0, 80, allow_subnormal=False))
def test_the_axis_holds_every_value_and_zero(low: float, span: float):
    axis = ticks(low, low + span)
    assert axis[0] <= min(low, 0) and axis[-1] >= max(low + span, 0)
    assert 0 in axis and axis == sorted(axis) and 2 <= len(axis) <= 12


def test_a_long_history_is_thinned_its_ends_kept():
    line = [[i, float(i)] for i in range(1, 1001)]
    shown = thin(line)
    assert len(shown) == POINTS_SENT and shown[0] == line[0] and shown[-1] == line[-1]
    assert thin(line[:5]) == line[:5]
