"""A tournament's scoring and standings from the rules (bot/core/club/tournament.py).

WRC/EMA: a session score is (points - 30,000) / 1,000 + uma 15/5/-5/-15; tied places split
their uma. M-League: uma 30/10/-10/-30 and the oka of 20 to the first, tied places splitting
both. Penalties go on the tournament score."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from bot.core.club.tournament import (
    SCORINGS,
    Entry,
    Penalty,
    Round,
    Seat,
    Table,
    Tournament,
    csv_text,
    session_scores,
    standings,
)


def test_session_scores_from_the_rules():
    wrc = SCORINGS["wrc"]
    # 45,000 / 30,000 / 15,000 / 10,000: +15 + 15, 0 + 5, -15 - 5, -20 - 15
    assert session_scores([45000, 30000, 15000, 10000], wrc) == [30, 5, -20, -35]
    # two tied second on 27,500: each -2.5 + (5 - 5) / 2
    assert session_scores([45000, 27500, 27500, 20000], wrc) == [
        30, Fraction(-5, 2), Fraction(-5, 2), -25]
    # four tied on 25,000: each -5 + 0
    assert session_scores([25000] * 4, SCORINGS["ema"]) == [-5] * 4
    # M-League: 40,000 / 30,000 / 20,000 / 10,000: +10 + 30 + 20, 0 + 10, -10 - 10, -20 - 30
    assert session_scores([40000, 30000, 20000, 10000], SCORINGS["mleague"]) == [
        60, 10, -20, -50]
    # tied first on 35,000: each +5 + (30 + 10 + 20) / 2
    assert session_scores([35000, 35000, 20000, 10000], SCORINGS["mleague"]) == [
        35, 35, -20, -50]


def _tournament() -> Tournament:
    t = Tournament(1, 1, "Cup", "riichi", "Riichi mahjong", 2, "wrc",
                   entries=[Entry(m, m) for m in "abcd"])
    t.played = [
        Round(1, 1, [Table(1, "t1", [Seat(m, m) for m in "abcd"], 1,
                           [Decimal(x) for x in (45000, 30000, 15000, 10000)])], True),
        Round(2, 2, [Table(1, "t1", [Seat(m, m) for m in "dcba"], 2,
                           [Decimal(x) for x in (45000, 30000, 15000, 10000)])], True)]
    return t


def test_the_standings_add_the_rounds_and_penalties_and_break_ties_by_places():
    t = _tournament()
    # a: +30 -35 = -5 (places 1, 4); d: -35 +30 = -5 (4, 1); b: 5 - 20 = -15; c: -20 + 5
    # = -15. a and d tie on total and on places (5 each) and firsts: by name
    rows = standings(t)
    assert [(r.member, r.total) for r in rows] == [("a", -5), ("d", -5), ("b", -15),
                                                    ("c", -15)]
    t.penalties.append(Penalty("a", Decimal("-2"), "late", 2, "x"))
    rows = standings(t)
    assert [(r.member, r.total) for r in rows] == [("d", -5), ("a", -7), ("b", -15),
                                                    ("c", -15)]
    assert csv_text(t).splitlines() == [
        "place,name,total,round 1,round 2,penalties",
        "1,d,-5.0,-35.0,30.0,0.0", "2,a,-7.0,30.0,-35.0,-2.0",
        "3,b,-15.0,5.0,-20.0,0.0", "3,c,-15.0,-20.0,5.0,0.0"]
