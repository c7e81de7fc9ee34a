"""A season's ranking as a phone shows it: a table where it fits 34 columns, else a few
lines a person, never wider."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.games import get_game
from bot.core.seasons import Ranking, render
from bot.core.width import width

TRANCA = get_game("tranca")


def _ranking(header: list[str], rows: list[list[str]], column: int) -> Ranking:
    return Ranking(TRANCA, "games won", header, rows, [(r[1], 0.0) for r in rows], column)


def test_a_table_that_fits_stays_a_table():
    ranking = _ranking(["#", "player", "wins", "points"],
                       [["1", "alice", "2", "+925"], ["2", "bob", "0", "+40"]], 2)
    assert render(ranking).splitlines() == [
        "#  player  wins  points",
        "1  alice      2    +925",
        "2  bob        0     +40"]


def test_one_too_wide_is_a_few_lines_a_person_with_the_ranked_figure_first():
    header = ["#", "player", "games", "result", "avg place", "busts"]
    rows = [["1", "alice", "3", "+46.6", "1.33", "0"], ["2", "bob", "3", "-46.6", "3.67", "1"]]
    # "   games 3, avg place 1.33, busts 0" would be 35 columns: it breaks between pairs,
    # its comma kept at the end
    assert render(_ranking(header, rows, 3)).splitlines() == [
        "1. alice  +46.6",
        "   games 3, avg place 1.33,",
        "   busts 0",
        "2. bob  -46.6",
        "   games 3, avg place 3.67,",
        "   busts 1"]
    # on a screen one column wider, each fits on one line
    assert render(_ranking(header, rows, 3), columns=35).splitlines()[1] == \
        "   games 3, avg place 1.33, busts 0"


def test_a_name_in_devanagari_is_measured_as_it_shows():
    # राम: three letters on screen (र, ा a vowel sign of no width, म): the table fits
    ranking = _ranking(["#", "player", "wins"], [["1", "राम", "2"], ["2", "bob", "1"]], 2)
    assert render(ranking).splitlines() == ["#  player  wins", "1  राम" + " " * 9 + "2",
                                            "2  bob        1"]


names = st.text(st.characters(codec="utf-8", categories=["L", "M", "N"]), min_size=1,
                max_size=40)
figures = st.from_regex(r"[+-]?[0-9]{1,7}(\.[0-9]{2})?", fullmatch=True)


@given(st.lists(st.tuples(names, figures, figures, figures), min_size=1, max_size=6),
       st.integers(2, 8))
def test_no_line_is_wider_than_a_phone(people, extra):
    """Catches: a narrow layout that still runs past 34 columns (a long name, a wide
    letter, many figures)."""
    header = ["#", "player", "score", *(f"col{i}" for i in range(extra))]
    rows = [[str(i), name, a, *([b, c] * extra)[:extra]]
            for i, (name, a, b, c) in enumerate(people, 1)]
    text = render(_ranking(header, rows, 2))
    assert all(width(line) <= 34 for line in text.splitlines())
