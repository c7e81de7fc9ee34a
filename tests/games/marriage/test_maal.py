"""Cards as people type them, and maal counted from cards (worked examples)."""

import pytest

from bot.core.cards import PRINTED_JOKER, Card, next_rank, parse_card, parse_cards, previous_rank
from bot.core.errors import UserError
from bot.core.games.marriage.maal import (
    ALTER_OFF,
    ALTER_OPPOSITE,
    MaalRoles,
    count_maal,
    value_for,
)
from bot.core.games.marriage.maal_table import preset_table
from tests.conftest import Table


@pytest.mark.parametrize(("text", "card"), [
    ("8H", Card(8, "H")), ("8h", Card(8, "H")), ("8♥", Card(8, "H")), ("8♥️", Card(8, "H")),
    ("10c", Card(10, "C")), ("Tc", Card(10, "C")), ("QS", Card(12, "S")), ("Ah", Card(1, "H")),
    ("k♦", Card(13, "D")), ("jk", PRINTED_JOKER), ("Joker", PRINTED_JOKER),
])
def test_cards_are_read_as_typed(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["1H", "11S", "8X", "H8", "🎲", "10", "", "8HH"])
def test_cards_that_do_not_exist_name_the_card(text):
    with pytest.raises(UserError, match="is not a card"):
        parse_card(text)


def test_lists_and_copies():
    assert parse_cards("8H, 9h 7♥,10c") == [Card(8, "H"), Card(9, "H"), Card(7, "H"),
                                             Card(10, "C")]
    with pytest.raises(UserError, match="8H appears 4 times, but 3 packs hold only 3"):
        parse_cards("8H 8H 8H 8h")
    assert len(parse_cards("8H 8H 8H 8H", packs=4)) == 4
    with pytest.raises(UserError, match="not in play"):
        parse_cards("jk")
    with pytest.raises(UserError, match="only 3 printed jokers"):
        parse_cards("jk jk jk jk", printed_jokers=True)


def test_poplu_and_jhiplu_wrap_round_the_ace():
    assert next_rank(13) == 1 and next_rank(1) == 2  # ace above king, two above ace
    assert previous_rank(1) == 13 and previous_rank(2) == 1
    roles = MaalRoles(Card(13, "S"))
    assert roles.poplu == Card(1, "S") and roles.jhiplu == Card(12, "S")


def test_table_values_beyond_the_table():
    assert value_for([5], 3) == 15  # a tunnella is 5 each
    assert value_for([5, 15, 30], 4) == 35
    assert value_for([], 2) == 0
    assert value_for([3, 7], 1) == 3 and value_for([3, 7], 2) == 7


PAGAT = preset_table("pagat")
HOUSE = preset_table("house")
TIPLU = MaalRoles(Card(8, "H"))


def maal(cards: str, roles=TIPLU, table=PAGAT, tunnellas: str = "", jokers=False):
    shown = parse_cards(tunnellas) if tunnellas else []
    return count_maal(parse_cards(cards, printed_jokers=jokers), roles, table, shown)


def test_the_issues_example_marriage_and_a_tiplu():
    result = maal("8H 8H 9H 7H 8D")
    assert str(result.breakdown()) == "marriage 10 + tiplu 3 = 13"


def test_pagat_table_rows():
    assert maal("9H").points == 2 and maal("9H 9H").points == 5 and maal("9H 9H 9H").points == 10
    assert maal("7H 7H").points == 5
    assert maal("8H").points == 3 and maal("8H 8H").points == 7
    assert str(maal("7H 8H 9H 7H 8H 9H").breakdown()) == "2 marriages 30 = 30"
    assert maal("2C 5D KS").points == 0 and str(maal("2C").breakdown()) == "no maal = 0"


def test_the_breakdown_that_scores_most_is_chosen():
    # house: marriage 10 + tiplu 3 + 2 poplu 5 = 18, but 2 tiplu 8 + 3 poplu 10 + jhiplu 2 = 20
    assert str(maal("8H 8H 9H 9H 9H 7H", table=HOUSE).breakdown()) == \
        "2 tiplu 8 + 3 poplu 10 + jhiplu 2 = 20"


def test_tunnellas_shown_at_the_deal():
    # 5S tunnella 5, 8D ordinary-joker tunnella 10, 9H poplu tunnella 20 (pagat)
    result = maal("8H 8H 9H 9H 9H 7H 8D 8D 8D 5S 5S 5S", tunnellas="9H 8D 5S")
    assert result.points == 20 + 10 + 5 + 7 + 2
    with pytest.raises(UserError, match="needs three 5S"):
        maal("5S 5S", tunnellas="5S")


def test_alter_and_man():
    clubroyale = preset_table("clubroyale")
    assert str(maal("8D", table=clubroyale).breakdown()) == "alter 5 = 5"  # same colour as 8H
    assert maal("8S", table=clubroyale).points == 0
    opposite = MaalRoles(Card(8, "H"), ALTER_OPPOSITE)
    assert maal("8S 8C", roles=opposite, table=clubroyale).points == 10
    assert maal("8D", roles=MaalRoles(Card(8, "H"), ALTER_OFF), table=clubroyale).points == 0
    assert str(maal("jk jk", table=HOUSE, jokers=True).breakdown()) == "2 man 15 = 15"


async def test_counting_maal_with_no_cards_given_asks_for_them(table: Table):
    # "cards:" typed with nothing after it is no hand of cards, not one worth 0
    for line in ("/maal tiplu:8H cards:", "/maal tiplu:8H cards:   ", "/maal tiplu:8H"):
        assert (await table.error(line)).startswith("Give the cards too")
