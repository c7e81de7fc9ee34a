"""The board's table: each hand's row is written once per columns, places and language and
then reused (issue 18), so a board must read the same whether its rows were just written or
kept from an earlier board in another language or with other columns."""

from __future__ import annotations

from bot.core.board import render_table
from bot.core.i18n import translator
from bot.core.session import HandRecord

COLUMNS = [(0, "asha"), (1, "bikash"), (2, "chandra")]


def hand(no: int, deltas: dict[int, int]) -> HandRecord:
    return HandRecord(no=no, players=[0, 1, 2], inputs={}, rules={}, deltas=deltas,
                      summary="", recorded_by="t", recorded_by_name="t")


def fresh_hands() -> list[HandRecord]:
    return [hand(1, {0: 1200, 1: -600, 2: -600}), hand(2, {0: -3, 1: 0, 2: 3})]


def board(hands: list[HandRecord], lang: str, columns=COLUMNS, places: int = 0) -> str:
    totals = {0: 1197, 1: -600, 2: -597}
    return render_table(columns, hands, totals, {}, len(hands), places, tr=translator(lang))


def cells(table: str) -> list[list[str]]:
    return [line.split() for line in table.splitlines()]


def test_rows_are_written_as_each_language_writes_numbers():
    hands = fresh_hands()
    english = board(hands, "en")
    # the rows, as each language writes 1200 and its sign (CLDR: "," and "." group)
    assert cells(english)[1:3] == [["1", "+1,200", "-600", "-600"], ["2", "-3", "0", "+3"]]
    portuguese = board(hands, "pt-BR")  # the same records, already shown in English
    assert cells(portuguese)[1] == ["1", "+1.200", "-600", "-600"]
    assert board(hands, "en") == english == board(fresh_hands(), "en")
    assert board(hands, "pt-BR") == portuguese == board(fresh_hands(), "pt-BR")


def test_rows_follow_the_columns_and_the_places():
    hands = fresh_hands()
    board(hands, "en")
    swapped = [(2, "chandra"), (1, "bikash"), (0, "asha")]
    assert cells(board(hands, "en", swapped))[1] == ["1", "-600", "-600", "+1,200"]
    # tenths (Call Break's places): 1200 tenths are 120.0
    assert cells(board(hands, "en", places=1))[1] == ["1", "+120.0", "-60.0", "-60.0"]


def test_a_seat_without_points_is_an_empty_cell_that_lines_up():
    table = board([hand(1, {0: 5, 2: -5})], "en").splitlines()
    assert table[1].split() == ["1", "+5", "-5"]
    assert len({len(line) for line in table}) == 1  # every line padded to the same width
