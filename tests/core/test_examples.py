"""Examples in replies name the table's own players, and never one person as the whole
example."""

from __future__ import annotations

from bot.core.examples import for_each, personal
from tests.conftest import Table

USAGE = "/hand winner:alice seen:bob maal:alice=10 bob=5 [foul:dave]"


def test_an_example_names_the_tables_players_going_round_again():
    assert personal(USAGE, ["ram", "sita", "hari"]) == \
        "/hand winner:ram seen:sita maal:ram=10 sita=5 [foul:ram]"
    assert personal(USAGE, ["ram", "sita"]) == \
        "/hand winner:ram seen:sita maal:ram=10 sita=5 [foul:sita]"


def test_one_name_alone_leaves_the_example_as_it_is():
    assert personal(USAGE, ["host"]) == USAGE
    assert personal(USAGE, []) == USAGE


async def test_a_game_started_alone_shows_an_example_of_two_people(table: Table):
    started = await table.ok("/newgame marriage")  # only the sender sits; others /join
    assert "Players: host. Others sit down with /join (at least 2 players)." in started.text
    assert "winner:host" not in started.text and "seen:host" not in started.text
    assert "/hand winner:alice seen:bob maal:alice=10 bob=5" in started.text
    helped = await table.ok("/help hand")
    assert "Usage: /hand winner:alice seen:bob" in helped.text
    await table.ok("/join", by="sita")  # two at the table: the example is theirs
    helped = await table.ok("/help hand")
    assert "Usage: /hand winner:host seen:sita maal:host=10 sita=5" in helped.text


def test_an_example_never_gives_one_person_a_number_twice():
    # two players: the third pair would be the first player's again, which /round refuses
    usage = "/round asha=12 bikash=-3 chetan=0   /round winner:asha bikash=12 chetan=7"
    assert personal(usage, ["ram", "sita"]) == \
        "/round ram=12 sita=-3   /round winner:ram sita=12"
    assert personal(usage, ["ram", "sita", "hari"]) == \
        "/round ram=12 sita=-3 hari=0   /round winner:ram sita=12 hari=7"
    assert personal("/hand winner:alice seen:bob maal:alice=10 bob=2 carol=0",
                    ["ram", "sita"]) == "/hand winner:ram seen:sita maal:ram=10 sita=2"


async def test_a_two_player_game_of_points_is_shown_an_example_it_takes(table: Table):
    started = await table.ok("/newgame points players:ram sita")
    # two numbers in seat order, not three; no winner: where the winner takes nothing
    assert "/round ram=12 sita=-3   /round 12 -3 (seat order)" in started.text
    await table.ok("/round 12 -3")  # the example as shown is taken
    await table.ok("/rules winner_takes:sum")
    said = await table.error("/round ram=12 sita=-3")
    assert said.endswith("/round winner:ram sita=12")  # the one way Uno's rounds are taken


def test_an_example_gives_a_number_to_each_of_the_table():
    usage = "/round asha=12 bikash=-3 chetan=0"
    names = ["asha", "bikash", "chetan", "dev", "esha"]
    # past the example's own numbers, its own again after the first
    assert for_each(usage, names) == "/round asha=12 bikash=-3 chetan=0 dev=-3 esha=0"
    assert for_each("/round 12 -3 0 (seat order)", names[:2]) == "/round 12 -3 (seat order)"
    assert for_each("/hand winner:asha points:bikash=25 chetan=40", names[1:4],
                    key="points") == "/hand winner:asha points:bikash=25 chetan=40 dev=40"
