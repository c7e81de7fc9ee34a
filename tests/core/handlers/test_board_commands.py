"""Money hand by hand: each hand at the rate of its time, on the board and at the end."""

from __future__ import annotations

from sqlalchemy import update

from bot.storage.engine.tables import sessions
from tests.conftest import Table

NEW = "/newgame marriage players:alice bob carol"
# n = 3; alice wins with dublees, maal 10, bob seen with 2, carol unseen (murder): P = 12:
# alice 30 - 12 + (3 + 5) + (10 + 5) = +41, bob 6 - 12 - 8 = -14, carol 0 - 12 - 15 = -27
FIRST = "/hand winner:alice seen:bob maal:alice=10 bob=2 dublee:yes"
# bob wins with 4, alice seen with 3, carol unseen; P = 7:
# bob 12 - 7 + 3 + 10 = +18, alice 9 - 7 - 3 = -1, carol 0 - 7 - 10 = -17
SECOND = "/hand winner:bob seen:alice maal:alice=3 bob=4"


async def test_a_rate_changed_mid_game_counts_from_the_next_hand(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok(FIRST)  # 41, -14, -27 at 0.25: 10.25, -3.50, -6.75
    await table.ok("/rules rate:1")
    reply = await table.ok(SECOND)  # 18, -1, -17 at 1
    assert reply.board is not None
    assert reply.board.totals == {"alice": 40, "bob": 4, "carol": -44}
    # hand by hand: alice 10.25 - 1, bob -3.50 + 18, carol -6.75 - 17
    assert reply.board.money == {"alice": 9.25, "bob": 14.5, "carol": -23.75}
    assert reply.table is not None and reply.table.splitlines()[-1].split() == [
        "Rs", "+9.25", "+14.50", "-23.75"]  # one number of decimals a row, signed
    end = await table.ok("/endgame")
    # played for money in one currency, the money decides the order: bob's 4 points made
    # more money than alice's 40
    assert "1. bob +4 points = +14.50 Rs" in end.text
    assert "2. alice +40 points = +9.25 Rs" in end.text
    assert "3. carol -44 points = -23.75 Rs" in end.text
    assert "carol pays bob 14.50 Rs" in end.text and "carol pays alice 9.25 Rs" in end.text
    assert end.board is not None and len(end.board.transfers) == 2


async def test_undo_and_edit_take_a_hands_money_back_at_its_own_rate(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok(FIRST)
    await table.ok("/rules rate:1")
    await table.ok(SECOND)
    undone = await table.ok("/undo reason:test")
    assert undone.board is not None
    assert undone.board.money == {"alice": 10.25, "bob": -3.5, "carol": -6.75}
    # hand 1 again with alice's maal 7: P = 9: alice 21 - 9 + 8 + 15 = +35,
    # bob 6 - 9 - 8 = -11, carol 0 - 9 - 15 = -24; still at its own rate 0.25
    edited = await table.ok("/edit hand:1 maal:alice=7")
    assert edited.board is not None
    assert edited.board.money == {"alice": 8.75, "bob": -2.75, "carol": -6.0}


async def test_currencies_are_never_added_together(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok(FIRST)
    await table.ok("/rules rate:2 currency:$")
    reply = await table.ok(SECOND)
    assert reply.board is not None
    assert reply.board.moneys == {"Rs": {"alice": 10.25, "bob": -3.5, "carol": -6.75},
                                  "$": {"alice": -2, "bob": 36, "carol": -34}}
    end = await table.ok("/endgame")
    assert "alice +40 points = +10.25 Rs, -2 $" in end.text
    assert "carol pays alice 6.75 Rs" in end.text and "carol pays bob 34 $" in end.text


async def test_a_session_kept_before_money_was_kept_gets_it_from_its_hands(table: Table):
    await table.ok(NEW)
    await table.ok("/rules rate:0.25 currency:Rs")
    await table.ok(FIRST)
    async with table.service.store.engine.begin() as conn:  # as a session from before
        await conn.execute(update(sessions).values(money=None))
    board = await table.board()
    assert board["money"] == {"alice": 10.25, "bob": -3.5, "carol": -6.75}


async def test_a_finished_game_can_still_be_looked_at(table: Table):
    assert "No game has been played" in await table.error("/board game:last")
    await table.ok(NEW)
    await table.ok(FIRST)
    end = await table.ok("/endgame")
    assert "/endgame" not in end.text.split("\n", 1)[1]  # nothing tells people to end again
    last = await table.ok("/board last")
    assert (await table.ok("/board game:last")).text == last.text  # the same, as name:value
    assert last.text.startswith("Nepali Marriage: 1 hand (finished)")
    assert last.board is not None and last.board.totals == {"alice": 41, "bob": -14,
                                                            "carol": -27}
    assert last.question is None  # no next hand or undo under a finished game
    assert (await table.ok("/chart last")).file is not None
    assert "alice won with dublees" in (await table.ok("/history 1")).text
    assert "alice won with dublees" in (await table.ok("/history last")).text
    await table.ok("/newgame tranca teams:ana+bia caio+davi")
    assert (await table.ok("/board 1")).board.game == "marriage"  # type: ignore[union-attr]
    assert "a number from 1 to 2" in await table.error("/board game:7")


async def test_the_game_just_ended_is_still_there_until_the_next_one_starts(table: Table):
    assert "No game is open here" in await table.error("/board")
    assert "No game is open here" in await table.error("/export")
    await table.ok(NEW)
    await table.ok(FIRST)
    await table.ok("/endgame")
    # right after /endgame, the look-back commands show that game without `last`
    board = await table.ok("/board")
    assert board.text.startswith("Nepali Marriage: 1 hand (finished)")
    assert board.board is not None and board.board.totals == {"alice": 41, "bob": -14,
                                                              "carol": -27}
    assert board.question is None
    assert (await table.ok("/chart")).file is not None
    assert "alice won with dublees" in (await table.ok("/history")).text
    exported = await table.ok("/export")
    assert exported.file is not None and b"alice" in exported.file.data
    # the next game takes its place
    await table.ok("/newgame marriage players:dev eli fay")
    board = await table.ok("/board")
    assert board.board is not None and board.board.players == ["dev", "eli", "fay"]
    assert "No hands yet" in (await table.ok("/history")).text


async def test_an_ended_games_board_says_where_its_first_hands_are(table: Table):
    await table.ok("/newgame marriage players:ram sita hari")
    for _ in range(11):  # one more than the board's ten rows
        await table.ok("/hand winner:ram seen:sita maal:ram=1 sita=1")
    assert "(hand 1 not shown)" in (await table.ok("/board")).table
    ended = await table.ok("/endgame")
    assert "(hand 1: /history 1)" in ended.table
    await table.ok("/newgame marriage players:ram sita hari")
    assert "(hand 1: /history 1)" in (await table.ok("/board 1")).table
