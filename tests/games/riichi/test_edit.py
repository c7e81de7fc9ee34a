"""/edit of a Riichi result (issue 30): every option a result was entered with can change
(winner:, from:, riichi:, a draw's tenpai:, abort: and nagashi:, a chombo's offender, and who
declared riichi in it); later results are re-derived with the dealer, honba and sticks the
edit passes on, and the reply says which changed. Both backends.

From the rules page (shared/rules/riichi.md): basic = fu x 2^(2+han); a ron pays 4x basic
(6x the dealer's), a tsumo 1x from each non-dealer and 2x from the dealer (2x from each when
the dealer wins), each payment rounded up to 100; +300 a honba on a ron, +100 from each payer
on a tsumo; the next winner takes the riichi sticks; the dealer repeats on a dealer win or
dealer tenpai; honba +1 on a repeat or a draw, 0 when a non-dealer wins. Seats a b c d; a
deals East 1."""

from pathlib import Path

from tests.conftest import Table
from tests.telegram_helpers import ALICE, Harness
from tests.test_console import console

NEW = "/newgame riichi players:a b c d"


def points(reply) -> dict:
    assert reply.board is not None
    return reply.board.hands[-1]["points"]


async def test_a_wrong_winner_and_discarder_is_edited_and_the_later_results_follow(
        table: Table):
    await table.ok(NEW)
    await table.ok("/riichi c")
    # 1 East 1: a (dealer) 3 han 30 fu ron from b: 6 x 960 = 5,760 -> 5,800, and c's stick
    await table.ok("/ron winner:a from:b han:3 fu:30")
    # 2 East 1, 1 honba: b tsumo 2 han 30 fu: a 960 -> 1,000 + 100, c and d 480 -> 500 + 100
    assert points(await table.ok("/tsumo winner:b han:2 fu:30")) == {
        "a": -1100, "b": 2300, "c": -600, "d": -600}
    # 3 East 2 (b deals): a alone tenpai, 3,000 from the three others; b noten: East 3
    await table.ok("/draw tenpai:a")
    # 4 East 3, 1 honba: d 1 han 30 fu ron from a: 4 x 240 = 960 -> 1,000 + 300
    assert points(await table.ok("/ron winner:d from:a han:1 fu:30"))["d"] == 1300

    # It was b who won, on c's discard. 1 East 1: b (not the dealer) 4 x 960 = 3,840 ->
    # 3,900 from c, and c's own stick: b +4,900, c -4,900. A non-dealer won: East 2, b deals
    reply = await table.ok("/edit result:1 winner:b from:c")
    text = reply.text
    assert "Result 1 changed: East 1: b ron from c, 3 han 30 fu, 3,900; 1 stick to b" in text
    # 2 East 2, no honba: b is the dealer now: 2 han 30 fu tsumo, 960 -> 1,000 from each
    assert "Result 2: a -1,000  b +3,000  c -1,000  d -1,000 (was a -1,100  b +2,300  " \
        "c -600  d -600)" in text
    # 3 East 2, 1 honba: the same draw, the same payments; b noten: East 3, 2 honba
    assert "Result 3: East 2, 1 honba: draw, tenpai a (points unchanged)" in text
    # 4 East 3, 2 honba: 1,000 + 600
    assert "Result 4: a -1,600  b 0  c 0  d +1,600 (was a -1,300  b 0  c 0  d +1,300)" in text
    board = await table.board()
    # a: 0 - 1,000 + 3,000 - 1,600; b: 4,900 + 3,000 - 1,000; c: -4,900 - 1,000 - 1,000;
    # d: -1,000 - 1,000 + 1,600
    assert board["totals"] == {"a": 400, "b": 6900, "c": -6900, "d": -400}
    assert "East 4 · sticks on the table 0" in (await table.ok("/board")).text


async def test_a_draw_is_edited_between_tenpai_abortive_and_nagashi(table: Table):
    await table.ok(NEW)
    # 1 East 1: a (dealer) and b tenpai: c and d pay 1,500 each; a stays, 1 honba
    assert points(await table.ok("/draw tenpai:a b")) == {"a": 1500, "b": 1500, "c": -1500,
                                                            "d": -1500}
    # 2 East 1, 1 honba: c 1 han 30 fu ron from d: 1,000 + 300
    await table.ok("/ron winner:c from:d han:1 fu:30")
    # an abortive draw in its place: no payments, the dealer stays with 1 honba, as
    # before: result 2 stands as it was
    reply = await table.ok("/edit result:1 abort:kyuushu")
    assert "abortive draw, kyuushu" in reply.text
    assert "The results after it are unchanged." in reply.text
    assert (await table.board())["totals"] == {"a": 0, "b": 0, "c": 1300, "d": -1300}
    # nobody tenpai after all: no payments, but a was noten: b deals East 2 with 1 honba;
    # result 2 pays the same (c is not the dealer either way) and says where it was
    reply = await table.ok("/edit result:1 tenpai:none")
    assert "draw, tenpai nobody" in reply.text
    assert "Result 2: East 2, 1 honba: c ron from d, 1 han 30 fu, 1,300 (points " \
        "unchanged)" in reply.text
    # b made nagashi mangan (rule nagashi:draw): a mangan tsumo in place of the noten
    # payments, no honba: a (the dealer) 4,000, c and d 2,000 each
    reply = await table.ok("/edit result:1 nagashi:b")
    assert "nagashi mangan b" in reply.text
    assert (await table.board())["hands"][0]["points"] == {"a": -4000, "b": 8000,
                                                           "c": -2000, "d": -2000}
    # and taken away again: nagashi:none
    await table.ok("/edit result:1 nagashi:none")
    assert (await table.board())["totals"] == {"a": 0, "b": 0, "c": 1300, "d": -1300}


async def test_from_turns_a_tsumo_into_a_ron_and_back_and_declared_moves_the_sticks(
        table: Table):
    await table.ok(NEW)
    await table.ok("/riichi a")
    # East 1: b 2 han 30 fu ron from c: 4 x 480 = 1,920 -> 2,000, and a's stick
    assert points(await table.ok("/ron winner:b from:c han:2 fu:30")) == {
        "a": -1000, "b": 3000, "c": -2000, "d": 0}
    # it was a tsumo: a (dealer) 960 -> 1,000, c and d 480 -> 500, and the stick
    reply = await table.ok("/edit result:1 from:none")
    assert "b tsumo, 2 han 30 fu, 2,000" in reply.text
    assert points(reply) == {"a": -2000, "b": 3000, "c": -500, "d": -500}
    # nobody declared riichi: no stick
    reply = await table.ok("/edit result:1 declared:none")
    assert points(reply) == {"a": -1000, "b": 2000, "c": -500, "d": -500}
    # a and c declared: two sticks to b
    reply = await table.ok("/edit result:1 declared:a c")
    assert points(reply) == {"a": -2000, "b": 4000, "c": -1500, "d": -500}
    # a ron from d after all: 2,000 from d, and the two sticks
    reply = await table.ok("/edit result:1 from:d")
    assert "b ron from d" in reply.text
    assert points(reply) == {"a": -1000, "b": 4000, "c": -1000, "d": -2000}


async def test_the_riichi_flag_and_a_chombo_are_edited(table: Table):
    await table.ok(NEW)
    # East 1: b rons c's 2s: pinfu, tanyao, dora 1 (1m shows 2m), aka 1 (the red 5p) = 4
    # han 30 fu: 4 x 1,920 = 7,680 -> 7,700
    reply = await table.ok("/ron winner:b from:c hand:234m067p23456788s win:2s dora:1m")
    assert points(reply)["b"] == 7700
    # b was in riichi: 5 han, a mangan: 4 x 2,000 = 8,000
    reply = await table.ok("/edit result:1 riichi:yes")
    assert "Riichi" in reply.text and points(reply)["b"] == 8000
    # East 2 (b deals): a chombo by c: a reverse mangan, the dealer 4,000, others 2,000
    assert points(await table.ok("/chombo c")) == {"a": 2000, "b": 4000, "c": -8000,
                                                     "d": 2000}
    # it was b, the dealer: 4,000 to each other player
    reply = await table.ok("/edit result:2 chombo:b")
    assert points(reply) == {"a": 4000, "b": -12000, "c": 4000, "d": 4000}


async def test_an_edit_that_does_not_fit_the_result_changes_nothing(table: Table):
    await table.ok(NEW)
    await table.ok("/draw tenpai:a")
    await table.ok("/ron winner:b from:c han:1 fu:30")
    before = await table.board()
    error = await table.error("/edit result:1 from:c")
    assert "That result is a draw" in error and "tenpai:" in error and "from:" in error
    assert "can't win on their own discard" in await table.error(
        "/edit result:2 winner:c")
    assert "zed" in await table.error("/edit result:2 from:zed")
    assert "That result is a chombo" not in await table.error("/edit result:2 abort:kyuushu")
    assert await table.board() == before


async def test_the_discarder_is_edited_from_telegram(tg: Harness):
    # the same text grammar through the real python-telegram-bot, against the fake Bot API
    await tg.say(ALICE, "/newgame riichi players:alice bob carol dave")
    # East 1: bob 1 han 30 fu ron from carol: 4 x 240 = 960 -> 1,000
    await tg.say(ALICE, "/ron winner:bob from:carol han:1 fu:30")
    await tg.said("Result 1: East 1: bob ron from carol")
    await tg.say(ALICE, "/edit result:1 from:dave")
    reply = await tg.said("Result 1 changed")
    assert "bob ron from dave" in reply["text"]
    assert "bob +1,000  carol 0  dave -1,000" in reply["text"]


def test_the_discarder_is_edited_in_the_console(tmp_path: Path):
    replies = console(tmp_path, ["/newgame riichi players:a b c d",
                                 "/ron winner:b from:c han:1 fu:30",
                                 "/edit result:1 from:d"])
    assert all(r["ok"] for r in replies), replies
    # 4 x 240 = 960 -> 1,000 from d now
    assert "a 0  b +1,000  c 0  d -1,000 (was a 0  b +1,000  c -1,000  d 0)" in \
        replies[-1]["text"]
