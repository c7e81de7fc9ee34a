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


# --- a board that fits a phone: 34 monospace columns (issue 30) ------------------------

from decimal import Decimal  # noqa: E402

import pytest  # noqa: E402

from bot.core.board import PHONE_WIDTH  # noqa: E402
from bot.core.width import clip, clusters, width  # noqa: E402

LONGEST = "abcdefghijklmnopqrstuvwx"  # a typed name's most: 24 characters
ACCOUNT = "a_display_name_of_32_characters_"  # an account's, as Telegram allows


def big_board(names: list[str], currencies: tuple[str, ...] = ("Rs",),
              lang: str = "en") -> str:
    """Three hands of large points (five digits each) and money of seven digits and cents."""
    keys = range(len(names))
    hands = [hand(no, {k: (-1) ** k * (12_345 * no + k) for k in keys}) for no in (1, 2, 3)]
    totals = {k: sum(h.deltas[k] for h in hands) for k in keys}
    money = {c: {k: Decimal(totals[k]) * Decimal("12.25") for k in keys} for c in currencies}
    return render_table(list(enumerate(names)), hands, totals, money, 3,
                        tr=translator(lang))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", [LONGEST, ACCOUNT, "अभिषेक्षत्रियसिंहठकुरी"])
@pytest.mark.parametrize("lang", ["en", "hi", "pt-BR"])
def test_up_to_six_players_fit_a_phone(players: int, name: str, lang: str):
    names = [f"{name[:-1]}{i}" for i in range(players)]
    table = big_board(names, lang=lang)
    assert max(width(line) for line in table.splitlines()) <= PHONE_WIDTH, table
    # each player's total is there: 12,345 x (1 + 2 + 3) = 74,070 (+ 3 x their seat)
    pattern = {"en": "{sign}{n:,}", "hi": "{sign}{n:,}", "pt-BR": "{sign}{n:_}"}[lang]
    for i in range(players):
        total = pattern.format(sign="+" if i % 2 == 0 else "-", n=74_070 + 3 * i)
        assert total.replace("_", ".") in table  # pt-BR groups with "."
    if players > 2:  # a line each: a name too wide is cut on a letter's boundary
        for line, full in zip(table.splitlines()[1:], names, strict=True):
            shown = line.split()[0]
            assert len(line.split()) == 3
            assert shown == full or (shown.endswith("…") and full.startswith(shown[:-1]))


@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_seven_to_ten_players_get_a_line_each_with_total_last_hand_and_money(players: int):
    names = [f"player_{i}" for i in range(players)]
    table = big_board(names).splitlines()
    assert max(width(line) for line in table) <= PHONE_WIDTH
    assert table[0].split() == ["Σ", "Rs"]  # the money kept beside the total, the names
    # whole: the last hand's column gives way first
    for i, line in enumerate(table[1:]):
        cells = line.split()
        # total 74,070 + 3i; money 12.25 a point: (74,070 + 3i) x 12.25
        sign = "+" if i % 2 == 0 else "-"
        total = 74_070 + 3 * i
        assert cells == [f"player_{i}", f"{sign}{total:,}",
                         f"{sign}{Decimal(total) * Decimal('12.25'):,.2f}"]
    # small numbers leave room for the last hand too: hand 1's points here
    small = render_table(list(enumerate(names)), [hand(1, {k: k - 4 for k in
                                                               range(players)})],
                         {k: k - 4 for k in range(players)},
                         {"Rs": {k: Decimal(k - 4) for k in range(players)}}, 1)
    lines = small.splitlines()
    assert lines[0].split() == ["Σ", "#1", "Rs"]
    assert lines[1].split() == ["player_0", "-4", "-4", "-4"]
    assert max(width(line) for line in lines) <= PHONE_WIDTH


def test_two_currencies_go_under_each_name_when_they_dont_fit_beside_it():
    table = big_board([f"player{i}" for i in range(8)], ("Rs", "$")).splitlines()
    assert max(width(line) for line in table) <= PHONE_WIDTH
    assert table[1].split()[:2] == ["player0", "+74,070"]
    # 74,070 x 12.25 = 907,357.50 in each currency, each named
    assert "Rs +907,357.50" in table[2] and "$ +907,357.50" in "\n".join(table[2:4])


def test_the_wide_table_where_it_fits():
    table = board(fresh_hands(), "en").splitlines()
    assert table[0].split() == ["#", "asha", "bikash", "chandra"]
    assert max(map(len, table)) <= PHONE_WIDTH


def test_widths_count_wide_letters_twice_and_marks_not_at_all():
    assert width("सीता") == 2  # स ी त ा: the vowel signs are combining marks
    assert width("क्ष") == 2  # क ् ष: the virama takes no column
    assert width("名前") == 4
    assert width("alice") == 5


def test_a_name_is_cut_between_letters_never_inside_one():
    assert clusters("क्षत्रिय") == ["क्ष", "त्रि", "य"]
    for limit in range(2, 8):
        cut = clip("अभिषेक्षत्रिय", limit)
        assert width(cut) <= limit and cut.endswith("…")
        kept = cut[:-1]
        assert "अभिषेक्षत्रिय".startswith(kept)
        # never a dangling virama or a vowel sign cut from its letter
        rest = "अभिषेक्षत्रिय"[len(kept):]
        assert not rest or not ("\u093e" <= rest[0] <= "\u094d")

