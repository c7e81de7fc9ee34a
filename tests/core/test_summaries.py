"""A summary is left out of a hand's row only when scoring the hand again gives the same
text as kept (bot/core/summaries.py): `same` says so exactly as comparing the kept forms."""

from __future__ import annotations

from decimal import Decimal

import pytest

from bot.core.i18n.text import Joined, Kept, Msg, Num, encode
from bot.core.summaries import same

WON = Msg("{winner} won", {"winner": "alice"})
MAAL = Joined((Msg("maal {amounts}", {"amounts": Joined(("bob ", Num(Decimal(18))), "")}),), "; ")
CASES = [
    (WON, Msg("{winner} won", {"winner": "alice"})),
    (WON, Msg("{winner} won", {"winner": "bob"})),
    (WON, Msg("{winner} won", {"winner": "alice", "extra": 1})),
    (MAAL, Joined((Msg("maal {amounts}", {"amounts": Joined(("bob ", Num(Decimal(18))),
                                                            "")}),), "; ")),
    (Num(Decimal("1.0")), Num(Decimal("1"))),  # equal numbers, written apart
    (Num(Decimal(1), signed=True), Num(Decimal(1))),
    (Joined(("a", "b"), ", "), Joined(("a", "b"), "; ")),
    (Msg("{n} hand", {"n": 2}, "{n} hands", 2), Msg("{n} hand", {"n": 2}, "{n} hands", 3)),
    (Msg("x", {"n": 1}, None, 1), Msg("x", {"n": 1}, None, 2)),  # n unkept without plural
    ("alice won", WON),
    (1, 1.0),
    (Kept(encode(WON)), WON),
    ("plain", "plain"),
]


@pytest.mark.parametrize(("a", "b"), CASES)
def test_same_is_equal_kept_forms(a, b):
    assert same(a, b) == (encode(a) == encode(b)) == same(b, a)


def test_the_cases_hold_both_answers():
    answers = {same(a, b) for a, b in CASES}
    assert answers == {True, False}
